#!/bin/sh
# echo 1 > io_poll while 4 jobs write and verify on the disk and a reader runs on
# namespace 2 of the same controller: synchronous polling is on when the write
# returns, namespace 2 stays off, no controller reset, no I/O or verify error, no
# completion slower than max(10 ms, 4x the slowest of the same run without a switch:
# a reset takes ~0.7 s here, while TCG alone put the slowest across a harmless switch
# at 1.5-2.7x the control's); the next single reader polls.
# Run by guest/queues.sh, or alone: sh /guest/queues/switch.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES="BLKPOLL_DISK BLKPOLL_DISK_NS2"
DEADLINE=220
set -u
. /guest/lib/queues.sh

# under_load [switch]: for 6 s, 4 psync jobs writing and verifying (crc32c, each its
# own 32 MiB) on $DISK and one psync reader on namespace 2 of the same controller,
# every queue at io_poll=0; with "switch", $DISK goes io_poll 0 -> 1 after 2 s and must
# read 1 as soon as the write returns, while namespace 2 stays at 0. Writes the
# slowest completion (us) to /tmp/queues.max.{control,switch}.
under_load() {
	set_io_poll "$DISK" 0 && set_io_poll "$NS2" 0 || return 1
	_mark="queues/switch ${1:-control} $(dl_now)"
	kmsg_mark "$_mark"
	# shellcheck disable=SC2086 # $VW and $PS are lists of options
	fio_start --name=verify4 --filename="$DISK" $VW --offset=768M --size=32M --offset_increment=32M \
		--numjobs=4 --time_based --runtime=6 \
		--name=ns2 --filename="$NS2" $PS --size=256M --time_based --runtime=6
	if [ "${1:-}" = switch ]; then
		sleep 2
		set_attr "$(qattr "$DISK" io_poll)" 1 || {
			fio_wait
			return 1
		}
		_now=$(sync_poll "$DISK")
		_ns2=$(sync_poll "$NS2")
		tap_diag "synchronous polling reads $_now ($NS2: $_ns2) when the write of 1 returned, $(fio_running && echo "5 jobs running" || echo "jobs already gone")"
	fi
	fio_wait
	tap_diag "$(fio_figures)"
	_new=$(kmsg_since "$_mark")
	_max=$(clat_max_us)
	tap_diag "slowest completion ${_max} us"
	echo "$_max" > "/tmp/queues.max.${1:-control}"
	fio_clean && [ "$FIO_JOBS" -eq 5 ] && [ "$FIO_RIOS" -gt 0 ] && [ "$FIO_WIOS" -gt 0 ] || return 1
	if printf '%s\n' "$_new" | grep -iE 'reset|I/O [0-9]+ .*timeout|abort'; then
		tap_diag "the kernel log shows a reset, timeout or abort during the run"
		return 1
	fi
	[ "${1:-}" != switch ] || { [ "$_now" = 1 ] && [ "$_ns2" = 0 ]; }
}

# one_reader_polls: a single pinned reader right after the switch goes the polled way:
# poll_stat counts each of its reads (polled, or left to the interrupt by choice),
# and some complete by polling (which way is faster depends on the host; for 1 s,
# and a probe polls one at least every 64 reads)
one_reader_polls() {
	_s0=$(poll_stat_line "$Q")
	# shellcheck disable=SC2086 # $PS is a list of options
	fio_run --name=one --filename="$DISK" $PS --size=256M --time_based --runtime=1 --cpus_allowed=1
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$Q")")
	tap_diag "$(fio_figures)"
	tap_diag "poll_stat of $Q: $_st"
	_pc=$(poll_stat_get "$_st" poll_completions)
	_seen=$((_pc + $(poll_stat_get "$_st" irq_completions) + $(poll_stat_get "$_st" declined) + $(poll_stat_get "$_st" irq_chosen)))
	tap_diag "poll_stat saw $_seen of $FIO_RIOS reads, $_pc found by polling"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] && [ "$_seen" -ge "$FIO_RIOS" ] && [ "$_pc" -gt 0 ]
}

rm -f /tmp/queues.max.*
deadline "$(s 60)" "switch: control: 4 verifying jobs on $DISK and a reader on $NS2 for 6 s at io_poll=0, no error" under_load
deadline "$(s 60)" "switch: echo 1 > io_poll under 4 verifying jobs and a reader on namespace 2: reads 1 at once, namespace 2 stays 0, no reset, no I/O or verify error" under_load switch
ctl=$(cat /tmp/queues.max.control 2> /dev/null || echo nan)
sw=$(cat /tmp/queues.max.switch 2> /dev/null || echo nan)
lim=$(awk -v c="$ctl" 'BEGIN { if (c == "nan") print "nan"; else print (4 * c > 10000 ? 4 * c : 10000) }')
if awk -v a="$sw" -v b="$lim" 'BEGIN { exit !(a != "nan" && b != "nan" && a + 0 <= b + 0) }'; then
	tap_ok "switch: slowest completion across the switch ${sw} us <= ${lim} us (10 ms, or 4x the control's ${ctl} us)"
else
	tap_not_ok "switch: slowest completion across the switch ${sw} us <= ${lim} us (10 ms, or 4x the control's ${ctl} us)"
fi
deadline "$(s 60)" "switch: the next single psync reader on $DISK polls (every read through the poll path, some found by polling)" one_reader_polls
dl_run "$(s 20)" set_io_poll "$DISK" 0 || tap_diag "io_poll back to 0: status $DL_RC"
tap_end

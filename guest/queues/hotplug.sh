#!/bin/sh
# CPU 1, which has a poll queue and an interrupt driven queue of its own, goes
# offline and online under a RWF_HIPRI reader: the reader completes without error,
# then on CPU 1 RWF_HIPRI reads poll (>= 3/4 of those not declined, <= 0.01
# interrupts per polled read beyond one for each read not polled) and psync reads at
# io_poll=0 take their interrupt (>= 0.5 per read); no warning, "Unbalanced", timeout
# or reset in the log since the step's start.
# Run by guest/queues.sh, or alone: sh /guest/queues/hotplug.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES="BLKPOLL_DISK"
DEADLINE=110
set -u
. /guest/lib/queues.sh

CPU1=/sys/devices/system/cpu/cpu1/online
# reads_on_cpu1 ARG...: 2000 4 KiB random reads pinned to CPU 1; "ios irqs polled
# declined"
reads_on_cpu1() {
	_s0=$(poll_stat_line "$Q")
	_i0=$(irqs_of "$DISK") || return 1
	fio_run --name=cpu1 --filename="$DISK" --rw=randread --bs=4k --number_ios=2000 \
		--cpus_allowed=1 "$@"
	_i1=$(irqs_of "$DISK") || return 1
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$Q")")
	fio_clean || return 1
	echo "$FIO_RIOS $((_i1 - _i0)) $(poll_stat_get "$_st" poll_completions) $(poll_stat_get "$_st" declined)"
}
hotplug_step() {
	_mark="queues/hotplug $(dl_now)"
	kmsg_mark "$_mark"
	set_io_poll "$DISK" 0 || return 1
	# shellcheck disable=SC2086 # $HS is a list of options
	fio_start --name=hp --filename="$DISK" $HS --size=256M --time_based --runtime="$(s 6)" \
		--cpus_allowed=1
	# the job must be reading on CPU 1 (fio sets its affinity at start) before it goes
	sleep "$(s 2)"
	echo 0 > "$CPU1" || return 1
	sleep "$(s 1)"
	echo 1 > "$CPU1" || return 1
	fio_wait
	tap_diag "reader across the hotplug: $(fio_figures)"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] || return 1
	# shellcheck disable=SC2046,SC2086 # four numbers; $HS is a list of options
	set -- $(reads_on_cpu1 $HS)
	[ $# -eq 4 ] || return 1
	tap_diag "RWF_HIPRI on CPU 1 after: $1 reads, $2 interrupts, $3 polled, $4 declined"
	# >= 3/4 of the reads not declined (another task runnable, by design) poll, as
	# ipi_reads wants of forced polling; the reads not polled take their interrupt,
	# the polled ones none (IPI_POLLED_MAX)
	[ "$3" -gt 0 ] && [ $((4 * $3)) -ge $((3 * ($1 - $4))) ] &&
		awk -v x=$(($2 - ($1 - $3))) -v p="$3" -v l="$IPI_POLLED_MAX" 'BEGIN { exit !(x <= p * l) }' || return 1
	# shellcheck disable=SC2046,SC2086 # four numbers; $PS is a list of options
	set -- $(reads_on_cpu1 $PS)
	[ $# -eq 4 ] || return 1
	tap_diag "psync at io_poll=0 on CPU 1 after: $1 reads, $2 interrupts, $3 polled"
	[ $((2 * $2)) -ge "$1" ] && [ "$3" = 0 ] || return 1
	if kmsg_since "$_mark" | grep -iE 'WARNING|Unbalanced|timeout|reset'; then return 1; fi
}

if [ "$(nproc)" -lt 2 ] || [ ! -w "$CPU1" ]; then
	tap_skip "hotplug: CPU 1 offline and online under a polled reader" "not run: no CPU 1 to take offline"
else
	deadline "$(s 90)" "hotplug: CPU 1 offline and online under a RWF_HIPRI reader: it completes; then on CPU 1 polled reads poll, psync reads take their interrupt, nothing in the log" hotplug_step
fi
[ "$(cat "$CPU1" 2> /dev/null || echo 1)" = 1 ] || echo 1 > "$CPU1"
tap_end

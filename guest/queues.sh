#!/bin/sh
# NVMe polling without a poll queue (issue 13), one behaviour a step:
#  queues  two polled (RWF_HIPRI) readers pinned to different CPUs submit to different
#          NVMe queue pairs (the nvme_setup_cmd tracepoint names each command's
#          qid; skipped without tracefs): each CPU to its poll queue and, for reads
#          it declined to poll, its interrupt driven queue, no qid shared by the
#          two; and poll (poll_stat: >= 1/2 of the reads)
#  switch  echo 1 > io_poll while 4 jobs write and verify on it and a reader runs on
#          namespace 2 of the same controller: io_poll reads 1 when the write returns,
#          namespace 2 stays at 0, no controller reset, no I/O or verify error, no
#          completion slower than max(10 ms, 4x the slowest of the same run without a
#          switch: a reset takes ~0.7 s here, while TCG alone put the slowest across
#          a harmless switch at 1.5-2.7x the control's); the next single reader polls
#  iowait  the per-I/O choice: a psync reader at io_poll=1 pinned to CPU 0 declines
#          fewer than half its reads alone (the control) and beside another task on
#          CPU 0 that waits, not runnable, for a slow read (a null_blk whose reads take
#          1 s), by polling (io_poll=1, sleeping between polls) or by interrupt
#          (io_poll=0): only a runnable task makes it decline
#  hotplug CPU 1, which has a poll queue and an interrupt driven queue of its own, goes
#          offline and online under a RWF_HIPRI reader: the reader completes without
#          error, then on CPU 1 RWF_HIPRI reads poll (>= 3/4, <= 0.01 interrupts per
#          polled read beyond one for each read not polled) and psync reads at io_poll=0 take their interrupt (>= 0.5 per
#          read); no warning, "Unbalanced", timeout or reset in the log
# args: only=<step+step>. Needs BLKPOLL_DISK (file-backed NVMe), BLKPOLL_DISK_NS2 (its
# controller's null-co namespace 2), null_blk (configfs) and taskset.
set -u
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh
. /guest/lib/nullb.sh

ONLY=queues+switch+iowait+hotplug
for a in "$@"; do
	case $a in
	only=*) ONLY=${a#only=} ;;
	esac
done
want() { case +$ONLY+ in *"+$1+"*) return 0 ;; esac; return 1; }

SLOW=1
if dmesg | grep -q 'KernelAddressSanitizer initialized'; then SLOW=3; fi
s() { echo $(($1 * SLOW)); }

DISK=${BLKPOLL_DISK:-}
NS2=${BLKPOLL_DISK_NS2:-}
Q=${DISK#/dev/}
TRACE=/sys/kernel/tracing
EVENT=$TRACE/events/nvme/nvme_setup_cmd
PS="--ioengine=psync --direct=1 --rw=randread --bs=4k"
# RWF_HIPRI polls every read: io_poll=1 would leave some to the interrupt where
# that measured faster (two spinning vCPUs on this 2-core host)
HS="--ioengine=pvsync2 --hipri --direct=1 --rw=randread --bs=4k"
VW="--ioengine=psync --direct=1 --rw=randwrite --bs=4k --verify=crc32c --verify_backlog=16 --randrepeat=1"
tap_diag "queues: kernel $(uname -r), $(nproc) CPUs, disk ${DISK:-none}, steps $ONLY"

if [ -z "$DISK" ] || [ ! -b "$DISK" ]; then
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
	tap_end
	exit
fi
tap_ok "file-backed NVMe disk $DISK (serial blkpoll0) present"
if [ -n "$NS2" ] && [ -b "$NS2" ]; then
	tap_ok "namespace 2 of the same controller present: $NS2"
else
	tap_not_ok "namespace 2 of the same controller (serial blkpoll0, nsid 2) present"
fi
tap_diag "$(dmesg | grep -E "$(nvme_ctrl "$DISK"): [0-9/]+ default/read/poll queues" | tail -1)"

# ------------------------------------------------------------------ queues
# qids_by_cpu TRACEFILE: "cpu qid reads" for the reads of $Q in the trace
qids_by_cpu() {
	awk -v disk="disk=$Q," '
	$0 ~ /nvme_setup_cmd:/ && index($0, disk) && /nvme_cmd_read/ {
		cpu = ""; qid = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/) { cpu = $i; gsub(/[][]/, "", cpu); cpu += 0 }
			if ($i ~ /^qid=/) { qid = $i; sub(/^qid=/, "", qid); sub(/,$/, "", qid) }
		}
		if (cpu != "" && qid != "") n[cpu " " qid]++
	}
	END { for (k in n) print k, n[k] }' "$1" | sort -n
}

# pinned_readers: one RWF_HIPRI reader on each of CPU 0 and 1, traced; each CPU's reads
# must go to one qid (>= 95% of them), the two qids must differ, and >= 1/2 of all
# reads must complete by polling (two readers and fio on 2 CPUs: a waiter beside
# another runnable task declines to poll, by design)
pinned_readers() {
	set_io_poll "$DISK" 1 || return 1
	echo 0 > "$TRACE/tracing_on"
	: > "$TRACE/trace"
	echo 1 > "$EVENT/enable"
	_s0=$(poll_stat_line "$Q")
	echo 1 > "$TRACE/tracing_on"
	# shellcheck disable=SC2086 # $HS is a list of options
	fio_run --name=r0 --filename="$DISK" $HS --size=128M --number_ios=1000 --cpus_allowed=0 \
		--name=r1 --filename="$DISK" $HS --offset=128M --size=128M --number_ios=1000 --cpus_allowed=1
	echo 0 > "$TRACE/tracing_on"
	echo 0 > "$EVENT/enable"
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$Q")")
	cat "$TRACE/trace" > /tmp/queues.trace
	tap_diag "$(fio_figures)"
	tap_diag "poll_stat of $Q: $_st"
	qids_by_cpu /tmp/queues.trace > /tmp/queues.qids
	tap_diag "reads of $Q by CPU and qid: $(tr '\n' ';' < /tmp/queues.qids)"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] || return 1
	_pc=$(poll_stat_get "$_st" poll_completions)
	[ $((2 * ${_pc:-0})) -ge "$FIO_RIOS" ] || {
		tap_diag "only ${_pc:-?} of $FIO_RIOS reads completed by polling"
		return 1
	}
	# a CPU's polled reads go to its poll queue, the ones it declined to poll to its
	# interrupt driven queue: each CPU may use two qids, none the other CPU uses
	awk '{ tot[$1] += $3; n[$1 " " $2] = $3 }
	END {
		if (!(0 in tot) || !(1 in tot)) { print "no reads traced on CPU 0 or 1"; exit 1 }
		for (k in n) {
			split(k, f, " ")
			if (n[k] * 20 < tot[f[1]]) continue
			used[f[1]] = used[f[1]] " " f[2]
			cnt[f[1]]++
			if ((1 - f[1]) " " f[2] in n && n[(1 - f[1]) " " f[2]] * 20 >= tot[1 - f[1]]) {
				printf "qid %s takes reads of both CPUs\n", f[2]; exit 1
			}
		}
		for (c = 0; c <= 1; c++)
			if (tot[c] < 500 || cnt[c] > 2) {
				printf "CPU %d: %d reads on qids%s\n", c, tot[c], used[c]; exit 1
			}
		printf "CPU 0 -> qids%s, CPU 1 -> qids%s\n", used[0], used[1]
	}' /tmp/queues.qids
}

if want queues; then
	[ -e "$EVENT" ] || mount -t tracefs nodev "$TRACE" 2> /dev/null || true
	if [ ! -e "$EVENT/enable" ]; then
		tap_skip "queues: polled readers on CPU 0 and 1 use different NVMe queues" \
			"no nvme_setup_cmd tracepoint (CONFIG_EVENT_TRACING; the debug kernel has it)"
	else
		deadline "$(s 90)" "queues: polled readers on CPU 0 and 1 use different NVMe queues" pinned_readers
	fi
	dl_run "$(s 20)" set_io_poll "$DISK" 0 || tap_diag "io_poll back to 0: status $DL_RC"
fi

# ------------------------------------------------------------------ switch
# under_load [switch]: for 6 s, 4 psync jobs writing and verifying (crc32c, each its
# own 32 MiB) on $DISK and one psync reader on namespace 2 of the same controller,
# every queue at io_poll=0; with "switch", $DISK goes io_poll 0 -> 1 after 2 s and must
# read 1 as soon as the write returns, while namespace 2 stays at 0. Writes the
# slowest completion (us) to /tmp/queues.max.{control,switch}.
under_load() {
	set_io_poll "$DISK" 0 && set_io_poll "$NS2" 0 || return 1
	_d0=$(dmesg_lines)
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
	_new=$(dmesg_since "$_d0")
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

if want switch; then
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
fi

# ------------------------------------------------------------------ iowait
NB=/sys/kernel/config/nullb/slowread

# pinned_reader_stat: 1000 psync reads of $DISK at io_poll=1 by a job pinned to CPU 0
# (fio itself on CPU 1); prints the poll_stat delta of $Q
pinned_reader_stat() {
	_s0=$(poll_stat_line "$Q")
	# shellcheck disable=SC2086 # $PS is a list of options
	taskset -c 1 fio --output-format=json --output=/tmp/iowait.json --name=pinned \
		--filename="$DISK" $PS --size=256M --number_ios=1000 --cpus_allowed=0 > /tmp/iowait.log 2>&1 || return 1
	poll_stat_delta "$_s0" "$(poll_stat_line "$Q")"
}

# control_mostly_polls: alone on CPU 0, fewer than half of the reads are declined
control_mostly_polls() {
	set_io_poll "$DISK" 1 || return 1
	_st=$(pinned_reader_stat) || return 1
	tap_diag "poll_stat of $Q, reader alone: $_st"
	[ "$(poll_stat_get "$_st" declined)" -lt 500 ]
}

# beside_waiter DEVPOLL: a busybox dd on CPU 0 reads the null_blk (irqmode=2, 1 s a
# read, one poll queue) with direct I/O at io_poll=DEVPOLL, so it sleeps there waiting
# for I/O (between polls at 1, by interrupt at 0); meanwhile the pinned reader runs,
# and its poll_stat is left in _st
beside_waiter() {
	set_io_poll "$DISK" 1 || return 1
	_nbdev=$(nullb_make "${NB##*/}" irqmode=2 completion_nsec=1000000000 poll_queues=1 size=64) || return 1
	set_io_poll "$_nbdev" "$1" || return 1
	taskset -c 0 dd if="$_nbdev" of=/dev/null bs=4k count=20 iflag=direct 2> /dev/null &
	_dd=$!
	sleep 2
	tap_diag "tasks blocked on I/O: $(awk '$1 == "procs_blocked" { print $2 }' /proc/stat)"
	_st=$(pinned_reader_stat) || _st=failed
	kill "$_dd" 2> /dev/null
	wait "$_dd" 2> /dev/null
	dl_run "$(s 30)" nullb_remove "$NB" || tap_diag "null_blk $NB removal: status $DL_RC"
	tap_diag "poll_stat of $Q, reader beside a dd waiting at io_poll=$1: $_st"
	[ "$_st" != failed ]
}

# beside_polling_waiter_polls: a task sleeping between polls is not runnable: fewer
# than half the reads declined
beside_polling_waiter_polls() {
	beside_waiter 1 || return 1
	[ "$(poll_stat_get "$_st" declined)" -lt 500 ]
}

# beside_other_waiter_polls: fewer than half the reads declined
beside_other_waiter_polls() {
	beside_waiter 0 || return 1
	[ "$(poll_stat_get "$_st" declined)" -lt 500 ]
}

if want iowait; then
	deadline "$(s 60)" "iowait: control: a psync reader alone on CPU 0 at io_poll=1 gets fewer than half its reads declined" control_mostly_polls
	deadline "$(s 90)" "iowait: beside a task waiting on CPU 0 for a read of a polling device, fewer than half the reads of the pinned psync reader are declined" beside_polling_waiter_polls
	deadline "$(s 90)" "iowait: beside a task waiting on CPU 0 for a slow device that does not poll, fewer than half the reads are declined" beside_other_waiter_polls
	dl_run "$(s 30)" nullb_remove "$NB" || tap_diag "null_blk $NB removal: status $DL_RC"
	dl_run "$(s 20)" set_io_poll "$DISK" 0 || tap_diag "io_poll back to 0: status $DL_RC"
fi

# ------------------------------------------------------------------ hotplug
CPU1=/sys/devices/system/cpu/cpu1/online
# reads_on_cpu1 ARG...: 2000 4 KiB random reads pinned to CPU 1; "ios irqs polled"
reads_on_cpu1() {
	_s0=$(poll_stat_line "$Q")
	_i0=$(irqs_of "$DISK") || return 1
	fio_run --name=cpu1 --filename="$DISK" --rw=randread --bs=4k --number_ios=2000 \
		--cpus_allowed=1 "$@"
	_i1=$(irqs_of "$DISK") || return 1
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$Q")")
	fio_clean || return 1
	echo "$FIO_RIOS $((_i1 - _i0)) $(poll_stat_get "$_st" poll_completions)"
}
hotplug_step() {
	_d0=$(dmesg_lines)
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
	# shellcheck disable=SC2046,SC2086 # three numbers; $HS is a list of options
	set -- $(reads_on_cpu1 $HS)
	[ $# -eq 3 ] || return 1
	tap_diag "RWF_HIPRI on CPU 1 after: $1 reads, $2 interrupts, $3 polled"
	# the reads not polled (declined) take their interrupt; the polled ones none
	[ $((4 * $3)) -ge $((3 * $1)) ] && [ $((100 * ($2 - ($1 - $3)))) -le "$3" ] || return 1
	# shellcheck disable=SC2046,SC2086 # three numbers; $PS is a list of options
	set -- $(reads_on_cpu1 $PS)
	[ $# -eq 3 ] || return 1
	tap_diag "psync at io_poll=0 on CPU 1 after: $1 reads, $2 interrupts, $3 polled"
	[ $((2 * $2)) -ge "$1" ] && [ "$3" = 0 ] || return 1
	if dmesg_since "$_d0" | grep -iE 'WARNING|Unbalanced|timeout|reset'; then return 1; fi
}

if want hotplug; then
	if [ "$(nproc)" -lt 2 ] || [ ! -w "$CPU1" ]; then
		tap_skip "hotplug: CPU 1 offline and online under a polled reader" "no CPU 1 to take offline"
	else
		deadline "$(s 90)" "hotplug: CPU 1 offline and online under a RWF_HIPRI reader: it completes; then on CPU 1 polled reads poll, psync reads take their interrupt, nothing in the log" hotplug_step
	fi
	[ "$(cat "$CPU1" 2> /dev/null || echo 1)" = 1 ] || echo 1 > "$CPU1"
fi

tap_end

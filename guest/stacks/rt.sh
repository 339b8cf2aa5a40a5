#!/bin/sh
# A SCHED_FIFO psync reader pinned to CPU 1 with sched_rt_runtime_us=-1 and
# io_poll=1 completes its 10 s (a poller that never yields would starve itself).
# Run by guest/stacks.sh, or alone: sh /guest/stacks/rt.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio chrt taskset"
DEVICES="BLKPOLL_DISK"
DEADLINE=80
set -u
. /guest/lib/stacks.sh

RTR=/proc/sys/kernel/sched_rt_runtime_us
rt_reader() {
	io_poll_is "$DISK" 1 || return 1
	tap_diag "sched_rt_runtime_us=$(cat "$RTR")"
	# shellcheck disable=SC2086
	fio_with taskset -c 1 chrt -f 50 -- --name=rt --filename="$DISK" --size=256M --rw=randread \
		--bs=4k $PS --time_based --runtime=10
	fio_ok && [ "$FIO_RIOS" -gt 0 ]
}
rt0=$(cat "$RTR")
if set_attr "$RTR" -1; then
	deadline "$(s 60)" "rt: SCHED_FIFO 50 psync reader pinned to CPU 1, sched_rt_runtime_us=-1, io_poll=1: completes its 10 s with > 0 I/Os" rt_reader
else
	tap_not_ok "rt: sched_rt_runtime_us=-1 accepted"
fi
set_attr "$RTR" "$rt0" || tap_diag "could not restore sched_rt_runtime_us=$rt0"
tap_end

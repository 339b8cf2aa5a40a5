#!/bin/sh
# One NVMe queue pair shared by both CPUs (QEMU max_ioqpairs=1, serial blkpollsq): a
# polled request started on one CPU masks the queue's vector while the timer that
# unmasks it (poll_irq_suspend_us) may run on the other. Nothing may be left masked with
# no timer while requests nobody polls for are in flight. One behaviour a step:
#  queue   the controller has one I/O queue pair
#  load    for 12 s, a RWF_HIPRI reader pinned to each CPU, each pausing 1.5 s after
#          every 2000 reads, beside a libaio reader at depth 4 that never polls, with
#          poll_irq_suspend_us=20 so that the timer runs all the time: every job reads,
#          no error, both pinned readers poll
#  stall   no completion of the load took 1 s or more: a completion left behind a
#          masked vector waits until a pinned reader polls again (1.5 s) or for the
#          10 s I/O timeout
#  log     no I/O timeout, abort or reset in the kernel log
# Needs BLKPOLL_SHARED (null-co NVMe, one queue pair) and 2 CPUs.
set -u
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh

DEV=${BLKPOLL_SHARED:-}
PARAM=/sys/module/nvme/parameters/poll_irq_suspend_us
HS="--ioengine=pvsync2 --hipri --direct=1 --rw=randread --bs=4k --size=256M"
tap_diag "shared-queue: kernel $(uname -r), $(nproc) CPUs, disk ${DEV:-none}"

if [ -z "$DEV" ] || [ ! -b "$DEV" ] || [ "$(nproc)" -lt 2 ]; then
	tap_not_ok "null-co NVMe disk with one queue pair (serial blkpollsq) present, 2 CPUs"
	tap_end
	exit
fi
CTRL=$(nvme_ctrl "$DEV")
Q=${DEV#/dev/}
queues=$(dmesg | grep "nvme $CTRL: .*default/read/poll queues" | tail -1)
tap_diag "$queues"
case $queues in
*" 1/0/0 default/read/poll queues"*) tap_ok "queue: $CTRL has one I/O queue pair, shared by both CPUs" ;;
*) tap_not_ok "queue: $CTRL has one I/O queue pair, shared by both CPUs" ;;
esac

old_us=$(cat "$PARAM")
echo 20 > "$PARAM"
d0=$(dmesg_lines)
s0=$(poll_stat_line "$Q")
# shellcheck disable=SC2086 # $HS is a list of options
fio_run --filename="$DEV" --time_based --runtime=12 \
	--name=poll0 $HS --cpus_allowed=0 --thinktime=1500000 --thinktime_blocks=2000 \
	--name=poll1 $HS --cpus_allowed=1 --thinktime=1500000 --thinktime_blocks=2000 \
	--name=irq --ioengine=libaio --iodepth=4 --direct=1 --rw=randread --bs=4k --size=256M
echo "$old_us" > "$PARAM"
st=$(poll_stat_delta "$s0" "$(poll_stat_line "$Q")")
tap_diag "$(fio_figures)"
tap_diag "poll_stat of $Q: $st"
if fio_clean && [ "$FIO_JOBS" -eq 3 ] && [ "$(fio_jq "$FIO_JSON" '[.jobs[] | select(.read.io_bytes > 0)] | length')" = 3 ] &&
	[ "$(poll_stat_get "$st" poll_completions)" -gt 0 ]; then
	tap_ok "load: two pinned RWF_HIPRI readers and a libaio reader on one queue pair, 12 s: all read, no error, reads found by polling"
else
	tap_not_ok "load: two pinned RWF_HIPRI readers and a libaio reader on one queue pair, 12 s: all read, no error, reads found by polling"
	fio_dump
fi

max=$(clat_max_us)
if [ "$max" -gt 0 ] && [ "$max" -lt 1000000 ]; then
	tap_ok "stall: slowest completion ${max} us < 1 s"
else
	tap_not_ok "stall: slowest completion ${max} us < 1 s"
	fio_jq "$FIO_JSON" -r '.jobs[] | "#   \(.jobname): clat max \(.read.clat_ns.max / 1000 | floor) us"'
fi

new=$(dmesg_since "$d0")
if printf '%s\n' "$new" | grep -iE 'timeout|abort|reset'; then
	tap_not_ok "log: no I/O timeout, abort or reset"
else
	tap_ok "log: no I/O timeout, abort or reset"
fi
tap_end

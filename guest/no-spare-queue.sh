#!/bin/sh
# A controller with no queue to spare (QEMU max_ioqpairs=1, serial blkpollsq): nvme
# sets it up as stock does, one interrupt driven queue pair and no poll queue, and
# nothing on it may poll, fail or wait because of polling. One behaviour a step:
#  queue    the controller has one I/O queue pair and no poll queue
#  switch   io_poll reads 0, writing 1 fails with EINVAL, the switch stays off
#  hipri    RWF_HIPRI reads from both CPUs beside a libaio reader, 8 s: all read, no
#           error, none polled, each took interrupts (>= 0.5 per read: libaio may reap several at once), slowest
#           completion < 100 ms (no wait for a poll that never comes)
#  iopoll   io_uring IOPOLL fails with EOPNOTSUPP (95) rather than spinning until
#           the interrupt
#  log      no I/O timeout, abort or reset in the kernel log
# Needs BLKPOLL_SHARED (null-co NVMe, one queue pair) and 2 CPUs.
set -u
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh
. /guest/lib/kmsg.sh

DEV=${BLKPOLL_SHARED:-}
HS="--ioengine=pvsync2 --hipri --direct=1 --rw=randread --bs=4k --size=256M"
tap_diag "no-spare-queue: kernel $(uname -r), $(nproc) CPUs, disk ${DEV:-none}"

if [ -z "$DEV" ] || [ ! -b "$DEV" ] || [ "$(nproc)" -lt 2 ]; then
	tap_not_ok "null-co NVMe disk with one queue pair (serial blkpollsq) present, 2 CPUs"
	tap_end
	exit
fi
CTRL=$(nvme_ctrl "$DEV")
Q=${DEV#/dev/}
QP=$(qattr "$DEV" io_poll)
queues=$(dmesg | grep "nvme $CTRL: .*default/read/poll queues" | tail -1)
tap_diag "$queues"
case $queues in
*" 1/0/0 default/read/poll queues"*) tap_ok "queue: $CTRL has one I/O queue pair and no poll queue" ;;
*) tap_not_ok "queue: $CTRL has one I/O queue pair and no poll queue" ;;
esac

err=$(set_attr "$QP" 1 2>&1) && rc=0 || rc=$?
if [ "$(cat "$QP")" = 0 ] && [ "$rc" -ne 0 ] && [ "$(sync_poll "$DEV")" = 0 ] &&
	case $err in *"Invalid argument"*) true ;; *) false ;; esac; then
	tap_ok "switch: io_poll reads 0, writing 1 fails with EINVAL, synchronous polling stays off"
else
	tap_not_ok "switch: io_poll reads $(cat "$QP"), writing 1: rc=$rc '$err', switch $(sync_poll "$DEV")"
fi

mark="no-spare-queue reads $(dl_now)"
kmsg_mark "$mark"
s0=$(poll_stat_line "$Q")
i0=$(irqs_of "$DEV")
# shellcheck disable=SC2086 # $HS is a list of options
fio_run --filename="$DEV" --time_based --runtime=8 \
	--name=hipri0 $HS --cpus_allowed=0 \
	--name=hipri1 $HS --cpus_allowed=1 \
	--name=irq --ioengine=libaio --iodepth=4 --direct=1 --rw=randread --bs=4k --size=256M
i1=$(irqs_of "$DEV")
st=$(poll_stat_delta "$s0" "$(poll_stat_line "$Q")")
max=$(clat_max_us)
tap_diag "$(fio_figures), interrupts $((i1 - i0)), slowest completion $max us"
tap_diag "poll_stat of $Q: $st"
polled=$(poll_stat_get "$st" poll_completions)
if fio_clean && [ "$FIO_JOBS" -eq 3 ] && [ "$FIO_RIOS" -gt 0 ] && [ "$polled" = 0 ] &&
	[ $(((i1 - i0) * 2)) -ge "$FIO_RIOS" ] && [ "$max" -gt 0 ] && [ "$max" -lt 100000 ]; then
	tap_ok "hipri: RWF_HIPRI readers on both CPUs and a libaio reader: all read, no error, none polled, interrupts taken, slowest ${max} us"
else
	tap_not_ok "hipri: all read, no error, none polled (polled $polled), >= 0.5 interrupts a read ($((i1 - i0)) for $FIO_RIOS), slowest ${max} us < 100 ms"
	fio_dump
fi

fio_run --name=iopoll --filename="$DEV" --ioengine=io_uring --hipri --direct=1 \
	--rw=randread --bs=4k --size=16M --number_ios=64
if fio_error_is 95; then
	tap_ok "iopoll: io_uring IOPOLL fails with EOPNOTSUPP"
else
	tap_not_ok "iopoll: io_uring IOPOLL fails with EOPNOTSUPP ($(fio_figures))"
	fio_dump
fi

new=$(kmsg_since "$mark")
if printf '%s\n' "$new" | grep -iE 'timeout|abort|reset'; then
	tap_not_ok "log: no I/O timeout, abort or reset"
else
	tap_ok "log: no I/O timeout, abort or reset"
fi
tap_end

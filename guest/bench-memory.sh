#!/bin/sh
# What nvme-pci's spare poll queue costs a machine that never polls: on the
# file-backed NVMe disk's controller, alternately spare_poll_queues=0 and the boot's
# value (1 by default), each after a controller reset, REPS times: MemFree after the
# reset (page cache dropped, 1 s to settle), the hardware contexts of the disk and
# how long the reset took until the disk took I/O again. One BENCH line a reset:
#   BENCH mem smp=<n> spare=<0|n> rep=<i> memfree_kib=<k> hctx=<n> queues=<d/r/p> reset_ms=<ms>
# A controller probed without poll queues has no poll map to fill: boot with the
# default (nvme.spare_poll_queues=1) for the alternation to be on and off.
# MemFree drifts upwards for minutes after boot: the report compares each reset with
# the queue against the two without it around it (scripts/bench-memory-report.py).
# args: reps=<n> (8)
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh

REPS=8
for a in "$@"; do
	case $a in reps=*) REPS=${a#reps=} ;; esac
done
DISK=${BLKPOLL_DISK:-}
[ -b "$DISK" ] || { tap_not_ok "bench-memory: file-backed NVMe disk present"; tap_end; exit 0; }
Q=${DISK#/dev/}
CTRL=$(nvme_ctrl "$DISK")
SPARE=/sys/module/nvme/parameters/spare_poll_queues
[ -e "$SPARE" ] || { tap_not_ok "bench-memory: nvme has spare_poll_queues"; tap_end; exit 0; }
BOOT_SPARE=$(cat "$SPARE")

now_ms() {
	awk '{ printf "%d", $1 * 1000 }' /proc/uptime
}

# measure SPARE REP: reset the controller with SPARE spare poll queues, one BENCH line
measure() {
	echo "$1" > "$SPARE"
	_t0=$(now_ms)
	echo 1 > "/sys/class/nvme/$CTRL/reset_controller"
	# the reset is done when the disk reads again
	until dd if="$DISK" of=/dev/null bs=4k count=1 iflag=direct 2> /dev/null; do sleep 0.05; done
	_t1=$(now_ms)
	sync
	echo 3 > /proc/sys/vm/drop_caches
	sleep 1
	_free=$(awk '$1 == "MemFree:" { print $2 }' /proc/meminfo)
	_hctx=$(find "/sys/block/$Q/mq" -mindepth 1 -maxdepth 1 -type d | wc -l)
	_q=$(dmesg | sed -n "s/.*$CTRL: \([0-9]*\/[0-9]*\/[0-9]*\) default\/read\/poll queues.*/\1/p" | tail -1)
	echo "BENCH mem smp=$(nproc) spare=$1 rep=$2 memfree_kib=$_free hctx=$_hctx queues=$_q reset_ms=$((_t1 - _t0))"
}

alternate() {
	i=1
	while [ "$i" -le "$REPS" ]; do
		measure 0 "$i" && measure "$BOOT_SPARE" "$i" || return 1
		i=$((i + 1))
	done
}

tap_diag "bench-memory: $CTRL, $(nproc) CPUs, boot's spare_poll_queues=$BOOT_SPARE, $REPS repetitions"
deadline 600 "bench-memory: $REPS resets each way on $CTRL" alternate
tap_end

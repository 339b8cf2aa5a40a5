#!/bin/sh
# Polled synchronous I/O on the stacks people run: it polls where it can, falls back
# to interrupts where it cannot, and never fails or hangs. One test a file in
# /guest/stacks/ (run by guest/lib/runner.sh, each under its deadline, a kernel log
# marker at its start), in this order:
#  nullb     pvsync2 --hipri on a null_blk without poll queues
#  md        raid0 and raid1: io_poll=1 or EINVAL, io_uring IOPOLL EOPNOTSUPP, verify
#  part      ext4 on a partition: the disk's io_poll covers it
#  crypt     dm-crypt: io_poll refused, RWF_HIPRI completes by interrupt
#  reset     controller resets to more, then fewer queues under a polled reader
#  throttle  io.max on a polled reader: the waiter sleeps through the delay
#  rt        a SCHED_FIFO polled reader completes
#  mpath     NVMe multipath head: polls, verifies, survives a path's removal
#  dm        dm-linear over both disks: polls, boundary-straddling I/O, suspend, XFS
#  dm-throttle  dm-striped under io.max rbps and suspend/resume: polled readers end
#  remove    a controller removed under a polled reader, rescanned, polls again
# dm comes last but remove: a waiter that never completes (multi-bio polled I/O on
# dm) spins in D state for good and slows everything after it.
# Every step inside a test runs under its own deadline (guest/lib/deadline.sh) and
# cleans up after itself, so later steps run even when an earlier one failed.
# args: only=<test+test> (e.g. only=dm+md), big=<MiB> (size of the big verify runs,
# default 256; 64 on a KASAN kernel, whose deadlines are x3), break=deadline (or
# BLKPOLL_BREAK): first a step that must miss its deadline (a direct read from a
# suspended dm device, stuck in D state until the resume), to show that a hang is
# reported as not ok with the blocked tasks.
set -u
. /guest/lib/stacks.sh
. /guest/lib/kmsg.sh
. /guest/lib/runner.sh

for a in "$@"; do
	case $a in break=*) BREAK=${a#break=} ;; esac
done
tap_diag "tools: $(dmsetup --version 2>&1 | head -1 | tr -s ' '); $(mdadm --version 2>&1); $(sfdisk --version 2>&1)"

# boot.sh always attaches these: a missing one is a failure here, a "not run" in a
# test run alone
if [ -n "$DISK" ] && [ -b "$DISK" ]; then
	tap_ok "file-backed NVMe disk $DISK (serial blkpoll0) present"
else
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
fi
if [ -n "$DISK2" ] && [ -b "$DISK2" ]; then
	tap_ok "second file-backed NVMe disk $DISK2 (serial blkpoll2) present"
else
	tap_not_ok "second file-backed NVMe disk (serial blkpoll2) present"
fi
if [ -n "$MP" ] && [ -b "$MP" ]; then
	tap_ok "NVMe multipath head $MP (serial blkpollmp) present"
else
	tap_not_ok "NVMe multipath head (serial blkpollmp) present"
fi
deadline "$(s 30)" "old partition tables and superblocks wiped from both disks" wipe "$DISK" "$DISK2"

brk_read() {
	printf '0 2048 linear %s 0\n' "$DISK" | dmsetup create stkbrk && dmsetup suspend stkbrk || return 1
	tap_diag "BLKPOLL_BREAK: dm stkbrk suspended, reading from it"
	dd if=/dev/mapper/stkbrk of=/dev/null bs=4k count=1 iflag=direct
}
if [ "$BREAK" = deadline ]; then
	deadline "$(s 10)" "break: a direct read from a suspended dm device finishes within 10 s (must fail: HUNG)" brk_read
	dl_run "$(s 20)" dmsetup resume stkbrk || tap_diag "dmsetup resume stkbrk: status $DL_RC"
	sleep 1
	dl_run "$(s 20)" dmsetup remove stkbrk || tap_diag "dmsetup remove stkbrk: status $DL_RC"
fi

run_group stacks "nullb md part crypt reset throttle rt mpath dm dm-throttle remove" "$@"
tap_end

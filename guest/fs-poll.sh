#!/bin/sh
# Filesystem direct I/O with and without synchronous polling: one test a file in
# /guest/fs/ (run by guest/lib/runner.sh, each under its deadline, a kernel log
# marker at its start), in this order:
#  ext4           every file case (guest/lib/fs.sh) with io_poll=0 and 1, verified
#  xfs            the same on XFS
#  no-poll-queue  a null_blk without poll queues: io_poll=1 refused, direct I/O works
# args: only=<test+test>, scale=N (multiplies the sizes), break=fs (a file corrupted
# between write and re-read once per filesystem) or break=align (the "misaligned"
# O_DIRECT made aligned), to show that the checks fail.
set -eu
. /guest/lib/tap.sh
. /guest/lib/deadline.sh
. /guest/lib/kmsg.sh
. /guest/lib/slow.sh
. /guest/lib/runner.sh

# boot.sh always attaches it: missing is a failure here, a "not run" in a test run alone
if [ -n "${BLKPOLL_DISK:-}" ] && [ -b "$BLKPOLL_DISK" ]; then
	tap_ok "file-backed NVMe disk $BLKPOLL_DISK (serial blkpoll0) present"
else
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
fi
run_group fs "ext4 xfs no-poll-queue" "$@"
tap_end

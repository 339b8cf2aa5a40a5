#!/bin/sh
# XFS on the file-backed NVMe disk, io_poll=0 and 1: fio psync O_DIRECT with crc32c
# verify (write then verify-read, then an independent re-read), 4k and 512-256k
# blocks, sparse files with holes, unwritten (fallocated) extents, O_DSYNC writes,
# 8 MiB I/Os, misaligned O_DIRECT (EINVAL), pvsync2 --hipri with io_poll=0; polled
# psync I/Os take no interrupt (`# ` line and `BENCH test=fs ...`).
# Run by guest/fs-poll.sh, or alone: sh /guest/fs/xfs.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio mkfs.xfs xfs_io fallocate truncate"
DEVICES="BLKPOLL_DISK"
DEADLINE=600
set -eu
. /guest/lib/fs.sh

tap_diag "disk $DISK on controller $CTRL, logical block $(cat "$(qattr "$DISK" logical_block_size)"), scale $SCALE${BREAK:+, BREAK=$BREAK}"
fs_run xfs mkfs.xfs -f -q -K
set_io_poll "$DISK" 0 || true
tap_end

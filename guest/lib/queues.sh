# shellcheck shell=sh disable=SC2034 # NS2, TRACE, PS, HS, VW: used by the tests that source it
# What the tests in guest/queues/ share: the file-backed NVMe disk BLKPOLL_DISK (serial
# blkpoll0) and its controller's null-co namespace 2, BLKPOLL_DISK_NS2; fio options.
# Sourced by each test after `set -u`.
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh
. /guest/lib/nullb.sh
. /guest/lib/kmsg.sh
. /guest/lib/slow.sh

DISK=${BLKPOLL_DISK:-}
NS2=${BLKPOLL_DISK_NS2:-}
Q=${DISK#/dev/}
TRACE=/sys/kernel/tracing
PS="--ioengine=psync --direct=1 --rw=randread --bs=4k"
# RWF_HIPRI polls every read: io_poll=1 would leave some to the interrupt where
# that measured faster
HS="--ioengine=pvsync2 --hipri --direct=1 --rw=randread --bs=4k"
VW="--ioengine=psync --direct=1 --rw=randwrite --bs=4k --verify=crc32c --verify_backlog=16 --randrepeat=1"

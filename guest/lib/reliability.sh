# shellcheck shell=sh
# What the reliability tests (guest/reliability/*.sh) share: the file-backed disk, its
# queue attributes and layout, and the fio options of a verifying job. Source after
# tap.sh and fio-check.sh (it sources deadline.sh, whose irqs_of counts the disk's
# interrupts); a test without its disk ends here with one failure.
# shellcheck disable=SC2034 # the tests use these
. /guest/lib/deadline.sh
BREAK=${BLKPOLL_BREAK:-}
DISK=${BLKPOLL_DISK:-}
if [ -z "$DISK" ] || [ ! -b "$DISK" ]; then
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
	tap_end
	exit 1
fi
DEV=${DISK#/dev/}
CTRL=$(nvme_ctrl "$DISK")
QP=$(qattr "$DISK" io_poll)
QD=$(qattr "$DISK" io_poll_delay)
MNT=/mnt/rel
mkdir -p "$MNT"
# Disk layout: ext4 in the first 512 MiB (integrity), raw test regions above.
RAW=536870912

# fio options of a verifying psync job; region jobs add --offset / --offset_increment
VFY="--ioengine=psync --direct=1 --verify=crc32c --randrepeat=1"

# poll_on: io_poll=1, classic polling
poll_on() {
	set_io_poll "$DISK" 1 && set_attr "$QD" -1
}

#!/bin/sh
# ext4 on a partition: the disk's io_poll covers the partition (<= 0.01 interrupts
# per polled 4 KiB read, psync and RWF_HIPRI; control >= 0.5 at io_poll=0), and a
# file written and verified.
# Run by guest/stacks.sh, or alone: sh /guest/stacks/part.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio sfdisk mkfs.ext4"
DEVICES="BLKPOLL_DISK"
DEADLINE=480
set -u
. /guest/lib/stacks.sh

PART=${DISK}p1
part_make() {
	partition_at_1m "$DISK" 512 || return 1
	dl_until 10 test -b "$PART" || { echo "$PART did not appear"; return 1; }
	tap_diag "$PART: start $(cat "/sys/class/block/${PART#/dev/}/start"), $(($(cat "/sys/class/block/${PART#/dev/}/size") / 2048)) MiB"
	mkfs.ext4 -F -q -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$PART" && mount -t ext4 "$PART" "$MNT"
}
part_verify() {
	io_poll_is "$DISK" 1 || return 1
	# shellcheck disable=SC2086
	fio_run --name=extv --filename="$MNT/extv" --size="${BIG}M" --rw=randwrite --bsrange=4k-4m $PS $VFY
	fio_ok
}
part_down() {
	if grep -q " $MNT " /proc/mounts; then umount "$MNT" || return 1; fi
	set_io_poll "$DISK" 0 || true
	wipe "$DISK" || return 1
	! [ -e "$PART" ] || { echo "$PART still there"; return 1; }
}
deadline "$(s 90)" "part: sfdisk $DISK (one partition at 1 MiB), mkfs.ext4 and mount $PART" part_make
deadline "$(s 60)" "part: disk io_poll=1: polled 4 KiB psync reads on $PART take <= 0.01 interrupts per I/O" \
	ipi_at "$DISK" 1 "$PART" MAX
# shellcheck disable=SC2086
deadline "$(s 60)" "part: RWF_HIPRI 4 KiB reads on $PART poll: >= 3/4 of those not declined polled, <= 0.01 interrupts per polled I/O" \
	ipi_at "$DISK" 1 "$PART" MAX $HP
deadline "$(s 60)" "part: control: disk io_poll=0: 4 KiB psync reads on $PART take >= 0.5 interrupts per I/O" \
	ipi_at "$DISK" 0 "$PART" MIN
deadline "$(s 150)" "part: ext4 on $PART, disk io_poll=1: psync bsrange=4k-4m ${BIG} MiB file write + crc32c verify: 0 errors" part_verify
deadline "$(s 30)" "part: ext4 unmounted, partition table removed" part_down
tap_end

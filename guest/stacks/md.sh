#!/bin/sh
# md raid0 and raid1 over the two disks: io_poll=1 reads back 1 or is refused with
# EINVAL; io_uring IOPOLL on raid0 fails with EOPNOTSUPP as on stock 6.12; --hipri
# (raid0) and psync crc32c verify: 0 errors; the arrays stop.
# Run by guest/stacks.sh, or alone: sh /guest/stacks/md.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio mdadm"
DEVICES="BLKPOLL_DISK BLKPOLL_DISK2"
DEADLINE=720
set -u
. /guest/lib/stacks.sh

MD=/dev/md0
md_active() {
	[ -b "$MD" ] && [ "$(cat /sys/block/md0/md/array_state 2> /dev/null)" != inactive ]
}
md_create() {
	_lvl=$1
	shift
	mdadm --create "$MD" --run --metadata=1.2 --level="$_lvl" --raid-devices=2 "$@" "$DISK" "$DISK2" || return 1
	dl_until 10 md_active || { echo "md0 not active"; return 1; }
	tap_diag "$(tr '\n' ' ' < /proc/mdstat)"
	tap_diag "md0: $(($(cat /sys/block/md0/size) / 2048)) MiB, array_state $(cat /sys/block/md0/md/array_state), io_poll=$(cat "$(qattr "$MD" io_poll)" 2> /dev/null || echo absent)"
}
md_hipri() {
	# shellcheck disable=SC2086
	fio_run --name=mdhipri --filename="$MD" --size=64M --rw=randwrite --bsrange=4k-1m \
		--ioengine=pvsync2 --hipri --direct=1 $VFY
	fio_ok
}
md_verify() {
	# shellcheck disable=SC2086
	fio_run --name=mdverify --filename="$MD" --offset=32M --size=64M --rw=randwrite \
		--bsrange=4k-4m $PS $VFY
	fio_ok
}
# io_uring IOPOLL on a device that cannot poll gets EOPNOTSUPP (95), as on stock
# 6.12: only a synchronous waiter falls back to the interrupt
md_iopoll() {
	fio_run --name=mdiopoll --filename="$MD" --size=16M --rw=randread --bs=4k \
		--ioengine=io_uring --hipri --direct=1 --number_ios=64
	tap_diag "$(fio_figures)"
	fio_error_is 95
}
md_stop() {
	if [ -b "$MD" ] && [ -e /sys/block/md0/md ]; then mdadm --stop "$MD" || return 1; fi
	mdadm --zero-superblock "$DISK" "$DISK2" 2> /dev/null || true
	! [ -e /sys/block/md0/md/array_state ] || [ "$(cat /sys/block/md0/md/array_state)" = clear ] ||
		[ "$(cat /sys/block/md0/md/array_state)" = inactive ]
}
deadline "$(s 60)" "md raid0: mdadm --create over $DISK $DISK2 (metadata 1.2)" md_create 0
deadline "$(s 120)" "md raid0: pvsync2 --hipri write + crc32c verify at io_poll=0: 0 errors" md_hipri
deadline "$(s 30)" "md raid0: io_uring IOPOLL fails with EOPNOTSUPP" md_iopoll
deadline "$(s 30)" "md raid0: io_poll=1 reads back 1 or is refused with EINVAL" polled_or_einval "$MD"
deadline "$(s 120)" "md raid0: psync bsrange=4k-4m write + crc32c verify after the io_poll write: 0 errors" md_verify
deadline "$(s 60)" "md raid0: array stopped" md_stop
deadline "$(s 60)" "md raid1: mdadm --create over $DISK $DISK2 (metadata 1.2, 128 MiB, assume-clean)" \
	md_create 1 --size=131072 --assume-clean
deadline "$(s 30)" "md raid1: io_poll=1 reads back 1 or is refused with EINVAL" polled_or_einval "$MD"
deadline "$(s 120)" "md raid1: psync bsrange=4k-4m write + crc32c verify after the io_poll write: 0 errors" md_verify
deadline "$(s 60)" "md raid1: array stopped" md_stop
tap_end

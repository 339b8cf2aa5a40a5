#!/bin/sh
# A device that cannot poll (null_blk, memory backed, no poll queues): io_poll=1 fails
# with EINVAL and io_poll still reads 0, writing 0 is accepted; ext4 on it with psync,
# pvsync2 --hipri and O_DSYNC direct I/O verifies (a polled bio there completes by
# interrupt).
# Run by guest/fs-poll.sh, or alone: sh /guest/fs/no-poll-queue.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio mkfs.ext4"
DEVICES=""
DEADLINE=180
set -eu
. /guest/lib/fs.sh

NB=/sys/kernel/config/nullb/nopoll
nullb_up() {
	NBDEV=$(nullb_make "${NB##*/}" poll_queues=0 memory_backed=1 size=256 blocksize=512)
}
if nullb_up; then
	NBN=${NBDEV#/dev/}
	tap_ok "null_blk $NBDEV via configfs: memory_backed=1, 256 MiB, 512 B blocks, poll_queues=$(cat "$NB/poll_queues" 2>/dev/null || echo n/a)"
	a=$(qattr "$NBDEV" io_poll)
	tap_diag "$NBN io_poll=$(cat "$a") io_poll_delay=$(cat "$(qattr "$NBDEV" io_poll_delay)")"
	if err=$( { set_attr "$a" 1; } 2>&1); then
		tap_not_ok "$NBN without poll queues: writing 1 to io_poll fails (it succeeded)"
	else
		case $err in
		*"Invalid argument"*) tap_ok "$NBN without poll queues: writing 1 to io_poll fails with EINVAL" ;;
		*) tap_not_ok "$NBN without poll queues: writing 1 to io_poll fails with EINVAL (got: $err)" ;;
		esac
	fi
	v=$(cat "$a")
	if [ "$v" = 0 ]; then tap_ok "$NBN io_poll still reads 0"; else tap_not_ok "$NBN io_poll still reads 0 (reads $v)"; fi
	if set_attr "$a" 0; then tap_ok "$NBN: writing 0 to io_poll is accepted"; else tap_not_ok "$NBN: writing 0 to io_poll is accepted"; fi
	if mkfs.ext4 -F -q "$NBDEV" > /tmp/mkfs.log 2>&1 && mount -t ext4 "$NBDEV" "$MNT"; then
		tap_ok "null_blk: mkfs.ext4 and mount $NBDEV"
		fio_case ext4-nullb 0 "psync bs=4k" --name=nb4k --filename="$MNT/nb" --size=32M \
			--rw=randwrite --bs=4k --ioengine=psync --direct=1 --verify=crc32c
		fio_case ext4-nullb 0 "pvsync2 --hipri bsrange=512-256k" --name=nbhipri --filename="$MNT/nbh" \
			--size=32M --rw=randwrite --bsrange=512-256k --ioengine=pvsync2 --hipri --direct=1 --verify=crc32c
		fio_case ext4-nullb 0 "psync O_DSYNC bs=16k" --name=nbdsync --filename="$MNT/nbd" \
			--size=8M --rw=randwrite --bs=16k --sync=dsync --ioengine=psync --direct=1 --verify=crc32c
		umount "$MNT" || tap_not_ok "null_blk: umount"
	else
		tap_not_ok "null_blk: mkfs.ext4 and mount $NBDEV"
		sed 's/^/#   /' /tmp/mkfs.log | tail -10
	fi
	nullb_remove "$NB" || tap_not_ok "null_blk: power off and remove $NB"
else
	tap_not_ok "null_blk device via configfs (memory_backed=1, poll_queues=0)"
fi
tap_end

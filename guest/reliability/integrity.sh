#!/bin/sh
# Integrity under load: >= 1 GiB written and crc32c verified (verify_backlog), on the raw
# disk and in ext4 files, classic (io_poll_delay=-1) and hybrid (0) polling, 1 and 4
# jobs, and a verify-only re-read; each of raw and ext4, classic and hybrid, polled
# (poll_stat).
# BLKPOLL_BREAK=a: a block corrupted before the re-read; nopoll: see
# guest/lib/reliability.sh.
# Run by guest/reliability.sh (phase a), or alone: sh /guest/reliability/integrity.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio mkfs.ext4"
DEVICES="BLKPOLL_DISK"
DEADLINE=300
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/reliability.sh

VERIFIED=0
integrity() {
	if ! poll_on; then
		tap_not_ok "integrity: io_poll=1 on $DEV"
		return 0
	fi
	i0=$(irqs_of "$DISK")
	ios=0
	for delay in -1 0; do
		set_attr "$QD" "$delay"
		kind=classic
		[ "$delay" = -1 ] || kind=hybrid
		poll_mark
		kios=0
		for nj in 1 4; do
			sz=$((136 / nj))M
			d="integrity raw $kind nj=$nj bsrange=512-256k"
			tap_diag "$d: 136 MiB, io_poll_delay=$(cat "$QD")"
			# shellcheck disable=SC2086 # $VFY is a list of options
			set -- --name="raw$kind" --filename="$DISK" --offset="$RAW" --size="$sz" \
				--offset_increment="$sz" --numjobs="$nj" --rw=randwrite --bsrange=512-256k \
				--verify_backlog=32 $VFY
			fio_run "$@"
			fio_report "$d: written and verified, no errors"
			VERIFIED=$((VERIFIED + FIO_RBYTES))
			ios=$((ios + FIO_RIOS + FIO_WIOS))
			kios=$((kios + FIO_RIOS + FIO_WIOS))
			if [ "$nj" = 1 ] && [ "$delay" = -1 ]; then
				[ "$BREAK" != a ] || corrupt_block "$DISK" $((RAW + 65536))
				fio_verify_only "$@"
				fio_report "$d: verify-only re-read finds the data intact"
				kios=$((kios + FIO_RIOS))
			fi
		done
		polled_since "integrity raw $kind" "$kios"
	done
	tap_diag "  raw: $(($(irqs_of "$DISK") - i0)) interrupts for $ios I/Os"
	# ext4 in the first 512 MiB
	if mkfs.ext4 -F -q -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$DISK" 512M > /tmp/mkfs.log 2>&1 &&
		mount -t ext4 "$DISK" "$MNT"; then
		tap_ok "integrity: mkfs.ext4 (512 MiB) and mount"
		for delay in -1 0; do
			set_attr "$QD" "$delay"
			kind=classic
			[ "$delay" = -1 ] || kind=hybrid
			poll_mark
			kios=0
			for nj in 1 4; do
				sz=$((136 / nj))M
				d="integrity ext4 $kind nj=$nj bsrange=512-256k"
				tap_diag "$d: 136 MiB in $nj file(s)"
				# shellcheck disable=SC2086
				fio_run --name="e$kind$nj" --directory="$MNT" --size="$sz" --numjobs="$nj" \
					--rw=randwrite --bsrange=512-256k --verify_backlog=32 $VFY
				fio_report "$d: written and verified, no errors"
				VERIFIED=$((VERIFIED + FIO_RBYTES))
				kios=$((kios + FIO_RIOS + FIO_WIOS))
				rm -f "$MNT"/e*
			done
			polled_since "integrity ext4 $kind" "$kios"
		done
		umount "$MNT" || tap_not_ok "integrity: umount ext4"
	else
		tap_not_ok "integrity: mkfs.ext4 and mount"
		sed 's/^/#   /' /tmp/mkfs.log | tail -5
	fi
	set_attr "$QD" -1
	tap_diag "bytes verified in phase a: $VERIFIED ($((VERIFIED / 1048576)) MiB)"
	echo "BENCH test=reliability phase=integrity verified_bytes=$VERIFIED"
	if [ "$VERIFIED" -ge 1073741824 ]; then
		tap_ok "integrity: at least 1 GiB verified ($((VERIFIED / 1048576)) MiB)"
	else
		tap_not_ok "integrity: at least 1 GiB verified (only $((VERIFIED / 1048576)) MiB)"
	fi
}

integrity
tap_end

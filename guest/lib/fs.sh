# shellcheck shell=sh
# What the tests in guest/fs/ share: the file-backed NVMe disk BLKPOLL_DISK, and the
# file cases every filesystem runs with io_poll=0 and 1 (fs_run). Sourced by each
# test after `set -eu`. BLKPOLL_ARG_scale (or BLKPOLL_SCALE) multiplies the sizes;
# BLKPOLL_BREAK=fs corrupts a file between write and re-read once per filesystem,
# BLKPOLL_BREAK=align makes the "misaligned" O_DIRECT aligned, to show that the
# checks fail.
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/nullb.sh
. /guest/lib/poll-stat.sh

BREAK=${BLKPOLL_BREAK:-}
SCALE=${BLKPOLL_ARG_scale:-${BLKPOLL_SCALE:-1}}
DISK=${BLKPOLL_DISK:-}
DEV=${DISK#/dev/}
CTRL=$(nvme_ctrl "$DISK" 2> /dev/null || :)
MNT=/mnt/fs
mkdir -p "$MNT"

mib() { echo "$(($1 * SCALE))M"; }
BROKEN=''

# fio_case FS MODE CASE ARG...: write + verify (one fio), then a verify-only re-read
# of the same job. Prints the job, its figures and interrupts per I/O.
fio_case() {
	_fs=$1 _mode=$2 _case=$3
	shift 3
	_d="$_fs io_poll=$_mode $_case"
	tap_diag "$_d: fio $*"
	_i0=$(irqs_of "$DISK")
	fio_run "$@"
	_irqs=$(($(irqs_of "$DISK") - _i0))
	_ios=$((FIO_RIOS + FIO_WIOS))
	CASE_IRQS=$_irqs CASE_IOS=$_ios CASE_IPI=$(ratio "$_irqs" "$_ios")
	if [ "$_fs" = ext4-nullb ]; then
		tap_diag "  verified $FIO_RBYTES bytes in $_ios I/Os"
	else
		tap_diag "  verified $FIO_RBYTES bytes, $CTRL interrupts $_irqs for $_ios I/Os: $CASE_IPI per I/O"
	fi
	fio_report "$_d: write + crc32c verify, no errors"
	if [ "$BREAK" = fs ] && [ "$BROKEN" != "$_fs" ]; then
		BROKEN=$_fs
		# the first file argument of the job
		for _a in "$@"; do case $_a in --filename=*) corrupt_block "${_a#--filename=}" 0 ;; esac; done
	fi
	fio_verify_only "$@"
	fio_report "$_d: verify-only re-read finds the data intact"
}

# fs_suite FS MODE: every file case on the mounted filesystem with io_poll=MODE
fs_suite() {
	fs=$1 mode=$2
	if set_io_poll "$DISK" "$mode"; then
		tap_ok "$fs: io_poll=$mode on $DEV (switch reads $(sync_poll "$DISK"))"
	else
		tap_not_ok "$fs: io_poll=$mode on $DEV"
		return 0
	fi
	base="--ioengine=psync --direct=1 --verify=crc32c --randrepeat=1"

	# 1. 4 KiB random writes into a fresh (fio-fallocated) file, verify
	f=$MNT/p4k.$mode
	s0=$(poll_stat_line "$DEV")
	# shellcheck disable=SC2086 # $base is a list of options
	fio_case "$fs" "$mode" "psync bs=4k" --name=p4k --filename="$f" --size="$(mib 16)" \
		--rw=randwrite --bs=4k $base
	tap_diag "  poll_stat before: $s0"
	tap_diag "  poll_stat after:  $(poll_stat_line "$DEV")"
	tap_diag "interrupts per I/O, $fs psync 4k io_poll=$mode: $CASE_IPI ($CASE_IRQS interrupts / $CASE_IOS I/Os)"
	echo "BENCH test=fs fs=$fs dev=$DEV engine=psync rw=randwrite+verify bs=4k io_poll=$mode ios=$CASE_IOS irqs=$CASE_IRQS irq_per_io=$CASE_IPI"
	if [ "$mode" = 1 ]; then
		# which way is faster depends on the host, so only some must poll;
		# those that did take (almost) no interrupt (polled_ipi_ok, the rule
		# every guest check uses)
		st=$(poll_stat_delta "$s0" "$(poll_stat_line "$DEV")")
		if [ "$(poll_stat_get "$st" poll_completions)" -gt 0 ] &&
			PSQ=$DEV polled_ipi_ok "$st" "$CASE_IRQS" "$CASE_IOS" "$IPI_POLLED_MAX" 1; then
			tap_ok "$fs: polled psync I/Os complete without interrupts (<= $IPI_POLLED_MAX per polled I/O, some found by polling)"
		else
			tap_not_ok "$fs: polled psync I/Os complete without interrupts (<= $IPI_POLLED_MAX per polled I/O, some found by polling)"
		fi
	fi
	rm -f "$f"

	# 2. 512 B - 256 KiB random writes: sub-block, multi-extent, unaligned to fs blocks
	f=$MNT/pmix.$mode
	# shellcheck disable=SC2086
	fio_case "$fs" "$mode" "psync bsrange=512-256k" --name=pmix --filename="$f" --size="$(mib 32)" \
		--rw=randwrite --bsrange=512-256k $base
	rm -f "$f"

	# 3. holes: a sparse file, every other 64 KiB written; the gaps read back zeros;
	#    punched data reads zeros; mixed writes into holes and data, verify
	f=$MNT/holes.$mode
	rm -f "$f"
	truncate -s "$(mib 32)" "$f"
	# shellcheck disable=SC2086
	fio_case "$fs" "$mode" "sparse file, 64k written / 64k hole" --name=holes --filename="$f" \
		--size="$(mib 32)" --io_size="$(mib 16)" --rw=write:64k --bs=64k $base
	tap_diag "  allocated $(($(stat -c %b "$f") * $(stat -c %B "$f") / 1024)) KiB of $(($(stat -c %s "$f") / 1024)) KiB"
	bad=''
	for k in 1 3 17 101; do
		reads_zero "$f" $((k * 65536)) 65536 || bad="$bad $((k * 65536))"
	done
	if [ -z "$bad" ]; then
		tap_ok "$fs io_poll=$mode: holes read back as zeros through O_DIRECT"
	else
		tap_not_ok "$fs io_poll=$mode: holes read back as zeros through O_DIRECT (not at:$bad)"
	fi
	if command -v xfs_io > /dev/null; then
		xfs_io -c "fpunch 0 64k" -c "fpunch 256k 128k" -c "fpunch 1088k 64k" "$f"
		bad=''
		for o in 0 262144 327680 1114112; do
			reads_zero "$f" "$o" 65536 || bad="$bad $o"
		done
		if [ -z "$bad" ]; then
			tap_ok "$fs io_poll=$mode: punched data (xfs_io fpunch) reads back as zeros"
		else
			tap_not_ok "$fs io_poll=$mode: punched data reads back as zeros (not at:$bad)"
		fi
	else
		tap_skip "$fs io_poll=$mode: punched data reads back as zeros" "no xfs_io for fpunch"
	fi
	# shellcheck disable=SC2086
	fio_case "$fs" "$mode" "writes across holes and data, bsrange=512-256k" --name=holemix \
		--filename="$f" --size="$(mib 32)" --rw=randwrite --bsrange=512-256k $base
	rm -f "$f"

	# 4. unwritten extents: fallocate, O_DIRECT reads give zeros, partial writes, verify
	f=$MNT/prealloc.$mode
	rm -f "$f"
	fallocate -l "$(mib 32)" "$f"
	if reads_zero "$f" 0 1048576 && reads_zero "$f" 8388608 1048576; then
		tap_ok "$fs io_poll=$mode: unwritten extents read back as zeros through O_DIRECT"
	else
		tap_not_ok "$fs io_poll=$mode: unwritten extents read back as zeros through O_DIRECT"
	fi
	# shellcheck disable=SC2086
	fio_case "$fs" "$mode" "writes into unwritten extents (fallocate), bsrange=4k-128k, 12 of 32 MiB" \
		--name=prealloc --filename="$f" --size="$(mib 32)" --io_size="$(mib 12)" \
		--rw=randwrite --bsrange=4k-128k $base
	if dd if="$f" of=/dev/null bs=1M iflag=direct 2>/dev/null; then
		tap_ok "$fs io_poll=$mode: whole partly written fallocated file reads through O_DIRECT"
	else
		tap_not_ok "$fs io_poll=$mode: whole partly written fallocated file reads through O_DIRECT"
	fi
	rm -f "$f"

	# 5. O_DSYNC writes
	f=$MNT/dsync.$mode
	# shellcheck disable=SC2086
	fio_case "$fs" "$mode" "O_DSYNC psync bs=4k" --name=dsync --filename="$f" --size="$(mib 4)" \
		--rw=randwrite --bs=4k --sync=dsync $base
	rm -f "$f"

	# 6. one 8 MiB O_DIRECT I/O (many bios, more than one extent) round-trips;
	#    misaligned O_DIRECT (offset or length) fails with EINVAL, io_poll unchanged
	f=$MNT/big.$mode
	# shellcheck disable=SC2086
	fio_case "$fs" "$mode" "psync bs=8m, each I/O many bios" --name=big --filename="$f" \
		--size="$(mib 32)" --rw=write --bs=8m $base
	if command -v xfs_io > /dev/null; then
		off=1 len=4095
		[ "$BREAK" != align ] || off=4096 len=4096
		if e=$(dio_einval "$f" "$off" 4096 && dio_einval "$f" 0 "$len"); then
			now=$(sync_poll "$DISK")
			if [ "$now" = "$mode" ]; then
				tap_ok "$fs io_poll=$mode: misaligned O_DIRECT offset and length fail with EINVAL, io_poll still $now"
			else
				tap_not_ok "$fs io_poll=$mode: misaligned O_DIRECT leaves io_poll alone (reads $now)"
			fi
		else
			tap_not_ok "$fs io_poll=$mode: misaligned O_DIRECT offset and length fail with EINVAL ($e)"
		fi
	else
		tap_not_ok "$fs io_poll=$mode: misaligned O_DIRECT fails with EINVAL (no xfs_io in the guest)"
	fi
	rm -f "$f"

	# 7. RWF_HIPRI with io_poll=0: polls when the device has a poll queue, else irq
	if [ "$mode" = 0 ]; then
		f=$MNT/hipri
		fio_case "$fs" "$mode" "pvsync2 --hipri bs=4k" --name=hipri --filename="$f" \
			--size="$(mib 16)" --rw=randwrite --bs=4k --ioengine=pvsync2 --hipri \
			--direct=1 --verify=crc32c
		tap_diag "  (hipri interrupts per I/O: $CASE_IPI)"
		fio_case "$fs" "$mode" "pvsync2 --hipri bsrange=512-256k" --name=hiprimix --filename="$f" \
			--size="$(mib 32)" --rw=randwrite --bsrange=512-256k --ioengine=pvsync2 --hipri \
			--direct=1 --verify=crc32c
		rm -f "$f"
	fi
}

# fs_run FS MKFS...: make the filesystem on the disk, mount it, both polling modes
fs_run() {
	fs=$1
	shift
	if "$@" "$DISK" > /tmp/mkfs.log 2>&1 && mount -t "$fs" "$DISK" "$MNT"; then
		tap_ok "$fs: $* $DISK and mount"
	else
		tap_not_ok "$fs: $* $DISK and mount"
		sed 's/^/#   /' /tmp/mkfs.log | tail -10
		return 0
	fi
	fs_suite "$fs" 0
	fs_suite "$fs" 1
	sync
	if umount "$MNT"; then tap_ok "$fs: umount"; else tap_not_ok "$fs: umount"; fi
}

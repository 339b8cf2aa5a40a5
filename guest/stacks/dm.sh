#!/bin/sh
# dm-linear over both disks (first segment not 4 MiB aligned): io_poll=1 accepted;
# <= 0.01 interrupts per polled 4 KiB read, psync and RWF_HIPRI (control >= 0.5); one
# 4 MiB pvsync2 --hipri read across the segment boundary (dm io_poll 1 and 0); under
# io.max riops=20 on dm, 8 KiB psync and RWF_HIPRI reads across the boundary
# complete; 10 suspend/resume cycles under polled I/O; fio psync verify
# bsrange=4k-4m; XFS with a file verify, bsrange=4k-4m.
# Run by guest/stacks.sh, or alone: sh /guest/stacks/dm.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio dmsetup mkfs.xfs xfs_io"
DEVICES="BLKPOLL_DISK BLKPOLL_DISK2"
DEADLINE=1100
set -u
. /guest/lib/stacks.sh

# dm-linear over both disks, as lvcreate makes an LV over two PVs. The first segment
# is 300 MiB + 12 KiB: not 4 MiB aligned, so large I/Os straddle the boundary.
SEG1=614424
SEG2=614400
dm_create() {
	printf '0 %s linear %s 2048\n%s %s linear %s 2048\n' "$SEG1" "$DISK" "$SEG1" "$SEG2" "$DISK2" |
		dmsetup create stk || return 1
	_n=$(dm_node stk) || { echo "no dm device named stk in /sys/block"; return 1; }
	echo "$_n" > /tmp/stk.dm
	tap_diag "dm stk = $_n, $(($(cat "/sys/block/${_n#/dev/}/size") / 2048)) MiB; table: $(dmsetup table stk | tr '\n' ';')"
}
dm_poll_on() {
	_dm=$(cat /tmp/stk.dm) || return 1
	_a=$(qattr "$_dm" io_poll)
	if _e=$( { set_attr "$_a" 1; } 2>&1); then
		tap_diag "writing 1 to $_a accepted, reads $(cat "$_a")"
	else
		tap_diag "writing 1 to $_a refused: $_e; reads $(cat "$_a")"
		return 1
	fi
	[ "$(cat "$_a")" = 1 ]
}
# dm_ipi 0|1 MAX|MIN [ARG...]: io_poll everywhere, dm's as given, then ipi_reads on dm
dm_ipi() {
	_dm=$(cat /tmp/stk.dm) || return 1
	io_poll_is "$DISK" 1 && io_poll_is "$DISK2" 1 && io_poll_is "$_dm" "$1" || return 1
	_c=$2
	shift 2
	ipi_reads "$_dm" "$_c" --size=512M "$@"
}
# dm_hipri4m 0|1: dm io_poll, then one 4 MiB pvsync2 --hipri read from 298 MiB
# (across the boundary at 300 MiB + 12 KiB): several bios for one I/O
dm_hipri4m() {
	_dm=$(cat /tmp/stk.dm) || return 1
	io_poll_is "$_dm" "$1" || return 1
	fio_run --name=hipri4m --filename="$_dm" --offset=298M --size=4M --bs=4m --rw=read \
		--ioengine=pvsync2 --hipri --direct=1
	fio_ok && [ "$FIO_RIOS" -eq 1 ]
}
dm_verify() {
	_dm=$(cat /tmp/stk.dm) || return 1
	io_poll_is "$_dm" 1 || return 1
	# sequential: the I/Os tile BIG MiB around 300 MiB, one of them straddles 300 MiB + 12 KiB
	# shellcheck disable=SC2086
	fio_run --name=dmverify --filename="$_dm" --offset="$((300 - BIG / 2))M" --size="${BIG}M" --rw=write \
		--bsrange=4k-4m $PS $VFY
	fio_ok
}
# dm_throttled ARG...: cgroup v2 io.max riops=20 on the dm device for a cgroup whose
# reader does 30 8 KiB O_DIRECT reads that straddle the segment boundary (a bio for
# each segment: dm maps the first part and resubmits the remainder, which blk-throttle
# holds back), dm io_poll=1: every read completes, no error, no hang
dm_throttled() {
	_dm=$(cat /tmp/stk.dm) || return 1
	io_poll_is "$_dm" 1 || return 1
	cg_setup || return 1
	[ -e "$CGT/io.max" ] || { echo "no io.max in $CGT"; return 1; }
	_mm=$(cat "/sys/block/${_dm#/dev/}/dev")
	set_attr "$CGT/io.max" "$_mm riops=20" || return 1
	# shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
	fio_with sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CGT" -- --name=dmthrottled \
		--filename="$_dm" --offset=$((SEG1 * 512 - 4096)) --size=8k --bs=8k --rw=read \
		--loops=30 "$@"
	set_attr "$CGT/io.max" "$_mm riops=max" || true
	cg_down || true
	fio_ok && [ "$FIO_RIOS" -eq 30 ]
}
# dm_suspend_loop: for 8 s a RWF_HIPRI reader and a psync writer with crc32c verify
# across the segment boundary at dm io_poll=1, while the dm device is suspended and
# resumed 10 times: no error, no verify failure, no hang
dm_suspend_loop() {
	_dm=$(cat /tmp/stk.dm) || return 1
	io_poll_is "$_dm" 1 || return 1
	# shellcheck disable=SC2086 # $HP, $PS and $VFY are lists of options
	fio_start --name=sushipri --filename="$_dm" --offset=284M --size=32M --rw=randread \
		--bs=8k $HP --time_based --runtime=8 \
		--name=susverify --filename="$_dm" --offset=284M --size=32M --rw=randwrite \
		--bsrange=4k-1m $PS $VFY --verify_backlog=16
	suspend_cycles stk
}
dm_xfs() {
	_dm=$(cat /tmp/stk.dm) || return 1
	mkfs.xfs -f -q -K "$_dm" && mount -t xfs "$_dm" "$MNT"
}
dm_xfs_verify() {
	_dm=$(cat /tmp/stk.dm) || return 1
	grep -q " $MNT xfs " /proc/mounts || { echo "no XFS on $MNT"; return 1; }
	io_poll_is "$_dm" 1 || return 1
	# random writes into a sparse file: many extents, dios that span several
	# shellcheck disable=SC2086
	fio_run --name=xfsverify --filename="$MNT/xv" --size="${BIG}M" --rw=randwrite --bsrange=4k-4m \
		--fallocate=none $PS $VFY
	_x=$(xfs_io -c 'fiemap' "$MNT/xv" 2> /dev/null | grep -cE '^[[:space:]]*[0-9]+:' || true)
	tap_diag "$MNT/xv: ${_x:-?} extents"
	fio_ok
}
dm_down() {
	if grep -q " $MNT " /proc/mounts; then umount "$MNT" || return 1; fi
	if dmsetup info stk > /dev/null 2>&1; then dmsetup remove stk || return 1; fi
	set_io_poll "$DISK" 0 || true
	set_io_poll "$DISK2" 0 || true
}
rm -f /tmp/stk.dm
deadline "$(s 30)" "dm: dm-linear stk over $DISK and $DISK2 (2 segments, boundary at 300 MiB + 12 KiB)" dm_create
deadline "$(s 30)" "dm: io_poll=1 on $DISK" io_poll_is "$DISK" 1
deadline "$(s 30)" "dm: io_poll=1 on $DISK2" io_poll_is "$DISK2" 1
deadline "$(s 30)" "dm: io_poll=1 on the dm device is accepted and reads back 1" dm_poll_on
deadline "$(s 60)" "dm: io_poll=1 everywhere: polled 4 KiB psync reads on dm take <= 0.01 interrupts per I/O" \
	dm_ipi 1 MAX
# shellcheck disable=SC2086
deadline "$(s 60)" "dm: RWF_HIPRI 4 KiB reads on dm poll: >= 3/4 of those not declined polled, <= 0.01 interrupts per polled I/O" \
	dm_ipi 1 MAX $HP
deadline "$(s 60)" "dm: control: dm io_poll=0: 4 KiB psync reads on dm take >= 0.5 interrupts per I/O" \
	dm_ipi 0 MIN
deadline "$(s 60)" "dm: one 4 MiB pvsync2 --hipri read across the segment boundary, dm io_poll=1: 0 errors, no hang" \
	dm_hipri4m 1
deadline "$(s 60)" "dm: one 4 MiB pvsync2 --hipri read across the segment boundary, dm io_poll=0: 0 errors, no hang" \
	dm_hipri4m 0
deadline "$(s 150)" "dm: psync bsrange=4k-4m ${BIG} MiB write + crc32c verify across the boundary, io_poll=1: 0 errors, no hang" \
	dm_verify
# shellcheck disable=SC2086
deadline "$(s 60)" "dm: io.max riops=20 on dm: 30 8 KiB psync reads across the segment boundary at io_poll=1 complete" \
	dm_throttled $PS
# shellcheck disable=SC2086
deadline "$(s 60)" "dm: io.max riops=20 on dm: 30 8 KiB RWF_HIPRI reads across the segment boundary complete" \
	dm_throttled $HP
deadline "$(s 90)" "dm: 10 suspend/resume cycles under a RWF_HIPRI reader and a verifying writer, io_poll=1: 0 errors, no hang" \
	dm_suspend_loop
deadline "$(s 90)" "dm: mkfs.xfs and mount on the dm device" dm_xfs
deadline "$(s 150)" "dm: XFS ${BIG} MiB file, random bsrange=4k-4m write + crc32c verify, io_poll=1: 0 errors, no hang" \
	dm_xfs_verify
deadline "$(s 60)" "dm: XFS unmounted, dm device removed" dm_down
tap_end

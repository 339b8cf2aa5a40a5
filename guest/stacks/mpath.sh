#!/bin/sh
# NVMe multipath: the namespace two controllers of one subsystem share (4 KiB
# logical blocks: 512-byte O_DIRECT gets EINVAL): io_poll=1 on the head node accepted;
# <= 0.01 interrupts per polled 4 KiB read, psync and RWF_HIPRI (control >= 0.5);
# verify; one path's controller removed under a polled reader: the reader goes on over
# the other path without an error; PCI rescan: 2 paths.
# Run by guest/stacks.sh, or alone: sh /guest/stacks/mpath.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio xfs_io"
DEVICES="BLKPOLL_MPATH"
DEADLINE=620
set -u
. /guest/lib/stacks.sh

# mp_paths: the path devices (nvmeXcYnZ, hidden) of the multipath head MP (nvmeXnZ),
# one a line
mp_paths() {
	_h=${MP#/dev/}
	for _p in /sys/block/"${_h%n[0-9]*}"c*n"${_h##*n}"; do
		[ ! -e "$_p" ] || echo "${_p##*/}"
	done
}
mp_two_paths() {
	{ [ -n "$MP" ] && [ -b "$MP" ]; } || { echo "no multipath head node (serial blkpollmp)"; return 1; }
	tap_diag "$MP: paths $(mp_paths | tr '\n' ' ')"
	[ "$(mp_paths | wc -l)" -eq 2 ]
}
# mp_misaligned: the head has 4 KiB logical blocks; a 512-byte O_DIRECT read is
# refused with EINVAL while io_poll=1, a 4 KiB one reads, and io_poll stays 1.
mp_misaligned() {
	io_poll_is "$MP" 1 || return 1
	_lbs=$(cat "$(qattr "$MP" logical_block_size)")
	[ "$_lbs" = 4096 ] || { echo "logical_block_size $_lbs, not 4096"; return 1; }
	dio_einval "$MP" 0 512 || return 1
	_e=$(xfs_io -d -r -c "pread 0 4096" "$MP" 2>&1) || { echo "a 4 KiB read failed: $_e"; return 1; }
	[ "$(cat "$(qattr "$MP" io_poll)")" = 1 ]
}
mp_verify() {
	io_poll_is "$MP" 1 || return 1
	# shellcheck disable=SC2086
	fio_run --name=mpverify --filename="$MP" --size="$((BIG / 4))M" --rw=randwrite --bsrange=4k-1m $PS $VFY
	fio_ok
}
# mp_failover: remove one path's controller under a polled reader of the head node
mp_failover() {
	io_poll_is "$MP" 1 || return 1
	_path=$(mp_paths | head -1)
	_c=$(readlink "/sys/block/$_path/device")
	# shellcheck disable=SC2086
	read_across_removal "${_c##*/}" "$MP" $PS || return 1
	tap_diag "paths left: $(mp_paths | tr '\n' ' ')"
	fio_ok && [ "$(mp_paths | wc -l)" -eq 1 ]
}
two_paths() {
	[ "$(mp_paths | wc -l)" -ge 2 ]
}
mp_back() {
	pci_back blkpollmp 2 || return 1
	dl_until 10 two_paths || { echo "paths: $(mp_paths | tr '\n' ' ')"; return 1; }
	tap_diag "$MP: paths $(mp_paths | tr '\n' ' ')"
}
deadline "$(s 30)" "mpath: head node ${MP:-?} over two paths (two controllers of one NVMe subsystem)" mp_two_paths
deadline "$(s 30)" "mpath: io_poll=1 on the head node is accepted and reads back 1" io_poll_is "$MP" 1
deadline "$(s 60)" "mpath: polled 4 KiB psync reads on the head take <= 0.01 interrupts per I/O" \
	ipi_at "$MP" 1 "$MP" MAX
# shellcheck disable=SC2086
deadline "$(s 60)" "mpath: RWF_HIPRI 4 KiB reads on the head poll: >= 3/4 of those not declined polled, <= 0.01 interrupts per polled I/O" \
	ipi_at "$MP" 1 "$MP" MAX $HP
deadline "$(s 60)" "mpath: control: io_poll=0: 4 KiB psync reads on the head take >= 0.5 interrupts per I/O" \
	ipi_at "$MP" 0 "$MP" MIN
deadline "$(s 30)" "mpath: 4 KiB logical blocks: a 512-byte O_DIRECT read gets EINVAL, a 4 KiB one reads, io_poll stays 1" \
	mp_misaligned
deadline "$(s 150)" "mpath: psync bsrange=4k-1m write + crc32c verify on the head, io_poll=1: 0 errors" mp_verify
deadline "$(s 90)" "mpath: one path's controller removed under a polled psync reader: it goes on over the other path, 0 errors" \
	mp_failover
deadline "$(s 60)" "mpath: PCI rescan brings the controller back, the head has two paths again" mp_back
dl_run "$(s 20)" set_io_poll "$MP" 0 || tap_diag "io_poll of $MP back to 0: status $DL_RC"
tap_end

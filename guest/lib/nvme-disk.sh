# shellcheck shell=sh
# Find the test VM's NVMe disks by the serial number QEMU gave each controller
# (scripts/boot.sh): NVMe probes asynchronously, so instance numbers vary; partition
# a disk, and wipe it blank for the next test.

# nvme_live_ctrls SERIAL: the sysfs directories of the live controllers QEMU gave
# SERIAL, one a line
nvme_live_ctrls() {
	for _c in /sys/class/nvme/nvme*; do
		[ -e "$_c/serial" ] || continue
		[ "$(cat "$_c/state")" = live ] || continue
		[ "$(sed 's/[[:space:]]*$//' "$_c/serial")" != "$1" ] || echo "$_c"
	done
}

# nvme_disk_by_serial SERIAL [NSID]: /dev/nvmeXnY, namespace NSID (default 1) of a
# live controller QEMU gave SERIAL (its head node with CONFIG_NVME_MULTIPATH, where
# the controller's own disk is the hidden path nvmeXcZnY); empty while there is none.
# By NSID, not by name: Y is the subsystem's instance count, not the namespace ID.
nvme_disk_by_serial() {
	for _c in $(nvme_live_ctrls "$1"); do
		for _n in "$_c"/nvme*n*; do
			[ "$(cat "$_n/nsid" 2>/dev/null)" = "${2:-1}" ] || continue
			_n=${_n##*/}
			case $_n in nvme*c*n*) _n=${_n%%c*}n${_n##*n} ;; esac
			[ ! -b "/dev/$_n" ] || { printf '/dev/%s' "$_n"; return 0; }
		done
	done
	return 0
}

# partition_at_1m DISK MIB: a DOS label with one Linux partition of MIB MiB at 1 MiB
partition_at_1m() {
	printf 'label: dos\nstart=2048, size=%d, type=83\n' $(($2 * 2048)) | sfdisk -q "$1"
}

# wipe DISK...: zero the first 2 MiB (partition table, superblocks) and reread the
# partition table, so that a later test finds the disk blank
wipe() {
	for _d in "$@"; do
		dd if=/dev/zero of="$_d" bs=1M count=2 oflag=direct 2> /dev/null || return 1
		blockdev --rereadpt "$_d" || true
	done
}

# shellcheck shell=sh disable=SC2034 # DISK2, MP, BREAK, HP, VFY: used by the tests that source it
# What the tests in guest/stacks/ share: the disks, fio with psync/pvsync2 and
# O_DIRECT, interrupts per I/O (ipi_at), io_poll switching, dm nodes, cgroup v2 io.max
# and NVMe controller removal. Sourced by each test after `set -u`.
# The file-backed NVMe disks: BLKPOLL_DISK and BLKPOLL_DISK2 (serials blkpoll0,
# blkpoll2); the multipath head: BLKPOLL_MPATH (serial blkpollmp). BLKPOLL_ARG_big:
# size of the big verify runs in MiB (256; 64 on a KASAN kernel, whose deadlines are x3).
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/nvme-disk.sh
. /guest/lib/deadline.sh
. /guest/lib/nullb.sh
. /guest/lib/poll-stat.sh

BREAK=${BLKPOLL_BREAK:-}
. /guest/lib/slow.sh
BIG=${BLKPOLL_ARG_big:-}
[ -n "$BIG" ] || if [ "$SLOW" -gt 1 ]; then BIG=64; else BIG=256; fi

DISK=${BLKPOLL_DISK:-}
DISK2=${BLKPOLL_DISK2:-}
MP=${BLKPOLL_MPATH:-}
MNT=/mnt/stk
mkdir -p "$MNT"
export DM_DISABLE_UDEV=1 # no udev in the guest: libdevmapper makes /dev/mapper nodes itself
CG=/sys/fs/cgroup
CGT=$CG/stkthrottle

# What every step reads: fio with psync/pvsync2 and O_DIRECT
PS="--ioengine=psync --direct=1"
# forced polling (RWF_HIPRI), whatever io_poll chose; given after $PS, it wins
HP="--ioengine=pvsync2 --hipri --direct=1"
VFY="--verify=crc32c --randrepeat=1"

# fio_with CMD... -- ARG...: fio_run, fio started through CMD (taskset, chrt, sh -c)
fio_with() {
	FIO_SEQ=$((FIO_SEQ + 1))
	FIO_JSON=/tmp/fio.w$FIO_SEQ.json FIO_LOG=/tmp/fio.w$FIO_SEQ.log
	FIO_RC=0
	_n=$# _seen=0
	while [ "$_n" -gt 0 ]; do
		if [ "$1" = -- ] && [ "$_seen" = 0 ]; then
			set -- "$@" fio --output-format=json --output="$FIO_JSON"
			_seen=1
		else
			set -- "$@" "$1"
		fi
		shift
		_n=$((_n - 1))
	done
	"$@" > "$FIO_LOG" 2>&1 || FIO_RC=$?
	fio_judge
}

# fio_ok: the last fio run ended cleanly and did I/O; prints its figures
fio_ok() {
	tap_diag "$(fio_figures)"
	if fio_clean && [ $((FIO_RIOS + FIO_WIOS)) -gt 0 ]; then return 0; fi
	grep -vE '^ *$' "$FIO_LOG" | head -15
	sed 's/^/job: /' "$FIO_JSON.jobs"
	return 1
}

# fio_cpu_per_io: CPU time (usr + sys) per I/O of the last run's first job, in us
fio_cpu_per_io() {
	# shellcheck disable=SC2046 # three numbers
	set -- $(fio_jq "$FIO_JSON" -r '.jobs[0] | "\(.usr_cpu // 0) \(.sys_cpu // 0) \(.job_runtime // 0)"')
	awk -v u="${1:-0}" -v s="${2:-0}" -v r="${3:-0}" -v n="$FIO_RIOS" \
		'BEGIN { if (n > 0 && r > 0) printf "%.1f", (u + s) / 100 * r * 1000 / n; else printf "nan" }'
}

# fio_cpu_pct: CPU use (usr + sys) of the last run's first job, in % of one CPU
fio_cpu_pct() {
	# shellcheck disable=SC2046 # two numbers
	set -- $(fio_jq "$FIO_JSON" -r '.jobs[0] | "\(.usr_cpu // "nan") \(.sys_cpu // "nan")"')
	awk -v u="${1:-nan}" -v s="${2:-nan}" 'BEGIN { if (u == "nan" || s == "nan") printf "nan"; else printf "%.1f", u + s }'
}

# le A B / ge A B: numeric comparison of decimals ("nan" never passes)
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "nan" && b != "nan" && a + 0 <= b + 0) }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "nan" && b != "nan" && a + 0 >= b + 0) }'; }

# ipi_at PDEV 0|1 DEV MAX|MIN [ARG...]: io_poll of PDEV set, then ipi_reads DEV ...
# (guest/lib/poll-stat.sh: interrupts per read, the one rule of every guest check)
ipi_at() {
	io_poll_is "$1" "$2" || return 1
	_d=$3 _c=$4
	shift 4
	ipi_reads "$_d" "$_c" --size=256M "$@"
}

# io_poll_is DEV 0|1: set_io_poll and say so
io_poll_is() {
	set_io_poll "$1" "$2" || return 1
	tap_diag "io_poll of $1 reads $(cat "$(qattr "$1" io_poll)")"
}

attr_is() {
	[ "$(cat "$1")" = "$2" ]
}
# polled_or_einval DEV: writing 1 to io_poll either reads back 1 (within 20 s) or
# fails with EINVAL and leaves 0; any other error is a failure
polled_or_einval() {
	_a=$(qattr "$1" io_poll)
	[ -e "$_a" ] || { echo "$_a does not exist"; return 1; }
	if _e=$( { set_attr "$_a" 1; } 2>&1); then
		dl_until 20 attr_is "$_a" 1 || :
		tap_diag "writing 1 to $_a accepted, reads $(cat "$_a")"
		[ "$(cat "$_a")" = 1 ]
	else
		tap_diag "writing 1 to $_a refused: $_e; reads $(cat "$_a")"
		case $_e in
		*"Invalid argument"*) [ "$(cat "$_a")" = 0 ] ;;
		*) return 1 ;;
		esac
	fi
}

# dm_node NAME: /dev/dm-N of the dm device NAME (waits up to 5 s for its node)
dm_node() {
	for _d in /sys/block/dm-*; do
		[ "$(cat "$_d/dm/name" 2> /dev/null)" = "$1" ] || continue
		dl_until 5 test -b "/dev/${_d##*/}" || :
		echo "/dev/${_d##*/}"
		return 0
	done
	return 1
}

# suspend_cycles NAME: while the fio of the last fio_start runs, suspend and resume the
# dm device NAME up to 10 times; waits for fio and judges it (fio_ok), and needs >= 5
suspend_cycles() {
	_n=0
	while [ "$_n" -lt 10 ] && fio_running; do
		sleep 0.3
		dmsetup suspend "$1" || { fio_wait; return 1; }
		sleep 0.2
		dmsetup resume "$1" || { fio_wait; return 1; }
		_n=$((_n + 1))
	done
	fio_wait
	tap_diag "$_n suspend/resume cycles of $1 under the polled jobs"
	fio_ok && [ "$_n" -ge 5 ]
}

# cg_setup: cgroup v2 mounted with the io controller, the group CGT made; status 3
# when the kernel has no io controller (no CONFIG_BLK_CGROUP)
cg_setup() {
	mkdir -p "$CG"
	grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none "$CG" || return 1
	grep -qw io "$CG/cgroup.controllers" || { echo "no io controller in $CG/cgroup.controllers"; return 3; }
	set_attr "$CG/cgroup.subtree_control" +io || return 1
	mkdir -p "$CGT"
}

# cg_down: io.max of CGT lifted, the group removed
cg_down() {
	[ -d "$CGT" ] || return 0
	[ ! -e "$CGT/io.max" ] || set_attr "$CGT/io.max" "$(cat "/sys/block/${DISK#/dev/}/dev") riops=max" || true
	rmdir "$CGT"
}

# live_ctrls SERIAL: how many controllers with SERIAL are live
live_ctrls() {
	nvme_live_ctrls "$1" | wc -l
}

# pci_remove CTRL: remove the controller's PCI function, as a hot unplug does
pci_remove() {
	_pci=$(readlink -f "/sys/class/nvme/$1/device")
	tap_diag "removing $1 (PCI function ${_pci##*/})"
	set_attr "$_pci/remove" 1
}

live_at_least() {
	[ "$(live_ctrls "$1")" -ge "$2" ]
}

# pci_back SERIAL N: PCI rescan, then wait (30 s) for N live controllers with SERIAL
pci_back() {
	set_attr /sys/bus/pci/rescan 1 || return 1
	dl_until 30 live_at_least "$1" "$2" ||
		{ echo "$(live_ctrls "$1") of $2 controllers $1 live 30 s after the rescan"; return 1; }
	tap_diag "$2 controller(s) $1 live again"
}

# reads_of DEV: reads DEV completed since boot (field 1 of its stat)
reads_of() {
	read -r _n _ < "/sys/block/${1#/dev/}/stat"
	echo "$_n"
}

# read_across_removal CTRL DEV ARG...: a 4 KiB random reader of DEV (fio ARGs added)
# for 8 s, CTRL's PCI function removed once the reader has done 200 reads (fio takes
# seconds to start on the debug kernel: removed before, it cannot open DEV); waits
# for the reader to end
read_across_removal() {
	_rc=$1 _rd=$2
	shift 2
	_r0=$(reads_of "$_rd")
	fio_start --name=removal --filename="$_rd" --size=256M --rw=randread --bs=4k "$@" \
		--time_based --runtime=$((8 * SLOW))
	_i=0
	while [ "$(reads_of "$_rd")" -lt $((_r0 + 200)) ]; do
		_i=$((_i + 1))
		if [ "$_i" -ge "$(s 300)" ] || ! fio_running; then
			echo "the reader did not start reading"
			return 1
		fi
		sleep 0.1
	done
	pci_remove "$_rc" || return 1
	while fio_running; do sleep 0.5; done
	fio_wait
}

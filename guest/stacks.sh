#!/bin/sh
# Polled synchronous I/O on the stacks people run (issue 12): it polls where it can,
# falls back to interrupts where it cannot, and never fails or hangs. Every step runs
# under a hard deadline (guest/lib/deadline.sh: a miss dumps the blocked tasks with
# sysrq w and the dmesg tail) and cleans up after itself, so later steps run even when
# an earlier one failed. Needs BLKPOLL_DISK and BLKPOLL_DISK2 (file-backed NVMe,
# serials blkpoll0/blkpoll2), dmsetup, mdadm, sfdisk, chrt, taskset in the image.
#  nullb   pvsync2 --hipri on a null_blk without poll queues: 0 errors
#  md      raid0 and raid1 over the two disks: io_poll=1 reads back 1 or is refused
#          with EINVAL; io_uring IOPOLL on raid0 fails with EOPNOTSUPP; --hipri (raid0) and psync crc32c verify: 0 errors; stop
#  part    ext4 on a partition: the disk's io_poll covers the partition (<= 0.01
#          interrupts per polled 4 KiB read, psync and RWF_HIPRI, see ipi; control
#          >= 0.5 at io_poll=0), verify
#  crypt   dm-crypt (cipher_null) over DISK, a target that submits bios of its own:
#          io_poll reads 0 and writing 1 fails with EINVAL; with the disk's io_poll=1,
#          RWF_HIPRI 4 KiB reads on it complete by interrupt (>= 0.5 per read: no
#          polled clone left for nobody to poll); IOPS against io_poll=0 printed
#  reset   controller resets to more, then fewer queues (nvme write_queues,
#          poll_queues) under a RWF_HIPRI reader: no hang, completes or EIO; then polls
#  throttle  cgroup v2 io.max riops=200 on a polled reader: it uses <= 50% of a CPU
#          (a waiter spinning while blk-throttle holds its bio uses ~100%)
#  rt      SCHED_FIFO psync reader pinned to CPU 1, sched_rt_runtime_us=-1, 10 s
#  mpath   NVMe multipath (CONFIG_NVME_MULTIPATH): the namespace two controllers of one
#          subsystem share (BLKPOLL_MPATH, serial blkpollmp; 4 KiB logical blocks:
#          512-byte O_DIRECT gets EINVAL): io_poll=1 on the head node accepted;
#          <= 0.01 interrupts per polled 4 KiB read, psync and RWF_HIPRI (control
#          >= 0.5); verify; one path's controller removed under a polled reader: the
#          reader goes on over the other path without an error; PCI rescan: 2 paths
#  dm      dm-linear over both disks (first segment not 4 MiB aligned): io_poll=1
#          accepted; <= 0.01 interrupts per polled 4 KiB read, psync and RWF_HIPRI
#          (control >= 0.5);
#          one 4 MiB pvsync2 --hipri read across the segment boundary (dm io_poll 1
#          and 0); under io.max riops=20 on dm, 8 KiB psync and RWF_HIPRI reads
#          across the boundary complete; 10 suspend/resume cycles under polled I/O; fio psync verify bsrange=4k-4m; XFS with a file verify, bsrange=4k-4m
#  remove  DISK2's controller removed (PCI remove: nvme-pci has no delete_controller)
#          under a RWF_HIPRI reader: it completes or gets EIO, nobody hangs; PCI
#          rescan brings it back, and it polls
# The dm steps come last but remove: a waiter that never completes (multi-bio polled
# I/O on dm) spins in D state for good and slows everything after it.
# args: only=<step,...> (names above, joined with +: only=dm+md), big=<MiB> (size of
# the big verify runs, default 256; 64 on a KASAN kernel, whose deadlines are x3),
# break=deadline (or BLKPOLL_BREAK): first a step that must miss its deadline (a
# direct read from a suspended dm device, stuck in D state until the resume), to show
# that a hang is reported as not ok with the blocked tasks.
set -u
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/nvme-disk.sh
. /guest/lib/deadline.sh
. /guest/lib/nullb.sh
. /guest/lib/poll-stat.sh

ONLY=nullb+md+part+crypt+reset+throttle+rt+mpath+dm+remove
BIG=''
BREAK=${BLKPOLL_BREAK:-}
for a in "$@"; do
	case $a in
	only=*) ONLY=${a#only=} ;;
	big=*) BIG=${a#big=} ;;
	break=*) BREAK=${a#break=} ;;
	esac
done
want() { case +$ONLY+ in *"+$1+"*) return 0 ;; esac; return 1; }

# The debug kernel (KASAN) runs several times slower: longer deadlines, smaller runs.
SLOW=1
if dmesg | grep -q 'KernelAddressSanitizer initialized'; then SLOW=3; fi
[ -n "$BIG" ] || if [ "$SLOW" -gt 1 ]; then BIG=64; else BIG=256; fi
# s SECS: a deadline scaled for the kernel
s() { echo $(($1 * SLOW)); }

DISK=${BLKPOLL_DISK:-}
DISK2=${BLKPOLL_DISK2:-}
MP=${BLKPOLL_MPATH:-}
MNT=/mnt/stk
mkdir -p "$MNT"
export DM_DISABLE_UDEV=1 # no udev in the guest: libdevmapper makes /dev/mapper nodes itself
T0=$(dl_now)
tap_diag "stacks: kernel $(uname -r), $(nproc) CPUs, disks ${DISK:-none} ${DISK2:-none}, multipath ${MP:-none}, $(fio --version), steps $ONLY, big ${BIG} MiB, deadlines x$SLOW"
tap_diag "tools: $(dmsetup --version 2>&1 | head -1 | tr -s ' '); $(mdadm --version 2>&1); $(sfdisk --version 2>&1)"

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

# ipi DEV MAX|MIN LIMIT ARG...: 2000 4 KiB psync random reads on DEV (fio ARGs added),
# with > 0 I/Os. MIN: interrupts of the NVMe controllers behind DEV per I/O >= LIMIT.
# MAX: interrupts per polled I/O <= LIMIT, from DEV's poll_stat (polled_ipi_ok: an
# I/O left to the interrupt by choice, declined or irq_chosen, takes its interrupt;
# poll_stat must have seen every read). With psync, io_poll=1 polls where that
# measured faster, which a busy host can make the interrupt: some I/Os must poll (a
# probe polls one at least every 64). ARGs with --hipri force polling: at least 3/4
# of the I/Os must poll.
ipi() {
	_dev=$1 _cmp=$2 _lim=$3
	shift 3
	# a partition has no queue of its own: the whole disk's io_poll applies
	_q=${_dev#/dev/}
	[ ! -e "/sys/class/block/$_q/partition" ] || _q=$(basename "$(readlink -f "/sys/class/block/$_q/..")")
	_s0=$(poll_stat_line "$_q")
	_i0=$(irqs_of "$_dev") || return 1
	# The job alone on the last CPU, fio's own process elsewhere: a waiter
	# beside another runnable task takes the interrupt, by design.
	# shellcheck disable=SC2086 # $PS is a list of options
	fio_with taskset -c 0 -- --name=ipi --filename="$_dev" --rw=randread --bs=4k $PS \
		--number_ios=2000 --cpus_allowed="$(($(nproc) - 1))" "$@"
	_i1=$(irqs_of "$_dev") || return 1
	_irqs=$((_i1 - _i0))
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$_q")")
	_r=$(ratio "$_irqs" "$FIO_RIOS")
	tap_diag "$_dev ($(dl_ctrls "$_dev" | sort -u | tr '\n' ' ')): $_irqs interrupts / $FIO_RIOS I/Os = $_r per I/O"
	tap_diag "poll_stat of $_q during the run: $_st"
	echo "BENCH test=stacks dev=${_dev#/dev/} io_poll=$(cat "/sys/block/$_q/queue/io_poll" 2> /dev/null || echo na) ios=$FIO_RIOS irqs=$_irqs irq_per_io=$_r"
	fio_ok || return 1
	[ "$FIO_RIOS" -gt 0 ] || return 1
	if [ "$_cmp" = MIN ]; then
		tap_diag "want >= $_lim interrupts per I/O"
		ge "$_r" "$_lim"
		return
	fi
	case " $* " in
	*" --hipri "*) _min=$((3 * FIO_RIOS / 4)) ;;
	*) _min=1 ;;
	esac
	PSQ=$_q polled_ipi_ok "$_st" "$_irqs" "$FIO_RIOS" "$_lim" "$_min"
}

# ipi_at PDEV 0|1 DEV MAX|MIN LIMIT [ARG...]: io_poll of PDEV set, then ipi DEV ...
ipi_at() {
	io_poll_is "$1" "$2" || return 1
	_d=$3 _c=$4 _l=$5
	shift 5
	ipi "$_d" "$_c" "$_l" --size=256M "$@"
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

# ------------------------------------------------------------------ preconditions
if [ -n "$DISK" ] && [ -b "$DISK" ]; then
	tap_ok "file-backed NVMe disk $DISK (serial blkpoll0) present"
else
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
fi
if [ -n "$DISK2" ] && [ -b "$DISK2" ]; then
	tap_ok "second file-backed NVMe disk $DISK2 (serial blkpoll2) present"
else
	tap_not_ok "second file-backed NVMe disk (serial blkpoll2) present"
fi
deadline "$(s 30)" "old partition tables and superblocks wiped from both disks" wipe "$DISK" "$DISK2"

# ------------------------------------------------------------------ break=deadline
brk_read() {
	printf '0 2048 linear %s 0\n' "$DISK" | dmsetup create stkbrk && dmsetup suspend stkbrk || return 1
	tap_diag "BLKPOLL_BREAK: dm stkbrk suspended, reading from it"
	dd if=/dev/mapper/stkbrk of=/dev/null bs=4k count=1 iflag=direct
}
if [ "$BREAK" = deadline ]; then
	deadline "$(s 10)" "break: a direct read from a suspended dm device finishes within 10 s (must fail: HUNG)" brk_read
	dl_run "$(s 20)" dmsetup resume stkbrk || tap_diag "dmsetup resume stkbrk: status $DL_RC"
	sleep 1
	dl_run "$(s 20)" dmsetup remove stkbrk || tap_diag "dmsetup remove stkbrk: status $DL_RC"
fi

# ------------------------------------------------------------------ nullb
NB=/sys/kernel/config/nullb/stknopoll
nb_up() {
	_b=$(nullb_make "${NB##*/}" poll_queues=0 memory_backed=1 size=256 blocksize=4096) || return 1
	echo "$_b" > /tmp/stk.nb
	tap_diag "null_blk $_b: poll_queues=$(cat "$NB/poll_queues" 2> /dev/null || echo n/a), io_poll=$(cat "$(qattr "$_b" io_poll)")"
}
nb_hipri() {
	_b=$(cat /tmp/stk.nb) || return 1
	# shellcheck disable=SC2086 # $VFY is a list of options
	fio_run --name=nbhipri --filename="$_b" --size=64M --rw=randwrite --bsrange=4k-1m \
		--ioengine=pvsync2 --hipri --direct=1 $VFY
	fio_ok
}
nb_down() {
	nullb_remove "$NB"
}
if want nullb; then
	rm -f /tmp/stk.nb
	deadline "$(s 30)" "nullb: null_blk without poll queues (configfs poll_queues=0) created" nb_up
	deadline "$(s 120)" "nullb: pvsync2 --hipri write + crc32c verify on null_blk without poll queues: 0 errors" nb_hipri
	deadline "$(s 30)" "nullb: null_blk removed" nb_down
fi

# ------------------------------------------------------------------ md
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
if want md; then
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
fi

# ------------------------------------------------------------------ part
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
if want part; then
	deadline "$(s 90)" "part: sfdisk $DISK (one partition at 1 MiB), mkfs.ext4 and mount $PART" part_make
	deadline "$(s 60)" "part: disk io_poll=1: polled 4 KiB psync reads on $PART take <= 0.01 interrupts per I/O" \
		ipi_at "$DISK" 1 "$PART" MAX 0.01
	# shellcheck disable=SC2086
	deadline "$(s 60)" "part: RWF_HIPRI 4 KiB reads on $PART poll: >= 3/4 polled, <= 0.01 interrupts per polled I/O" \
		ipi_at "$DISK" 1 "$PART" MAX 0.01 $HP
	deadline "$(s 60)" "part: control: disk io_poll=0: 4 KiB psync reads on $PART take >= 0.5 interrupts per I/O" \
		ipi_at "$DISK" 0 "$PART" MIN 0.5
	deadline "$(s 150)" "part: ext4 on $PART, disk io_poll=1: psync bsrange=4k-4m ${BIG} MiB file write + crc32c verify: 0 errors" part_verify
	deadline "$(s 30)" "part: ext4 unmounted, partition table removed" part_down
fi

# ------------------------------------------------------------------ crypt
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
CRYPT=''
crypt_up() {
	_sz=$(($(cat "/sys/block/${DISK#/dev/}/size") / 4))
	dmsetup create blkpollcrypt --table "0 $_sz crypt cipher_null-ecb - 0 $DISK 0" || return 1
	CRYPT=$(dm_node blkpollcrypt) || { echo "no dm device named blkpollcrypt in /sys/block"; return 1; }
	echo "$CRYPT" > /tmp/stk.crypt
	tap_diag "dm-crypt = $CRYPT; table: $(dmsetup table blkpollcrypt | sed 's/ [0-9a-f]\{32,\}/ KEY/')"
	[ -b "$CRYPT" ]
}
crypt_no_poll() {
	CRYPT=$(cat /tmp/stk.crypt) || return 1
	_a=$(qattr "$CRYPT" io_poll)
	if _e=$( { set_attr "$_a" 1; } 2>&1); then
		echo "writing 1 to $_a accepted"
		return 1
	fi
	tap_diag "writing 1 to $_a refused: $_e; reads $(cat "$_a")"
	case $_e in *"Invalid argument"*) [ "$(cat "$_a")" = 0 ] ;; *) return 1 ;; esac
}
# crypt_iops ARG...: 4 s of 4 KiB random reads on CRYPT, alone on the last CPU: IOPS
crypt_iops() {
	# shellcheck disable=SC2086 # $PS is a list of options
	fio_with taskset -c 0 -- --name=crypt --filename="$CRYPT" --rw=randread --bs=4k $PS \
		--size=64M --time_based --runtime=4 --cpus_allowed="$(($(nproc) - 1))" "$@"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] || return 1
	echo $((FIO_RIOS / 4))
}
crypt_speed() {
	CRYPT=$(cat /tmp/stk.crypt) || return 1
	set_io_poll "$DISK" 0 || return 1
	_irq=$(crypt_iops) || return 1
	set_io_poll "$DISK" 1 || return 1
	# shellcheck disable=SC2086 # $HP is a list of options
	_hip=$(crypt_iops $HP) || return 1
	_psy=$(crypt_iops) || return 1
	set_io_poll "$DISK" 0 || return 1
	echo "BENCH test=crypt irq_iops=$_irq hipri_iops=$_hip psync_poll1_iops=$_psy hipri_x_irq=$(ratio "$_hip" "$_irq") psync_x_irq=$(ratio "$_psy" "$_irq")"
}
crypt_down() {
	dmsetup remove blkpollcrypt && set_io_poll "$DISK" 0
}
if want crypt; then
	deadline "$(s 30)" "crypt: dm-crypt (cipher_null) over $DISK created" crypt_up
	deadline "$(s 30)" "crypt: io_poll reads 0 and writing 1 fails with EINVAL" crypt_no_poll
	# shellcheck disable=SC2086 # $HP is a list of options
	deadline "$(s 60)" "crypt: disk io_poll=1: RWF_HIPRI 4 KiB reads on dm-crypt complete by interrupt (>= 0.5 interrupts per I/O)" \
		ipi_at "$DISK" 1 "$(cat /tmp/stk.crypt 2> /dev/null || echo none)" MIN 0.5 $HP
	deadline "$(s 90)" "crypt: IOPS of RWF_HIPRI and psync at disk io_poll=1 against io_poll=0 (BENCH line)" crypt_speed
	deadline "$(s 30)" "crypt: dm-crypt removed" crypt_down
fi

# ------------------------------------------------------------------ reset
WQ=/sys/module/nvme/parameters/write_queues
PQ=/sys/module/nvme/parameters/poll_queues
ctrl_live() {
	[ "$(cat "/sys/class/nvme/$1/state")" = live ]
}
# reset_ctrl CTRL: reset and wait until the controller is live again
reset_ctrl() {
	set_attr "/sys/class/nvme/$1/reset_controller" 1 || return 1
	dl_until 30 ctrl_live "$1" || { echo "$1 not live 30 s after the reset"; return 1; }
	tap_diag "$1 live after the reset: $(dmesg | grep "$1: .*queues" | tail -1 | sed 's/^\[[^]]*\] //')"
}
# queues N: write_queues=N, and poll_queues=N where the parameter is writable
queues() {
	set_attr "$WQ" "$1" || return 1
	if [ -w "$PQ" ]; then
		set_attr "$PQ" "$1" || tap_diag "poll_queues=$1 refused"
	fi
	tap_diag "nvme write_queues=$(cat "$WQ") poll_queues=$(cat "$PQ" 2> /dev/null || echo absent)"
}
reset_step() {
	_c=$(nvme_ctrl "$DISK")
	[ -e "/sys/class/nvme/$_c/reset_controller" ] || { echo "no controller for $DISK"; return 1; }
	io_poll_is "$DISK" 1 || return 1
	_w0=$(cat "$WQ") _p0=$(cat "$PQ" 2> /dev/null || echo 0)
	# RWF_HIPRI: polled I/O in flight across each reset, whatever io_poll measured
	# shellcheck disable=SC2086
	fio_start --name=resetread --filename="$DISK" --size=512M --rw=randread --bs=4k $HP \
		--time_based --runtime=20
	sleep 2
	_bad=0
	queues 2 && reset_ctrl "$_c" || _bad=1
	sleep 2
	queues 0 && reset_ctrl "$_c" || _bad=1
	tap_diag "resets done; the polled reader is $(fio_running && echo still running || echo finished)"
	while fio_running; do sleep 0.5; done
	fio_wait
	set_attr "$WQ" "$_w0" || true
	[ ! -w "$PQ" ] || set_attr "$PQ" "$_p0" || true
	tap_diag "$(fio_figures)"
	grep -iE 'error|err=' "$FIO_LOG" | head -5
	[ "$_bad" = 0 ] || { echo "a queue change or reset failed"; return 1; }
	[ "$FIO_JOBS" -gt 0 ] || { echo "fio reported no job"; return 1; }
	if [ "$FIO_RC" -eq 0 ] && [ "$FIO_ERR" -eq 0 ]; then return 0; fi
	# an I/O error is an allowed outcome, any other error is not; fio's messages are in
	# its log and some also ahead of the JSON
	grep -qE 'Input/output error|error=5[^0-9]' "$FIO_LOG" "$FIO_JSON" || fio_error_is 5
}
reset_after() {
	io_poll_is "$DISK" 1 || return 1
	tap_diag "poll_choice of ${DISK#/dev/} after the resets: $(tr '\n' ';' < "/sys/kernel/debug/block/${DISK#/dev/}/poll_choice" 2> /dev/null)"
	# shellcheck disable=SC2086
	ipi "$DISK" MAX 0.01 --size=256M $HP
}
if want reset; then
	deadline "$(s 180)" "reset: controller reset to more queues and back to fewer under a polled (RWF_HIPRI) reader: no hang, reader completes or gets EIO" reset_step
	deadline "$(s 90)" "reset: after the resets polled (RWF_HIPRI) 4 KiB reads on $DISK work (<= 0.01 interrupts per I/O, >= 3/4 polled)" reset_after
fi

# ------------------------------------------------------------------ throttle
CG=/sys/fs/cgroup
CGT=$CG/stkthrottle
cg_setup() {
	mkdir -p "$CG"
	grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none "$CG" || return 1
	grep -qw io "$CG/cgroup.controllers" || { echo "no io controller in $CG/cgroup.controllers"; return 3; }
	set_attr "$CG/cgroup.subtree_control" +io || return 1
	mkdir -p "$CGT"
}
# throttle_run NAME WRAPPER...: 5 s polled psync reader, CPU per I/O into /tmp/stk.NAME
throttle_run() {
	_name=$1
	shift
	io_poll_is "$DISK" 1 || return 1
	_s0=$(poll_stat_line "${DISK#/dev/}")
	# shellcheck disable=SC2086
	fio_with "$@" -- --name="$_name" --filename="$DISK" --size=256M --rw=randread --bs=4k $PS \
		--time_based --runtime=5
	tap_diag "poll_stat of ${DISK#/dev/} during the run: $(poll_stat_delta "$_s0" "$(poll_stat_line "${DISK#/dev/}")")"
	fio_ok || return 1
	_cpi=$(fio_cpu_per_io)
	_pct=$(fio_cpu_pct)
	_iops=$(ratio "$FIO_RIOS" 5)
	tap_diag "$_name: $FIO_RIOS I/Os in 5 s ($_iops IOPS), $_cpi us CPU per I/O, $_pct% of a CPU"
	echo "BENCH test=stacks case=$_name dev=${DISK#/dev/} io_poll=1 ios=$FIO_RIOS iops=$_iops cpu_us_per_io=$_cpi cpu_pct=$_pct"
	echo "$_pct $_iops" > "/tmp/stk.$_name"
	[ "$FIO_RIOS" -gt 0 ]
}
throttle_irq() {
	io_poll_is "$DISK" 0 || return 1
	# shellcheck disable=SC2016,SC2086
	fio_with sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CGT" -- --name=throttled-irq \
		--filename="$DISK" --size=256M --rw=randread --bs=4k $PS --time_based --runtime=5
	fio_ok || return 1
	tap_diag "throttled-irq (io_poll=0, for comparison): $FIO_RIOS I/Os in 5 s, $(fio_cpu_per_io) us CPU per I/O"
	echo "BENCH test=stacks case=throttled-irq dev=${DISK#/dev/} io_poll=0 ios=$FIO_RIOS iops=$(ratio "$FIO_RIOS" 5) cpu_us_per_io=$(fio_cpu_per_io)"
}
cg_down() {
	[ -d "$CGT" ] || return 0
	[ ! -e "$CGT/io.max" ] || set_attr "$CGT/io.max" "$(cat "/sys/block/${DISK#/dev/}/dev") riops=max" || true
	rmdir "$CGT"
}
if want throttle; then
	rm -f /tmp/stk.unthrottled /tmp/stk.throttled
	dl_run "$(s 20)" cg_setup || true
	if [ "$DL_RC" = 3 ]; then
		tap_skip "throttle: polled reader under io.max riops=200" "no io controller in cgroup v2 (no CONFIG_BLK_CGROUP)"
	elif [ "$DL_RC" != 0 ]; then
		tap_not_ok "throttle: cgroup v2 mounted, io controller enabled (status $DL_RC)"
	elif ! [ -e "$CGT/io.max" ]; then
		tap_skip "throttle: polled reader under io.max riops=200" "no io.max in $CGT (no CONFIG_BLK_DEV_THROTTLING)"
	else
		deadline "$(s 20)" "throttle: io.max riops=200 set on $DISK" \
			set_attr "$CGT/io.max" "$(cat "/sys/block/${DISK#/dev/}/dev") riops=200"
		deadline "$(s 60)" "throttle: unthrottled polled psync reader on $DISK does I/O" throttle_run unthrottled env
		# shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
		deadline "$(s 60)" "throttle: polled psync reader under io.max riops=200 does I/O" throttle_run throttled \
			sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CGT"
		# for the reader: the same throttled reader taking interrupts (io_poll=0)
		dl_run "$(s 60)" throttle_irq || tap_diag "throttled io_poll=0 reader: status $DL_RC"
		read -r cpu_thr iops_thr < /tmp/stk.throttled 2> /dev/null || { cpu_thr=nan iops_thr=nan; }
		if le "$iops_thr" 250; then
			tap_ok "throttle: io.max holds the polled reader to <= 250 IOPS ($iops_thr)"
		else
			tap_not_ok "throttle: io.max holds the polled reader to <= 250 IOPS ($iops_thr)"
		fi
		# A waiter spinning while blk-throttle holds its bio keeps its CPU busy.
		if le "$cpu_thr" 50; then
			tap_ok "throttle: the polled reader under io.max uses <= 50% of a CPU ($cpu_thr%): the waiter sleeps through the delay"
		else
			tap_not_ok "throttle: the polled reader under io.max uses <= 50% of a CPU ($cpu_thr%): the waiter sleeps through the delay"
		fi
		deadline "$(s 20)" "throttle: io.max lifted, cgroup removed" cg_down
	fi
fi

# ------------------------------------------------------------------ rt
RTR=/proc/sys/kernel/sched_rt_runtime_us
rt_reader() {
	io_poll_is "$DISK" 1 || return 1
	tap_diag "sched_rt_runtime_us=$(cat "$RTR")"
	# shellcheck disable=SC2086
	fio_with taskset -c 1 chrt -f 50 -- --name=rt --filename="$DISK" --size=256M --rw=randread \
		--bs=4k $PS --time_based --runtime=10
	fio_ok && [ "$FIO_RIOS" -gt 0 ]
}
if want rt; then
	rt0=$(cat "$RTR")
	if set_attr "$RTR" -1; then
		deadline "$(s 60)" "rt: SCHED_FIFO 50 psync reader pinned to CPU 1, sched_rt_runtime_us=-1, io_poll=1: completes its 10 s with > 0 I/Os" rt_reader
	else
		tap_not_ok "rt: sched_rt_runtime_us=-1 accepted"
	fi
	set_attr "$RTR" "$rt0" || tap_diag "could not restore sched_rt_runtime_us=$rt0"
fi

# ------------------------------------------------------------------ mpath
# mp_paths: the path devices (nvmeXcYnZ, hidden) of the multipath head MP (nvmeXnZ),
# one a line
mp_paths() {
	_h=${MP#/dev/}
	for _p in /sys/block/"${_h%n[0-9]*}"c*n"${_h##*n}"; do
		[ ! -e "$_p" ] || echo "${_p##*/}"
	done
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
if want mpath; then
	deadline "$(s 30)" "mpath: head node ${MP:-?} over two paths (two controllers of one NVMe subsystem)" mp_two_paths
	deadline "$(s 30)" "mpath: io_poll=1 on the head node is accepted and reads back 1" io_poll_is "$MP" 1
	deadline "$(s 60)" "mpath: polled 4 KiB psync reads on the head take <= 0.01 interrupts per I/O" \
		ipi_at "$MP" 1 "$MP" MAX 0.01
	# shellcheck disable=SC2086
	deadline "$(s 60)" "mpath: RWF_HIPRI 4 KiB reads on the head poll: >= 3/4 polled, <= 0.01 interrupts per polled I/O" \
		ipi_at "$MP" 1 "$MP" MAX 0.01 $HP
	deadline "$(s 60)" "mpath: control: io_poll=0: 4 KiB psync reads on the head take >= 0.5 interrupts per I/O" \
		ipi_at "$MP" 0 "$MP" MIN 0.5
	deadline "$(s 30)" "mpath: 4 KiB logical blocks: a 512-byte O_DIRECT read gets EINVAL, a 4 KiB one reads, io_poll stays 1" \
		mp_misaligned
	deadline "$(s 150)" "mpath: psync bsrange=4k-1m write + crc32c verify on the head, io_poll=1: 0 errors" mp_verify
	deadline "$(s 90)" "mpath: one path's controller removed under a polled psync reader: it goes on over the other path, 0 errors" \
		mp_failover
	deadline "$(s 60)" "mpath: PCI rescan brings the controller back, the head has two paths again" mp_back
	dl_run "$(s 20)" set_io_poll "$MP" 0 || tap_diag "io_poll of $MP back to 0: status $DL_RC"
fi

# ------------------------------------------------------------------ dm
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
# dm_ipi 0|1 MAX|MIN LIMIT [ARG...]: io_poll everywhere, dm's as given, then ipi on dm
dm_ipi() {
	_dm=$(cat /tmp/stk.dm) || return 1
	io_poll_is "$DISK" 1 && io_poll_is "$DISK2" 1 && io_poll_is "$_dm" "$1" || return 1
	_c=$2 _l=$3
	shift 3
	ipi "$_dm" "$_c" "$_l" --size=512M "$@"
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
	_n=0
	while [ "$_n" -lt 10 ] && fio_running; do
		sleep 0.3
		dmsetup suspend stk || { fio_wait; return 1; }
		sleep 0.2
		dmsetup resume stk || { fio_wait; return 1; }
		_n=$((_n + 1))
	done
	fio_wait
	tap_diag "$_n suspend/resume cycles under the polled jobs"
	fio_ok && [ "$_n" -ge 5 ]
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
if want dm; then
	rm -f /tmp/stk.dm
	deadline "$(s 30)" "dm: dm-linear stk over $DISK and $DISK2 (2 segments, boundary at 300 MiB + 12 KiB)" dm_create
	deadline "$(s 30)" "dm: io_poll=1 on $DISK" io_poll_is "$DISK" 1
	deadline "$(s 30)" "dm: io_poll=1 on $DISK2" io_poll_is "$DISK2" 1
	deadline "$(s 30)" "dm: io_poll=1 on the dm device is accepted and reads back 1" dm_poll_on
	deadline "$(s 60)" "dm: io_poll=1 everywhere: polled 4 KiB psync reads on dm take <= 0.01 interrupts per I/O" \
		dm_ipi 1 MAX 0.01
	# shellcheck disable=SC2086
	deadline "$(s 60)" "dm: RWF_HIPRI 4 KiB reads on dm poll: >= 3/4 polled, <= 0.01 interrupts per polled I/O" \
		dm_ipi 1 MAX 0.01 $HP
	deadline "$(s 60)" "dm: control: dm io_poll=0: 4 KiB psync reads on dm take >= 0.5 interrupts per I/O" \
		dm_ipi 0 MIN 0.5
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
fi

# ------------------------------------------------------------------ remove
# rm_under_reader: remove DISK2's controller under a RWF_HIPRI reader
rm_under_reader() {
	_c=$(nvme_ctrl "$DISK2")
	[ -e "/sys/class/nvme/$_c" ] || { echo "no controller for $DISK2"; return 1; }
	# shellcheck disable=SC2086
	read_across_removal "$_c" "$DISK2" $HP || return 1
	tap_diag "$(fio_figures)"
	tap_diag "fio: $(grep -m1 -iE 'error' "$FIO_LOG")"
	[ ! -b "$DISK2" ] || { echo "$DISK2 still there"; return 1; }
	[ "$FIO_JOBS" -gt 0 ] || { echo "fio reported no job"; return 1; }
	if [ "$FIO_RC" -eq 0 ] && [ "$FIO_ERR" -eq 0 ]; then return 0; fi
	# an I/O error is the expected outcome, any other error is not (messages as in reset_step)
	grep -qE 'Input/output error|error=5[^0-9]|No such device|error=19[^0-9]' "$FIO_LOG" "$FIO_JSON" ||
		fio_error_is 5 19
}
# rm_back: rescan, find the disk by its serial again, and poll it
disk2_back() {
	DISK2=$(nvme_disk_by_serial blkpoll2)
	[ -n "$DISK2" ]
}
rm_back() {
	pci_back blkpoll2 1 || return 1
	dl_until "$(s 30)" disk2_back || {
		echo "no namespace of blkpoll2 $(s 30) s after the rescan:" /sys/class/nvme/nvme*/nvme*n*
		return 1
	}
	tap_diag "blkpoll2 is $DISK2 again"
	# shellcheck disable=SC2086
	ipi_at "$DISK2" 1 "$DISK2" MAX 0.01 $HP
}
if want remove; then
	deadline "$(s 90)" "remove: $DISK2's controller removed under a RWF_HIPRI reader: it completes or gets EIO, no hang" \
		rm_under_reader
	deadline "$(s 90)" "remove: PCI rescan brings it back, and RWF_HIPRI reads on it poll (<= 0.01 interrupts per I/O)" rm_back
	dl_run "$(s 20)" set_io_poll "$DISK2" 0 || tap_diag "io_poll of $DISK2 back to 0: status $DL_RC"
fi

tap_diag "stacks: $((($(dl_now) - T0) / 10)) s"
tap_end

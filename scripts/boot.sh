#!/bin/sh
# Boot the kernel in QEMU (TCG) and run one guest script: /guest/RUN ARG...
# usage: boot.sh [-v VARIANT] [-l LOG] [-t TIMEOUT] RUN [ARG...]
# env:   VARIANT (normal), LOG ($BUILD/results/RUN-VARIANT.log), TIMEOUT (900 s; debug 1800 s),
#        SMP (2), MEM (1G), EXTRA_APPEND (kernel command line), QEMU_EXTRA (qemu options),
#        QEMU_CPU (max,la57=off),
#        INITRAMFS, DISK ($BUILD/disk.img, sparse 1 GiB when missing: namespace 1 of a
#        controller whose namespace 2 is null-co), DISK2 (second file-backed disk,
#        $BUILD/disk2.img, likewise), DISK3 ($BUILD/disk3.img, 256 MiB:
#        the namespace two controllers of one NVMe subsystem share, multipath; and a null-co
#        controller with one I/O queue pair, serial blkpollsq), QUIET=1 (no streaming),
#        DRIVE_OPTS (QEMU -drive cache/aio options of DISK and DISK2; default the first of
#        cache=none,aio=io_uring / cache=none,aio=threads / aio=threads QEMU accepts),
#        KERNEL (image; default what build.sh recorded in obj-VARIANT/.boot-image, else vmlinux)
# Writes LOG, LOG%.log.tap and LOG%.log.bench; fails on timeout, missing BLKPOLL-DONE,
# rc != 0 or a kernel splat (scripts/check-log.sh).
set -eu
. "$(dirname "$0")/lib.sh"

VARIANT=${VARIANT:-normal}
TIMEOUT=${TIMEOUT:-}
LOG=${LOG:-}
while getopts v:l:t: opt; do
	case $opt in
	v) VARIANT=$OPTARG ;;
	l) LOG=$OPTARG ;;
	t) TIMEOUT=$OPTARG ;;
	*) die "usage: boot.sh [-v VARIANT] [-l LOG] [-t TIMEOUT] RUN [ARG...]" ;;
	esac
done
shift $((OPTIND - 1))
# A hang detector, not a speed limit (guest scripts have their own deadlines): KASAN and
# lockdep run the same scripts about 3x slower, and reliability.sh took 819 of 900 s on
# the debug kernel of a slow host (2026-12-06).
[ -n "$TIMEOUT" ] || case $VARIANT in debug) TIMEOUT=1800 ;; *) TIMEOUT=900 ;; esac
[ $# -ge 1 ] || die "usage: boot.sh [-v VARIANT] [-l LOG] [-t TIMEOUT] RUN [ARG...]"
RUN=$1
shift
ARGS=$(printf '%s,' "$@")
ARGS=${ARGS%,}
case $RUN$ARGS in
*[[:space:]]*) die "boot: RUN and ARGs must not contain spaces (they go on the kernel command line)" ;;
esac

OBJ=$BUILD/obj-$VARIANT
KERNEL=${KERNEL:-$OBJ/$(cat "$OBJ/.boot-image" 2>/dev/null || echo vmlinux)}
INITRD=${INITRAMFS:-$BUILD/initramfs.cpio}
DISK=${DISK:-$BUILD/disk.img}
DISK2=${DISK2:-$BUILD/disk2.img}
DISK3=${DISK3:-$BUILD/disk3.img}
LOG=${LOG:-$BUILD/results/${RUN%.sh}-$VARIANT.log}
[ -f "$KERNEL" ] || die "boot: $KERNEL missing (scripts/build.sh $VARIANT)"
[ -f "$INITRD" ] || die "boot: $INITRD missing (make initramfs)"
[ -e "$TOP/guest/$RUN" ] || [ -e "$TOP/guest/$RUN.sh" ] || die "boot: guest/$RUN does not exist"
QEMU=qemu-system-x86_64
command -v "$QEMU" >/dev/null || die "boot: $QEMU missing (make deps)"
mkdir -p "$(dirname "$LOG")" "$(dirname "$DISK")" "$(dirname "$DISK2")" "$(dirname "$DISK3")"
[ -e "$DISK" ] || truncate -s 1G "$DISK"
[ -e "$DISK2" ] || truncate -s 1G "$DISK2"
[ -e "$DISK3" ] || truncate -s 256M "$DISK3"

# Real data on the raw file through io_uring when this QEMU/host allows it.
drive_ok() {
	printf 'quit\n' | timeout 30 "$QEMU" -machine none -nodefaults -display none -monitor stdio \
		-drive "file=$DISK,if=none,id=probe,format=raw,$1" >/dev/null 2>&1
}
if [ -n "${DRIVE_OPTS:-}" ]; then
	drive_ok "$DRIVE_OPTS" || die "boot: QEMU refuses DRIVE_OPTS=$DRIVE_OPTS for $DISK"
else
	for o in cache=none,aio=io_uring cache=none,aio=threads aio=threads; do
		if drive_ok "$o"; then DRIVE_OPTS=$o; break; fi
	done
	[ -n "$DRIVE_OPTS" ] || die "boot: QEMU accepts none of the drive options for $DISK"
fi

# q35: its ACPI _PRT is a static table (i440fx's is an AML loop that times out under
# KASAN in TCG). watchdog_thresh=60: TCG vCPUs starve on a busy host; a soft lockup
# report then needs 120 s of real stall instead of 20. tsc=reliable: TCG's TSC follows
# the host clock, but the clocksource watchdog checks it against the emulated HPET,
# whose reads a busy host delays, and at some random minute of a boot switches the
# guest to the HPET, each read of which is an MMIO access under QEMU's global lock,
# which the device emulation takes too: a benchmark's runs before and after that
# minute measure two machines (a real server keeps its invariant TSC).
APPEND="console=ttyS0 panic=-1 watchdog_thresh=60 tsc=reliable nvme_core.io_timeout=10 blkpoll.run=$RUN${ARGS:+ blkpoll.args=$ARGS}${EXTRA_APPEND:+ $EXTRA_APPEND}"
stage "boot: $VARIANT $RUN${ARGS:+ ($ARGS)}: smp ${SMP:-2}, mem ${MEM:-1G}, disk $DRIVE_OPTS, timeout ${TIMEOUT}s, log $LOG"

rcfile=$(mktemp)
trap 'rm -f "$rcfile"' EXIT INT TERM
start=$(date +%s)
# 4-level paging on every base: 7.2 always uses 5-level paging where the CPU has it,
# and its KASAN kernel then reported a wild access in rcu_is_watching() from an
# interrupt during identify_cpu() at boot (one of two boots), before any I/O; 6.12's
# tinyconfig never used it. la57=off keeps both bases' guests alike.
CPU=${QEMU_CPU:-max,la57=off}
# shellcheck disable=SC2086 # QEMU_EXTRA is a list of options
{
	rc=0
	timeout -k 10 "$TIMEOUT" "$QEMU" -machine q35 -accel tcg -cpu "$CPU" -m "${MEM:-1G}" -smp "${SMP:-2}" \
		-nographic -no-reboot -nic none \
		-kernel "$KERNEL" -initrd "$INITRD" -append "$APPEND" \
		-drive "file=$DISK,if=none,id=nvm0,format=raw,$DRIVE_OPTS" \
		-device nvme,serial=blkpoll0,id=c0 \
		-device nvme-ns,drive=nvm0,bus=c0,nsid=1 \
		-blockdev driver=null-co,node-name=null0ns2,read-zeroes=on \
		-device nvme-ns,drive=null0ns2,bus=c0,nsid=2 \
		-blockdev driver=null-co,node-name=null0,read-zeroes=on \
		-device nvme,serial=blkpoll1,drive=null0 \
		-drive "file=$DISK2,if=none,id=nvm2,format=raw,$DRIVE_OPTS" \
		-device nvme,serial=blkpoll2,drive=nvm2 \
		-device nvme-subsys,id=mpsub,nqn=blkpoll-mp \
		-device nvme,serial=blkpollmp,id=mpc0,subsys=mpsub \
		-device nvme,serial=blkpollmp,id=mpc1,subsys=mpsub \
		-drive "file=$DISK3,if=none,id=nvm3,format=raw,$DRIVE_OPTS" \
		-device nvme-ns,drive=nvm3,bus=mpc0,nsid=1,shared=on,logical_block_size=4096,physical_block_size=4096 \
		-blockdev driver=null-co,node-name=nullsq,read-zeroes=on \
		-device nvme,serial=blkpollsq,drive=nullsq,max_ioqpairs=1 \
		${QEMU_EXTRA:-} </dev/null 2>&1 || rc=$?
	echo "$rc" > "$rcfile"
} | if [ "${QUIET:-0}" = 1 ]; then cat > "$LOG"; else tee "$LOG" >&2; fi
qrc=$(cat "$rcfile")
secs=$(($(date +%s) - start))

bad=0
case $qrc in
0) ;;
124 | 137) printf 'boot: TIMEOUT: QEMU killed after %s s (TIMEOUT=%s)\n' "$secs" "$TIMEOUT" >&2; bad=1 ;;
*) printf 'boot: QEMU exited with status %s\n' "$qrc" >&2; bad=1 ;;
esac
sh "$TOP/scripts/check-log.sh" "$LOG" || bad=1
if [ "$bad" = 0 ]; then
	stage "boot: $RUN on $VARIANT PASSED in $secs s"
else
	stage "boot: $RUN on $VARIANT FAILED after $secs s (log $LOG)"
fi
exit "$bad"

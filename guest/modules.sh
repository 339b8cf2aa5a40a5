#!/bin/sh
# A kernel with its drivers as modules (the Debian package; scripts/deb-boot.sh).
# usage: modules.sh load   from /init, before it names the disks: modprobe MODULES,
#                          wait for the NVMe namespaces (they probe asynchronously)
#        modules.sh        TAP: every module of MODULES is loaded as a module, dmesg
#                          has no "Unknown symbol" (nor a version or signature
#                          mismatch), and io_poll=1 on BLKPOLL_DISK polls with nvme as a
#                          module: <= 0.01 interrupts per polled 4 KiB read (control:
#                          >= 0.5 at io_poll=0), by ipi_reads of guest/lib/poll-stat.sh
set -u

# crc32c before libcrc32c: its init looks the algorithm up (busybox modprobe ignores
# softdeps). kunit comes in with blk_poll_test, whose suite smoke.sh looks for.
MODULES="crc32c_generic libcrc32c crc16 nvme_core nvme null_blk dm_mod md_mod raid0 raid1
jbd2 mbcache ext4 xfs virtio_blk blk_poll_test"

# nns: how many /dev/nvmeXn1 exist
nns() {
	set -- /dev/nvme*n1
	[ -e "$1" ] || set --
	echo $#
}

if [ "${1:-}" = load ]; then
	for m in $MODULES; do
		modprobe "$m" 2>&1 | sed "s/^/# modules: modprobe $m: /"
	done
	# one /dev/nvmeXn1 for each NVMe PCI function, at most 60 s
	want=$(cat /sys/bus/pci/devices/*/class 2> /dev/null | grep -c '^0x010802$')
	i=0
	while [ "$(nns)" -lt "$want" ] && [ "$i" -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo "# modules: $(nns) of $want NVMe namespaces after $((i / 10)) s"
	exit 0
fi

. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh

tap_diag "kernel $(uname -r) ($(uname -v)), $(nproc) CPUs, file-backed disk ${BLKPOLL_DISK:-?}"
tap_check "/lib/modules/$(uname -r) is there: the image's modules match the kernel" \
	test -d "/lib/modules/$(uname -r)"

# loaded: initstate exists only for a loadable module, so a built-in driver fails too
loaded() {
	modprobe "$1" || return 1
	[ "$(cat "/sys/module/$1/initstate" 2> /dev/null)" = live ]
}
for m in $MODULES; do
	tap_check "module $m loaded" loaded "$m"
done
for m in nvme_core nvme; do
	for p in "/sys/module/$m/parameters"/*; do
		[ -r "$p" ] && tap_diag "$m.${p##*/}=$(cat "$p")"
	done
done

dmesg | sed 's/^\[ *[0-9]*\.[0-9]*\] //' > /tmp/dmesg.txt
for bad in 'Unknown symbol' 'disagrees about version of symbol' 'module verification failed'; do
	if grep -q "$bad" /tmp/dmesg.txt; then
		tap_not_ok "no \"$bad\" in dmesg"
		grep "$bad" /tmp/dmesg.txt | head -10 | sed 's/^/#   /'
	else
		tap_ok "no \"$bad\" in dmesg"
	fi
done

DISK=${BLKPOLL_DISK:-}
if [ -z "$DISK" ] || [ ! -b "$DISK" ]; then
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
	tap_end
	exit 1
fi

# modules_ipi 0|1 MAX|MIN [ARG...]: io_poll of DISK set, then ipi_reads (the rule
# every guest check of interrupts per read uses, guest/lib/poll-stat.sh)
modules_ipi() {
	set_io_poll "$DISK" "$1" || return 1
	_m=$2
	shift 2
	ipi_reads "$DISK" "$_m" --size=256M "$@"
}

deadline 120 "io_poll=0 on $DISK (nvme a module): >= $IPI_IRQ_MIN interrupts per 4 KiB read" modules_ipi 0 MIN
deadline 120 "io_poll=1 on $DISK (nvme a module): <= $IPI_POLLED_MAX interrupts per polled 4 KiB read" modules_ipi 1 MAX
deadline 120 "RWF_HIPRI on $DISK (nvme a module): >= 3/4 of those not declined polled, <= $IPI_POLLED_MAX interrupts per polled 4 KiB read" \
	modules_ipi 1 MAX --ioengine=pvsync2 --hipri
set_io_poll "$DISK" 0 || true

tap_end

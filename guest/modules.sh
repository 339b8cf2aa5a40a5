#!/bin/sh
# A kernel with its drivers as modules (the Debian package; scripts/deb-boot.sh).
# usage: modules.sh load   from /init, before it names the disks: modprobe MODULES,
#                          wait for the NVMe namespaces (they probe asynchronously)
#        modules.sh        TAP: every module of MODULES is loaded as a module, dmesg
#                          has no "Unknown symbol" (nor a version or signature
#                          mismatch), and io_poll=1 on BLKPOLL_DISK polls with nvme as a
#                          module: <= 0.01 interrupts per polled 4 KiB read (control:
#                          >= 0.5 at io_poll=0), counted as guest/stacks.sh counts them
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
Q=${DISK#/dev/}

# ipi 0|1 LIMIT [hipri]: io_poll of DISK set, then 2000 random 4 KiB psync O_DIRECT reads, the
# job alone on the last CPU (a waiter beside a runnable task takes the interrupt by
# design). io_poll=0: interrupts per I/O >= LIMIT. io_poll=1: interrupts per polled
# I/O <= LIMIT (polled_ipi_ok): io_poll=1 polls where that measured faster, so some
# of the I/Os must poll; with hipri (pvsync2 --hipri, forced polling) >= 3/4.
ipi() {
	_eng=psync _hp='' _min=1
	[ "${3:-}" != hipri ] || _eng=pvsync2 _hp=--hipri _min=1500
	set_io_poll "$DISK" "$1" || return 1
	_s0=$(poll_stat_line "$Q")
	_i0=$(irqs_of "$DISK") || return 1
	FIO_JSON=/tmp/modules.$1.json FIO_LOG=/tmp/modules.$1.log FIO_RC=0
	taskset -c 0 fio --output-format=json --output="$FIO_JSON" --name=ipi --filename="$DISK" \
		--rw=randread --bs=4k --ioengine="$_eng" --direct=1 --size=256M --number_ios=2000 $_hp \
		--cpus_allowed="$(($(nproc) - 1))" > "$FIO_LOG" 2>&1 || FIO_RC=$?
	fio_judge
	_i1=$(irqs_of "$DISK") || return 1
	_irqs=$((_i1 - _i0))
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$Q")")
	_r=$(ratio "$_irqs" "$FIO_RIOS")
	echo "# io_poll=$1: $_irqs interrupts / $FIO_RIOS I/Os = $_r per I/O; poll_stat: $_st"
	echo "BENCH test=modules dev=$Q io_poll=$1 ios=$FIO_RIOS irqs=$_irqs irq_per_io=$_r"
	if ! fio_clean || [ "$FIO_RIOS" -eq 0 ]; then
		echo "# fio: $(fio_figures)"
		return 1
	fi
	if [ "$1" = 0 ]; then
		awk -v r="$_r" -v l="$2" 'BEGIN { exit !(r != "nan" && r + 0 >= l + 0) }'
		return
	fi
	PSQ=$Q polled_ipi_ok "$_st" "$_irqs" "$FIO_RIOS" "$2" "$_min"
}

deadline 120 "io_poll=0 on $DISK (nvme a module): >= 0.5 interrupts per 4 KiB read" ipi 0 0.5
deadline 120 "io_poll=1 on $DISK (nvme a module): <= 0.01 interrupts per polled 4 KiB read" ipi 1 0.01
deadline 120 "RWF_HIPRI on $DISK (nvme a module): >= 3/4 polled, <= 0.01 interrupts per polled 4 KiB read" ipi 1 0.01 hipri
set_io_poll "$DISK" 0 || true

tap_end

#!/bin/sh
# Smoke test of the pipeline: the NVMe disks are there, direct I/O and fio work,
# the io_poll attribute is readable, synchronous reads poll with io_poll=1 (so a boot
# with the series' polling switched off, nvme.spare_poll_queues=0, fails here), a
# non-root user exists, KUnit results pass through.
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/poll-stat.sh

# NVMe probes controllers in parallel, so names vary between boots: go by serial.
DISK=${BLKPOLL_DISK:-/dev/nvme0n1}
tap_diag "kernel $(uname -r), $(nproc) CPUs, file-backed disk ${BLKPOLL_DISK:-?}, null disk ${BLKPOLL_NULL:-?}"

tap_check "file-backed disk found by its serial (blkpoll0)" test -n "${BLKPOLL_DISK:-}"
tap_check "$DISK exists and is a block device" test -b "$DISK"
# scripts/boot.sh always attaches it: missing means the guest lost a disk
tap_check "null-co disk found by its serial (blkpoll1)" test -n "${BLKPOLL_NULL:-}"
tap_check "dd 1000 x 4k O_DIRECT reads from $DISK" \
	dd if="$DISK" of=/dev/null bs=4k count=1000 iflag=direct

fio_run --name=x --filename="$DISK" --rw=randread --bs=4k --direct=1 --ioengine=psync \
	--runtime=3 --time_based
fio_report "fio psync randread 4k O_DIRECT on $DISK"
if fio_passed; then
	# shellcheck disable=SC2046 # two numbers
	set -- $(fio_read_rate)
	echo "BENCH test=smoke dev=${DISK#/dev/} engine=psync rw=randread bs=4k qd=1 iops=$1 bw_kib=$2"
fi

attr=/sys/block/${DISK#/dev/}/queue/io_poll
if v=$(cat "$attr" 2>&1); then
	tap_ok "$attr is readable (reads '$v')"
else
	tap_not_ok "$attr is readable"
	tap_diag "  $v"
fi

# polled_reads: with io_poll=1, 2000 psync 4 KiB reads poll (poll_share_ok); the job
# alone on the last CPU, as a waiter beside a runnable task takes the interrupt
polled_reads() {
	set_io_poll "$DISK" 1 || return 1
	_s0=$(poll_stat_line "${DISK#/dev/}")
	fio_run --name=poll --filename="$DISK" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--size=256M --number_ios=2000 --cpus_allowed=$(($(nproc) - 1))
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "${DISK#/dev/}")")
	echo "# $(fio_figures)"
	echo "# poll_stat of ${DISK#/dev/}: $_st"
	set_io_poll "$DISK" 0 || return 1
	fio_passed && poll_share_ok "$_st" "$FIO_RIOS"
}
# its figures shown either way
if polled_reads > /tmp/smoke.poll 2>&1; then
	tap_ok "io_poll=1 on $DISK: 2000 psync 4k reads poll (poll_stat)"
else
	tap_not_ok "io_poll=1 on $DISK: 2000 psync 4k reads poll (poll_stat)"
fi
cat /tmp/smoke.poll

runs_as_user() {
	[ "$(su -s /bin/sh -c 'id -u' user)" = 1000 ]
}
tap_check "user uid 1000 exists and su runs a command as it" runs_as_user

# KUnit suites ran at boot (KUNIT_DEFAULT_ENABLED): re-emit their top-level results.
dmesg | sed 's/^\[ *[0-9]*\.[0-9]*\] //' > /tmp/dmesg.txt
awk '/^KTAP version/ { in_ktap = 1; next }
	in_ktap && /^(not )?ok [0-9]+ / { sub(/ok [0-9]+ /, "ok "); print }' /tmp/dmesg.txt > /tmp/kunit.txt
if [ ! -s /tmp/kunit.txt ]; then
	tap_diag "no KUnit suite results in dmesg (no suites built in)"
fi
while IFS= read -r l; do
	case $l in
	not\ ok\ *) tap_not_ok "kunit: ${l#not ok }" ;;
	*) tap_ok "kunit: ${l#ok }" ;;
	esac
done < /tmp/kunit.txt

# The series adds the blk-poll suite: a kernel with the series (its NVMe parameter
# spare_poll_queues) must have run it, whatever else it was built with.
if [ -e /sys/module/nvme/parameters/spare_poll_queues ]; then
	tap_check "kunit: the series' blk-poll suite ran and passed" grep -qx "ok blk-poll" /tmp/kunit.txt
fi

tap_end

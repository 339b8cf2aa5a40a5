#!/bin/sh
# Smoke test of the pipeline: the NVMe disks are there, direct I/O and fio work,
# the io_poll attribute is readable, a non-root user exists, KUnit results pass through.
set -eu
. /guest/lib/tap.sh

# NVMe probes controllers in parallel, so names vary between boots: go by serial.
DISK=${BLKPOLL_DISK:-/dev/nvme0n1}
tap_diag "kernel $(uname -r), $(nproc) CPUs, file-backed disk ${BLKPOLL_DISK:-?}, null disk ${BLKPOLL_NULL:-?}"

tap_check "file-backed disk found by its serial (blkpoll0)" test -n "${BLKPOLL_DISK:-}"
tap_check "$DISK exists and is a block device" test -b "$DISK"
if [ -n "${BLKPOLL_NULL:-}" ]; then
	tap_ok "null-co disk present as $BLKPOLL_NULL (serial blkpoll1)"
else
	tap_skip "null-co disk present" "no NVMe controller with serial blkpoll1"
fi
tap_check "dd 1000 x 4k O_DIRECT reads from $DISK" \
	dd if="$DISK" of=/dev/null bs=4k count=1000 iflag=direct

if out=$(fio --name=x --filename="$DISK" --rw=randread --bs=4k --direct=1 --ioengine=psync \
	--runtime=3 --time_based --minimal 2>&1); then
	tap_ok "fio psync randread 4k O_DIRECT on $DISK"
	# terse v3: field 7 read bandwidth KiB/s, 8 read IOPS
	printf '%s\n' "$out" | awk -v dev="${DISK#/dev/}" -F';' 'NF > 8 && $1 == 3 {
		printf "BENCH test=smoke dev=%s engine=psync rw=randread bs=4k qd=1 iops=%s bw_kib=%s\n", dev, $8, $7 }'
else
	tap_not_ok "fio psync randread 4k O_DIRECT on $DISK"
	printf '%s\n' "$out" | tail -20 | sed 's/^/#   /'
fi

attr=/sys/block/${DISK#/dev/}/queue/io_poll
if v=$(cat "$attr" 2>&1); then
	tap_ok "$attr is readable (reads '$v')"
else
	tap_not_ok "$attr is readable"
	tap_diag "  $v"
fi

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

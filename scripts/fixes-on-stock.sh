#!/bin/sh
# The fixes series' dm and blk-throttle fixes against the stock kernel they fix: one
# boot of the unpatched base (scripts/build-stock.sh, obj-stock) and one of the
# series, both with nvme.poll_queues=1 (stock polls only on poll queues it is given),
# each running guest/stacks/dm-throttle.sh: io_uring IOPOLL readers on dm-striped
# under io.max and through dmsetup suspend/resume. The stock boot must fail (readers
# left in D state, deadlines missed), the series boot pass; exit 0 only then.
# usage: fixes-on-stock.sh   env: BASE, and boot.sh's (TIMEOUT, ...)
set -eu
. "$(dirname "$0")/lib.sh"

out=${RESULTS:-$BUILD/results}/fixes-on-stock
mkdir -p "$out"
sh "$TOP/scripts/build-stock.sh"
sh "$TOP/scripts/initramfs.sh"
stock=passed
EXTRA_APPEND=nvme.poll_queues=1 TIMEOUT=${TIMEOUT:-600} sh "$TOP/scripts/boot.sh" -v stock \
	-l "$out/stock.log" stacks.sh only=dm-throttle || stock=failed
series=passed
EXTRA_APPEND=nvme.poll_queues=1 sh "$TOP/scripts/boot.sh" -v normal \
	-l "$out/series.log" stacks.sh only=dm-throttle || series=failed
for k in stock series; do
	printf '%s: ' "$k"
	grep -E '^not ok' "$out/$k.log.tap" 2> /dev/null | tr '\n' ';' || true
	echo
done
stage "fixes-on-stock: stock $stock (must fail), series $series (must pass)"
[ "$stock" = failed ] && [ "$series" = passed ]

#!/bin/sh
# make bench's report names each boot's guest clocksource at its end
# (scripts/bench-compose.sh): a boot whose watchdog gave up the TSC for the HPET
# despite tsc=reliable reads the clock under QEMU's global lock from then on.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

t_bench_line series default null psync-irq randread 4k 1 1 1000 1000 > "$d/bench-series-default.bench"
printf '[    1.9] clocksource: Switched to clocksource tsc\n[   92.0] clocksource: Switched to clocksource hpet\n' \
	> "$d/bench-series-default.log"
printf '[    1.9] clocksource: Switched to clocksource tsc\n' > "$d/jobs-series.log"
printf '[    1.9] Linux version\n' > "$d/bench-stock-default.log"
: > "$d/bench-host-steal.txt"
t_expect 0 "the report is written" env RESULTS="$d" sh "$TOP/scripts/bench-compose.sh"
t_expect 0 "a boot switched to the HPET says hpet" grep -qx -- '- bench-series-default: hpet' "$d/bench.md"
t_expect 0 "a boot that kept the TSC says tsc" grep -qx -- '- jobs-series: tsc' "$d/bench.md"
t_expect 0 "a log without the line says so" grep -qx -- '- bench-stock-default: not logged' "$d/bench.md"
t_end

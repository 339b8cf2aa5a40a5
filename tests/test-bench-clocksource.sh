#!/bin/sh
# make bench's report names each boot's guest clocksource at its end
# (scripts/bench-compose.sh): a boot whose watchdog gave up the TSC for the HPET
# despite tsc=reliable reads the clock under QEMU's global lock from then on.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

printf 'BENCH kernel=series boot=default dev=null mode=psync-irq rw=randread bs=4k jobs=1 rep=1 iops=1000 bw_kib=4000 lat_mean_us=100.0 lat_p50_us=90.0 lat_p99_us=300.0 lat_p999_us=900.0 cpu_usr=10 cpu_sys=40 ios=1000 runtime_ms=1000 error=0 lat_cdf_us=1:50/50:90/99:300 irqs=1000 busy_ms=500 io_poll=0 poll_delay=-1\n' \
	> "$d/bench-series-default.bench"
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

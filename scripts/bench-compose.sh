#!/bin/sh
# Write $RESULTS/bench.md from what the benchmark boots left in $RESULTS (scripts/bench.sh
# runs this after its boots; run it alone to write the report again): the stock-vs-series
# tables (scripts/bench-report.sh), the host steal of each boot, the hybrid table from
# hybrid-series.bench, the jobs table and targets from jobs-series.log, then the plots.
# usage: bench-compose.sh   env: RESULTS ($BUILD/results); BENCH_PUBLISH=1 copies the
#        report, plots and raw hybrid and jobs lines to $TOP/doc/results (what the README links)
set -eu
. "$(dirname "$0")/lib.sh"

RESULTS=${RESULTS:-$BUILD/results}
hlog=$RESULTS/hybrid-series.log
jlog=$RESULTS/jobs-series.log

sh "$TOP/scripts/bench-report.sh"
{
	printf '\n## Host steal time per boot\n\n'
	cat "$RESULTS/bench-host-steal.txt"
} >> "$RESULTS/bench.md"
if [ -s "${hlog%.log}.bench" ]; then
	{
		printf '\n## Hybrid polling on slower devices (null_blk irqmode=2, psync 4 KiB randread)\n\n'
		printf 'Same boot, interleaved. CPU us/IO is fio usr+sys of the I/O threads per I/O; x poll\n'
		printf 'compares with classic polling (io_poll_delay=-1) of the same device and jobs.\n\n'
		sh "$TOP/scripts/bench-hybrid-report.sh" "${hlog%.log}.bench"
	} >> "$RESULTS/bench.md"
fi
if grep -q 'BENCH test=jobs ' "$jlog" 2>/dev/null; then
	{
		printf '\n## Polling against the number of jobs (4 KiB randread QD1 psync per job, null-co NVMe)\n\n'
		printf 'One boot of the series kernel, modes interleaved in rotated order. poll is io_poll=1\n'
		printf '(the per-I/O choice), hybrid io_poll=1 with io_poll_delay=0, hipri pvsync2 --hipri\n'
		printf '(classic polling, forced), iopoll io_uring --hipri; x irq and x IOPOLL to the same\n'
		printf 'jobs row. Plot: bench-jobs.png.\n\n'
		python3 "$TOP/scripts/bench-jobs-report.py" --targets --dat "$RESULTS" "$jlog"
	} >> "$RESULTS/bench.md"
fi
sh "$TOP/scripts/bench-plot.sh" || stage "bench: plots failed (gnuplot?), the report stands"
# Publish only now: the hybrid and steal sections and the plots come after bench-report.sh.
if [ "${BENCH_PUBLISH:-0}" = 1 ]; then
	mkdir -p "$TOP/doc/results"
	cp "$RESULTS/bench.md" "$TOP/doc/results/"
	for p in "$RESULTS"/bench-*.png; do [ ! -f "$p" ] || cp "$p" "$TOP/doc/results/"; done
	[ ! -s "${hlog%.log}.bench" ] || cp "${hlog%.log}.bench" "$TOP/doc/results/bench-hybrid.bench"
	[ ! -s "$jlog" ] || grep -a 'BENCH test=jobs \|^# ' "$jlog" > "$TOP/doc/results/bench-jobs.lines"
	stage "bench: report copied to $TOP/doc/results/"
fi

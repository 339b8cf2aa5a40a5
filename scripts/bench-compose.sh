#!/bin/sh
# Write $RESULTS/bench.md from what the benchmark boots left in $RESULTS (scripts/bench.sh
# runs this after its boots; run it alone to write the report again): the stock-vs-series
# tables (scripts/bench-report.sh), the host steal of each boot, the hybrid table from
# hybrid-series.bench, the jobs table and targets from jobs-series.log, then the plots.
# usage: bench-compose.sh                 write the report (and publish it, below)
#        bench-compose.sh publish-check   print the folder BENCH_PUBLISH=1 would fill, or
#                                         fail when it already holds a report
# env:   RESULTS ($BUILD/results); BENCH_PUBLISH=1 copies the report, its plots and the raw
#        lines of every boot to doc/results/v<N>/ of the repository (BENCH_PUBLISH_ROOT,
#        default the repository), N from the cover letter's "[PATCH vN" subject, with
#        bench-command.txt (what made them). Results are kept per series version and
#        never overwritten: when v<N>/bench.md exists it refuses, and changes nothing.
set -eu
. "$(dirname "$0")/lib.sh"

RESULTS=${RESULTS:-$BUILD/results}
PUB_ROOT=${BENCH_PUBLISH_ROOT:-$TOP}

# publish_dir: doc/results/v<N>/<base> for the cover letters' version; fails (and says
# how to go on) when it already has a report.
publish_dir() {
	for _cl in "$PUB_ROOT/patches/$BASE/0000-cover-letter.patch" "$PUB_ROOT/patches/$BASE"/*/0000-cover-letter.patch; do
		[ ! -f "$_cl" ] || break
	done
	_v=$(sed -n 's/^Subject: \[PATCH v\([0-9][0-9]*\)[] ].*/\1/p' "$_cl" 2>/dev/null | head -1)
	[ -n "$_v" ] || die "bench: BENCH_PUBLISH=1: no '[PATCH vN' subject in $_cl to name the results folder"
	_d=$PUB_ROOT/doc/results/v$_v/$BASE
	[ ! -e "$_d/bench.md" ] || die "bench: BENCH_PUBLISH=1: $_d/bench.md exists: results of series v$_v are kept, not overwritten. Remove it (git rm) to replace them, or publish after the cover letter names the next version; nothing was changed"
	echo "$_d"
}

if [ "${1:-}" = publish-check ]; then
	publish_dir
	exit 0
fi
[ "${BENCH_PUBLISH:-0}" != 1 ] || PUBDIR=$(publish_dir)
hlog=$RESULTS/hybrid-series.log
jlog=$RESULTS/jobs-series.log

sh "$TOP/scripts/bench-report.sh"
{
	printf '\n## Host steal and other host work per boot\n\n'
	cat "$RESULTS/bench-host-steal.txt"
	# A boot whose clocksource watchdog gave up the TSC reads the clock through the
	# emulated HPET from then on (scripts/boot.sh passes tsc=reliable against it).
	printf '\nGuest clocksource at the end of each boot:\n\n'
	for l in "$RESULTS"/bench-stock-*.log "$RESULTS"/bench-series-*.log "$hlog" "$jlog"; do
		[ -f "$l" ] || continue
		_cs=$(sed -n 's/.*Switched to clocksource \([a-z_-]*\).*/\1/p' "$l" | tail -1)
		printf -- '- %s: %s\n' "$(basename "$l" .log)" "${_cs:-not logged}"
	done
} >> "$RESULTS/bench.md"
if [ -s "${hlog%.log}.bench" ]; then
	{
		printf '\n## Hybrid polling on slower devices (null_blk irqmode=2, 4 KiB randread)\n\n'
		printf 'Same boot, interleaved. irq is psync; poll, hybrid and delay20 are pvsync2 --hipri\n'
		printf '(RWF_HIPRI polls every I/O it can) at io_poll_delay -1, 0 and 20. CPU us/IO is fio\n'
		printf 'usr+sys of the I/O threads per I/O; x poll compares with classic polling of the same\n'
		printf 'device and jobs; polled is the share of I/Os found complete by polling.\n\n'
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
	mkdir -p "$PUBDIR"
	cp "$RESULTS/bench.md" "$PUBDIR/"
	for p in "$RESULTS"/bench-*.png; do [ ! -f "$p" ] || cp "$p" "$PUBDIR/"; done
	# the BENCH lines of the stock and series boots
	cat "$RESULTS"/bench-*.bench 2>/dev/null | grep -a '^BENCH ' > "$PUBDIR/bench-lines.txt" ||
		rm -f "$PUBDIR/bench-lines.txt"
	[ ! -s "${hlog%.log}.bench" ] || cp "${hlog%.log}.bench" "$PUBDIR/bench-hybrid.bench"
	{
		echo "# made $(date -u '+%Y-%m-%d %H:%M UTC') at $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')"
		env | grep '^BENCH_' | sort | tr '\n' ' '
		echo "make bench"
	} > "$PUBDIR/bench-command.txt"
	stage "bench: report copied to $PUBDIR/"
fi

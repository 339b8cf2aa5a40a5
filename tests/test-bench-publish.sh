#!/bin/sh
# BENCH_PUBLISH=1 publishes into doc/results/v<N>/<base>/ (N from the cover letter's subject)
# and never over a report already there: scripts/bench-compose.sh publish-check, and
# scripts/bench.sh refusing before it builds or boots anything.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

export BASE=7.2
mkdir -p "$d/root/patches/7.2/core" "$d/root/doc/results"
printf 'From x\nSubject: [PATCH v3 00/2] a series\n\nbody\n' > "$d/root/patches/7.2/core/0000-cover-letter.patch"
t_expect 0 "the folder is named by the cover letter's version" \
	env BENCH_PUBLISH_ROOT="$d/root" sh "$TOP/scripts/bench-compose.sh" publish-check
t_grep "^$d/root/doc/results/v3/7.2\$" "it prints doc/results/v3/7.2"

mkdir -p "$d/root/doc/results/v3/7.2"
echo report > "$d/root/doc/results/v3/7.2/bench.md"
t_expect 1 "a folder that already has bench.md is refused" \
	env BENCH_PUBLISH_ROOT="$d/root" sh "$TOP/scripts/bench-compose.sh" publish-check
t_grep "bench.md exists: results of series v3 are kept, not overwritten" "it says why and what to do"
t_expect 0 "the report is unchanged" grep -qx report "$d/root/doc/results/v3/7.2/bench.md"

printf 'From x\nSubject: [PATCH 00/2] a series\n' > "$d/root/patches/7.2/core/0000-cover-letter.patch"
t_expect 1 "a cover letter without a version is refused" \
	env BENCH_PUBLISH_ROOT="$d/root" sh "$TOP/scripts/bench-compose.sh" publish-check

printf 'From x\nSubject: [PATCH v3 00/2] a series\n' > "$d/root/patches/7.2/core/0000-cover-letter.patch"
t_expect 1 "make bench with BENCH_PUBLISH=1 stops before it builds or boots" \
	env BENCH_PUBLISH=1 BENCH_PUBLISH_ROOT="$d/root" BUILD="$d/build" BENCH_BUILD= sh "$TOP/scripts/bench.sh"
t_expect 0 "and has made nothing" test ! -e "$d/build"

# a finished report is published with the BENCH lines of every boot
mkdir -p "$d/res" "$d/pub/patches/7.2/core"
printf 'From x\nSubject: [PATCH v4 00/2] a series\n' > "$d/pub/patches/7.2/core/0000-cover-letter.patch"
t_bench_line series default null psync-irq randread 4k 1 1 1000 1000 > "$d/res/bench-series-default.bench"
t_bench_line stock default null psync-irq randread 4k 1 1 1000 1000 > "$d/res/bench-stock-default.bench"
: > "$d/res/bench-host-steal.txt"
t_expect 0 "BENCH_PUBLISH=1 publishes the report" \
	env RESULTS="$d/res" BENCH_PUBLISH=1 BENCH_PUBLISH_ROOT="$d/pub" sh "$TOP/scripts/bench-compose.sh"
t_expect 0 "with bench.md" test -s "$d/pub/doc/results/v4/7.2/bench.md"
t_expect 0 "and the BENCH lines of both boots" \
	test "$(grep -c '^BENCH kernel=' "$d/pub/doc/results/v4/7.2/bench-lines.txt")" = 2
t_end

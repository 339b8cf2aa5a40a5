#!/bin/sh
# Write what a passing make test printed at its end, its TAP summary and stage times,
# to doc/make-test-output.txt (the README points there), from the newest run in
# $RESULTS: the front page quotes a real run, never a pasted or edited one.
# usage: sample-output.sh   env: RESULTS ($BUILD/results), OUT (doc/make-test-output.txt)
# Refuses a run that did not pass, and stage times that are not that run's.
set -eu
. "$(dirname "$0")/lib.sh"

RESULTS=${RESULTS:-$BUILD/results}
OUT=${OUT:-$TOP/doc/make-test-output.txt}
TIMES=$RESULTS/stage-times
[ -d "$RESULTS/latest" ] || die "sample-output: no $RESULTS/latest (run make test first)"
run=$(cd "$RESULTS/latest" && pwd -P)
run=${run##*/}
# Boot order: each boot writes its TAP file when it ends.
# shellcheck disable=SC2012 # the suite's file names have no spaces
taps=$(cd "$RESULTS/latest" && ls -tr -- *.tap 2>/dev/null) || die "sample-output: no TAP files in $RESULTS/latest"
grep -q '^suite ' "$TIMES" 2>/dev/null || die "sample-output: $TIMES has no suite stage: not a make test run"
# make test writes the suite's line after the suite's last boot.
[ -z "$(find -L "$RESULTS/latest/" -maxdepth 1 -name '*.tap' -newer "$TIMES")" ] ||
	die "sample-output: $TIMES is older than the TAP files of $run: the stage times are another run's"
# shellcheck disable=SC2016 # an awk program
awk '$3 != 0 { bad = 1 } END { exit bad }' "$TIMES" || die "sample-output: a stage of that run failed ($TIMES)"

# Paths as a reader of the repository sees them when RESULTS is inside it.
case $RESULTS in
"$TOP"/*) shown=${RESULTS#"$TOP"/} ;;
*) shown=$RESULTS ;;
esac
commit=$(cat "$RESULTS/stage-commit" 2>/dev/null || echo unknown)
cover=$(sed -n 's/^Subject: \[PATCH \(v[0-9]*\) .*/\1/p' "$TOP/patches/$BASE"/*/0000-cover-letter.patch \
	"$TOP/patches/$BASE/0000-cover-letter.patch" 2> /dev/null | head -1)

# shellcheck disable=SC2046 # one path per TAP file, no spaces
summary=$(cd "$TOP" && sh scripts/tap-summary.sh $(for t in $taps; do printf '%s/latest/%s\n' "$shown" "$t"; done)) ||
	die "sample-output: run $run did not pass (make test prints why)"
times=$(RESULTS=$RESULTS sh "$TOP/scripts/stage-time.sh" report 2>/dev/null)
{
	printf '# make test at commit %s (series %s), run %s: its last lines, written by make sample-output\n' \
		"$commit" "${cover:-unknown}" "$run"
	printf '%s\n' "$summary"
	printf '==> stage times (%s/stage-times)\n%s\n' "$shown" "$times"
} > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
stage "sample-output: $OUT from run $run at $commit"

#!/bin/sh
# scripts/sample-output.sh (make sample-output) on a made-up results folder: the file
# names the commit and run, lists the boots in the order they ran with the TOTAL line
# and the stage times; a run that failed, or stage times of another run, are refused
# and leave the file as it was.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
S=$TOP/scripts/sample-output.sh
R=$d/results
export RESULTS="$R" OUT="$d/out.txt"

mkdir -p "$R/runs/20260101-000000"
ln -s runs/20260101-000000 "$R/latest"
# zz-first ran first: the boot order, not the alphabet's
printf 'ok 1 - a\nok 2 - b\n1..2\n' > "$R/runs/20260101-000000/zz-first-normal.tap"
touch -d '2026-01-01 00:10' "$R/runs/20260101-000000/zz-first-normal.tap"
printf 'ok 1 - c\nok 2 - d # SKIP not run: no tool x\n1..2\n' > "$R/runs/20260101-000000/aa-second-debug.tap"
touch -d '2026-01-01 00:20' "$R/runs/20260101-000000/aa-second-debug.tap"
printf 'deps 1 0\nfast 100 0\nsuite 1200 0\n' > "$R/stage-times"
echo 1a2b3c4 > "$R/stage-commit"

t_expect 0 "a passing run is written" sh "$S"
t_expect 0 "the first line names the commit, the series version and the run" \
	grep -qE '^# make test at commit 1a2b3c4 \(series (v[0-9]+|unknown)\), run 20260101-000000' "$OUT"
t_expect 0 "the boots in the order they ran" \
	sh -c "grep -n 'tap ' '$OUT' | sed -n '1s/.*zz-first-normal.tap.*/first/p; 2s/.*aa-second-debug.tap.*/second/p' | tr '\n' ' ' | grep -qx 'first second '"
t_expect 0 "the TOTAL line" grep -qE '^TOTAL +3 pass +0 fail +1 skip' "$OUT"
t_expect 0 "the skipped test with its reason" grep -q 'skipped .*aa-second-debug.tap: ok 2 - d # SKIP not run: no tool x' "$OUT"
t_expect 0 "the stage times and their total" grep -qE '^  total +1301 s  0h21m41s$' "$OUT"
cp "$OUT" "$d/good.txt"

printf 'ok 1 - c\nnot ok 2 - d\n1..2\n' > "$R/runs/20260101-000000/aa-second-debug.tap"
touch -d '2026-01-01 00:20' "$R/runs/20260101-000000/aa-second-debug.tap"
t_expect 1 "a run with a failure is refused" sh "$S"
t_grep 'did not pass' "it says so"
t_expect 0 "and the file is left as it was" cmp -s "$OUT" "$d/good.txt"
t_expect 0 "no temporary file is left" test ! -e "$OUT.tmp"

printf 'ok 1 - c\nok 2 - d\n1..2\n' > "$R/runs/20260101-000000/aa-second-debug.tap"
touch -d '2025-12-31 23:00' "$R/stage-times"
t_expect 1 "stage times older than the run's TAP are refused" sh "$S"
t_grep "another run's" "it says why"

touch "$R/stage-times"
printf 'deps 1 0\nfast 100 0\n' > "$R/stage-times"
t_expect 1 "stage times without a suite stage (not make test) are refused" sh "$S"

printf 'deps 1 0\nfast 100 0\nsuite 1200 1\n' > "$R/stage-times"
t_expect 1 "a failed stage is refused" sh "$S"
t_end

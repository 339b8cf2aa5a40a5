#!/bin/sh
# scripts/tap-summary.sh: counts, and a non-zero exit for every way a run can fail.
set -eu
. "$(dirname "$0")/lib.sh"
S=$TOP/scripts/tap-summary.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

printf 'ok 1 - a\nok 2 - b # SKIP no device\nnot ok 3 - c # TODO later\n# diag\n1..3\n' > "$d/pass.tap"
printf 'ok 1 - a\nnot ok 2 - guest check failed\n1..2\n' > "$d/fail.tap"
printf '1..3\nok 1 - a\nok 2 - b\n' > "$d/short.tap"
printf 'ok 1 - a\nBail out! disk vanished\n' > "$d/bail.tap"
printf '# only diagnostics\n' > "$d/notests.tap"
: > "$d/empty.tap"
printf '1..0 # SKIP no NVMe\n' > "$d/skipall.tap"
printf 'ok 1 - kunit suite\n    not ok 1 - nested subtest is the suite'"'"'s business\n1..1\n' > "$d/nested.tap"
printf 'ok 1 - a\r\n1..1\r\n' > "$d/crlf.tap"
printf 'ok 1 - a\nok 2 - b\n' > "$d/noplan.tap"

t_expect 0 "all passing (with skip and todo) exits 0" sh "$S" "$d/pass.tap"
t_grep 'pass.tap +1 pass +0 fail +1 skip +1 todo' "counts pass, skip and todo separately"
t_expect nonzero "a failing guest TAP line makes the summary fail" sh "$S" "$d/pass.tap" "$d/fail.tap"
t_grep 'TOTAL +2 pass +1 fail' "totals add up over files"
t_expect nonzero "fewer tests than planned fails" sh "$S" "$d/short.tap"
t_grep 'PLAN MISMATCH: planned 3, ran 2' "plan mismatch is reported"
t_expect nonzero "Bail out! fails" sh "$S" "$d/bail.tap"
t_expect nonzero "a file with no test fails" sh "$S" "$d/notests.tap"
t_expect nonzero "an empty file fails" sh "$S" "$d/pass.tap" "$d/empty.tap"
t_expect nonzero "only a skip-all plan: no test at all fails" sh "$S" "$d/skipall.tap"
t_expect 0 "a skip-all file next to real tests is fine" sh "$S" "$d/skipall.tap" "$d/pass.tap"
t_expect 0 "indented (nested) results are not counted" sh "$S" "$d/nested.tap"
t_expect 0 "CRLF line ends (serial console) are accepted" sh "$S" "$d/crlf.tap"
t_expect nonzero "a missing file is an error" sh "$S" "$d/nope.tap"
t_expect nonzero "passing tests without a plan line (script cut short) fail" sh "$S" "$d/noplan.tap"
t_grep 'noplan.tap +2 pass +0 fail .*NO PLAN' "the missing plan is reported"
t_expect nonzero "one file without a plan fails the whole summary" sh "$S" "$d/pass.tap" "$d/noplan.tap"
t_end

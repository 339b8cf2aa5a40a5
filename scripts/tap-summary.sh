#!/bin/sh
# Summarise TAP files: per file and total pass/fail/skip, then each skipped test
# ("not run": a tool or device the machine lacks) with its reason. Fails when a test failed,
# a file bailed out, has no plan line (1..N: the script did not finish) or ran a
# different number of tests than its plan, or no test ran.
# usage: tap-summary.sh FILE.tap...
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: tap-summary.sh FILE.tap..."
for f in "$@"; do
	[ -f "$f" ] || die "tap-summary: $f not found"
done

empty=0
for f in "$@"; do
	if [ ! -s "$f" ]; then
		printf '%-40s EMPTY: no TAP output\n' "$f"
		empty=$((empty + 1))
	fi
done

rc=0
# Only top-level lines count: indented (nested KTAP/kselftest) results are the subtests'.
awk '
function flush() {
	if (file == "") return
	note = ""
	if (plan >= 0 && plan != n) { note = sprintf("  PLAN MISMATCH: planned %d, ran %d", plan, n); bad++ }
	if (bail) { note = note "  BAILED OUT"; bad++ }
	if (n == 0 && plan < 0) { note = note "  NO TESTS"; bad++ }
	else if (plan < 0) { note = note "  NO PLAN: the script did not finish"; bad++ }
	printf "%-40s %4d pass %4d fail %4d skip %4d todo%s\n", file, pass, fail, skip, todo, note
	tp += pass; tf += fail; ts += skip; tt += todo; tn += n
}
FNR == 1 { flush(); file = FILENAME; n = pass = fail = skip = todo = bail = 0; plan = -1 }
{ sub(/\r$/, "") }
/^1\.\.[0-9]+/ { p = $0; sub(/^1\.\./, "", p); sub(/[^0-9].*/, "", p); plan = p + 0; next }
/^Bail out!/ { bail = 1; next }
/^(not )?ok( |$)/ {
	n++
	d = toupper($0)
	if (d ~ /# *TODO/) { todo++; next }
	if ($0 ~ /^not ok/) { fail++; next }
	if (d ~ /# *SKIP/) { skip++; skipped[++ns] = file ": " $0; next }
	pass++
}
END {
	flush()
	printf "%-40s %4d pass %4d fail %4d skip %4d todo (%d tests)\n", "TOTAL", tp, tf, ts, tt, tn
	for (i = 1; i <= ns; i++) printf "skipped %s\n", skipped[i]
	if (tn == 0) { print "tap-summary: no test ran"; exit 1 }
	if (tf > 0 || bad > 0) exit 1
}' "$@" || rc=$?
[ "$empty" -eq 0 ] || rc=1
exit "$rc"

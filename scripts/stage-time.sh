#!/bin/sh
# Time the stages of a long run (make test): each stage's wall time goes to
# $RESULTS/stage-times; the table is printed at the end, or when a stage fails.
# usage: stage-time.sh start                 forget earlier times, note the commit
#        stage-time.sh NAME CMD [ARG...]     run CMD as stage NAME, exit with its status
#        stage-time.sh report                print each stage's time and the total
set -eu
. "$(dirname "$0")/lib.sh"

RESULTS=${RESULTS:-$BUILD/results}
TIMES=$RESULTS/stage-times

report() {
	[ -s "$TIMES" ] || { stage "stage times: none recorded in $TIMES"; return 0; }
	awk '
	function hms(s) { return sprintf("%dh%02dm%02ds", s / 3600, s % 3600 / 60, s % 60) }
	{ printf "  %-16s %6d s  %s%s\n", $1, $2, hms($2), $3 == 0 ? "" : "  FAILED (exit " $3 ")"; t += $2 }
	END { printf "  %-16s %6d s  %s\n", "total", t, hms(t) }' "$TIMES"
}

case ${1:?usage: stage-time.sh start | NAME CMD... | report} in
start)
	mkdir -p "$RESULTS"
	: > "$TIMES"
	# The commit the run tests, for whoever quotes its output (make sample-output).
	git -C "$TOP" describe --always --dirty --abbrev=7 > "$RESULTS/stage-commit" 2>/dev/null ||
		echo unknown > "$RESULTS/stage-commit"
	;;
report)
	stage "stage times ($TIMES)"
	report
	;;
*)
	[ $# -ge 2 ] || die "usage: stage-time.sh NAME CMD [ARG...]"
	name=$1
	shift
	mkdir -p "$RESULTS"
	t0=$(date +%s)
	rc=0
	"$@" || rc=$?
	printf '%s %d %d\n' "$name" "$(($(date +%s) - t0))" "$rc" >> "$TIMES"
	if [ "$rc" -ne 0 ]; then
		stage "stage $name failed (exit $rc); stage times so far ($TIMES)"
		report >&2
	fi
	exit "$rc"
	;;
esac

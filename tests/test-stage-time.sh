#!/bin/sh
# scripts/stage-time.sh: each stage's time is recorded, its exit status passes
# through, and the table with the total is printed at the end or on a failure.
set -eu
. "$(dirname "$0")/lib.sh"
S=$TOP/scripts/stage-time.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
export RESULTS="$d/results"

t_expect 0 "start makes an empty table" sh "$S" start
t_expect 0 "a stage runs its command" sh "$S" one sh -c "echo ran > '$d/one.out'"
t_expect 0 "with its arguments" grep -qx ran "$d/one.out"
t_expect 0 "a stage of about a second" sh "$S" two sleep 1
# shellcheck disable=SC2016 # an awk program
t_expect 0 "both are recorded as NAME SECONDS RC" \
	awk '$1 == "one" && $2 <= 1 && $3 == 0 { a = 1 } $1 == "two" && $2 >= 1 && $2 <= 3 { b = 1 } END { exit !(a && b) }' \
	"$RESULTS/stage-times"
t_expect 3 "a failing stage exits with its command's status" sh "$S" three sh -c 'exit 3'
t_grep 'stage three failed \(exit 3\)' "and says which stage failed"
t_grep 'three .*FAILED \(exit 3\)' "the times so far are printed, the failure marked"
t_expect 0 "report prints every stage and the total" sh "$S" report
t_grep '^  two +[1-3] s  0h00m0[1-3]s$' "a stage line has seconds and h/m/s"
t_grep '^  total +[1-3] s ' "the total is the sum"
t_expect 0 "start forgets earlier times" sh "$S" start
t_expect 0 "the table is empty again" test ! -s "$RESULTS/stage-times"
t_end

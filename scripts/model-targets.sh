#!/bin/sh
# Issue 41's targets for the series' choice and hybrid polling, judged on the table of
# scripts/model.sh read from standard input: every cell >= 0.97x the better fixed
# policy's throughput and <= 1.1x its p99.9; a lone reader (j1) sends <= 0.01 of its
# reads the slower way; hybrid >= 0.95x classic polling's IOPS at <= 0.5x its CPU on the
# 100 us device (tlc100). Prints one line per target, "ok<TAB>what" or "miss<TAB>what",
# and exits 1 when any is missed.
# usage: sh scripts/model.sh | sh scripts/model-targets.sh
set -eu
# shellcheck disable=SC2016 # an awk program
awk -v OFS='\t' '
function check(good, what) { print (good ? "ok" : "miss"), what }
/^#/ { next }
$1 == "dev" { for (i = 1; i <= NF; i++) col[$i] = i; cols = NF; next }
$1 == "hybrid" && $2 == "dev" { for (i = 1; i <= NF; i++) hcol[$i] = i; next }
$1 == "hybrid" {
	if ($2 != "tlc100")
		next
	x = $hcol["x_iops"]; c = $hcol["x_cpu"]
	check(x >= 0.95 && c <= 0.5, "hybrid on tlc100: " x "x the IOPS of classic polling (>= 0.95) at " c "x its CPU (<= 0.5)")
	hybrid = 1
	next
}
cols && NF == cols {
	cell = $1 " " $2 " (better: " $3 ")"
	check($col["x_iops"] >= 0.97, cell ": throughput " $col["x_iops"] "x the better fixed policy (>= 0.97)")
	check($col["x_p999"] <= 1.1, cell ": p99.9 " $col["x_p999"] "x the better fixed policy (<= 1.1)")
	if ($2 == "j1")
		check($col["slow"] <= 0.01, cell ": a lone reader sends " $col["slow"] " of its reads the slower way (<= 0.01)")
	cells++
}
END {
	check(cells == 48, "the table has its 48 cells (" cells + 0 ")")
	check(hybrid, "the table has the hybrid row of tlc100")
}' | awk '{ print } /^miss/ { missed = 1 } END { exit missed }'

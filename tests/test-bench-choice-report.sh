#!/bin/sh
# scripts/bench-choice-report.py: a cell is met only when the choice is within 0.95x of
# the better fixed policy and not below the interrupt less the boot's noise, and the
# CPU-bound tasks' work beside a polling reader is put against theirs beside the interrupt.
set -eu
. "$(dirname "$0")/lib.sh"

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

# line LOAD MODE IOPS [HOG_LOOPS]: one BENCH line of guest/bench-choice.sh
line() {
	printf 'BENCH test=choice dev=nb10 load=%s mode=%s rep=1 ios=1000 iops=%s p50_us=10 p99_us=20 p999_us=30 cpu_us_per_io=5 irq_per_io=0.010 polled=990 irq_chosen=10 declined=0 hybrid_sleeps=0 hog_loops=%s\n' \
		"$1" "$2" "$3" "${4:-0}"
}
# cell LOAD IRQ IRQ2 POLL CHOICE: the four modes of one cell
cell() { line "$1" irq "$2"; line "$1" irq2 "$3"; line "$1" poll "$4"; line "$1" choice "$5"; }

cell w1 1000 1000 2000 1950 > "$D/met"
t_expect 0 "a choice at 0.975x the better policy" python3 "$TOP/scripts/bench-choice-report.py" "$D/met"
t_grep '\| null_blk 10 us, poll queues \| w1 \| 0\.97 \| 1\.95 \| 0\.00 \| 0\.010 \| 1\.00 \| yes \|' \
	"is met; 10 of its 1000 I/Os took the interrupt where polling was better"

cell w1 1000 1000 2000 1800 > "$D/slow"
t_expect 0 "a choice at 0.9x the better policy" python3 "$TOP/scripts/bench-choice-report.py" "$D/slow"
t_grep '\| w1 \| 0\.90 \| 1\.80 \| 0\.00 \| 0\.010 \| 1\.00 \| no \|' "is not met"

cell j1 2000 1800 1000 1850 > "$D/noise"
t_expect 0 "a choice 7.5% below the interrupt, which differs 10% from itself" \
	python3 "$TOP/scripts/bench-choice-report.py" "$D/noise"
t_grep '\| j1 \| 0\.93 \| 0\.93 \| 0\.10 \| 0\.990 \| 1\.00 \| no \|' \
	"is within the noise but below 0.95x the oracle; its 990 polled I/Os went the other way"

{
	line hog irq 1000 100
	line hog irq2 1000 100
	line hog poll 2000 40
	line hog choice 1200 95
} > "$D/hog"
t_expect 0 "a hog cell" python3 "$TOP/scripts/bench-choice-report.py" "$D/hog"
t_grep "CPU-bound tasks did 0\.40x .* when it polled every I/O, 0\.95x with the choice" \
	"puts the tasks' work beside polling against theirs beside the interrupt"

: > "$D/empty"
t_expect 1 "no BENCH lines: fails" python3 "$TOP/scripts/bench-choice-report.py" "$D/empty"
t_end

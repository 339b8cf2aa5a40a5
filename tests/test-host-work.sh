#!/bin/sh
# scripts/host-work.sh, make bench's note of how much of the host each boot had: CPU
# time the benchmark's own children took is not "other host work", a process that is
# not its child is. The arithmetic is checked with the host's counters replaced, as a
# machine that runs anything else (CI does) moves the real ones; `times` is checked for
# real: it must see a reaped grandchild's CPU time.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

# own_spin SECS: the CPU ticks own_ticks sees a reaped child (timeout, whose child
# spins) add in SECS seconds, as bench.sh's boots are reaped children
own_spin() {
	sh -c '. "$1/scripts/host-work.sh"
		own_ticks "$2/before"
		timeout "$3" sh -c "while :; do :; done" || :
		own_ticks "$2/after"
		echo $(($(cat "$2/after") - $(cat "$2/before")))' own_spin "$TOP" "$d" "$1"
}

# note BUSY STEAL OWN SECS: the note for a boot of SECS seconds on 2 CPUs in which the
# host's busy and steal ticks grew by BUSY and STEAL and the boot's own by OWN
note() {
	sh -c '. "$1/scripts/host-work.sh"
		stage() { :; }
		nproc() { echo 2; }
		date() { echo "$now"; }
		host_ticks() { echo "$busy $steal"; }
		own_ticks() { echo "$own" > "$1"; }
		STEAL=$2/steal HOST_WORK_TMP=$2/hw
		: > "$STEAL"
		now=1000 busy=5000 steal=70 own=300
		boot_start
		now=$((now + $6)) busy=$((busy + $3)) steal=$((steal + $4)) own=$((own + $5))
		steal_note test
		cat "$STEAL"' note "$TOP" "$d" "$@"
}

t_expect 0 "an own 2 s spin" own_spin 2
t_expect 0 "is the benchmark's own CPU time ($T_OUT ticks >= 50)" test "$T_OUT" -ge 50

t_expect 0 "a boot that took all the busy time itself" note 800 0 800 4
t_grep '^- test: host steal 0\.0% of CPU time, other host work 0\.0%, over 4 s$' \
	"has no other host work"
t_expect 0 "a boot beside another process's 2 CPU-seconds" note 800 80 400 4
t_grep '^- test: host steal 10\.0% of CPU time, other host work 50\.0%, over 4 s$' \
	"has other work (800 - 400) / (4 s x 2 CPUs) and steal 80 / 8"
t_expect 0 "own ticks above the busy ones (reaped after the counters moved)" \
	note 100 0 300 4
t_grep 'other host work 0\.0%, over 4 s$' "never count negative other work"
t_expect 0 "a boot under a second" note 100 0 0 0
t_grep 'other host work 50\.0%, over 1 s$' "counts as one second"
t_end

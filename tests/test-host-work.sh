#!/bin/sh
# scripts/host-work.sh, make bench's note of how much of the host each boot had: CPU
# time the benchmark's own children took is not "other host work", a process that is
# not its child is. Each case spins for 3 s on this machine's CPUs.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

# note SPIN_OWN SPIN_OTHER: one boot_start/steal_note around an own spin of 3 s (a
# reaped child) and, if asked, a 3 s spin of a process that is not a child
note() {
	sh -c '. "$1/scripts/host-work.sh"
		stage() { :; }
		STEAL=$2/steal HOST_WORK_TMP=$2/hw
		: > "$STEAL"
		boot_start
		[ "$4" = 0 ] || ( timeout 3 sh -c "while :; do :; done" & )
		[ "$3" = 0 ] || timeout 3 sh -c "while :; do :; done" || :
		[ "$3" = 1 ] || sleep 3
		steal_note test
		cat "$STEAL"' note "$TOP" "$d" "$@"
}
# other_pct: the "other host work" figure of the last note
other_pct() { printf '%s\n' "$T_OUT" | sed -n 's/.*other host work \([0-9.]*\)%.*/\1/p'; }

t_expect 0 "an own 3 s spin" note 1 0
t_grep '^- test: host steal [0-9.]+% of CPU time, other host work [0-9.]+%, over [0-9]+ s$' "gives one note"
o=$(other_pct)
if awk -v o="$o" 'BEGIN { exit !(o < 25) }'; then
	t_ok "the benchmark's own CPU time is not other work ($o% < 25%)"
else
	t_not_ok "the benchmark's own CPU time is not other work ($o% < 25%)"
fi
t_expect 0 "an own 3 s spin beside another process's" note 1 1
o=$(other_pct)
if awk -v o="$o" -v n="$(nproc)" 'BEGIN { exit !(o >= 50 / n) }'; then
	t_ok "the other process's spin is other work ($o% >= one CPU's share / 2)"
else
	t_not_ok "the other process's spin is other work ($o% >= one CPU's share / 2)"
fi
t_end

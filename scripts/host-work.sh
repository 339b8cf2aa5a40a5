# shellcheck shell=sh
# How much of the host a benchmark boot had to itself: host CPU time stolen by the
# hypervisor under this machine, and host CPU time that work other than the benchmark
# took (a build, a test, an editor's checker). Polling needs both host cores (a vCPU
# spins while QEMU's main loop emulates the device), so either one slows polled runs
# more than interrupt-driven ones. Sourced by scripts/bench.sh: `times`, which gives the
# benchmark's own CPU time (its reaped children: the boots), must run in that shell, as a
# command substitution's subshell has no children yet.
# /proc/stat counts in USER_HZ = 100 ticks per second, so ticks / (seconds x CPUs) is a
# percentage.
# Needs: STEAL (the file the notes go to), HOST_WORK_TMP (a scratch file prefix), stage().

# host_ticks: "busy steal" ticks of all CPUs so far
host_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $9 + 0 }' /proc/stat; }

# own_ticks FILE: write the CPU ticks this shell's reaped children took to FILE
own_ticks() {
	times > "$1.times"
	awk 'NR == 2 { n = 0
		for (i = 1; i <= 2; i++) { split($i, t, "m"); n += t[1] * 60 + t[2] }
		printf "%d\n", n * 100 }' "$1.times" > "$1"
}

# boot_start: remember the host's counters at the start of a boot
boot_start() {
	t_boot=$(date +%s) h_boot=$(host_ticks)
	own_ticks "$HOST_WORK_TMP.boot"
}

# steal_note LABEL: append "- LABEL: host steal N% of CPU time, other host work N%, over
# S s" to $STEAL, for the time since boot_start
steal_note() {
	_dt=$(($(date +%s) - t_boot))
	[ "$_dt" -gt 0 ] || _dt=1
	own_ticks "$HOST_WORK_TMP.now"
	_pct=$(awk -v t="$_dt" -v n="$(nproc)" \
		-v c="$(($(cat "$HOST_WORK_TMP.now") - $(cat "$HOST_WORK_TMP.boot")))" \
		'BEGIN { split(ARGV[1], a, " "); split(ARGV[2], b, " "); ARGC = 1
			other = (b[1] - a[1] - c) / (t * n); if (other < 0) other = 0
			printf "%.1f %.1f", (b[2] - a[2]) / (t * n), other }' "$h_boot" "$(host_ticks)")
	echo "- $1: host steal ${_pct% *}% of CPU time, other host work ${_pct#* }%, over $_dt s" >> "$STEAL"
	stage "bench: $1: host steal ${_pct% *}%, other host work ${_pct#* }% of CPU time"
}

# shellcheck shell=sh
# Helpers for the host-side tests of the tooling: tests/test-*.sh print TAP and exit 1 on failure.
# shellcheck disable=SC2034 # TOP is used by the tests that source this file
TOP=$(cd "$(dirname "$0")/.." && pwd)
T_N=0
T_FAIL=0

t_ok() {
	T_N=$((T_N + 1))
	printf 'ok %d - %s\n' "$T_N" "$*"
}

t_not_ok() {
	T_N=$((T_N + 1))
	T_FAIL=$((T_FAIL + 1))
	printf 'not ok %d - %s\n' "$T_N" "$*"
}

# t_expect RC DESC CMD...: run CMD (output in $T_OUT), the test passes iff it exits RC
# (RC "nonzero" accepts any failure).
t_expect() {
	_want=$1 _desc=$2
	shift 2
	_rc=0
	T_OUT=$("$@" 2>&1) || _rc=$?
	if [ "$_want" = nonzero ] && [ "$_rc" -ne 0 ] || [ "$_want" = "$_rc" ]; then
		t_ok "$_desc"
	else
		t_not_ok "$_desc"
		printf '%s\n' "$T_OUT" | tail -20 | sed 's/^/#   /'
		printf '#   wanted exit %s, got %s: %s\n' "$_want" "$_rc" "$*"
	fi
}

# t_grep PATTERN DESC: the last t_expect output matches PATTERN (grep -E).
t_grep() {
	if printf '%s\n' "$T_OUT" | grep -qE -- "$1"; then
		t_ok "$2"
	else
		t_not_ok "$2"
		printf '%s\n' "$T_OUT" | tail -10 | sed 's/^/#   /'
	fi
}

# t_bench_line KERNEL BOOT DEV MODE RW BS JOBS REP IOPS IRQS: one BENCH line as make
# bench's guest/bench.sh prints it, 1 s long (ios = IOPS), the other fields fixed.
t_bench_line() {
	printf 'BENCH kernel=%s boot=%s dev=%s mode=%s rw=%s bs=%s jobs=%s rep=%s iops=%s bw_kib=%s lat_mean_us=100.0 lat_p50_us=90.0 lat_p99_us=300.0 lat_p999_us=900.0 cpu_usr=10 cpu_sys=40 ios=%s runtime_ms=1000 error=0 lat_cdf_us=1:50/50:90/99:300 irqs=%s busy_ms=500 io_poll=0 poll_delay=-1\n' \
		"$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" $(($9 * 4)) "$9" "${10}"
}

t_end() {
	printf '1..%d\n' "$T_N"
	[ "$T_FAIL" -eq 0 ]
}

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

t_end() {
	printf '1..%d\n' "$T_N"
	[ "$T_FAIL" -eq 0 ]
}

# shellcheck shell=sh
# TAP helpers for guest scripts: . /guest/lib/tap.sh; tap_check "desc" cmd...; tap_end
# Output follows doc/interfaces.md: `ok N - desc`, `not ok N - desc`, `# diag`, plan at the end.
TAP_N=0
TAP_FAIL=0

tap_diag() {
	printf '# %s\n' "$*"
}

tap_ok() {
	TAP_N=$((TAP_N + 1))
	printf 'ok %d - %s\n' "$TAP_N" "$*"
}

tap_not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAIL=$((TAP_FAIL + 1))
	printf 'not ok %d - %s\n' "$TAP_N" "$*"
}

# tap_skip DESC REASON
tap_skip() {
	TAP_N=$((TAP_N + 1))
	printf 'ok %d - %s # SKIP %s\n' "$TAP_N" "$1" "$2"
}

# tap_check DESC CMD [ARG...]: one test; the command's output becomes diagnostics on failure.
tap_check() {
	_desc=$1
	shift
	if _out=$("$@" 2>&1); then
		tap_ok "$_desc"
	else
		_rc=$?
		tap_not_ok "$_desc"
		printf '%s\n' "$_out" | tail -20 | sed 's/^/#   /'
		tap_diag "  exit code $_rc: $*"
	fi
}

# tap_relay FILE: the TAP another script wrote to FILE, its tests renumbered into this
# script's sequence and every other line a diagnostic. Fails when FILE has no plan or
# a plan other than its number of tests: that script stopped before its end.
tap_relay() {
	_tr_n=0
	_tr_plan=''
	while IFS= read -r _tr_l || [ -n "$_tr_l" ]; do
		case $_tr_l in
		'ok '[0-9]*' - '*)
			_tr_n=$((_tr_n + 1))
			tap_ok "${_tr_l#* - }"
			;;
		'not ok '[0-9]*' - '*)
			_tr_n=$((_tr_n + 1))
			tap_not_ok "${_tr_l#* - }"
			;;
		1..[0-9]*) _tr_plan=${_tr_l#1..} ;;
		'#' | '# '* | 'BENCH '*) printf '%s\n' "$_tr_l" ;;
		*) printf '#   %s\n' "$_tr_l" ;;
		esac
	done < "$1"
	[ -n "$_tr_plan" ] && [ "$_tr_plan" = "$_tr_n" ]
}

# tap_end: print the plan; succeeds iff no test failed.
tap_end() {
	printf '1..%d\n' "$TAP_N"
	[ "$TAP_FAIL" -eq 0 ]
}

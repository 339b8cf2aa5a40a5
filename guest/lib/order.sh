# shellcheck shell=sh
# Run order for the benchmarks: each repetition starts at a different mode, so
# that a guest slowing down over a boot (TCG on a busy host) favours no mode.

# rotated N WORD...: the words from the (N mod count)th on, then the others
rotated() {
	_n=$1
	shift
	_i=$((_n % $#))
	while [ "$_i" -gt 0 ]; do
		_w=$1
		shift
		set -- "$@" "$_w"
		_i=$((_i - 1))
	done
	echo "$@"
}

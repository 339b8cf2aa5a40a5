#!/bin/sh
# Show that every class of reliability check can fail: boot the guest once per case with
# that check broken on purpose and require the boot to report "not ok" (where the case
# names the check, a "not ok" of that check). Exits 1 if a broken variant passed.
# usage: reliability-breaks.sh [CASE...]     (default "a b c d e f nopoll ctlpoll")
#   a..f     reliability.sh only=X break=X: that phase's own break (guest/reliability.sh)
#   nopoll   reliability.sh only=ace break=nopoll: io_poll left 0 where integrity, signals
#            and scheduling want polling: their "its I/O polled" checks must fail
#   ctlpoll  reliability.sh only=e break=ctlpoll: io_poll 1 in scheduling's io_poll=0
#            control: its "did not poll" check must fail
#   off      the series' polling switched off at boot, nothing else changed
#            (nvme.spare_poll_queues=0: no poll queues, as stock sets a controller up):
#            smoke.sh and reliability.sh only=e must fail
# env:   VARIANT (normal; the checks, not the kernel, are under test), RESULTS
set -eu
. "$(dirname "$0")/lib.sh"

CASES=${*:-a b c d e f nopoll ctlpoll}
RESULTS=${RESULTS:-$BUILD/results}
VARIANT=${VARIANT:-normal}
export VARIANT
mkdir -p "$RESULTS"
missed=''

# must_fail NAME PATTERN APPEND RUN [ARG...]: boot RUN ARG... (kernel command line
# plus APPEND) into $RESULTS/rel-break-NAME.log; it must fail with a "not ok" line
# matching PATTERN (grep -E; '' matches any)
must_fail() {
	_n=$1 _pat=$2 _app=$3
	shift 3
	_log=$RESULTS/rel-break-$_n.log
	stage "reliability-breaks: $_n: $* broken on purpose${_app:+ ($_app)} ($VARIANT kernel), log $_log"
	if EXTRA_APPEND="$_app" QUIET=1 sh "$TOP/scripts/boot.sh" -l "$_log" -t 1500 "$@"; then
		stage "reliability-breaks: $_n PASSED although broken"
		missed="$missed $_n"
		return 0
	fi
	_m=''
	[ -z "$_pat" ] || _m=" matching /$_pat/"
	_k=$(grep '^not ok' "${_log%.log}.tap" 2>/dev/null | grep -cE -- "$_pat" || true)
	if [ "${_k:-0}" -eq 0 ]; then
		stage "reliability-breaks: $_n failed without a 'not ok'$_m (boot trouble, or another check)"
		missed="$missed $_n"
	else
		stage "reliability-breaks: $_n caught: $_k not ok$_m"
		grep '^not ok' "${_log%.log}.tap" | sed 's/^/    /'
	fi
}

for c in $CASES; do
	case $c in
	[a-f]) must_fail "$c" '' '' reliability.sh "only=$c" "break=$c" ;;
	nopoll) must_fail nopoll 'its I/O polled' '' reliability.sh only=ace break=nopoll ;;
	ctlpoll) must_fail ctlpoll 'did not poll' '' reliability.sh only=e break=ctlpoll ;;
	off)
		must_fail off-smoke 'poll' nvme.spare_poll_queues=0 smoke.sh
		must_fail off-e 'poll' nvme.spare_poll_queues=0 reliability.sh only=e
		;;
	*) die "reliability-breaks: unknown case $c (a..f, nopoll, ctlpoll, off)" ;;
	esac
done
[ -z "$missed" ] || die "reliability-breaks: broken case(s) not caught:$missed"
stage "reliability-breaks: every broken case ($CASES) was caught"

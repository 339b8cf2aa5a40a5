#!/bin/sh
# Show that every class of reliability check can fail: boot guest/reliability.sh once per
# phase with that phase broken on purpose (break=<phase>, only=<phase>) and require each
# boot to report "not ok". Exits 1 if a broken variant passed.
# usage: reliability-breaks.sh [PHASES]     (default "a b c d e f")
# env:   VARIANT (normal; the checks, not the kernel, are under test), RESULTS
set -eu
. "$(dirname "$0")/lib.sh"

PHASES=${1:-a b c d e f}
RESULTS=${RESULTS:-$BUILD/results}
VARIANT=${VARIANT:-normal}
export VARIANT
mkdir -p "$RESULTS"
missed=''
for p in $PHASES; do
	log=$RESULTS/rel-break-$p.log
	stage "reliability-breaks: phase $p broken on purpose ($VARIANT kernel), log $log"
	if QUIET=1 sh "$TOP/scripts/boot.sh" -l "$log" -t 1500 reliability.sh "only=$p" "break=$p"; then
		stage "reliability-breaks: phase $p PASSED although broken"
		missed="$missed $p"
		continue
	fi
	n=$(grep -c '^not ok' "${log%.log}.tap" 2>/dev/null || true)
	if [ "${n:-0}" -eq 0 ]; then
		stage "reliability-breaks: phase $p failed without a 'not ok' (boot trouble, not the check)"
		missed="$missed $p"
	else
		stage "reliability-breaks: phase $p caught: $n not ok"
		grep '^not ok' "${log%.log}.tap" | sed 's/^/    /'
	fi
done
[ -z "$missed" ] || die "reliability-breaks: broken phase(s) not caught:$missed"
stage "reliability-breaks: every broken phase ($PHASES) was caught"

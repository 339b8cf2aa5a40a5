#!/bin/sh
# Reliability of synchronous polling (meant for the debug kernel: lockdep, KASAN, hung
# task detection; about 10 min under TCG on 2 vCPUs), one test a file in
# /guest/reliability/, as blktests keeps its tests, run in this order:
#  f bad-input   junk to io_poll / io_poll_delay fails, value unchanged; uid 1000 cannot write
#  a integrity   >= 1 GiB written and crc32c verified, raw and ext4, classic and hybrid
#  b switching   io_poll 0 -> 1 >= 1000 times under verifying load
#  c signals     polled fio and dd readers signalled, then SIGKILLed: gone, data intact
#  d faults      controller resets, queue freezes, fail_make_request, fail_io_timeout
#  e scheduling  6 polling jobs on 2 vCPUs all progress, a nice -10 task keeps CPU
# Each test names the tools it REQUIRES and its DEADLINE (seconds on the normal kernel,
# 3x under KASAN) and prints its own TAP; this runner runs each in a shell of its own
# under that deadline (a miss dumps the blocked tasks, sysrq w, and kills the test) and
# relays its TAP: a test that fails, stops early or hangs costs its own checks and one
# more, never a later test's.
# args: only=<letters> (e.g. only=af) runs some tests; break=<letter> (or env
# BLKPOLL_BREAK) breaks one check of that test on purpose, to show it can fail.
set -u
. /guest/lib/tap.sh
. /guest/lib/deadline.sh

BLKPOLL_BREAK=${BLKPOLL_BREAK:-}
ONLY=fabcde
for a in "$@"; do
	case $a in
	break=*) BLKPOLL_BREAK=${a#break=} ;;
	only=*) ONLY=${a#only=} ;;
	*) tap_not_ok "reliability: argument $a is one of only= and break=" ;;
	esac
done
export BLKPOLL_BREAK

SLOW=1
if dmesg | grep -q 'KernelAddressSanitizer initialized'; then SLOW=3; fi
T0=$(dl_now)
tap_diag "reliability: kernel $(uname -r), $(nproc) CPUs, disk ${BLKPOLL_DISK:-none}, $(fio --version), tests $ONLY${BLKPOLL_BREAK:+, break=$BLKPOLL_BREAK}"

for t in f:bad-input a:integrity b:switching c:signals d:faults e:scheduling; do
	letter=${t%%:*} name=${t#*:}
	case $ONLY in *"$letter"*) ;; *) continue ;; esac
	file=/guest/reliability/$name.sh
	secs=$(sed -n 's/^DEADLINE=\([0-9][0-9]*\)$/\1/p' "$file")
	if [ -z "$secs" ]; then
		tap_not_ok "$name: $file declares its DEADLINE"
		continue
	fi
	requires=$(sed -n 's/^REQUIRES="\(.*\)"$/\1/p' "$file")
	missing=''
	for r in $requires; do
		command -v "$r" > /dev/null || missing="$missing $r"
	done
	if [ -n "$missing" ]; then
		tap_not_ok "$name: the image has what it requires (missing:$missing)"
		continue
	fi
	secs=$((secs * SLOW))
	tap_diag "=== $name (phase $letter): deadline $secs s ==="
	t=$(dl_now)
	dl_wait "$secs" sh "$file" || :
	if tap_relay "$DL_OUT"; then
		[ "$DL_RC" != hung ] || tap_not_ok "$name: finished within its $secs s deadline (HUNG, killed)"
	elif [ "$DL_RC" = hung ]; then
		tap_not_ok "$name: finished within its $secs s deadline (HUNG, killed)"
	else
		tap_not_ok "$name: ran to its end (no TAP plan matching its checks; exit status $DL_RC)"
	fi
	t=$(($(dl_now) - t))
	tap_diag "=== $name took $((t / 10)).$((t % 10)) s (total $((($(dl_now) - T0) / 10)) s) ==="
done

dmesg | grep -E 'nvme|poll' | tail -15 | sed 's/^/# dmesg: /'
tap_diag "reliability: $((($(dl_now) - T0) / 10)) s"
tap_end

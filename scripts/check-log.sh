#!/bin/sh
# Judge one guest console log: write X.tap (TAP lines) and X.bench (BENCH lines) next to
# X.log, then fail when there is no BLKPOLL-DONE line, rc != 0, or a kernel splat.
# usage: check-log.sh LOG      env: ALLOW_SPLATS=1 reports splats without failing
set -eu
. "$(dirname "$0")/lib.sh"

LOG=${1:?usage: check-log.sh LOG}
[ -f "$LOG" ] || die "check-log: $LOG not found"
base=${LOG%.log}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT INT TERM
tr -d '\r' < "$LOG" > "$tmp"

# Guest output is untimestamped; kernel lines carry "[ secs.usecs]" (PRINTK_TIME).
grep -E '^(ok|not ok)( |$)|^#|^1\.\.[0-9]+|^TAP version|^Bail out!' "$tmp" > "$base.tap" || true
grep -E '^BENCH ' "$tmp" > "$base.bench" || true

# Kernel splats: only on timestamped kernel lines, so a test printing the words is harmless.
# Hangs: RCU stalls (a poller spinning without a reschedule point shows up as a
# self-detected stall), soft/hard lockups, hung tasks, and nvme finding a timed-out
# request already completed ("completion polled": a lost polled completion).
# hung_task only with its colon, so a hung_task_* boot parameter is not a splat.
SPLAT='BUG:|WARNING:|Oops|general protection fault|possible circular locking|inconsistent lock state|possible recursive locking|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator|KASAN:|UBSAN:|Kernel panic|BUG: sleeping function'
SPLAT="$SPLAT|self-detected stall on CPU|detected stalls|detected expedited stalls|soft lockup|hard LOCKUP"
SPLAT="$SPLAT|INFO: task|blocked for more than|hung_task:|hung task reports|timeout, completion polled"
splats=$(grep -nE "\[ *[0-9]+\.[0-9]+\].*($SPLAT)" "$tmp" || true)

done_line=$(grep -oE 'BLKPOLL-DONE rc=[0-9]+' "$tmp" | head -1 || true)
rc=${done_line#BLKPOLL-DONE rc=}
# a skip is "ok ... # SKIP" in TAP: counted apart, so that it never reads as a pass
# (the directive as scripts/tap-summary.sh reads it)
skip=$(grep -cE '^ok( |$).*# *SKIP' "$base.tap" || true)
pass=$(($(grep -cE '^ok( |$)' "$base.tap" || true) - skip))
fail=$(grep -cE '^not ok( |$)' "$base.tap" || true)
nbench=$(wc -l < "$base.bench")
printf 'check-log: %s: %s ok, %s skipped, %s not ok, %s BENCH line(s), guest %s\n' "${LOG##*/}" "$pass" "$skip" \
	"$fail" "$nbench" "${done_line:-did not finish}" >&2

bad=0
if [ -n "$splats" ]; then
	printf 'check-log: kernel splat(s) in %s:\n%s\n' "$LOG" "$(printf '%s\n' "$splats" | head -20)" >&2
	if [ "${ALLOW_SPLATS:-0}" = 1 ]; then
		printf 'check-log: ALLOW_SPLATS=1, not failing for them\n' >&2
	else
		bad=1
	fi
fi
if [ -z "$done_line" ]; then
	printf 'check-log: no BLKPOLL-DONE line: the guest crashed, hung or never ran /init (last lines below)\n' >&2
	tail -15 "$tmp" | sed 's/^/  | /' >&2
	bad=1
elif [ "$rc" != 0 ]; then
	printf 'check-log: guest script exited with rc=%s\n' "$rc" >&2
	grep -E '^not ok' "$base.tap" | head -20 | sed 's/^/  /' >&2 || true
	bad=1
fi
exit "$bad"

#!/bin/sh
# The guest's test runner (guest/lib/runner.sh run_group), run on the host with a group
# of made-up tests: a passing test passes, a failing one fails, a missing tool or
# device is "not run" (a SKIP with the reason), a test without DEADLINE fails, a hung
# one is killed and fails, a kernel splat logged after a test's start marker fails
# that test and not the one before, only= picks tests and rejects unknown names.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
mkdir "$d/g"
: > "$d/kmsg"

# mk NAME REQUIRES DEVICES DEADLINE BODY: a test file of group g (its variables
# expand when it runs)
# shellcheck disable=SC2016
mk() {
	printf '#!/bin/sh\nREQUIRES="%s"\nDEVICES="%s"\n%s\n. "$BLKPOLL_TOP/guest/lib/tap.sh"\n%s\ntap_end\n' \
		"$2" "$3" "$4" "$5" > "$d/g/$1.sh"
}
mk pass sh '' DEADLINE=5 'tap_ok "pass: fine"'
mk fail sh '' DEADLINE=5 'tap_not_ok "fail: broken"'
mk notool no-such-tool-here '' DEADLINE=5 'tap_ok "notool: ran"'
mk nodev sh NO_SUCH_DEVICE DEADLINE=5 'tap_ok "nodev: ran"'
mk nodeadline sh '' '' 'tap_ok "nodeadline: ran"'
mk hang sh '' DEADLINE=1 'sleep 30'
# shellcheck disable=SC2016
mk steps sh '' DEADLINE=5 '. "$BLKPOLL_TOP/guest/lib/deadline.sh"; tap_ok "steps: zero"; deadline 2 "steps: one" seq 1 50; deadline 2 "steps: two" true'
# shellcheck disable=SC2016
mk splat sh '' DEADLINE=5 'echo "WARNING: CPU: 0 PID: 1 at block/blk-mq.c:1 x" >> "$BLKPOLL_KMSG"; tap_ok "splat: ran"'

# group NAMES ARG...: run_group over group g on the host
group() {
	_names=$1
	shift
	BLKPOLL_TOP=$TOP BLKPOLL_GUEST=$d BLKPOLL_KMSG=$d/kmsg BLKPOLL_DMESG="cat $d/kmsg" \
		DL_SYSRQ=$d/sysrq DL_DIR=$d DL_INTERRUPTS=/dev/null sh -c '
		. "$1/guest/lib/tap.sh"; . "$1/guest/lib/deadline.sh"; . "$1/guest/lib/kmsg.sh"
		. "$1/guest/lib/slow.sh"; . "$1/guest/lib/runner.sh"
		shift; run_group g "$@"; tap_end' sh "$TOP" "$_names" "$@"
}
export BLKPOLL_TOP

t_expect 0 "a passing test passes" group pass
t_grep '^ok 1 - pass: fine$' "its TAP is relayed"
if grep -q "blkpoll-test: g/pass start" "$d/kmsg"; then t_ok "a marker went to the kernel log"; else t_not_ok "a marker went to the kernel log"; fi
t_expect 0 "a test whose own steps run under deadlines keeps all its TAP" group steps
t_grep '^ok 1 - steps: zero$' "its check before the steps"
t_grep '^ok 2 - steps: one$' "its first step"
t_grep '^ok 3 - steps: two$' "its second step"
t_expect 1 "a failing test fails the group" group fail
t_expect 0 "a missing tool: not run, not failed" group notool
t_grep '^ok 1 - g/notool # SKIP not run: no tool no-such-tool-here$' "reported as a SKIP with the reason"
t_expect 0 "a missing device: not run, not failed" group nodev
t_grep '# SKIP not run: no device NO_SUCH_DEVICE$' "reported as a SKIP with the reason"
t_expect 1 "a test without DEADLINE fails" group nodeadline
t_grep 'declares its DEADLINE' "and says so"
t_expect 1 "a test that outlives its deadline is killed and fails" group hang
t_grep 'HUNG, killed' "and says so"
t_expect 1 "a splat logged after a test's marker fails that test" group "pass splat"
t_grep '^not ok [0-9]+ - g/splat: no kernel splat' "the test that logged it"
t_grep 'dmesg: WARNING: CPU: 0' "with the log line"
t_expect 0 "a splat logged before a test's marker does not fail it" group pass
t_expect 1 "only= with a name the group does not have fails" group "pass fail" only=nosuch
t_expect 0 "only= runs only the tests named" group "pass fail" only=pass
t_grep '^1\.\.1$' "one test ran"
t_end

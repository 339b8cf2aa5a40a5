#!/bin/sh
# The guest's TAP relay (guest/lib/tap.sh tap_relay) and deadlines (guest/lib/deadline.sh
# dl_wait, dl_run), run on the host: a relayed script's tests continue the caller's
# numbering, a script that stopped early fails the relay, and a command that outlives
# its deadline is killed and reported as hung.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

# relay FILE: a guest script with one test of its own, then FILE relayed; prints its TAP
relay() {
	sh -c '. "$1/guest/lib/tap.sh"; tap_ok first; tap_relay "$2" || tap_not_ok "relay: plan"; tap_end' sh "$TOP" "$1"
}

printf 'ok 1 - a - with dash\n# note\nnot ok 2 - b\nstray output\nBENCH x=1\nok 3 - c # SKIP why\n1..3\n' > "$d/full"
t_expect 1 "a relayed failure fails the caller" relay "$d/full"
t_grep '^ok 2 - a - with dash$' "tests continue the caller's numbering, the description whole"
t_grep '^not ok 3 - b$' "a relayed not ok stays not ok"
t_grep '^ok 4 - c # SKIP why$' "a skip stays a skip"
t_grep '^#   stray output$' "other output becomes a diagnostic"
t_grep '^BENCH x=1$' "BENCH lines pass as they are"
t_grep '^1\.\.4$' "one plan, the caller's"

printf 'ok 1 - a\nok 2 - b\n' > "$d/noplan"
t_expect 1 "a script without a plan (stopped early) fails the relay" relay "$d/noplan"
t_grep '^not ok 4 - relay: plan$' "and says so"
printf 'ok 1 - a\n1..3\n' > "$d/short"
t_expect 1 "a plan larger than the tests seen fails the relay" relay "$d/short"
printf 'ok 1 - a\n1..1\n' > "$d/good"
t_expect 0 "a complete passing script passes" relay "$d/good"

# dl SECS CMD...: dl_wait in a shell with the deadline helpers; prints DL_RC and DL_OUT
dl() {
	sh -c '. "$1/guest/lib/tap.sh"; . "$1/guest/lib/deadline.sh"; shift
		dl_wait "$@" || :; echo "DL_RC=$DL_RC"; sed "s/^/out: /" "$DL_OUT"' \
		sh "$TOP" "$@"
}
export DL_SYSRQ="$d/sysrq" DL_DIR="$d"
t_expect 0 "dl_wait runs a command" dl 10 sh -c 'echo hello; exit 3'
t_grep '^DL_RC=3$' "DL_RC is its exit status"
t_grep '^out: hello$' "its output is left in DL_OUT"
start=$(date +%s)
t_expect 0 "dl_wait on a command that outlives its deadline" dl 1 sh -c 'echo started; sleep 60'
t_grep '^DL_RC=hung$' "says hung"
t_expect 0 "and returns within seconds, not the command's 60" test $(($(date +%s) - start)) -lt 20
t_expect 0 "after asking for the blocked tasks (sysrq w)" grep -qx w "$d/sysrq"
dl_run_echo() {
	sh -c '. "$1/guest/lib/tap.sh"; . "$1/guest/lib/deadline.sh"; dl_run 10 echo hi' sh "$TOP"
}
t_expect 0 "dl_run prints the output as diagnostics" dl_run_echo
t_grep '^#   hi$' "prefixed"
# until SECS CMD...: dl_until in a shell with the deadline helpers
until_() {
	sh -c '. "$1/guest/lib/tap.sh"; . "$1/guest/lib/deadline.sh"; shift; dl_until "$@"' sh "$TOP" "$@"
}
t_expect 0 "dl_until: a command that succeeds at once" until_ 5 true
start=$(date +%s)
t_expect 1 "dl_until: a command that never succeeds fails" until_ 1 false
t_expect 0 "after about its SECS, not more" test $(($(date +%s) - start)) -le 3
(sleep 1; : > "$d/appeared") &
t_expect 0 "dl_until: waits for a file that appears after 1 s" until_ 10 test -e "$d/appeared"
wait
t_end

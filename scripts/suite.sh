#!/bin/sh
# Run guest scripts, each in its own boot, then summarise all their TAP.
# usage: suite.sh ENTRY...   ENTRY = script[:arg,arg][@variant], e.g. smoke.sh, io_poll.sh@debug
# env:   RESULTS (default $BUILD/results); boot.sh settings (TIMEOUT, SMP, ...) pass through.
# Every entry runs even when an earlier one failed; the exit status says whether all passed.
# Results: each run in its own folder, $RESULTS/runs/<UTC start, YYYYmmdd-HHMMSS>, so
# a run never overwrites the one before (as rcutorture's kvm.sh keeps res/<date>);
# $RESULTS/latest links to the newest. In it NAME.{log,tap,bench}: NAME = script-variant,
# or script-args-variant when the entry has args (x.sh:a,b -> x-a,b-normal; characters other than
# A-Za-z0-9._=+,- become _), with -N (the entry's number) added when a name repeats.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: suite.sh script[:args][@variant]..."
RESULTS=${RESULTS:-$BUILD/results}
stamp=$(date -u +%Y%m%d-%H%M%S)
RUN_DIR=$RESULTS/runs/$stamp
mkdir -p "$RESULTS/runs"
i=1
until mkdir "$RUN_DIR" 2>/dev/null; do
	i=$((i + 1))
	[ "$i" -le 100 ] || die "suite: cannot make $RUN_DIR"
	RUN_DIR=$RESULTS/runs/$stamp-$i
done
ln -sfn "runs/${RUN_DIR##*/}" "$RESULTS/latest"
stage "suite: results in $RUN_DIR ($RESULTS/latest)"
taps=''
failed=''
names=' '
n=0
for e in "$@"; do
	n=$((n + 1))
	variant=normal
	case $e in *@*) variant=${e##*@} e=${e%@*} ;; esac
	script=${e%%:*}
	args=''
	case $e in *:*) args=${e#*:} ;; esac
	tag=''
	[ -z "$args" ] || tag=-$(printf '%s' "$args" | tr -c 'A-Za-z0-9._=+,-' '_')
	name=${script%.sh}$tag-$variant
	case $names in *" $name "*) name=$name-$n ;; esac
	names="$names$name "
	log=$RUN_DIR/$name.log
	old_ifs=$IFS
	IFS=,
	# shellcheck disable=SC2086 # split the args at commas
	set -- $args
	IFS=$old_ifs
	if ! sh "$TOP/scripts/boot.sh" -v "$variant" -l "$log" "$script" "$@"; then
		failed="$failed $name"
	fi
	taps="$taps $RUN_DIR/$name.tap"
	[ -f "$RUN_DIR/$name.tap" ] || : > "$RUN_DIR/$name.tap"
done

stage "suite: TAP summary"
sumrc=0
# shellcheck disable=SC2086
sh "$TOP/scripts/tap-summary.sh" $taps || sumrc=$?
[ -z "$failed" ] || die "suite: boot(s) failed:$failed (logs in $RUN_DIR)"
[ "$sumrc" -eq 0 ] || die "suite: TAP shows failures (logs in $RUN_DIR)"
stage "suite: all $n boot(s) passed"

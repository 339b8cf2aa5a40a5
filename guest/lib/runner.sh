# shellcheck shell=sh
# Run a group of guest tests kept one behaviour a file, as blktests keeps tests/block/NNN.
# Needs tap.sh, deadline.sh, kmsg.sh and slow.sh.
#
# A test file /guest/GROUP/NAME.sh (BLKPOLL_GUEST replaces /guest) declares, before any code:
#   REQUIRES="fio dmsetup"          tools it runs (command -v)
#   DEVICES="BLKPOLL_DISK ..."      environment variables that must name block devices
#   DEADLINE=120                    seconds on the normal kernel (x3 under KASAN)
# and prints its own TAP. run_group runs each in a shell of its own under its deadline
# (a miss dumps the blocked tasks and kills it) and relays its TAP, so a test that
# fails, stops early or hangs costs its own checks and one more, never a later test's.
# Per test it also writes a marker to the kernel log at the start and fails the test
# when the log after the marker shows a splat. A test the machine cannot run (a tool
# or device missing) is one "# SKIP not run: ..." line, which tap-summary.sh counts
# apart from passes and failures.

# run_group GROUP "NAME..." ARG...: run GROUP/NAME.sh for each NAME, in order.
# ARGs: only=a+b (some of the NAMEs), break=X (exported as BLKPOLL_BREAK: a test
# breaks one of its checks on purpose); any other name=value is exported as
# BLKPOLL_ARG_name for the tests (e.g. big=64 -> BLKPOLL_ARG_big).
run_group() {
	_rg_group=$1 _rg_names=$2
	shift 2
	_rg_only=''
	for _rg_a in "$@"; do
		case $_rg_a in
		only=*) _rg_only=${_rg_a#only=} ;;
		break=*) BLKPOLL_BREAK=${_rg_a#break=} ;;
		[a-z]*=*) export "BLKPOLL_ARG_${_rg_a%%=*}=${_rg_a#*=}" ;;
		*) tap_not_ok "$_rg_group: argument $_rg_a is only=, break= or name=value" ;;
		esac
	done
	export BLKPOLL_BREAK="${BLKPOLL_BREAK:-}"
	for _rg_n in $(printf '%s' "$_rg_only" | tr + ' '); do
		case " $_rg_names " in
		*" $_rg_n "*) ;;
		*) tap_not_ok "$_rg_group: only=$_rg_n names a test of $_rg_group ($_rg_names)" ;;
		esac
	done
	_rg_t0=$(dl_now)
	tap_diag "$_rg_group: kernel $(uname -r), $(nproc) CPUs, $(fio --version 2> /dev/null || echo 'no fio'), tests ${_rg_only:-all}${BLKPOLL_BREAK:+, break=$BLKPOLL_BREAK}, deadlines x$SLOW"
	for _rg_n in $_rg_names; do
		[ -z "$_rg_only" ] || case +$_rg_only+ in *"+$_rg_n+"*) ;; *) continue ;; esac
		run_one "$_rg_group" "$_rg_n"
	done
	tap_diag "$_rg_group: $((($(dl_now) - _rg_t0) / 10)) s"
}

# run_one GROUP NAME: one test file (see run_group)
run_one() {
	_ro_t=$1/$2
	_ro_f=${BLKPOLL_GUEST:-/guest}/$_ro_t.sh
	if [ ! -f "$_ro_f" ]; then
		tap_not_ok "$_ro_t: $_ro_f exists"
		return 0
	fi
	_ro_secs=$(sed -n 's/^DEADLINE=\([0-9][0-9]*\)$/\1/p' "$_ro_f")
	if [ -z "$_ro_secs" ]; then
		tap_not_ok "$_ro_t: $_ro_f declares its DEADLINE"
		return 0
	fi
	_ro_why=''
	# shellcheck disable=SC2013 # a list of names
	for _ro_r in $(sed -n 's/^REQUIRES="\(.*\)"$/\1/p' "$_ro_f"); do
		command -v "$_ro_r" > /dev/null || _ro_why="$_ro_why tool $_ro_r,"
	done
	# shellcheck disable=SC2013 # a list of names
	for _ro_d in $(sed -n 's/^DEVICES="\(.*\)"$/\1/p' "$_ro_f"); do
		eval "_ro_dev=\${$_ro_d:-}"
		# shellcheck disable=SC2154 # set by the eval
		[ -n "$_ro_dev" ] && [ -b "$_ro_dev" ] || _ro_why="$_ro_why device $_ro_d,"
	done
	if [ -n "$_ro_why" ]; then
		tap_skip "$_ro_t" "not run: no${_ro_why%,}"
		return 0
	fi
	_ro_secs=$(s "$_ro_secs")
	tap_diag "=== $_ro_t: deadline $_ro_secs s ==="
	_ro_t0=$(dl_now)
	kmsg_mark "$_ro_t start $_ro_t0"
	# the test's own deadlines (deadline.sh) number their output files from 1 as
	# this shell's do: they get a directory of their own
	mkdir -p "$DL_DIR/test"
	dl_wait "$_ro_secs" env DL_DIR="$DL_DIR/test" sh "$_ro_f" || :
	if tap_relay "$DL_OUT"; then
		[ "$DL_RC" != hung ] || tap_not_ok "$_ro_t: finished within its $_ro_secs s deadline (HUNG, killed)"
	elif [ "$DL_RC" = hung ]; then
		tap_not_ok "$_ro_t: finished within its $_ro_secs s deadline (HUNG, killed)"
	else
		tap_not_ok "$_ro_t: ran to its end (no TAP plan matching its checks; exit status $DL_RC)"
	fi
	if _ro_bad=$(kmsg_bad "$_ro_t start $_ro_t0"); then
		tap_not_ok "$_ro_t: no kernel splat or hang in the log since its start"
		printf '%s\n' "$_ro_bad" | head -20 | sed 's/^/#   dmesg: /'
	fi
	_ro_t0=$(($(dl_now) - _ro_t0))
	tap_diag "=== $_ro_t took $((_ro_t0 / 10)).$((_ro_t0 % 10)) s ==="
}

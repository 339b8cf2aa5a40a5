#!/bin/sh
# Reliability of synchronous polling (meant for the debug kernel: lockdep, KASAN, hung
# task detection; sized for about 25 min under TCG on 2 vCPUs):
#  a integrity under load: >= 1 GiB written and crc32c verified (verify_backlog), raw
#    disk and ext4 files, classic (io_poll_delay=-1) and hybrid (0), numjobs 1 and 4
#  b switching under load: io_poll 0 -> 1 >= 1000 times, io_poll_delay -1/0/50 in
#    between, under rounds of 4 verifying psync jobs
#  c signals: polled fio and dd readers get thousands of USR1/STOP/CONT, then SIGKILL:
#    gone within 30 s, data intact
#  d faults: controller resets under polled verify I/O; queue freezes (nr_requests,
#    scheduler); fail_make_request and fail_io_timeout: errors reach fio/dd as EIO
#  e scheduling: 6 polling jobs on 2 vCPUs all make progress, a nice -10 task keeps CPU
#  f bad input: junk written to io_poll / io_poll_delay fails, value unchanged; uid
#    1000 cannot write them
# args: only=<letters> (e.g. only=af) runs some phases; break=<a..f> (or env
# BLKPOLL_BREAK) breaks one check of that phase on purpose, to show it can fail.
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh

BREAK=${BLKPOLL_BREAK:-}
ONLY=abcdef
for a in "$@"; do
	case $a in
	break=*) BREAK=${a#break=} ;;
	only=*) ONLY=${a#only=} ;;
	esac
done
want() { case $ONLY in *"$1"*) return 0 ;; esac; return 1; }

DISK=${BLKPOLL_DISK:-}
T0=$(uptime_ds)
tap_diag "reliability: kernel $(uname -r), $(nproc) CPUs, disk ${DISK:-none}, $(fio --version), phases $ONLY${BREAK:+, BREAK=$BREAK}"
if [ -z "$DISK" ] || [ ! -b "$DISK" ]; then
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
	tap_end
	exit 1
fi
DEV=${DISK#/dev/}
CTRL=$(nvme_ctrl "$DISK")
QP=$(qattr "$DISK" io_poll)
QD=$(qattr "$DISK" io_poll_delay)
MNT=/mnt/rel
mkdir -p "$MNT"
# Disk layout: ext4 in the first 512 MiB (phase a), raw test regions above.
RAW=536870912
tap_diag "disk $DISK ($(($(cat "/sys/block/$DEV/size") / 2048)) MiB) on $CTRL; raw regions from byte $RAW; io_poll=$(cat "$QP") io_poll_delay=$(cat "$QD")"

phase_start() {
	PHASE_T=$(uptime_ds)
	tap_diag "=== phase $1 ==="
}
phase_end() {
	_t=$(($(uptime_ds) - PHASE_T))
	tap_diag "=== phase $1 took $((_t / 10)).$((_t % 10)) s (total $((($(uptime_ds) - T0) / 10)) s) ==="
}

# poll_on: io_poll=1 (first time: NVMe controller reset), classic polling
poll_on() {
	set_io_poll "$DISK" 1 && set_attr "$QD" -1
}

# fio options of a verifying psync job; region jobs add --offset / --offset_increment
VFY="--ioengine=psync --direct=1 --verify=crc32c --randrepeat=1"

# ---------------------------------------------------------------- f: bad input
# try_junk ATTR VALUE: writing VALUE must fail and leave ATTR as it was. dd writes it
# in one write(2): printf to a stdout that started as the console is line buffered and
# would cut "1<NL>2" into a valid "1<NL>" and a "2".
JUNK_FAIL=0 JUNK_N=0
try_junk() {
	_before=$(cat "$1")
	JUNK_N=$((JUNK_N + 1))
	if printf '%s' "$2" | dd of="$1" bs=65536 count=1 iflag=fullblock conv=notrunc 2>/dev/null; then
		_r="accepted"
	else
		_r="rejected"
	fi
	_after=$(cat "$1")
	[ -z "${JUNK_DEBUG:-}" ] || echo "# dbg '$(printf '%s' "$2" | head -c 12 | tr '\n\t' '|>')' $_r $_before->$_after"
	if [ "$_r" = rejected ] && [ "$_after" = "$_before" ]; then
		return 0
	fi
	JUNK_FAIL=$((JUNK_FAIL + 1))
	tap_diag "  ${1##*/} <- '$(printf '%s' "$2" | head -c 40 | tr '\n\t' '|>')' ($(printf '%s' "$2" | wc -c) bytes): $_r, $_before -> $_after"
	return 1
}

# junk_settled ATTR VALUE: ATTR still reads VALUE a while after the junk (io_poll reads
# 1 only once a poll queue is up: a junk write that started one shows late)
junk_settled() {
	sleep 2
	_v=$(cat "$1")
	[ "$_v" = "$2" ] && return 0
	JUNK_FAIL=$((JUNK_FAIL + 1))
	tap_diag "  ${1##*/} reads $_v 2 s after the junk writes, was $2"
	return 1
}

phase_f() {
	phase_start f
	# 8 KiB of 9s: more than a page, and every piece stdio may cut it into overflows
	big=$(printf '%8192s' '' | tr ' ' 9)
	# values that are junk for both attributes
	common="
-
1abc
abc
0x1
1.5
 1
1 
	1
++1
1-
99999999999999999999
18446744073709551616
-99999999999999999999"
	# (newline separated; entries with a newline in them are tried one by one below)
	# the first 1 starts a controller reset to add a poll queue: a second 1 while it
	# runs is a valid write too and must succeed (interfaces.md: only junk is EINVAL)
	if [ "$(cat "$QP")" = 0 ]; then
		e1=$(set_attr "$QP" 1 2>&1) && r1=0 || r1=$?
		e2=$(set_attr "$QP" 1 2>&1) && r2=0 || r2=$?
		if [ "$r1" = 0 ] && [ "$r2" = 0 ]; then
			tap_ok "io_poll: 1 written twice in a row (second during the poll queue reset) succeeds both times"
		else
			tap_not_ok "io_poll: 1 written twice in a row succeeds both times (first: ${e1:-ok}, second: ${e2:-ok})"
		fi
		set_io_poll "$DISK" 1 || true
		set_io_poll "$DISK" 0 || true
	fi
	for start in 0 1; do
		if ! set_io_poll "$DISK" "$start"; then
			tap_not_ok "io_poll=$start before the junk writes"
			continue
		fi
		JUNK_FAIL=0 JUNK_N=0
		old_ifs=$IFS
		IFS='
'
		for v in $common -1 2 4294967296 4294967297 -0 10 01x; do
			IFS=$old_ifs
			try_junk "$QP" "$v" || true
		done
		IFS=$old_ifs
		try_junk "$QP" "
" || true
		try_junk "$QP" "1
2" || true
		try_junk "$QP" "$big" || true
		try_junk "$QP" "1$big" || true
		if [ "$BREAK" = f ]; then try_junk "$QP" $((1 - start)) || true; fi
		junk_settled "$QP" "$start" || true
		if [ "$JUNK_FAIL" -eq 0 ]; then
			tap_ok "io_poll=$start: $JUNK_N junk writes (empty, negative, overflow, non-numeric, whitespace, 8 KiB, 1abc) all fail, value unchanged"
		else
			tap_not_ok "io_poll=$start: $JUNK_FAIL of $JUNK_N junk writes were accepted or changed the value"
		fi
	done
	for start in -1 0 50; do
		set_attr "$QD" "$start" || true
		JUNK_FAIL=0 JUNK_N=0
		old_ifs=$IFS
		IFS='
'
		for v in $common -2 -1000 1000001 2147483648 -2147483649 4294967295 50us 5e1 --1; do
			IFS=$old_ifs
			try_junk "$QD" "$v" || true
		done
		IFS=$old_ifs
		try_junk "$QD" "
" || true
		try_junk "$QD" "$big" || true
		try_junk "$QD" "-$big" || true
		if [ "$BREAK" = f ]; then try_junk "$QD" 7 || true; fi
		junk_settled "$QD" "$start" || true
		if [ "$JUNK_FAIL" -eq 0 ]; then
			tap_ok "io_poll_delay=$start: $JUNK_N junk writes all fail, value unchanged"
		else
			tap_not_ok "io_poll_delay=$start: $JUNK_FAIL of $JUNK_N junk writes were accepted or changed the value"
		fi
	done
	tap_diag "  (empty = a lone newline: a write(2) of 0 bytes never reaches the store)"

	# the ABI takes 0 and 1 only (doc/interfaces.md); y/n are junk and change nothing
	bad=''
	for v in 1 0 1 0; do
		if printf '%s\n' "$v" > "$QP" 2>/dev/null; then
			got=$(cat "$QP")
			[ "$got" = "$v" ] || bad="$bad $v->$got"
		else
			bad="$bad $v:rejected"
		fi
	done
	for v in y n; do
		before=$(cat "$QP")
		if printf '%s\n' "$v" > "$QP" 2>/dev/null; then
			bad="$bad $v:accepted"
		fi
		[ "$(cat "$QP")" = "$before" ] || bad="$bad $v:changed"
	done
	if [ -z "$bad" ]; then
		tap_ok "io_poll accepts 1/0 and rejects y/n (newline terminated)"
	else
		tap_not_ok "io_poll accepts 1/0 and rejects y/n (failed:$bad)"
	fi
	bad=''
	for v in -1 0 1 50 1000000 -1; do
		if printf '%s\n' "$v" > "$QD" 2>/dev/null && [ "$(cat "$QD")" = "$v" ]; then :; else bad="$bad $v"; fi
	done
	if [ -z "$bad" ]; then
		tap_ok "io_poll_delay accepts -1, 0, 1, 50, 1000000"
	else
		tap_not_ok "io_poll_delay accepts -1, 0, 1, 50, 1000000 (failed:$bad)"
	fi

	# uid 1000 may read, not write
	set_io_poll "$DISK" 1 || true
	set_attr "$QD" 50 || true
	for pair in "$QP:0" "$QP:1" "$QD:-1" "$QD:0"; do
		attr=${pair%:*} v=${pair##*:}
		before=$(cat "$attr")
		if [ "$BREAK" = f ] && [ "$attr" = "$QD" ] && [ "$v" = 0 ]; then
			out=$(sh -c "printf '%s\n' '$v' > '$attr'" 2>&1) && rc=0 || rc=$?
		else
			out=$(su -s /bin/sh -c "id -u; printf '%s\n' '$v' > '$attr'" user 2>&1) && rc=0 || rc=$?
		fi
		after=$(cat "$attr")
		if [ "$rc" -ne 0 ] && [ "$after" = "$before" ]; then
			tap_ok "uid 1000 cannot write $v to ${attr##*/} ($(printf '%s' "$out" | tr '\n' ' '))"
		else
			tap_not_ok "uid 1000 cannot write $v to ${attr##*/} (rc=$rc, $before -> $after: $(printf '%s' "$out" | tr '\n' ' '))"
		fi
		got=$(su -s /bin/sh -c "cat '$attr'" user 2>&1) || got="error: $got"
		[ "$got" = "$after" ] || tap_not_ok "uid 1000 reads ${attr##*/} (got '$got', want '$after')"
	done
	set_attr "$QD" -1 || true
	phase_end f
}

# ---------------------------------------------------------------- a: integrity
VERIFIED=0
phase_a() {
	phase_start a
	if ! poll_on; then
		tap_not_ok "integrity: io_poll=1 on $DEV"
		return 0
	fi
	i0=$(irq_count "$CTRL")
	ios=0
	for delay in -1 0; do
		set_attr "$QD" "$delay"
		kind=classic
		[ "$delay" = -1 ] || kind=hybrid
		for nj in 1 4; do
			sz=$((136 / nj))M
			d="integrity raw $kind nj=$nj bsrange=512-256k"
			tap_diag "$d: 136 MiB, io_poll_delay=$(cat "$QD")"
			# shellcheck disable=SC2086 # $VFY is a list of options
			set -- --name="raw$kind" --filename="$DISK" --offset="$RAW" --size="$sz" \
				--offset_increment="$sz" --numjobs="$nj" --rw=randwrite --bsrange=512-256k \
				--verify_backlog=32 $VFY
			fio_run "$@"
			fio_report "$d: written and verified, no errors"
			VERIFIED=$((VERIFIED + FIO_RBYTES))
			ios=$((ios + FIO_RIOS + FIO_WIOS))
			if [ "$nj" = 1 ] && [ "$delay" = -1 ]; then
				[ "$BREAK" != a ] || corrupt_block "$DISK" $((RAW + 65536))
				fio_verify_only "$@"
				fio_report "$d: verify-only re-read finds the data intact"
			fi
		done
	done
	tap_diag "  raw: $(($(irq_count "$CTRL") - i0)) interrupts for $ios I/Os"
	# ext4 in the first 512 MiB
	if mkfs.ext4 -F -q -E nodiscard,lazy_itable_init=0,lazy_journal_init=0 "$DISK" 512M > /tmp/mkfs.log 2>&1 &&
		mount -t ext4 "$DISK" "$MNT"; then
		tap_ok "integrity: mkfs.ext4 (512 MiB) and mount"
		for delay in -1 0; do
			set_attr "$QD" "$delay"
			kind=classic
			[ "$delay" = -1 ] || kind=hybrid
			for nj in 1 4; do
				sz=$((136 / nj))M
				d="integrity ext4 $kind nj=$nj bsrange=512-256k"
				tap_diag "$d: 136 MiB in $nj file(s)"
				# shellcheck disable=SC2086
				fio_run --name="e$kind$nj" --directory="$MNT" --size="$sz" --numjobs="$nj" \
					--rw=randwrite --bsrange=512-256k --verify_backlog=32 $VFY
				fio_report "$d: written and verified, no errors"
				VERIFIED=$((VERIFIED + FIO_RBYTES))
				rm -f "$MNT"/e*
			done
		done
		umount "$MNT" || tap_not_ok "integrity: umount ext4"
	else
		tap_not_ok "integrity: mkfs.ext4 and mount"
		sed 's/^/#   /' /tmp/mkfs.log | tail -5
	fi
	set_attr "$QD" -1
	tap_diag "bytes verified in phase a: $VERIFIED ($((VERIFIED / 1048576)) MiB)"
	echo "BENCH test=reliability phase=integrity verified_bytes=$VERIFIED"
	if [ "$VERIFIED" -ge 1073741824 ]; then
		tap_ok "integrity: at least 1 GiB verified ($((VERIFIED / 1048576)) MiB)"
	else
		tap_not_ok "integrity: at least 1 GiB verified (only $((VERIFIED / 1048576)) MiB)"
	fi
	phase_end a
}

# ---------------------------------------------------------------- b: switching
# Rounds of SWITCH_SECS of verifying load until io_poll went 0 -> 1 SWITCH_CYCLES times
# (at most SWITCH_ROUNDS rounds): a count, because a slower machine toggles less per second.
SWITCH_SECS=${BLKPOLL_SWITCH_SECS:-20} SWITCH_CYCLES=1000 SWITCH_ROUNDS=15
phase_b() {
	phase_start b
	if ! poll_on; then
		tap_not_ok "switching: io_poll=1 on $DEV"
		return 0
	fi
	tap_diag "switching: rounds of 4 psync verify jobs (bsrange 4k-64k, 16 MiB each) for $SWITCH_SECS s while io_poll and io_poll_delay flip"
	n=0 errs=0 cycles=0 nd=0 rounds=0 verified=0 bad=''
	while [ "$cycles" -lt "$SWITCH_CYCLES" ] && [ "$rounds" -lt "$SWITCH_ROUNDS" ]; do
		rounds=$((rounds + 1))
		# shellcheck disable=SC2086
		fio_start --name=switch --filename="$DISK" --offset=$((RAW + 268435456)) --size=16M \
			--offset_increment=16M --numjobs=4 --rw=randwrite --bsrange=4k-64k --verify_backlog=16 \
			--time_based --runtime="$SWITCH_SECS" $VFY
		while fio_running; do
			# io_poll 0 1 0 1 0 1: three cycles; io_poll_delay through -1, 0 and 50 between
			for step in "$QP:0" "$QP:1" "$QD:50" "$QP:0" "$QD:-1" "$QP:1" "$QD:0" "$QP:0" "$QP:1" "$QD:-1"; do
				a=${step%:*} v=${step##*:}
				if [ "$BREAK" = b ] && [ $((n % 500)) = 7 ]; then v=-2; fi
				if printf '%s\n' "$v" > "$a" 2>/dev/null; then :; else errs=$((errs + 1)); fi
				n=$((n + 1))
				if [ "$a" = "$QD" ]; then
					nd=$((nd + 1))
				elif [ "$v" = 1 ]; then
					cycles=$((cycles + 1))
				fi
			done
			# let the I/O run in between
			[ $((n % 120)) -ne 0 ] || sleep 0.05
		done
		fio_wait
		verified=$((verified + FIO_RBYTES))
		if [ -z "$bad" ] && ! fio_passed; then
			bad="round $rounds: $(fio_figures)"
			fio_dump
		fi
	done
	set_attr "$QP" 1 || true
	set_attr "$QD" -1 || true
	tap_diag "  $rounds rounds: $cycles io_poll 0 -> 1 cycles, $nd io_poll_delay writes, failed writes $errs, verified $verified bytes"
	echo "BENCH test=reliability phase=switch toggles=$n cycles=$cycles failed=$errs verified_bytes=$verified rounds=$rounds secs=$((rounds * SWITCH_SECS))"
	if [ "$cycles" -ge "$SWITCH_CYCLES" ]; then
		tap_ok "switching: io_poll 0 -> 1 at least $SWITCH_CYCLES times under load ($cycles)"
	else
		tap_not_ok "switching: io_poll 0 -> 1 at least $SWITCH_CYCLES times under load (only $cycles in $rounds rounds)"
	fi
	if [ "$errs" -eq 0 ]; then tap_ok "switching: every toggle write succeeded"; else tap_not_ok "switching: every toggle write succeeded ($errs failed)"; fi
	if [ -z "$bad" ]; then
		tap_ok "switching: $rounds rounds of 4 verifying jobs exit 0, no I/O or verify error"
	else
		tap_not_ok "switching: $rounds rounds of 4 verifying jobs exit 0, no I/O or verify error ($bad)"
	fi
	phase_end b
}

# ---------------------------------------------------------------- c: signals
SIG_ROUNDS=${BLKPOLL_SIG_ROUNDS:-1000}
phase_c() {
	phase_start c
	if ! poll_on; then
		tap_not_ok "signals: io_poll=1 on $DEV"
		return 0
	fi
	off=$((RAW + 335544320))
	# shellcheck disable=SC2086
	set -- --name=sig --filename="$DISK" --offset="$off" --size=32M --bs=16k $VFY
	fio_run "$@" --rw=randwrite
	fio_report "signals: 32 MiB region written and verified"
	# a polled fio verifying reader (one process: --thread) and a polled dd reader
	fio --name=sigread --filename="$DISK" --offset="$off" --size=32M --bs=16k \
		--ioengine=psync --direct=1 --verify=crc32c --rw=randread --time_based --runtime=900 \
		--thread --output=/tmp/sigread.out > /tmp/sigread.log 2>&1 &
	fpid=$!
	dd if="$DISK" of=/dev/null bs=512 iflag=direct 2> /tmp/sigdd.log &
	dpid=$!
	sleep 2
	sent=0
	r=0
	while [ "$r" -lt "$SIG_ROUNDS" ]; do
		for p in $fpid $dpid; do
			kill -USR1 "$p" 2>/dev/null && sent=$((sent + 1))
			kill -STOP "$p" 2>/dev/null && sent=$((sent + 1))
			kill -CONT "$p" 2>/dev/null && sent=$((sent + 1))
		done
		r=$((r + 1))
	done
	falive=no dalive=no
	[ "$(cut -d' ' -f3 "/proc/$fpid/stat" 2>/dev/null || echo Z)" = Z ] || falive=yes
	[ "$(cut -d' ' -f3 "/proc/$dpid/stat" 2>/dev/null || echo Z)" = Z ] || dalive=yes
	tap_diag "  sent $sent signals (USR1/STOP/CONT) in $r rounds; still running: fio $falive, dd $dalive"
	echo "BENCH test=reliability phase=signals signals=$sent"
	for pp in "fio:$fpid" "dd:$dpid"; do
		what=${pp%:*} p=${pp#*:}
		t=$(uptime_ds)
		kill -KILL "$p" 2>/dev/null || true
		if wait_dead "$p" 30; then
			t=$(($(uptime_ds) - t))
			tap_ok "signals: polled $what reader gone $((t / 10)).$((t % 10)) s after SIGKILL"
		else
			tap_not_ok "signals: polled $what reader gone within 30 s of SIGKILL (state $(cut -d' ' -f3 "/proc/$p/stat"))"
			sed 's/^/#   /' "/proc/$p/stack" 2>/dev/null || true
		fi
	done
	grep -E '^verify|bad magic' /tmp/sigread.log | head -3 | sed 's/^/#   sigread: /' || true
	if grep -qE '^verify|bad magic' /tmp/sigread.log; then
		tap_not_ok "signals: the polled reader saw no corrupt data while signalled"
	else
		tap_ok "signals: the polled reader saw no corrupt data while signalled"
	fi
	[ "$BREAK" != c ] || corrupt_block "$DISK" $((off + 16384 * 9))
	fio_verify_only "$@" --rw=randwrite
	fio_report "signals: verify pass after the kills finds no corruption"
	phase_end c
}

# ---------------------------------------------------------------- d: faults
RESETS=${BLKPOLL_RESETS:-20}
FREEZE_SECS=${BLKPOLL_FREEZE_SECS:-20}
phase_d() {
	phase_start d
	if ! poll_on; then
		tap_not_ok "faults: io_poll=1 on $DEV"
		return 0
	fi
	rc_file=/sys/class/nvme/$CTRL/reset_controller
	off=$((RAW + 369098752))
	# 1. controller resets under polled verify I/O. fio must end by itself (SIGINT
	#    makes it exit 128), so its runtime comes from the time one reset takes.
	t=$(uptime_ds)
	printf '1\n' > "$rc_file" || tap_diag "  probe reset failed"
	set_io_poll "$DISK" 1 || true
	tr=$(($(uptime_ds) - t))
	runtime=$(((RESETS * (tr + 5) * 3 / 2) / 10 + 10))
	tap_diag "resets: one reset took $((tr / 10)).$((tr % 10)) s; $RESETS resets 0.5 s apart under a ${runtime} s polled verify job"
	# shellcheck disable=SC2086
	set -- --name=reset --filename="$DISK" --offset="$off" --size=16M --offset_increment=16M \
		--numjobs=2 --rw=randwrite --bsrange=4k-128k --verify_backlog=16 $VFY
	fio_start "$@" --time_based --runtime="$runtime"
	sleep 1
	n=0 fails=0
	while [ "$n" -lt "$RESETS" ] && fio_running; do
		if printf '1\n' > "$rc_file" 2>/tmp/reset.err; then :; else
			fails=$((fails + 1))
			tap_diag "  reset $n: $(cat /tmp/reset.err)"
		fi
		n=$((n + 1))
		sleep 0.5
	done
	alive=yes
	fio_running || alive=no
	t=$(uptime_ds)
	while fio_running && [ $(($(uptime_ds) - t)) -lt $((runtime * 10 + 600)) ]; do sleep 0.5; done
	if fio_running; then
		tap_not_ok "faults: polled fio finishes after $n controller resets (still running 60 s after its runtime)"
		pgrep -l fio | sed 's/^/#   /'
		for p in $(pgrep fio); do sed 's/^/#   stack: /' "/proc/$p/stack" 2>/dev/null || true; done
		kill -KILL $(pgrep fio) 2>/dev/null || true
	fi
	fio_wait
	tap_diag "  resets: $n written ($fails failed) while fio ran; fio still running after the last: $alive"
	tap_diag "  dmesg: $(dmesg | grep -c 'default/read/poll queues' || true) queue setups since boot"
	echo "BENCH test=reliability phase=resets resets=$n failed=$fails verified_bytes=$FIO_RBYTES"
	if [ "$n" -ge "$RESETS" ] && [ "$fails" -eq 0 ] && [ "$alive" = yes ]; then
		tap_ok "faults: $n controller resets (0.5 s apart) during polled verify I/O"
	else
		tap_not_ok "faults: $RESETS controller resets during polled verify I/O (done $n, failed $fails, fio alive to the last: $alive)"
	fi
	tap_diag "  $(fio_figures)"
	if [ "$FIO_VERR" -eq 0 ] && [ "$FIO_JOBS" -gt 0 ] && { [ "$FIO_RC" -eq 0 ] || [ "$FIO_ERR" -gt 0 ]; }; then
		tap_ok "faults: fio under resets ended, no verify errors, errors only as reported (rc=$FIO_RC, job errors $FIO_ERR)"
	else
		tap_not_ok "faults: fio under resets ended, no verify errors (rc=$FIO_RC, job errors $FIO_ERR, verify errors $FIO_VERR)"
		grep -vE '^ *$' "$FIO_LOG" | head -10 | sed 's/^/#   /'
	fi
	[ "$FIO_ERR" -eq 0 ] || tap_diag "  NOTE: fio reported I/O errors under resets (nvme retries should hide them)"
	# a time based run rewrites the region in different layouts: write + verify afresh,
	# then an independent verify-only re-read
	fio_run "$@"
	fio_report "faults: write + verify after the resets"
	[ "$BREAK" != d ] || corrupt_block "$DISK" "$off"
	fio_verify_only "$@"
	fio_report "faults: verify-only re-read after the resets"
	if set_io_poll "$DISK" 1 && [ "$(cat "$QP")" = 1 ]; then
		tap_ok "faults: io_poll reads 1 after the resets"
	else
		tap_not_ok "faults: io_poll reads 1 after the resets"
	fi
	i0=$(irq_count "$CTRL")
	fio_run --name=after --filename="$DISK" --offset="$off" --size=16M --rw=randread --bs=4k \
		--ioengine=psync --direct=1 --number_ios=2000
	irqs=$(($(irq_count "$CTRL") - i0))
	ipi=$(ratio "$irqs" "$FIO_RIOS")
	tap_diag "  polled psync after resets: $FIO_RIOS I/Os, $irqs interrupts, $ipi per I/O"
	echo "BENCH test=reliability phase=after-resets dev=$DEV engine=psync rw=randread bs=4k io_poll=1 ios=$FIO_RIOS irqs=$irqs irq_per_io=$ipi"
	if fio_clean && [ "$FIO_RIOS" -gt 0 ] && awk -v r="$ipi" 'BEGIN { exit !(r != "nan" && r + 0 < 0.1) }'; then
		tap_ok "faults: polling still works after the resets ($ipi interrupts per I/O < 0.1)"
	else
		tap_not_ok "faults: polling still works after the resets ($ipi interrupts per I/O, want < 0.1; rc $FIO_RC)"
	fi

	# 2. queue freezes under polled I/O: nr_requests and the scheduler
	nr=$(qattr "$DISK" nr_requests) sch=$(qattr "$DISK" scheduler)
	nr0=$(cat "$nr")
	scheds=$(tr -d '[]' < "$sch")
	tap_diag "queue freeze: nr_requests $nr0, schedulers: $scheds"
	# shellcheck disable=SC2086
	set -- --name=freeze --filename="$DISK" --offset="$off" --size=16M --offset_increment=16M \
		--numjobs=2 --rw=randwrite --bsrange=4k-64k --verify_backlog=16 $VFY
	fio_start "$@" --time_based --runtime="$FREEZE_SECS"
	sleep 1
	changes=0 cfail=0 k=0
	while fio_running; do
		for s in $scheds; do
			for v in 4 16 $((nr0 / 2)) "$nr0"; do
				[ "$v" -ge 4 ] || continue
				if printf '%s\n' "$v" > "$nr" 2>/tmp/nr.err; then :; else cfail=$((cfail + 1)); tap_diag "  nr_requests $v with $s: $(cat /tmp/nr.err)"; fi
				changes=$((changes + 1))
			done
			if printf '%s\n' "$s" > "$sch" 2>/tmp/nr.err; then :; else cfail=$((cfail + 1)); tap_diag "  scheduler $s: $(cat /tmp/nr.err)"; fi
			changes=$((changes + 1))
		done
		k=$((k + 1))
	done
	fio_wait
	printf 'none\n' > "$sch" 2>/dev/null || true
	printf '%s\n' "$nr0" > "$nr" 2>/dev/null || true
	tap_diag "  $changes queue changes ($cfail failed) in $k rounds; now $(cat "$sch"), nr_requests $(cat "$nr")"
	echo "BENCH test=reliability phase=freeze changes=$changes failed=$cfail verified_bytes=$FIO_RBYTES"
	if [ "$cfail" -eq 0 ] && [ "$changes" -ge 50 ]; then
		tap_ok "faults: $changes nr_requests/scheduler changes (queue freezes) during polled I/O"
	else
		tap_not_ok "faults: at least 50 nr_requests/scheduler changes during polled I/O ($changes, $cfail failed)"
	fi
	fio_report "faults: polled verify I/O across queue freezes exits 0, no errors"

	# 3. fault injection: fail_make_request, fail_io_timeout
	phase_d_inject "$off"
	phase_end d
}

# fi_set DIR: probability 100, every call, N times, quiet
fi_set() {
	set_attr "$1/verbose" 0
	set_attr "$1/interval" 1
	set_attr "$1/probability" 100
	[ ! -e "$1/space" ] || set_attr "$1/space" 0
	set_attr "$1/times" "$2"
}

phase_d_inject() {
	off=$1
	FMR=/sys/kernel/debug/fail_make_request
	MIF=/sys/block/$DEV/make-it-fail
	if [ ! -d "$FMR" ] || [ ! -e "$MIF" ]; then
		tap_skip "faults: fail_make_request" "no $FMR or $MIF"
	else
		# a known region first: the faults below only read it
		# shellcheck disable=SC2086
		set -- --name=fmr --filename="$DISK" --offset="$off" --size=8M --bs=4k $VFY
		fio_run "$@" --rw=randwrite
		fio_report "fail_make_request: 8 MiB reference region written and verified"
		fi_set "$FMR" 5
		[ "$BREAK" = d ] || set_attr "$MIF" 1
		fio_run --name=fmrread --filename="$DISK" --offset="$off" --size=8M --bs=4k --rw=randread \
			--ioengine=psync --direct=1 --number_ios=200 --continue_on_error=io
		set_attr "$MIF" 0
		left=$(cat "$FMR/times")
		terr=$(awk '{ s += $7 } END { print s + 0 }' "$FIO_JSON.jobs")
		first=$(fio_jq "$FIO_JSON" -r '.jobs[0].first_error // empty' || :)
		tap_diag "  polled reads with 5 injected failures: $(fio_figures) total_err=$terr first_error=${first:-?} injections left $left"
		if [ "$terr" -eq $((5 - left)) ] && [ "$terr" -gt 0 ] && [ "${first:-0}" = 5 ]; then
			tap_ok "fail_make_request: all $terr injected read failures reach fio as EIO"
		else
			tap_not_ok "fail_make_request: injected read failures reach fio as EIO (fio saw $terr, injected $((5 - left)), first error ${first:-none})"
			grep -vE '^ *$' "$FIO_LOG" | head -5 | sed 's/^/#   /'
		fi
		fi_set "$FMR" 3
		[ "$BREAK" = d ] || set_attr "$MIF" 1
		fio_run --name=fmrwrite --filename="$DISK" --offset=$((off + 8388608)) --size=8M --bs=4k \
			--rw=randwrite --ioengine=psync --direct=1 --number_ios=100 --continue_on_error=io
		set_attr "$MIF" 0
		left=$(cat "$FMR/times")
		terr=$(awk '{ s += $7 } END { print s + 0 }' "$FIO_JSON.jobs")
		tap_diag "  polled writes with 3 injected failures: $(fio_figures) total_err=$terr injections left $left"
		if [ "$terr" -eq $((3 - left)) ] && [ "$terr" -gt 0 ]; then
			tap_ok "fail_make_request: all $terr injected write failures reach fio"
		else
			tap_not_ok "fail_make_request: injected write failures reach fio (fio saw $terr, injected $((3 - left)))"
		fi
		fi_set "$FMR" 1
		[ "$BREAK" = d ] || set_attr "$MIF" 1
		drc=0
		timeout 120 dd if="$DISK" of=/dev/null bs=4k count=16 skip=$((off / 4096)) iflag=direct 2> /tmp/dd.err || drc=$?
		set_attr "$MIF" 0
		tap_diag "  polled dd with 1 injected failure: rc $drc: $(tr '\n' ' ' < /tmp/dd.err)"
		if [ "$drc" -ne 0 ] && grep -q 'Input/output error' /tmp/dd.err; then
			tap_ok "fail_make_request: dd iflag=direct (polled) fails with EIO"
		else
			tap_not_ok "fail_make_request: dd iflag=direct (polled) fails with EIO (rc $drc)"
		fi
		set_attr "$FMR/probability" 0
		set_attr "$FMR/times" 1
		fio_verify_only "$@" --rw=randwrite
		fio_report "fail_make_request off: the reference region verifies"
		fio_run --name=fmrw2 --filename="$DISK" --offset=$((off + 8388608)) --size=8M --bs=4k \
			--rw=randwrite --ioengine=psync --direct=1 --verify=crc32c
		fio_report "fail_make_request off: write + verify where writes failed"
	fi

	FIT=/sys/kernel/debug/fail_io_timeout
	ITF=/sys/block/$DEV/io-timeout-fail
	if [ ! -d "$FIT" ] || [ ! -e "$ITF" ]; then
		tap_skip "faults: fail_io_timeout" "no $FIT or $ITF"
		return 0
	fi
	ref=$(dd if="$DISK" bs=4k count=4 skip=$((off / 4096)) iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1)
	fi_set "$FIT" 1
	set_attr "$ITF" 1
	t=$(uptime_ds)
	drc=0
	timeout 150 dd if="$DISK" of=/tmp/to.bin bs=4k count=4 skip=$((off / 4096)) iflag=direct 2> /tmp/dd.err || drc=$?
	t=$(($(uptime_ds) - t))
	set_attr "$ITF" 0
	set_attr "$FIT/probability" 0
	left=$(cat "$FIT/times")
	got=$(md5sum < /tmp/to.bin | cut -d' ' -f1)
	tap_diag "  polled dd with 1 faked timeout: rc $drc after $((t / 10)).$((t % 10)) s, injections left $left: $(tr '\n' ' ' < /tmp/dd.err)"
	dmesg | grep -iE 'timeout|abort|reset' | tail -6 | sed 's/^/#   dmesg: /'
	if [ "$drc" -eq 124 ] || [ "$drc" -eq 143 ]; then
		tap_not_ok "fail_io_timeout: the polled read returns (dd killed after 150 s)"
	elif [ "$drc" -ne 0 ]; then
		if grep -q 'Input/output error' /tmp/dd.err; then
			tap_ok "fail_io_timeout: the timed out polled read fails with EIO"
		else
			tap_not_ok "fail_io_timeout: the timed out polled read fails with EIO (rc $drc)"
		fi
	elif [ "$got" = "$ref" ]; then
		tap_ok "fail_io_timeout: the timed out polled read was retried and returned the right data"
	else
		tap_not_ok "fail_io_timeout: dd succeeded but returned wrong data (md5 $got, want $ref)"
	fi
	set_io_poll "$DISK" 1 || true
	# shellcheck disable=SC2086
	fio_run --name=fmr --filename="$DISK" --offset="$off" --size=8M --bs=4k $VFY --rw=randwrite --verify_only
	fio_report "fail_io_timeout off: the reference region verifies"
}

# ---------------------------------------------------------------- e: scheduling
# busy_count SECS: iterations a nice -10 shell loop gets in SECS seconds of wall time
busy_count() {
	sh -c '
		renice -n -10 -p $$ > /dev/null
		read -r up _ < /proc/uptime
		end=$(( ${up%.*} * 100 + 1${up#*.} - 100 + $1 * 100 ))
		i=0
		while :; do
			j=0
			while [ $j -lt 50 ]; do j=$((j + 1)); done
			i=$((i + 1))
			read -r up _ < /proc/uptime
			[ $(( ${up%.*} * 100 + 1${up#*.} - 100 )) -lt $end ] || break
		done
		echo $i' busy "$1" > /tmp/busy.n &
	_bp=$!
	if [ "$BREAK" = e ] && [ "${2:-}" = polled ]; then
		sleep 0.2
		kill -STOP "$_bp"
		sleep "$1"
		kill -CONT "$_bp"
	fi
	wait "$_bp" || true
	cat /tmp/busy.n
}

phase_e() {
	phase_start e
	if ! poll_on; then
		tap_not_ok "scheduling: io_poll=1 on $DEV"
		return 0
	fi
	idle=$(busy_count 5)
	tap_diag "scheduling: nice -10 loop, unloaded: $idle iterations in 5 s"
	for mode in 1 0; do
		set_io_poll "$DISK" "$mode" || tap_not_ok "scheduling: io_poll=$mode"
		fio_start --name=sched --filename="$DISK" --offset="$RAW" --size=256M --rw=randread --bs=4k \
			--ioengine=psync --direct=1 --numjobs=6 --time_based --runtime=14
		sleep 3
		if [ "$mode" = 1 ]; then busy=$(busy_count 5 polled); else busy=$(busy_count 5); fi
		fio_wait
		tap_diag "  io_poll=$mode, 6 psync jobs on $(nproc) CPUs: nice -10 loop $busy iterations in 5 s ($(ratio "$busy" "$idle") of unloaded); $(fio_figures)"
		per=$(awk '{ printf "%s%s", sep, $4; sep = "," }' "$FIO_JSON.jobs")
		tap_diag "  per-job read I/Os: $per"
		echo "BENCH test=reliability phase=sched io_poll=$mode jobs=6 cpus=$(nproc) busy_idle=$idle busy_loaded=$busy job_ios=$per"
		zero=$(awk '$4 == 0' "$FIO_JSON.jobs" | wc -l)
		if fio_clean && [ "$FIO_JOBS" -eq 6 ] && [ "$zero" -eq 0 ]; then
			tap_ok "scheduling io_poll=$mode: all 6 jobs completed I/Os ($per)"
		else
			tap_not_ok "scheduling io_poll=$mode: all 6 jobs completed I/Os (jobs $FIO_JOBS, $zero with none, rc $FIO_RC)"
		fi
		if [ "$mode" = 1 ]; then
			if [ "$busy" -gt 0 ] && [ $((busy * 5)) -ge "$idle" ]; then
				tap_ok "scheduling: nice -10 task not starved by 6 polling jobs ($busy >= 20% of $idle)"
			else
				tap_not_ok "scheduling: nice -10 task not starved by 6 polling jobs ($busy, want >= 20% of $idle)"
			fi
		fi
	done
	set_io_poll "$DISK" 1 || true
	phase_end e
}

want f && phase_f
want a && phase_a
want b && phase_b
want c && phase_c
want d && phase_d
want e && phase_e

dmesg | grep -E 'nvme|poll' | tail -15 | sed 's/^/# dmesg: /'
tap_diag "reliability: $((($(uptime_ds) - T0) / 10)) s"
tap_end

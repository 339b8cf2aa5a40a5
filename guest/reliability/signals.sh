#!/bin/sh
# Signals: polled fio and dd readers get thousands of USR1/STOP/CONT, then SIGKILL: gone
# within 30 s, they polled (poll_stat), and the data verifies after.
# BLKPOLL_BREAK=c: a block corrupted before the verify pass; nopoll: see
# guest/lib/reliability.sh.
# Run by guest/reliability.sh (phase c), or alone: sh /guest/reliability/signals.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio dd"
DEVICES="BLKPOLL_DISK"
DEADLINE=180
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/reliability.sh

SIG_ROUNDS=${BLKPOLL_SIG_ROUNDS:-1000}
signals() {
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
	poll_mark
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
	# the readers' I/O count is unknown (killed): the share is of what poll_stat saw
	polled_since "signals: the signalled fio and dd readers"
	grep -E '^verify|bad magic' /tmp/sigread.log | head -3 | sed 's/^/#   sigread: /' || true
	if grep -qE '^verify|bad magic' /tmp/sigread.log; then
		tap_not_ok "signals: the polled reader saw no corrupt data while signalled"
	else
		tap_ok "signals: the polled reader saw no corrupt data while signalled"
	fi
	[ "$BREAK" != c ] || corrupt_block "$DISK" $((off + 16384 * 9))
	fio_verify_only "$@" --rw=randwrite
	fio_report "signals: verify pass after the kills finds no corruption"
}

signals
tap_end

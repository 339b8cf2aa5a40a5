#!/bin/sh
# Switching under load: io_poll 0 -> 1 at least 1000 times, io_poll_delay -1/0/50 in
# between, under rounds of 4 verifying psync jobs; every write succeeds, no I/O or
# verify error.
# BLKPOLL_BREAK=b: an invalid value among the toggles.
# Run by guest/reliability.sh (phase b), or alone: sh /guest/reliability/switching.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio renice"
DEVICES="BLKPOLL_DISK"
DEADLINE=300
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/reliability.sh

# Rounds of SWITCH_SECS of verifying load until io_poll went 0 -> 1 SWITCH_CYCLES times
# (at most SWITCH_ROUNDS rounds): a count, because a slower machine toggles less per second.
SWITCH_SECS=${BLKPOLL_SWITCH_SECS:-20} SWITCH_CYCLES=1000 SWITCH_ROUNDS=15
switching() {
	if ! poll_on; then
		tap_not_ok "switching: io_poll=1 on $DEV"
		return 0
	fi
	# The toggling shell at nice -10, the jobs at 0 (fio's nice adds to the shell's):
	# beside four polling jobs on 2 vCPUs a nice 0 shell gets a third of a CPU, and
	# what the test needs is the count of toggles under load, not the seconds.
	renice -n -10 -p $$ > /dev/null
	tap_diag "switching: rounds of 4 psync verify jobs (bsrange 4k-64k, 16 MiB each) for $SWITCH_SECS s while io_poll and io_poll_delay flip (toggler at nice -10)"
	n=0 errs=0 cycles=0 nd=0 rounds=0 verified=0 bad=''
	while [ "$cycles" -lt "$SWITCH_CYCLES" ] && [ "$rounds" -lt "$SWITCH_ROUNDS" ]; do
		rounds=$((rounds + 1))
		# shellcheck disable=SC2086
		fio_start --name=switch --filename="$DISK" --offset=$((RAW + 268435456)) --size=16M \
			--offset_increment=16M --numjobs=4 --rw=randwrite --bsrange=4k-64k --verify_backlog=16 \
			--time_based --runtime="$SWITCH_SECS" --nice=10 $VFY
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
}

switching
tap_end

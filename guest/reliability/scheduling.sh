#!/bin/sh
# Scheduling: 6 polling jobs on 2 vCPUs all make progress, and a nice -10 task keeps
# at least a fifth of the CPU it gets alone; the jobs polled (poll_stat), and in the
# io_poll=0 run, the control, they did not.
# BLKPOLL_BREAK=e: the nice -10 task stopped while it is measured; nopoll / ctlpoll:
# see guest/lib/reliability.sh.
# Run by guest/reliability.sh (phase e), or alone: sh /guest/reliability/scheduling.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio renice"
DEVICES="BLKPOLL_DISK"
DEADLINE=120
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/reliability.sh

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

scheduling() {
	if ! poll_on; then
		tap_not_ok "scheduling: io_poll=1 on $DEV"
		return 0
	fi
	idle=$(busy_count 5)
	tap_diag "scheduling: nice -10 loop, unloaded: $idle iterations in 5 s"
	for mode in 1 0; do
		poll_set "$mode" || tap_not_ok "scheduling: io_poll=$mode"
		poll_mark
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
		# without this, "not starved by polling jobs" would pass with nothing polling.
		# Most of the jobs' I/Os are declined (another task runnable: 6 jobs on 2 CPUs;
		# 99% in a debug boot, 96% in a normal one), which is what leaves the nice task
		# its CPU; of the others, 1/POLL_SHARE at least must have polled.
		if [ "$mode" = 1 ]; then
			polled_since "scheduling io_poll=1, 6 psync jobs" "$FIO_RIOS"
		else
			not_polled_since "scheduling io_poll=0 (control), 6 psync jobs"
		fi
		if [ "$mode" = 1 ]; then
			if [ "$busy" -gt 0 ] && [ $((busy * 5)) -ge "$idle" ]; then
				tap_ok "scheduling: nice -10 task not starved by 6 polling jobs ($busy >= 20% of $idle)"
			else
				tap_not_ok "scheduling: nice -10 task not starved by 6 polling jobs ($busy, want >= 20% of $idle)"
			fi
		fi
	done
	poll_set 1 || true
}

scheduling
tap_end

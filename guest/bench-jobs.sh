#!/bin/sh
# Benchmark: QD1 4 KiB psync random reads on the null-co NVMe disk with
# 1, 2, 4 and 8 jobs, interrupts (io_poll=0) vs polled (io_poll=1) vs io_uring IOPOLL,
# then 1 polled reader beside 2 CPU-bound tasks, then the same rows once more after a
# controller reset to one dedicated poll queue shared by every CPU (the v2 design).
# Runs are interleaved: each repetition runs every row once, its modes in a rotated
# order. Modes: irq (psync, io_poll=0), poll (psync, io_poll=1), iopoll (io_uring
# --hipri, io_poll=0), and, when asked for, hybrid (psync, io_poll=1, adaptive
# io_poll_delay=0), pvpoll (pvsync2, io_poll=1) and hipri (pvsync2 --hipri,
# io_poll=0): the same preadv2() with and without RWF_HIPRI, which polls whatever
# the per-I/O choice measured (classic polling, forced). io_poll_delay is -1 but
# for hybrid. irq2 runs irq once more (and the hog rows hog-irq2 once more): the
# interrupt against itself, a control that shows how far two runs of the same mode
# differ in this boot.
#
# usage (guest): bench-jobs.sh [runtime=3] [reps=3] [jobs=1+2+4+8] [modes=irq+poll+iopoll]
#                              [hog=1] [pq1=1]   (hog=0 / pq1=0 leave those rows out)
# One line per run, parsed by scripts/bench-jobs-report.py:
# BENCH test=jobs queues=irq|pq1 mode=irq|irq2|poll|hybrid|pvpoll|hipri|iopoll|hog-irq|hog-irq2|hog-poll
#   jobs=N rep=R
#   ios=N iops=N cpu_us_per_io=X irqs=N irq_per_io=X hog_loops=N
set -u
. /guest/lib/tap.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh
. /guest/lib/order.sh
. /guest/lib/fio-check.sh
. /guest/lib/bench.sh
RUNTIME=3 REPS=3 JOBS=1+2+4+8 MODES=irq+poll+iopoll HOG=1 PQ1=1
for a in "$@"; do
	case $a in
	runtime=*) RUNTIME=${a#runtime=} ;;
	reps=*) REPS=${a#reps=} ;;
	jobs=*) JOBS=${a#jobs=} ;;
	modes=*) MODES=${a#modes=} ;;
	hog=*) HOG=${a#hog=} ;;
	pq1=*) PQ1=${a#pq1=} ;;
	*) echo "# bench-jobs: unknown argument $a"; exit 2 ;;
	esac
done
DEV=${BLKPOLL_NULL:-}
[ -b "$DEV" ] || { echo "# bench-jobs: no null-co disk (BLKPOLL_NULL)"; exit 2; }
Q=/sys/block/${DEV#/dev/}/queue
CTRL=${DEV#/dev/}
CTRL=${CTRL%n1}

# run QUEUES MODE JOBS REP: one fio run, one BENCH line
run() {
	case $2 in
	poll) m=choice ;;
	hog-poll) m=hog-choice ;;
	*) m=$2 ;;
	esac
	eng=$(bench_mode "$Q" "$m") || exit 2
	case $2 in hog-*) hogs_start 2 ;; *) HOGS= ;; esac
	i0=$(irqs_of "$DEV")
	s0=$(poll_stat_line "${DEV#/dev/}")
	# shellcheck disable=SC2086 # $eng is a list of options
	fio --name=j --filename="$DEV" --rw=randread --bs=4k --direct=1 $eng \
		--numjobs="$3" --group_reporting --time_based --runtime="$RUNTIME" \
		--output-format=json --output=/tmp/jobs.json > /dev/null 2>&1
	i1=$(irqs_of "$DEV")
	loops=$(hogs_stop)
	echo "# $1 $2 jobs=$3 rep=$4 poll_stat: $(poll_stat_delta "$s0" "$(poll_stat_line "${DEV#/dev/}")")"
	echo "# $1 $2 jobs=$3 rep=$4 poll_choice: $(tr '\n' ';' < "/sys/kernel/debug/block/${DEV#/dev/}/poll_choice" 2> /dev/null)"
	# shellcheck disable=SC2046 # six numbers
	set -- "$@" $(bench_figures /tmp/jobs.json)
	printf 'BENCH test=jobs queues=%s mode=%s jobs=%s rep=%s ios=%d iops=%s cpu_us_per_io=%s irqs=%d irq_per_io=%s hog_loops=%d\n' \
		"$1" "$2" "$3" "$4" "${5:-0}" "${6:-0}" "${10:-0}" $((i1 - i0)) "$(ratio $((i1 - i0)) "${5:-0}")" "$loops"
}

# Each repetition starts the modes at a different one (irq poll iopoll, then
# poll iopoll irq, ...): a boot that slows down over the run, as TCG guests on a
# busy host do, must not favour whichever mode always runs first.
rows() {
	for rep in $(seq "$REPS"); do
		for j in $(echo "$JOBS" | tr + ' '); do
			# shellcheck disable=SC2046 # the modes are words
			for m in $(rotated $((rep - 1)) $(echo "$MODES" | tr + ' ')); do run "$1" "$m" "$j" "$rep"; done
		done
		[ "$HOG" = 0 ] && continue
		hog_modes=hog-irq+hog-poll
		case +$MODES+ in *+irq2+*) hog_modes=$hog_modes+hog-irq2 ;; esac
		# shellcheck disable=SC2046 # the modes are words
		for m in $(rotated $((rep - 1)) $(echo "$hog_modes" | tr + ' ')); do run "$1" "$m" 1 "$rep"; done
	done
}

echo "# bench-jobs: $DEV, $(nproc) CPUs, runtime $RUNTIME s, $REPS reps, jobs $JOBS"
rows irq
[ "$PQ1" = 0 ] && exit 0
# The v2 design for comparison: one dedicated poll queue, after a controller reset.
echo 1 > /sys/module/nvme/parameters/poll_queues
echo 1 > "/sys/class/nvme/$CTRL/reset_controller"
sleep 2
echo "# bench-jobs: $(dmesg | grep "$CTRL: .*poll queues" | tail -1)"
REPS=1
JOBS=1+2
rows pq1
echo 0 > /sys/module/nvme/parameters/poll_queues

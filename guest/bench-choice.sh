#!/bin/sh
# Benchmark: does io_poll=1, the per-I/O choice, do as well as the better of
# always taking the interrupt and always polling, on devices that behave differently
# and under different loads? Runs are interleaved: each repetition runs every mode of a
# cell once, in a rotated order.
#
# Devices (devs=):
#   nullco  the null-co NVMe disk: QEMU emulates it on host CPUs that the vCPUs share,
#           so a spinning vCPU can slow it down
#   file    the file-backed NVMe disk (aio=io_uring), real data
#   nb10    null_blk irqmode=2, completion_nsec=10000, a submit and a poll queue per
#   nb100   CPU (completion_nsec=100000): completion time independent of the guest
#           CPUs, the closest model here of an SSD
# Loads (loads=), 4 KiB QD1 random reads unless said:
#   j1 j2 j4 j8  that many psync jobs on the 2 vCPUs
#   c1j4         4 jobs on CPU 0
#   hog          1 reader beside 2 CPU-bound tasks
#   hipri        a psync reader beside a pvsync2 --hipri reader; the first counts
#   think        1 reader that thinks twice its interrupt-driven wait between reads
#   mix          4 KiB and 1 MiB reads, half each
#   w1           1 job of 4 KiB random writes
#   s64          1 job of 64 KiB sequential reads
# Modes: irq (io_poll=0), irq2 (the same once more: how far two runs of one mode differ
# in this boot), poll (pvsync2 --hipri: every I/O polled), choice (io_poll=1), and
# hybrid (io_poll=1, io_poll_delay=0) for j1.
#
# usage (guest): bench-choice.sh [devs=nullco+nb10+nb100] [loads=j1+j2+j4+j8+c1j4+hog+hipri+think+mix]
#                                [runtime=2] [reps=3]
# One line per run, read by scripts/bench-choice-report.py:
# BENCH test=choice dev=D load=L mode=M rep=R ios=N iops=X p50_us=X p99_us=X p999_us=X
#   cpu_us_per_io=X irq_per_io=X polled=N irq_chosen=N declined=N hybrid_sleeps=N
#   hog_loops=N (what the CPU-bound tasks of the hog load counted; 0 without them)
set -u
. /guest/lib/tap.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh
. /guest/lib/order.sh
. /guest/lib/fio-check.sh
. /guest/lib/nullb.sh
. /guest/lib/bench.sh

DEVS=nullco+nb10+nb100 LOADS=j1+j2+j4+j8+c1j4+hog+hipri+think+mix RUNTIME=2 REPS=3
for a in "$@"; do
	case $a in
	devs=*) DEVS=${a#devs=} ;;
	loads=*) LOADS=${a#loads=} ;;
	runtime=*) RUNTIME=${a#runtime=} ;;
	reps=*) REPS=${a#reps=} ;;
	*) echo "# bench-choice: unknown argument $a"; exit 2 ;;
	esac
done
NB=/sys/kernel/config/nullb/choice

# dev_up NAME: set DEV to the device NAME names (making a null_blk); fails if it has none
dev_up() {
	case $1 in
	nullco) DEV=${BLKPOLL_NULL:-} ;;
	file) DEV=${BLKPOLL_DISK:-} ;;
	nb10 | nb100)
		DEV=$(nullb_make "${NB##*/}" irqmode=2 completion_nsec="${1#nb}000" \
			submit_queues="$(nproc)" poll_queues="$(nproc)" size=1024) || DEV=
		;;
	esac
	[ -b "$DEV" ]
}

# run DEVNAME LOAD MODE REP: one fio run, one BENCH line
run() {
	case $3 in poll) m=hipri ;; *) m=$3 ;; esac
	eng=$(bench_mode "/sys/block/${DEV#/dev/}/queue" "$m") || exit 2
	HOGS='' rw=randread dir=read
	case $2 in
	j*) job="--name=r $eng --bs=4k --numjobs=${2#j} --group_reporting" ;;
	c1j4) job="--name=r $eng --bs=4k --numjobs=4 --group_reporting --cpus_allowed=0" ;;
	hog) job="--name=r $eng --bs=4k"; hogs_start 2 ;;
	hipri) job="--name=r $eng --bs=4k --name=n --ioengine=pvsync2 --hipri --bs=4k" ;;
	think) job="--name=r $eng --bs=4k --thinktime=$THINK_US" ;;
	mix) job="--name=r $eng --bssplit=4k/50:1m/50" ;;
	w1) job="--name=w $eng --bs=4k" rw=randwrite dir=write ;;
	s64) job="--name=s $eng --bs=64k" rw=read ;;
	esac
	s0=$(poll_stat_line "${DEV#/dev/}")
	i0=$(irqs_of "$DEV" 2> /dev/null || echo 0)
	# shellcheck disable=SC2086 # $job is a list of options
	fio --filename="$DEV" --direct=1 --rw=$rw --time_based --runtime="$RUNTIME" \
		--output-format=json --output=/tmp/choice.json $job > /dev/null 2>&1
	i1=$(irqs_of "$DEV" 2> /dev/null || echo 0)
	st=$(poll_stat_delta "$s0" "$(poll_stat_line "${DEV#/dev/}")")
	loops=$(hogs_stop)
	echo "# $1 $2 $3 rep=$4 poll_stat: $st"
	# shellcheck disable=SC2046 # six numbers
	set -- "$@" $(bench_figures /tmp/choice.json $dir)
	printf 'BENCH test=choice dev=%s load=%s mode=%s rep=%s ios=%d iops=%s p50_us=%s p99_us=%s p999_us=%s cpu_us_per_io=%s irq_per_io=%s polled=%d irq_chosen=%d declined=%d hybrid_sleeps=%d hog_loops=%d\n' \
		"$1" "$2" "$3" "$4" "${5:-0}" "${6:-0}" "${7:-0}" "${8:-0}" "${9:-0}" "${10:-0}" \
		"$(ratio $((i1 - i0)) "${5:-0}")" "$(poll_stat_get "$st" poll_completions)" \
		"$(poll_stat_get "$st" irq_chosen)" "$(poll_stat_get "$st" declined)" "$(poll_stat_get "$st" hybrid_sleeps)" \
		"$loops"
}

# think_us: twice the mean interrupt-driven wait of one reader, in us
think_us() {
	echo 0 > "/sys/block/${DEV#/dev/}/queue/io_poll"
	fio --name=t --filename="$DEV" --direct=1 --rw=randread --bs=4k --ioengine=psync \
		--time_based --runtime=1 --output-format=json --output=/tmp/think.json > /dev/null 2>&1
	fio_jq /tmp/think.json -r '.jobs[0].read.clat_ns.mean / 500 | floor'
}

echo "# bench-choice: $(nproc) CPUs, devices $DEVS, loads $LOADS, runtime $RUNTIME s, $REPS reps"
for d in $(echo "$DEVS" | tr + ' '); do
	if ! dev_up "$d"; then
		tap_not_ok "bench-choice: device $d is there"
		continue
	fi
	THINK_US=$(think_us)
	echo "# bench-choice: $d is $DEV, think time ${THINK_US} us"
	for rep in $(seq "$REPS"); do
		for l in $(echo "$LOADS" | tr + ' '); do
			modes="irq irq2 poll choice"
			[ "$l" = j1 ] && modes="$modes hybrid"
			# shellcheck disable=SC2086 # the modes are words
			for m in $(rotated $((rep - 1)) $modes); do run "$d" "$l" "$m" "$rep"; done
		done
	done
	echo 0 > "/sys/block/${DEV#/dev/}/queue/io_poll"
	echo -1 > "/sys/block/${DEV#/dev/}/queue/io_poll_delay"
	case $d in nb*) dl_run 30 nullb_remove "$NB" || echo "# null_blk removal: status $DL_RC" ;; esac
	tap_ok "bench-choice: $d measured"
done
tap_end

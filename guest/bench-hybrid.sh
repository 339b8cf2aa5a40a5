#!/bin/sh
# Hybrid polling where it matters: null_blk devices that take completion_nsec per
# I/O (irqmode=2, which the series applies to polled I/O too), QD1 and 4 jobs,
# interrupts vs classic polling vs adaptive hybrid vs a fixed delay, interleaved. The
# polled modes poll every I/O they can (RWF_HIPRI, fio pvsync2 --hipri), so that they
# differ only in how they wait: with io_poll=1 alone the choice would take the
# interrupt for some I/Os, more where classic polling's backoff overshoots (a 2 ms
# device), and the hybrid's CPU would be compared with the interrupt's.
# args: nsec=<completion_nsec>[:<completion_nsec>...] (50000) runtime=<s> (4) reps=<n> (3)
set -eu
. /guest/lib/tap.sh
. /guest/lib/order.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/nullb.sh

NSECS=50000 RUNTIME=4 REPS=3
for a in "$@"; do
	case $a in
	nsec=*) NSECS=${a#nsec=} ;;
	runtime=*) RUNTIME=${a#runtime=} ;;
	reps=*) REPS=${a#reps=} ;;
	esac
done

pstat() {
	awk -v k="$1" '$1 == k { print $2 }' "$stat" 2>/dev/null || echo 0
}

# one fio run of JOBS jobs with ENGINE options: prints "iops usr sys lat_mean_us p99_us ios"
fio_json() {
	# shellcheck disable=SC2086 # ENGINE is a list of options
	fio --name=h --filename="$dev" --rw=randread --bs=4k --direct=1 $2 \
		--numjobs="$1" --group_reporting --runtime="$RUNTIME" --time_based \
		--output-format=json > /tmp/h.json
	# fio writes its floats with %f, jq 1.6 as short as it can (24.700000 -> 24.7): awk
	# prints fio's 6 decimals again, and the latencies in us as before (OFMT %.6g)
	fio_jq /tmp/h.json -r '.jobs[0] | [.read.iops, .usr_cpu, .sys_cpu, .read.clat_ns.mean,
		.read.clat_ns.percentile["99.000000"], .read.total_ios] | @tsv' |
		awk -F '\t' '{ printf "%.6f %.6f %.6f ", $1, $2, $3; print $4 / 1000, $5 / 1000, $6 }'
}

# bench_device NSEC: one null_blk device of NSEC per I/O, all modes, REPS times
bench_device() {
	NSEC=$1
	nb=/sys/kernel/config/nullb/hybrid
	dev=$(nullb_make hybrid irqmode=2 completion_nsec="$NSEC" poll_queues=1 size=1024) || dev=none
	name=${dev#/dev/}
	q=/sys/block/$name/queue
	stat=/sys/kernel/debug/block/$name/poll_stat
	tap_check "null_blk $name: irqmode=2 completion_nsec=$NSEC, one poll queue" test -b "$dev"
	r=1
	while [ $r -le "$REPS" ]; do
		for jobs in 1 4; do
			for mode in $(rotated $((r - 1)) irq poll hybrid delay20); do
				engine="--ioengine=pvsync2 --hipri"
				case $mode in
				irq) echo -1 > "$q/io_poll_delay"; engine=--ioengine=psync ;;
				poll) echo -1 > "$q/io_poll_delay" ;;
				hybrid) echo 0 > "$q/io_poll_delay" ;;
				delay20) echo 20 > "$q/io_poll_delay" ;;
				esac
				s0=$(pstat hybrid_sleeps) p0=$(pstat poll_completions)
				# shellcheck disable=SC2046
				set -- $(fio_json $jobs "$engine")
				s1=$(pstat hybrid_sleeps) p1=$(pstat poll_completions)
				printf 'BENCH test=hybrid dev=null_blk nsec=%s mode=%s jobs=%s rep=%d iops=%s cpu_usr=%s cpu_sys=%s lat_mean_us=%s lat_p99_us=%s ios=%s hybrid_sleeps=%s poll_completions=%s\n' \
					"$NSEC" "$mode" "$jobs" "$r" "$1" "$2" "$3" "$4" "$5" "$6" $((s1 - s0)) $((p1 - p0))
			done
		done
		r=$((r + 1))
	done
	echo -1 > "$q/io_poll_delay"
	nullb_remove "$nb"
}

for nsec in $(echo "$NSECS" | tr : ' '); do
	bench_device "$nsec"
done
tap_ok "hybrid benchmark on null_blk done (completion_nsec $NSECS)"
tap_end

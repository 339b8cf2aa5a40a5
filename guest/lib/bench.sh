# shellcheck shell=sh
# What the benchmarks (bench-jobs.sh, bench-choice.sh) share: a mode set on a queue,
# CPU-bound tasks beside the readers, and one fio run's figures from its JSON output
# (through fio_jq of fio-check.sh, the guest's one fio parser).

# bench_mode QUEUE_DIR MODE: io_poll and io_poll_delay of /sys/block/X/queue for MODE;
# prints the fio engine options. MODE: irq irq2 (io_poll=0), choice (io_poll=1),
# hybrid (io_poll=1, io_poll_delay=0), pvpoll (pvsync2, io_poll=1), hipri (pvsync2
# --hipri: every I/O polled, io_poll=0), iopoll (io_uring --hipri, io_poll=0); hog-irq, hog-irq2 and hog-choice as
# irq, irq2 and choice. Fails on an unknown MODE.
bench_mode() {
	echo -1 > "$1/io_poll_delay"
	case $2 in
	irq | irq2 | hog-irq | hog-irq2) echo 0 > "$1/io_poll"; echo --ioengine=psync ;;
	choice | hog-choice) echo 1 > "$1/io_poll"; echo --ioengine=psync ;;
	hybrid) echo 1 > "$1/io_poll"; echo 0 > "$1/io_poll_delay"; echo --ioengine=psync ;;
	pvpoll) echo 1 > "$1/io_poll"; echo --ioengine=pvsync2 ;;
	hipri) echo 0 > "$1/io_poll"; echo "--ioengine=pvsync2 --hipri" ;;
	iopoll) echo 0 > "$1/io_poll"; echo "--ioengine=io_uring --hipri --iodepth=1" ;;
	*) echo "# bench: unknown mode $2" >&2; return 1 ;;
	esac
}

# hogs_start N: N CPU-bound tasks, each counting in memory and writing its count to
# /tmp/hog.I when told to stop (one that wrote on every loop was often killed between
# truncate and write); HOGS holds their pids
hogs_start() {
	HOGS=
	for _h in $(seq "$1"); do
		rm -f "/tmp/hog.$_h"
		sh -c 'n=0; trap "echo \$n > /tmp/hog.'"$_h"'; exit 0" TERM; while :; do n=$((n + 1)); done' &
		HOGS="$HOGS $!"
	done
}

# hogs_stop: stop the tasks of hogs_start; prints their loops summed (0 without any)
hogs_stop() {
	_hl=0 _hi=0
	[ -n "${HOGS:-}" ] || { echo 0; return 0; }
	# shellcheck disable=SC2086 # the pids are words
	kill $HOGS
	# shellcheck disable=SC2086
	wait $HOGS 2> /dev/null
	for _hp in $HOGS; do
		_hi=$((_hi + 1))
		_hv=$(tr -cd 0-9 < "/tmp/hog.$_hi" 2> /dev/null)
		[ -n "$_hv" ] || echo "# hog $_hi wrote no count" >&2
		_hl=$((_hl + ${_hv:-0}))
	done
	HOGS=
	echo "$_hl"
}

# bench_figures JSON [read|write]: "ios iops p50_us p99_us p999_us cpu_us_per_io" of the
# reads (or writes) of the first job (all jobs with --group_reporting) of fio's JSON output
bench_figures() {
	# shellcheck disable=SC2016 # $d is jq's variable
	fio_jq "$1" -r --arg d "${2:-read}" '.jobs[0] | [.[$d].total_ios, .[$d].iops,
		.[$d].clat_ns.percentile["50.000000"], .[$d].clat_ns.percentile["99.000000"],
		.[$d].clat_ns.percentile["99.900000"], .usr_cpu + .sys_cpu, .job_runtime] | @tsv' |
		awk -F '\t' '{ ios = $1 > 0 ? $1 : 1
			printf "%d %.1f %.1f %.1f %.1f %.1f\n", $1, $2, $3 / 1000, $4 / 1000, $5 / 1000, $6 / 100 * $7 * 1000 / ios }'
}

#!/bin/sh
# Benchmark (issue 6): synchronous O_DIRECT I/O polled vs interrupt-driven vs io_uring,
# on the null-co NVMe disk ($BLKPOLL_NULL) and on an ext4 file ($BLKPOLL_DISK).
#
# usage (guest): bench.sh kernel=stock|series boot=default|pq1 [runtime=5] [reps=3]
#                         [workloads=main+randwrite+seqread+jobs4] [file=1] [dd=1]
#        (host):  sh guest/bench.sh plan kernel=... boot=... ...   prints "runs=N seconds=S"
#                 and touches nothing (scripts/bench.sh uses it for its time estimates);
#                 sh guest/bench.sh fio-fields JSON read|write   the figures of a fio JSON file
#
# Modes (what the kernel supports is detected: stock has no io_poll switch, writes to
# io_poll are ignored or rejected and io_poll_delay reads a constant -1):
#   psync-irq      fio psync, interrupts (series: io_poll=0)            every kernel
#   pvsync2-hipri  fio pvsync2 --hipri (RWF_HIPRI), io_poll=0            every kernel
#   uring-irq      fio io_uring QD1, interrupts                          every kernel
#   uring-iopoll   fio io_uring QD1 --hipri (IOPOLL): needs a poll queue  stock pq1, series
#   psync-poll     psync, io_poll=1, io_poll_delay=-1 (classic)          series
#   psync-hybrid   psync, io_poll=1, io_poll_delay=0 (adaptive)          series
#   psync-delay20  psync, io_poll=1, io_poll_delay=20 (sleep 20 us)      series
#   dd-irq/dd-poll busybox dd bs=4k iflag=direct, io_poll 0/1, timed by   dd-poll on series
#                  /proc/uptime (count sized from the first psync-irq run)
# Workloads (QD1): main = 4k randread, randwrite = 4k randwrite, seqread = 64k read,
# jobs4 = 4k randread numjobs=4 group_reporting. The ext4 row (dev=file) is 4k randread
# psync on a 256 MiB file, io_poll 0/1. Runs are interleaved: every repetition runs
# every row once, in the same order, so slow drifts of the TCG host hit all modes alike.
#
# One line per run (doc/interfaces.md), parsed by scripts/bench-report.sh:
# BENCH kernel= boot= dev=null|file mode= rw= bs= jobs= rep= iops= bw_kib= lat_mean_us=
#   lat_p50_us= lat_p99_us= lat_p999_us= cpu_usr= cpu_sys= irqs= ios= runtime_ms= busy_ms=
#   io_poll= poll_delay= lat_cdf_us=P:US/P:US/... [ps_<poll_stat key>=delta...]
# Latencies are fio's total latency (lat_ns: submission + completion) in microseconds,
# percentiles from --lat_percentiles. cpu_usr/cpu_sys are fio's per-job average percent
# of runtime_ms (fio's job_runtime: summed over the jobs), so the CPU time per I/O is
# (cpu_usr + cpu_sys) / 100 * runtime_ms / ios. busy_ms is the whole guest's non-idle CPU
# time during the run from /proc/stat (it includes interrupt handlers that ran while fio
# slept). irqs is the /proc/interrupts delta summed over the controller's nvmeXq* lines
# and all CPUs. dd rows have no latency or fio CPU figures ("na").
set -u
# shellcheck source=lib/fio-check.sh # fio_jq (here on the host too: fio-fields)
. "$(dirname "$0")/lib/fio-check.sh"
. "$(dirname "$0")/lib/deadline.sh"

PCTS=1:5:10:25:50:75:90:95:99:99.5:99.9:99.99

# fio_fields JSON DIR: the BENCH figures of fio's JSON output (one group_reporting job):
# the first job's DIR figures and CPU figures, or "error=no_DIR_figures" and status 1.
# jq picks the numbers (0 for one fio left out), printf formats them: fio writes floats
# with %f, jq 1.6 as short as it can (24.700000 -> 24.7), so cpu_usr and cpu_sys get
# their 6 decimals back.
fio_fields() {
	_fdir=$2
	# shellcheck disable=SC2046,SC2016 # numbers, one word each; $p, $j, $r are jq's
	set -- $(fio_jq "$1" -r --arg dir "$2" --arg pcts "$PCTS" '
		# latency percentile $p in us (fio keys it "99.900000")
		def pct($p): [.lat_ns.percentile // {} | to_entries[]
			| select((.key | tonumber) == ($p | tonumber)) | .value][0] // 0 | . / 1000;
		.jobs[0] as $j | $j[$dir] as $r
		| if ($r | type) == "object" and ($r | has("iops")) then
			[$r.iops, $r.bw, ($r.lat_ns.mean // 0) / 1000, ($r | pct(50)), ($r | pct(99)),
				($r | pct(99.9)), $j.usr_cpu, $j.sys_cpu, $r.total_ios, $j.job_runtime, $j.error]
			+ [$pcts | split(":")[] as $p | $r | pct($p)] | map(. // 0 | tostring) | join(" ")
		else empty end')
	if [ $# -le 11 ]; then
		echo "error=no_${_fdir}_figures"
		return 1
	fi
	printf 'iops=%.0f bw_kib=%s lat_mean_us=%.1f lat_p50_us=%.1f lat_p99_us=%.1f lat_p999_us=%.1f' \
		"$1" "$2" "$3" "$4" "$5" "$6"
	printf ' cpu_usr=%.6f cpu_sys=%.6f ios=%s runtime_ms=%s error=%s lat_cdf_us=' "$7" "$8" "$9" "${10}" "${11}"
	shift 11
	_fsep=''
	for _fp in $(echo "$PCTS" | tr : ' '); do
		printf '%s%s:%.1f' "$_fsep" "$_fp" "${1:-0}"
		_fsep=/
		[ $# -eq 0 ] || shift
	done
	echo
}

# Host tests: bench.sh fio-fields JSON read|write
if [ "${1:-}" = fio-fields ]; then
	fio_fields "$2" "$3"
	exit
fi

PLAN=0
if [ "${1:-}" = plan ]; then
	PLAN=1
	shift
fi
KERNEL='' BOOT='' RUNTIME=5 REPS=3 WORKLOADS=main+randwrite+seqread+jobs4 FILE_ROW=1 DD_ROW=1
for a in "$@"; do
	case $a in
	kernel=*) KERNEL=${a#*=} ;;
	boot=*) BOOT=${a#*=} ;;
	runtime=*) RUNTIME=${a#*=} ;;
	reps=*) REPS=${a#*=} ;;
	workloads=*) WORKLOADS=${a#*=} ;;
	file=*) FILE_ROW=${a#*=} ;;
	dd=*) DD_ROW=${a#*=} ;;
	*) echo "# bench: unknown argument '$a'" >&2; exit 2 ;;
	esac
done
case $KERNEL in stock | series) ;; *) echo "# bench: kernel=stock|series required" >&2; exit 2 ;; esac
case $BOOT in default | pq1) ;; *) echo "# bench: boot=default|pq1 required" >&2; exit 2 ;; esac
WORKLOADS=$(echo "$WORKLOADS" | tr '+' ' ')

# What the kernel can do; the plan assumes the labels tell the truth, the guest checks.
SWITCH=0 POLLQ=0
[ "$KERNEL" = series ] && SWITCH=1
{ [ "$KERNEL" = series ] || [ "$BOOT" = pq1 ]; } && POLLQ=1

# workload NAME: sets WL_RW WL_BS WL_JOBS
workload() {
	case $1 in
	main) WL_RW=randread WL_BS=4k WL_JOBS=1 ;;
	randwrite) WL_RW=randwrite WL_BS=4k WL_JOBS=1 ;;
	seqread) WL_RW=read WL_BS=64k WL_JOBS=1 ;;
	jobs4) WL_RW=randread WL_BS=4k WL_JOBS=4 ;;
	*) return 1 ;;
	esac
}

# mode NAME: sets M_ENGINE M_EXTRA M_POLL M_DELAY M_ALL (1: every workload, 0: main only);
# fails when this kernel/boot cannot run the mode.
mode() {
	M_EXTRA='' M_POLL=0 M_DELAY=-1 M_ALL=1
	case $1 in
	psync-irq) M_ENGINE=psync ;;
	pvsync2-hipri) M_ENGINE=pvsync2 M_EXTRA=--hipri M_ALL=0 ;;
	uring-irq) M_ENGINE=io_uring ;;
	uring-iopoll) M_ENGINE=io_uring M_EXTRA=--hipri; [ "$POLLQ" = 1 ] ;;
	psync-poll) M_ENGINE=psync M_POLL=1; [ "$SWITCH" = 1 ] ;;
	psync-hybrid) M_ENGINE=psync M_POLL=1 M_DELAY=0 M_ALL=0; [ "$SWITCH" = 1 ] ;;
	psync-delay20) M_ENGINE=psync M_POLL=1 M_DELAY=20 M_ALL=0; [ "$SWITCH" = 1 ] ;;
	dd-irq) M_ENGINE='dd' ;;
	dd-poll) M_ENGINE='dd' M_POLL=1; [ "$SWITCH" = 1 ] ;;
	*) return 1 ;;
	esac
}
MODES="psync-irq psync-poll pvsync2-hipri uring-irq uring-iopoll psync-hybrid psync-delay20"

# The rows of one repetition: "dev mode workload", in the order they run.
plan_rows() {
	for w in $WORKLOADS; do
		workload "$w" || continue
		for m in $MODES; do
			mode "$m" || continue
			[ "$M_ALL" = 1 ] || [ "$w" = main ] || continue
			echo "null $m $w"
		done
	done
	if [ "$DD_ROW" = 1 ]; then
		for m in dd-irq dd-poll; do mode "$m" && echo "null $m dd"; done
	fi
	if [ "$FILE_ROW" = 1 ]; then
		for m in psync-irq psync-poll; do mode "$m" && echo "file $m main"; done
	fi
}

if [ "$PLAN" = 1 ]; then
	rows=$(plan_rows | wc -l)
	# per run: the runtime plus ~2.5 s of fio start-up and figures under TCG; per
	# boot ~60 s for the boot, the poll queue resets, mkfs and the 256 MiB file.
	echo "runs=$((rows * REPS)) seconds=$((rows * REPS * (RUNTIME * 10 + 25) / 10 + 60))"
	exit 0
fi

. /guest/lib/tap.sh

# ---------------------------------------------------------------- guest helpers


# busy: non-idle CPU time of the whole guest so far, ms (USER_HZ = 100)
busy() {
	awk '$1 == "cpu" { printf "%d\n", ($2 + $3 + $4 + $7 + $8 + $9) * 10; exit }' /proc/stat
}

# pstat DEV: the poll_stat debugfs lines ("key value") the series adds, if any
pstat() {
	_f=/sys/kernel/debug/block/${1#/dev/}/poll_stat
	[ -r "$_f" ] && awk 'NF == 2 && $2 ~ /^[0-9]+$/' "$_f" 2>/dev/null
}

# set_poll DEV IO_POLL DELAY: only where the kernel has the switch (set_io_poll waits
# up to 20 s for io_poll to read the value)
set_poll() {
	[ "$SWITCH" = 1 ] || return 0
	set_attr "$(qattr "$1" io_poll_delay)" "$3" && set_io_poll "$1" "$2"
}

now() { date +%s; }

# uptime_cs: time since boot in centiseconds
uptime_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

# ---------------------------------------------------------------- set-up
tap_diag "bench: kernel $(uname -r) ($KERNEL, boot $BOOT), $(nproc) CPUs, cmdline: $(cat /proc/cmdline)"
NULL=${BLKPOLL_NULL:-} DISK=${BLKPOLL_DISK:-}
if [ -z "$NULL" ] || [ ! -b "$NULL" ]; then
	tap_not_ok "null-co NVMe disk (serial blkpoll1) present"
	tap_end
	exit 1
fi
tap_ok "null-co NVMe disk present: $NULL ($(nvme_ctrl "$NULL"))"

# Detect the io_poll switch: stock 6.12 ignores io_poll_delay writes (reads -1).
d=$(qattr "$NULL" io_poll_delay)
have_switch=0
if printf '0\n' > "$d" 2>/dev/null && [ "$(cat "$d")" = 0 ]; then
	have_switch=1
	printf '%s\n' -1 > "$d"
fi
if [ "$have_switch" = "$SWITCH" ]; then
	tap_ok "io_poll switch $([ "$have_switch" = 1 ] && echo present || echo absent), as expected for $KERNEL"
else
	tap_not_ok "io_poll switch $([ "$have_switch" = 1 ] && echo present || echo absent), but the host says kernel=$KERNEL"
	SWITCH=$have_switch
fi

# Poll queues: stock reads io_poll 1 iff the device has them (nvme.poll_queues=1);
# the series brings one up when io_poll is first switched on (controller reset).
have_pollq=0
if [ "$SWITCH" = 1 ]; then
	for dev in $NULL $DISK; do
		[ -b "$dev" ] || continue
		t0=$(now)
		if set_poll "$dev" 1 -1; then
			tap_ok "io_poll=1 on $dev reads 1 after $(($(now) - t0)) s"
			[ "$dev" = "$NULL" ] && have_pollq=1
		else
			tap_not_ok "io_poll=1 on $dev reads 1 within 20 s (reads $(cat "$(qattr "$dev" io_poll)"))"
		fi
		set_poll "$dev" 0 -1 || tap_not_ok "io_poll=0 on $dev"
	done
else
	[ "$(cat "$(qattr "$NULL" io_poll)")" = 1 ] && have_pollq=1
fi
if [ "$have_pollq" = "$POLLQ" ]; then
	tap_ok "poll queue on $NULL: $([ "$have_pollq" = 1 ] && echo yes || echo no), as expected"
else
	tap_not_ok "poll queue on $NULL: $([ "$have_pollq" = 1 ] && echo yes || echo no), expected the opposite"
	POLLQ=$have_pollq
fi
dmesg | grep -E 'nvme.*(queues|resetting)' | sed 's/^/# dmesg: /'
grep -E 'nvme[0-9]+q' /proc/interrupts | sed 's/^ */# irq: /'

MNT=/mnt/bench FILE=/mnt/bench/f
if [ "$FILE_ROW" = 1 ]; then
	if [ -b "$DISK" ] && command -v mkfs.ext4 >/dev/null; then
		mkdir -p "$MNT"
		t0=$(now)
		if mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$DISK" &&
			mount -t ext4 "$DISK" "$MNT" &&
			dd if=/dev/zero of="$FILE" bs=1M count=256 2>/dev/null && sync; then
			# Written blocks, not fallocated ones: reads of unwritten extents do no I/O.
			tap_ok "ext4 on $DISK with a written 256 MiB file in $(($(now) - t0)) s"
		else
			tap_not_ok "ext4 on $DISK with a 256 MiB file"
			FILE_ROW=0
		fi
	else
		tap_skip "ext4 file row" "no file-backed disk or no mkfs.ext4"
		FILE_ROW=0
	fi
fi

# Time per dd run: dd has no time limit, so size it from the first psync-irq run.
DD_IOPS=3000

# ---------------------------------------------------------------- runs
plan_rows > /tmp/bench.plan
ROWS=$(wc -l < /tmp/bench.plan)
TOTAL=$((ROWS * REPS))
tap_diag "bench: $ROWS rows x $REPS repetitions of ${RUNTIME}s (modes: $(awk '{print $2}' /tmp/bench.plan | sort -u | tr '\n' ' '))"
N=0 FAILED=0 T_START=$(now)

run_one() { # dev_kind mode workload rep
	kind=$1 m=$2 w=$3 rep=$4
	mode "$m" || return 0
	if [ "$w" = dd ]; then
		WL_RW=read WL_BS=4k WL_JOBS=1
	else
		workload "$w"
	fi
	if [ "$kind" = file ]; then
		dev=$DISK target=$FILE size_opt=--size=256m
	else
		dev=$NULL target=$NULL size_opt=''
	fi
	N=$((N + 1))
	# seconds left: the mean time of the runs so far (busybox sh evaluates both
	# branches of ?:, so no division in one)
	per=$((RUNTIME + 2))
	[ "$N" -le 1 ] || per=$((($(now) - T_START) / (N - 1)))
	left=$(((TOTAL - N + 1) * per))
	printf '# bench: [%d/%d] %s %s dev=%s mode=%s rw=%s bs=%s jobs=%s rep=%d left=%ds\n' \
		"$N" "$TOTAL" "$KERNEL" "$BOOT" "$kind" "$m" "$WL_RW" "$WL_BS" "$WL_JOBS" "$rep" "$left"
	if ! set_poll "$dev" "$M_POLL" "$M_DELAY"; then
		tap_not_ok "$m: set io_poll=$M_POLL io_poll_delay=$M_DELAY on $dev"
		FAILED=$((FAILED + 1))
		return 0
	fi
	iop=$(cat "$(qattr "$dev" io_poll)") dly=$(cat "$(qattr "$dev" io_poll_delay)")
	pstat "$dev" > /tmp/ps0 || : > /tmp/ps0
	i0=$(irqs_of "$dev") b0=$(busy)
	if [ "$M_ENGINE" = dd ]; then
		cnt=$((DD_IOPS * RUNTIME))
		[ "$cnt" -le 250000 ] || cnt=250000 # the null-co disk is 1 GiB
		: > /tmp/fio.err
		# Debian's busybox dd prints no "copied, S seconds" line: time it by
		# /proc/uptime (10 ms steps, 0.2 % of a 5 s run).
		u0=$(uptime_cs)
		out=$(dd if="$dev" of=/dev/null bs=4k count="$cnt" iflag=direct 2>&1)
		rc=$?
		u1=$(uptime_cs)
		b1=$(busy) i1=$(irqs_of "$dev")
		figs=$(printf '%s\n' "$out" | awk -v n="$cnt" -v cs=$((u1 - u0)) '/records out/ && $1 + 0 == n && cs > 0 {
			s = cs / 100
			printf "iops=%.0f bw_kib=%.0f lat_mean_us=na lat_p50_us=na lat_p99_us=na lat_p999_us=na cpu_usr=na cpu_sys=na ios=%d runtime_ms=%.0f error=0 lat_cdf_us=na\n",
				n / s, n * 4 / s, n, s * 1000 }')
		[ "$rc" = 0 ] && [ -n "$figs" ] || figs=''
	else
		rm -f /tmp/fio.json
		out=''
		# shellcheck disable=SC2086 # M_EXTRA and size_opt are empty or one option
		fio --name=bench --filename="$target" --ioengine="$M_ENGINE" $M_EXTRA --direct=1 \
			--rw="$WL_RW" --bs="$WL_BS" --iodepth=1 --numjobs="$WL_JOBS" --group_reporting \
			--time_based --runtime="$RUNTIME" --norandommap --randrepeat=0 \
			$size_opt \
			--lat_percentiles=1 --clat_percentiles=0 --percentile_list="$PCTS" \
			--output-format=json --output=/tmp/fio.json > /tmp/fio.err 2>&1
		rc=$?
		b1=$(busy) i1=$(irqs_of "$dev")
		figs=$(fio_fields /tmp/fio.json "$([ "$WL_RW" = randwrite ] && echo write || echo read)") || figs=''
	fi
	if [ -z "$figs" ] || [ "$rc" != 0 ]; then
		tap_not_ok "$KERNEL $m $WL_RW $WL_BS jobs=$WL_JOBS dev=$kind rep $rep (rc=$rc)"
		{ cat /tmp/fio.err 2>/dev/null; printf '%s\n' "${out:-}" "$figs"; } | tail -8 | sed 's/^/#   /'
		FAILED=$((FAILED + 1))
		return 0
	fi
	ps=''
	if [ -s /tmp/ps0 ]; then
		ps=$(pstat "$dev" | awk 'NR == FNR { a[$1] = $2; next } { printf " ps_%s=%d", $1, $2 - a[$1] }' /tmp/ps0 -)
	fi
	printf 'BENCH kernel=%s boot=%s dev=%s mode=%s rw=%s bs=%s jobs=%s rep=%d %s irqs=%d busy_ms=%d io_poll=%s poll_delay=%s%s\n' \
		"$KERNEL" "$BOOT" "$kind" "$m" "$WL_RW" "$WL_BS" "$WL_JOBS" "$rep" "$figs" \
		$((i1 - i0)) $((b1 - b0)) "$iop" "$dly" "$ps"
	if [ "$m" = psync-irq ] && [ "$w" = main ] && [ "$kind" = null ] && [ "$rep" = 1 ]; then
		DD_IOPS=$(printf '%s\n' "$figs" | sed -n 's/^iops=\([0-9]*\) .*/\1/p')
		[ "${DD_IOPS:-0}" -gt 100 ] || DD_IOPS=3000
	fi
}

# Each repetition starts at a different row of the plan (guest/lib/order.sh says why).
rep=1
while [ "$rep" -le "$REPS" ]; do
	awk -v s=$(((rep - 1) * ROWS / REPS)) '{ l[NR - 1] = $0 } END { for (i = 0; i < NR; i++) print l[(i + s) % NR] }' \
		/tmp/bench.plan > /tmp/bench.order
	while read -r kind m w; do
		run_one "$kind" "$m" "$w" "$rep"
	done < /tmp/bench.order
	rep=$((rep + 1))
done

[ "$SWITCH" != 1 ] || for dev in $NULL $DISK; do [ -b "$dev" ] && set_poll "$dev" 0 -1; done
[ "$FILE_ROW" != 1 ] || umount "$MNT"
if [ "$FAILED" = 0 ]; then
	tap_ok "all $N benchmark runs completed in $(($(now) - T_START)) s"
else
	tap_not_ok "$FAILED of $N benchmark runs failed"
fi
tap_end

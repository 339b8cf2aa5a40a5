#!/bin/sh
# The benchmark, stock kernel against the series, one command: build the stock kernel (tag base, same config,
# scripts/build-stock.sh) and the patched one (scripts/build.sh normal), build an
# initramfs, boot each configuration in QEMU with the same disks, run guest/bench.sh,
# collect the BENCH lines into $RESULTS/bench-<kernel>-<boot>.bench, then write the
# report and the plots (scripts/bench-compose.sh).
# usage: bench.sh
# env:   BENCH_BOOTS    configurations, kernel:boot ("stock:default stock:pq1 series:default");
#                       kernel stock = obj-stock, series = obj-normal; boot pq1 adds
#                       nvme.poll_queues=1 to the command line
#        BENCH_RUNTIME  seconds per run (5)      BENCH_REPS  repetitions (3)
#        BENCH_WORKLOADS main+randwrite+seqread+jobs4     BENCH_FILE=0 / BENCH_DD=0 drop rows
#        BENCH_DRIVE_OPTS  -drive options of the file-backed disk (cache=writeback,aio=io_uring)
#        BENCH_HYBRID_NSEC  null_blk completion times for guest/bench-hybrid.sh, ns, ":"
#                       separated (50000:100000:500000:2000000; "" skips that boot)
#        BENCH_JOBS     job counts for the series kernel's jobs boot, guest/bench-jobs.sh
#                       (1+2+4+8; "" skips that boot), BENCH_JOBS_MODES its modes
#                       (irq+irq2+poll+hybrid+hipri+iopoll; irq2 is the interrupt again,
#                       the control), 3 s runs, BENCH_REPS repetitions
#        BENCH_BUILD    kernels to (re)build first ("stock normal"; "" uses them as they are)
#        BENCH_WORK     scratch area for the initramfs, disk image and boot ($BUILD/bench),
#                       so that a benchmark never clobbers another user's initramfs or disk
#        BENCH_KEEP=1   keep older bench-*.bench in $RESULTS (default: removed first)
#        RESULTS        ($BUILD/results)
#        BENCH_PUBLISH=1  also copy the finished report, plots and raw lines to
#                       doc/results/v<N>/<base>/ (N: the cover letters' "[PATCH vN"); refused
#                       before anything runs when that folder already has a bench.md
set -eu
. "$(dirname "$0")/lib.sh"

RESULTS=${RESULTS:-$BUILD/results}
WORK=${BENCH_WORK:-$BUILD/bench}
BOOTS=${BENCH_BOOTS:-stock:default stock:pq1 series:default}
RUNTIME=${BENCH_RUNTIME:-5}
REPS=${BENCH_REPS:-3}
WORKLOADS=${BENCH_WORKLOADS:-main+randwrite+seqread+jobs4}
BUILDS=${BENCH_BUILD-stock normal}
HYBRID_NSEC=${BENCH_HYBRID_NSEC-50000:100000:500000:2000000}
# Not JOBS: that is make -j (lib.sh), which the kernel builds below read from the environment.
JOB_COUNTS=${BENCH_JOBS-1+2+4+8}
JOBS_MODES=${BENCH_JOBS_MODES:-irq+irq2+poll+hybrid+hipri+iopoll}
# The ext4 row's disk through the host page cache: the row measures the guest's I/O
# path, not this host's own disk (whose O_DIRECT reads take longer than the whole guest I/O).
export DRIVE_OPTS="${BENCH_DRIVE_OPTS:-cache=writeback,aio=io_uring}"
GUEST_ARGS="runtime=$RUNTIME reps=$REPS workloads=$WORKLOADS file=${BENCH_FILE:-1} dd=${BENCH_DD:-1}"
T0=$(date +%s)

# Publishing never overwrites the results of a series version: check before any boot.
if [ "${BENCH_PUBLISH:-0}" = 1 ]; then
	pubdir=$(sh "$TOP/scripts/bench-compose.sh" publish-check)
	stage "bench: will publish to $pubdir"
fi

for b in $BOOTS; do
	case $b in stock:default | stock:pq1 | series:default | series:pq1) ;;
	*) die "bench: unknown configuration '$b' in BENCH_BOOTS (stock|series:default|pq1)" ;;
	esac
done

# A second kernel build next to a running one halves both and shares 2 cores badly.
wait_builds() {
	w=0
	while pgrep -f 'make .*O=[^ ]*/obj-' >/dev/null; do
		[ "$w" -gt 0 ] || stage "bench: another kernel build is running, waiting for it ($(pgrep -f 'make .*O=[^ ]*/obj-' | head -1))"
		w=$((w + 1))
		sleep 10
	done
}

for k in $BUILDS; do
	wait_builds
	case $k in
	stock) sh "$TOP/scripts/build-stock.sh" ;;
	normal) sh "$TOP/scripts/build.sh" normal ;;
	*) die "bench: BENCH_BUILD: unknown kernel '$k' (stock|normal)" ;;
	esac
done

# The scratch area: its own initramfs and disk, the kernels linked from $BUILD.
mkdir -p "$WORK" "$RESULTS"
for v in stock normal; do
	if [ "$(cd "$WORK" && pwd -P)" != "$(cd "$BUILD" && pwd -P)" ]; then
		ln -sfn "$BUILD/obj-$v" "$WORK/obj-$v"
	fi
done
for b in $BOOTS; do
	v=normal
	[ "${b%:*}" = stock ] && v=stock
	img=$(cat "$WORK/obj-$v/.boot-image" 2>/dev/null || echo vmlinux)
	[ -f "$WORK/obj-$v/$img" ] || die "bench: $BUILD/obj-$v/$img missing (BENCH_BUILD=\"stock normal\")"
done
BUILD=$WORK sh "$TOP/scripts/initramfs.sh"
[ "${BENCH_KEEP:-0}" = 1 ] || rm -f "$RESULTS"/bench-*.bench "$RESULTS"/bench-*.log "$RESULTS"/bench-*.tap

# Each boot's note of host steal and other host work (scripts/host-work.sh).
. "$TOP/scripts/host-work.sh"
STEAL=$RESULTS/bench-host-steal.txt HOST_WORK_TMP=$RESULTS/.host-work
: > "$STEAL"

# Time estimates from the guest script's own plan.
est() {
	# shellcheck disable=SC2086 # GUEST_ARGS is a list of words
	sh "$TOP/guest/bench.sh" plan "kernel=${1%:*}" "boot=${1#*:}" $GUEST_ARGS | sed -n 's/.*seconds=//p'
}
left_after=0
for b in $BOOTS; do left_after=$((left_after + $(est "$b") + 30)); done
stage "bench: $(echo "$BOOTS" | wc -w) boot(s): $BOOTS; ${RUNTIME}s runs x $REPS, estimated $((left_after / 60)) min"

nboot=$(echo "$BOOTS" | wc -w)
i=0 failed=''
for b in $BOOTS; do
	i=$((i + 1))
	kernel=${b%:*} boot=${b#*:}
	v=normal
	[ "$kernel" = stock ] && v=stock
	append=''
	[ "$boot" = pq1 ] && append=nvme.poll_queues=1
	this=$(($(est "$b") + 30))
	left_after=$((left_after - this))
	log=$RESULTS/bench-$kernel-$boot.log
	rm -f "$log" "$WORK/disk.img"
	boot_start
	truncate -s 1G "$WORK/disk.img"
	stage "bench: boot $i/$nboot: $kernel kernel ($WORK/obj-$v), boot $boot${append:+ ($append)}, ~$((this / 60)) min, log $log"
	# shellcheck disable=SC2086 # GUEST_ARGS is a list of words
	QUIET=1 BUILD=$WORK VARIANT=$v TIMEOUT=$((this * 3 + 300)) EXTRA_APPEND="${EXTRA_APPEND:+$EXTRA_APPEND }$append" \
		sh "$TOP/scripts/boot.sh" -l "$log" bench.sh "kernel=$kernel" "boot=$boot" $GUEST_ARGS &
	pid=$!
	# Progress: the guest's "# bench: [n/N] ... left=Ns" lines, with the time left overall.
	sleep 1
	tail -F -n +1 --pid="$pid" "$log" 2>/dev/null |
		awk -v after="$left_after" -v t0="$T0" '{ sub(/\r$/, "") } /^# bench: \[/ {
			l = $NF; sub(/^left=/, "", l); sub(/s$/, "", l); sub(/^# bench: /, "")
			sub(/ left=[0-9]+s$/, "")
			srand(); now = srand() # POSIX awk: srand() returns the previous seed, the time
			printf "    %s (%d:%02d elapsed; ~%d s left in this boot, ~%d min in all)\n", $0,
				(now - t0) / 60, (now - t0) % 60, l, (l + after + 59) / 60
			fflush() }
			/^(not ok|Bail out)/ { print "    guest: " $0; fflush() }' >&2 || true
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 0 ] || failed="$failed $kernel:$boot"
	stage "bench: $kernel $boot: $(wc -l < "$RESULTS/bench-$kernel-$boot.bench" 2>/dev/null || echo 0) BENCH lines, boot.sh rc=$rc"
	steal_note "$kernel:$boot boot"
done

# Hybrid polling on slower devices: null_blk that takes HYBRID_NSEC per I/O.
hlog=$RESULTS/hybrid-series.log
rm -f "$hlog" "${hlog%.log}.bench"
if [ -n "$HYBRID_NSEC" ]; then
	nh=$(echo "$HYBRID_NSEC" | tr : ' ' | wc -w)
	hsecs=$((nh * REPS * 8 * (RUNTIME + 1) + 30))
	stage "bench: hybrid polling on null_blk ($HYBRID_NSEC ns per I/O), ~$((hsecs / 60 + 1)) min, log $hlog"
	boot_start
	if QUIET=1 BUILD=$WORK VARIANT=normal TIMEOUT=$((hsecs * 3 + 300)) \
		sh "$TOP/scripts/boot.sh" -l "$hlog" bench-hybrid.sh "nsec=$HYBRID_NSEC" \
		"runtime=$RUNTIME" "reps=$REPS"; then :; else failed="$failed hybrid"; fi
	steal_note "hybrid boot"
fi

# Polling against the number of jobs (targets in scripts/bench-jobs-report.py): QD1 psync per job on the null-co disk,
# every mode in the same boot, and 1 polled reader beside 2 CPU-bound tasks.
# Not bench-*.log: bench-report.sh reads every bench-*.bench as its own rows.
jlog=$RESULTS/jobs-series.log
rm -f "$jlog" "${jlog%.log}.bench" "${jlog%.log}.tap" "$RESULTS"/bench-jobs-*.dat
if [ -n "$JOB_COUNTS" ]; then
	nrows=$(($(echo "$JOB_COUNTS" | tr + ' ' | wc -w) * $(echo "$JOBS_MODES" | tr + ' ' | wc -w) + 2))
	jsecs=$((REPS * nrows * 5 + 30))
	stage "bench: jobs $JOB_COUNTS, modes $JOBS_MODES, ~$((jsecs / 60 + 1)) min, log $jlog"
	boot_start
	if QUIET=1 BUILD=$WORK VARIANT=normal TIMEOUT=$((jsecs * 3 + 300)) \
		sh "$TOP/scripts/boot.sh" -l "$jlog" bench-jobs.sh "jobs=$JOB_COUNTS" "modes=$JOBS_MODES" \
		"reps=$REPS" runtime=3 pq1=0; then :; else failed="$failed jobs"; fi
	steal_note "jobs boot"
fi

RESULTS="$RESULTS" BENCH_PUBLISH="${BENCH_PUBLISH:-0}" sh "$TOP/scripts/bench-compose.sh"
stage "bench: done in $((($(date +%s) - T0) / 60)) min: $RESULTS/bench.md"
[ -z "$failed" ] || die "bench: boot(s) failed:$failed (logs $RESULTS/bench-*.log)"

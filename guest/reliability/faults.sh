#!/bin/sh
# Faults: controller resets under polled verify I/O; queue freezes (nr_requests,
# scheduler); fail_make_request and fail_io_timeout: errors reach fio and dd as EIO,
# polling works after, the data verifies.
# BLKPOLL_BREAK=d: no fault armed, and a block corrupted before a re-read.
# Run by guest/reliability.sh (phase d), or alone: sh /guest/reliability/faults.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio dd md5sum timeout"
DEVICES="BLKPOLL_DISK"
DEADLINE=400
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/poll-stat.sh
. /guest/lib/reliability.sh

RESETS=${BLKPOLL_RESETS:-20}
FREEZE_SECS=${BLKPOLL_FREEZE_SECS:-20}
faults() {
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
	# The reads the choice leaves to the interrupt (poll_stat irq_chosen, declined)
	# are not polled ones: after the resets the choice may take the interrupt until
	# a probe measures polling again (within 16 reads, patch 12).
	s0=$(poll_stat_line "$DEV")
	i0=$(irqs_of "$DISK")
	fio_run --name=after --filename="$DISK" --offset="$off" --size=16M --rw=randread --bs=4k \
		--ioengine=psync --direct=1 --number_ios=2000
	irqs=$(($(irqs_of "$DISK") - i0))
	st=$(poll_stat_delta "$s0" "$(poll_stat_line "$DEV")")
	ipi=$(ratio "$irqs" "$FIO_RIOS")
	tap_diag "  polled psync after resets: $FIO_RIOS I/Os, $irqs interrupts, $ipi per I/O; poll_stat $st"
	echo "BENCH test=reliability phase=after-resets dev=$DEV engine=psync rw=randread bs=4k io_poll=1 ios=$FIO_RIOS irqs=$irqs irq_per_io=$ipi"
	if fio_clean && [ "$FIO_RIOS" -gt 0 ] && PSQ=$DEV polled_ipi_ok "$st" "$irqs" "$FIO_RIOS" "$IPI_POLLED_MAX" $((FIO_RIOS / 2)); then
		tap_ok "faults: polling still works after the resets: >= half the reads polled, <= $IPI_POLLED_MAX interrupts per polled read"
	else
		tap_not_ok "faults: polling still works after the resets: >= half the reads polled, <= 0.1 interrupts per polled read (rc $FIO_RC)"
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

faults
tap_end

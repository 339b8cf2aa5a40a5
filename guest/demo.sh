#!/bin/sh
# The series end to end, for a reader: io_poll switched on at run time on an
# NVMe disk probed with default parameters, then dd iflag=direct and fio psync
# with polling off and on, interleaved, figures side by side.
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh

dev=${BLKPOLL_NULL:-${BLKPOLL_DISK:-/dev/nvme0n1}}
name=${dev#/dev/}
ctrl=${name%n[0-9]*}
q=/sys/block/$name/queue
REPS=${REPS:-3}

tap_diag "device $dev ($(sed 's/ *$//' "/sys/class/nvme/$ctrl/model" 2>/dev/null)), $(nproc) vCPUs"
tap_diag "$(dmesg | grep -m1 "$ctrl: .*queues" | sed 's/^\[[^]]*\] //')"
tap_check "io_poll reads 1 at boot: the device can poll (spare poll queues)" test "$(cat "$q/io_poll")" = 1
tap_check "synchronous polling is off at boot (no SYNC_POLL in debugfs state)" test "$(sync_poll "$dev")" = 0
tap_check "echo 1 > $q/io_poll switches polling on at run time" set_io_poll "$dev" 1
tap_diag "$(dmesg | grep "$ctrl: .*queues" | tail -1 | sed 's/^\[[^]]*\] //')"
tap_check "echo 0 > $q/io_poll switches it off" set_io_poll "$dev" 0

# demo_fio: fio psync QD1 4 KiB random reads, "iops lat_us irqs_per_io
# irqs_per_polled_io irq_share": interrupts per polled I/O by ipi_polled
# (guest/lib/poll-stat.sh), the rule every guest check uses; irq_share: the I/Os left
# to the interrupt by choice (declined: another task was runnable; irq_chosen: it
# measured faster)
demo_fio() {
	i0=$(irqs_of "$dev")
	s0=$(poll_stat_line "$name")
	fio_run --name=demo --filename="$dev" --rw=randread --bs=4k --direct=1 \
		--ioengine=psync --runtime="${RUNTIME:-5}" --time_based
	i1=$(irqs_of "$dev")
	st=$(poll_stat_delta "$s0" "$(poll_stat_line "$name")")
	fio_clean || return 1
	# shellcheck disable=SC2046 # "polled extra ratio"
	set -- $(ipi_polled "$st" $((i1 - i0)) "$FIO_RIOS")
	lat=$(fio_jq "$FIO_JSON" -r '.jobs[0].read.clat_ns.mean / 1000')
	iops=$(fio_read_rate)
	awk -v ios="$FIO_RIOS" -v iops="${iops%% *}" -v lat="$lat" -v irq=$((i1 - i0)) -v polled="$1" -v extra="$2" \
		'BEGIN { printf "%d %.1f %.3f %.3f %.3f\n", iops, lat, (ios ? irq / ios : 0),
			(polled > 0 ? extra / polled : 0), (ios ? (ios - polled) / ios : 0) }'
}

# dd 4 KiB O_DIRECT reads: MB/s over the elapsed time (busybox dd prints no rate)
uptime_cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

dd_run() {
	n=20000
	t0=$(uptime_cs)
	dd if="$dev" of=/dev/null bs=4k count=$n iflag=direct 2>/dev/null
	t1=$(uptime_cs)
	awk -v b=$((n * 4096)) -v cs=$((t1 - t0)) 'BEGIN { printf "%.1f\n", cs ? b / (cs / 100) / 1e6 : 0 }'
}

r=1
: > /tmp/demo.txt
while [ $r -le "$REPS" ]; do
	for mode in 0 1; do
		set_io_poll "$dev" $mode
		f=$(demo_fio)
		d=$(dd_run)
		echo "$mode $f $d" >> /tmp/demo.txt
		# shellcheck disable=SC2086 # $f is "iops lat irqs irqs_polled irq_share"
		printf 'BENCH test=demo dev=%s io_poll=%s rep=%d iops=%s lat_mean_us=%s irqs_per_io=%s irqs_per_polled_io=%s irq_share=%s dd_mb_s=%s\n' \
			"$name" "$mode" "$r" $f "$d"
	done
	r=$((r + 1))
done
set_io_poll "$dev" 0

tap_diag ""
tap_diag "fio psync randread 4k QD1 and dd bs=4k iflag=direct on $dev, median of $REPS interleaved runs:"
tap_diag "$(printf '%-10s %10s %12s %12s %10s' io_poll IOPS 'lat mean us' 'irqs per I/O' 'dd MB/s')"
tap_diag "(median run by IOPS; of its I/Os, io_poll=1 left the shown share to the interrupt)"
for mode in 0 1; do
	line=$(awk -v m=$mode '$1 == m' /tmp/demo.txt | sort -n -k2 | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
	# shellcheck disable=SC2086
	set -- $line
	dd_med=$(awk -v m=$mode '$1 == m { print $7 }' /tmp/demo.txt | sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
	tap_diag "$(printf '%-10s %10s %12s %12s %10s  by interrupt: %s' "$mode" "$2" "$3" "$4" "$dd_med" "$6")"
done
off=$(awk '$1 == 0 { print $2 }' /tmp/demo.txt | sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
on=$(awk '$1 == 1 { print $2 }' /tmp/demo.txt | sort -n | awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
tap_diag "polled / interrupt-driven psync IOPS: $(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.2f", b ? a / b : 0 }')x"
# at_most VALUE LIMIT: VALUE is a number no greater than LIMIT (a run that
# measured nothing leaves VALUE empty, which must fail)
at_most() {
	awk -v x="$1" -v lim="$2" 'BEGIN { exit !(x ~ /^[0-9.]+$/ && x + 0 <= lim) }'
}
irq_on=$(awk '$1 == 1 { print $5 }' /tmp/demo.txt | sort -n | tail -1)
tap_check "polled I/O takes no interrupts (max $irq_on per polled I/O, want <= $IPI_POLLED_MAX)" at_most "$irq_on" "$IPI_POLLED_MAX"
# else the check above holds with nothing polled
share=$(awk '$1 == 1 { print $6 }' /tmp/demo.txt | sort -n | tail -1)
tap_check "one reader on this device polls most I/Os (max $share by interrupt)" at_most "$share" 0.5
tap_end

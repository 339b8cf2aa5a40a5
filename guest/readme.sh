#!/bin/sh
# The README's "Switch polling on" and "Measure before and after" commands, as a
# user types them, on BLKPOLL_DISK (the README says nvme0n1 and nvme0q; the names
# here are the disk's) with fio runs of 3 s instead of 10: each command works,
# its output has what the README tells the reader to look at (IOPS, latency, CPU:
# numbers, > 0, the IOPS matching the reads fio issued), and the interrupt count it
# teaches shows polling (io_poll=1) against interrupts (io_poll=0).
# args: break=figures (or env BLKPOLL_BREAK=figures): the IOPS in fio's output made 0
# before they are judged, to show that check can fail.
set -u
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh

BREAK=${BLKPOLL_BREAK:-}
for a in "$@"; do
	case $a in
	break=*) BREAK=${a#break=} ;;
	*) tap_not_ok "readme: argument $a is break=" ;;
	esac
done

DISK=${BLKPOLL_DISK:-}
if [ -z "$DISK" ] || [ ! -b "$DISK" ]; then
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
	tap_end
	exit 1
fi
Q=${DISK#/dev/}
CTRL=${Q%n[0-9]*}
tap_diag "kernel $(uname -r), $(nproc) CPUs, disk $DISK, controller $CTRL"

# README: irqs() sums the controller's queue interrupts over all CPUs
irqs() { awk -v q="${CTRL}q" '$NF ~ "^" q { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i } END { print s + 0 }' /proc/interrupts; }

# readme_fio: the README's fio command (3 s); its output in /tmp/readme.fio
readme_fio() {
	fio --name=r --filename="$DISK" --direct=1 --rw=randread --bs=4k \
		--ioengine=psync --runtime=3 --time_based --readonly > /tmp/readme.fio 2>&1
}

# fio_ios: the reads of the last readme_fio, from "issued rwts: total=R,W,T,D"
fio_ios() {
	sed -n 's/^ *issued rwts: total=\([0-9]*\),.*/\1/p' /tmp/readme.fio
}

# figures READS: the IOPS, mean completion latency and CPU of /tmp/readme.fio (fio's
# normal output, what the README shows: the figures are read from the text a user
# reads, not from JSON) are there and sane: numbers; IOPS > 0 and times the 3 s
# within a factor of 2 of the READS fio issued (it is the figure fio counts from
# them); latency > 0 and < 1 s (a 4 KiB read); CPU usr + sys > 0, each <= 100 %
figures() {
	awk -v ios="$1" '
	function val(s, k) { sub(".*" k "=", "", s); sub(/[,%].*/, "", s); return s }
	/^ *read: IOPS=/ {
		v = val($0, "IOPS"); m = 1
		if (v ~ /k$/) m = 1000
		if (v ~ /M$/) m = 1000000
		sub(/[kM]$/, "", v)
		if (v ~ /^[0-9]+(\.[0-9]+)?$/) iops = v * m
	}
	/^ *clat \((nsec|usec|msec)\):/ {
		v = val($0, "avg"); u = $0
		sub(/^ *clat \(/, "", u); sub(/\).*/, "", u)
		if (v ~ /^[0-9]+(\.[0-9]+)?$/) lat = v * (u == "nsec" ? 0.001 : u == "msec" ? 1000 : 1)
	}
	/^ *cpu *:/ {
		u = val($0, "usr"); s = val($0, "sys")
		if (u ~ /^[0-9]+(\.[0-9]+)?$/ && s ~ /^[0-9]+(\.[0-9]+)?$/) { usr = u + 0; sys = s + 0; cpu = 1 }
	}
	END {
		printf "# figures: IOPS %s, mean completion latency %s us, CPU %s; %d reads issued in 3 s\n",
			iops == "" ? "missing" : iops, lat == "" ? "missing" : lat,
			cpu ? sprintf("usr %s%% sys %s%%", usr, sys) : "missing", ios
		exit !(iops > 0 && iops * 3 * 2 >= ios && iops * 3 <= ios * 2 && lat > 0 && lat < 1000000 &&
			cpu && usr + sys > 0 && usr <= 100 && sys <= 100)
	}' /tmp/readme.fio
}

# measure 0|1: io_poll set, then the README's "a=$(irqs); fio ...; echo ..." run;
# interrupts per I/O in /tmp/readme.ipi.$1
measure() {
	echo "$1" > "/sys/block/$Q/queue/io_poll" || return 1
	a=$(irqs)
	readme_fio || { tail -5 /tmp/readme.fio | sed 's/^/#   /'; return 1; }
	n=$(($(irqs) - a))
	ios=$(fio_ios)
	if [ -z "$ios" ] || [ "$ios" -eq 0 ]; then
		echo "# no 'issued rwts' in fio's output"
		return 1
	fi
	grep -E 'IOPS=|clat \(|sys=' /tmp/readme.fio | head -3 | sed 's/^/# /'
	awk -v n="$n" -v i="$ios" 'BEGIN { printf "%.3f", n / i }' > "/tmp/readme.ipi.$1"
	echo "# io_poll=$1: $n interrupts / $ios I/Os = $(cat "/tmp/readme.ipi.$1") per I/O"
	echo "BENCH test=readme dev=$Q io_poll=$1 ios=$ios irqs=$n irq_per_io=$(cat "/tmp/readme.ipi.$1")"
	# last, so that a failure here leaves the interrupt count to its own check
	if [ "$BREAK" = figures ]; then
		sed -i 's/IOPS=[0-9.]*[kM]*/IOPS=0/' /tmp/readme.fio
		echo "# BLKPOLL_BREAK=figures: IOPS made 0 in fio's output"
	fi
	figures "$ios"
}

# shown DESC CMD...: tap_check, but CMD's output (diagnostics, BENCH) shown either way
shown() {
	_d=$1
	shift
	if "$@" > /tmp/readme.out 2>&1; then tap_ok "$_d"; else tap_not_ok "$_d"; fi
	cat /tmp/readme.out
}

reads_back() { [ "$(cat "$1")" = "$2" ]; }

# the README's keys of poll_stat, all present and numeric
poll_stat_keys() {
	f=/sys/kernel/debug/block/$Q/poll_stat
	sed 's/^/# /' "$f"
	for k in polls spins poll_completions irq_completions declined irq_chosen backoffs \
		hybrid_sleeps hybrid_sleep_ns; do
		grep -qE "^$k [0-9]+$" "$f" || { echo "# no '$k N' in $f"; return 1; }
	done
}

fewer_irqs_polled() {
	[ -s /tmp/readme.ipi.0 ] && [ -s /tmp/readme.ipi.1 ] &&
		awk -v p="$(cat /tmp/readme.ipi.1)" -v i="$(cat /tmp/readme.ipi.0)" \
			'BEGIN { exit !(i >= 0.5 && p <= i / 2) }'
}

tap_check "echo 1 > /sys/block/$Q/queue/io_poll" sh -c "echo 1 > /sys/block/$Q/queue/io_poll"
tap_check "synchronous polling on at once (SYNC_POLL in debugfs state)" test "$(sync_poll "$Q")" = 1
tap_check "io_poll reads 1" reads_back "/sys/block/$Q/queue/io_poll" 1
tap_check "echo 0 > /sys/block/$Q/queue/io_poll_delay (adaptive hybrid polling)" \
	sh -c "echo 0 > /sys/block/$Q/queue/io_poll_delay"
tap_check "io_poll_delay reads 0" reads_back "/sys/block/$Q/queue/io_poll_delay" 0
tap_check "echo -1 > /sys/block/$Q/queue/io_poll_delay (classic polling, the default)" \
	sh -c "echo -1 > /sys/block/$Q/queue/io_poll_delay"
tap_check "io_poll_delay reads -1" reads_back "/sys/block/$Q/queue/io_poll_delay" -1
shown "the README's fio command and irqs() at io_poll=0: IOPS, latency, CPU shown" measure 0
shown "the README's fio command and irqs() at io_poll=1: IOPS, latency, CPU shown" measure 1
tap_check "irqs() shows polling: io_poll=0 >= 0.5 interrupts per I/O, io_poll=1 <= half of that" \
	fewer_irqs_polled
shown "cat /sys/kernel/debug/block/$Q/poll_stat: every counter the README names" poll_stat_keys
tap_check "echo 0 > /sys/block/$Q/queue/io_poll switches it off" sh -c "echo 0 > /sys/block/$Q/queue/io_poll"
tap_check "synchronous polling off (no SYNC_POLL in debugfs state)" test "$(sync_poll "$Q")" = 0
tap_check "io_poll still reads 1: the device can poll" reads_back "/sys/block/$Q/queue/io_poll" 1
tap_end

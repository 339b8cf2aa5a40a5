#!/bin/sh
# Plot the benchmark from the data files scripts/bench-report.sh writes:
#   $RESULTS/bench-iops.png     median IOPS per mode (bars, min..max as error bars), one
#                               panel per workload; the dd panel is MB/s
#   $RESULTS/bench-latency.png  latency percentiles of the main workload (4 KiB randread
#                               QD1): interrupt-driven vs polled vs io_uring IOPOLL
# usage: bench-plot.sh      env: RESULTS ($BUILD/results)
set -eu
. "$(dirname "$0")/lib.sh"

RESULTS=${RESULTS:-$BUILD/results}
command -v gnuplot >/dev/null || die "bench-plot: gnuplot missing (apt install gnuplot-nox)"
ls "$RESULTS"/bench-iops-*.dat >/dev/null 2>&1 || die "bench-plot: no $RESULTS/bench-iops-*.dat (run scripts/bench-report.sh)"
if gnuplot -e 'set terminal' 2>&1 | grep -q pngcairo; then
	TERM_PNG="pngcairo noenhanced font 'sans,9'"
else
	TERM_PNG="png noenhanced small"
fi

jobs_mode_title() {
	case $1 in
	irq) echo "interrupts (io_poll=0)" ;;
	poll) echo "io_poll=1 (per-I/O choice)" ;;
	hybrid) echo "adaptive (io_poll_delay=0)" ;;
	hipri) echo "classic, forced (RWF_HIPRI)" ;;
	iopoll) echo "io_uring IOPOLL" ;;
	esac
}

panels=''
for s in main randwrite seqread jobs4 null-dd file; do
	[ -s "$RESULTS/bench-iops-$s.dat" ] && panels="$panels $s"
done
npan=$(echo "$panels" | wc -w)
rows=$(((npan + 1) / 2))

{
	printf 'set terminal %s size 1400,%d\n' "$TERM_PNG" $((rows * 420))
	printf 'set output "%s/bench-iops.png"\n' "$RESULTS"
	printf 'set multiplot layout %d,2 title "Block polling benchmark (QEMU TCG): median over repetitions, bars min..max"\n' "$rows"
	echo 'set style data histograms'
	echo 'set style histogram errorbars gap 1 lw 1'
	echo 'set style fill solid 0.6 border -1'
	echo 'set boxwidth 0.8'
	echo 'set xtics rotate by -35 nomirror'
	echo 'set grid ytics'
	echo 'set yrange [0:*]'
	echo 'set key off'
	for s in $panels; do
		case $s in
		main) t="4 KiB randread QD1" ;;
		randwrite) t="4 KiB randwrite QD1" ;;
		seqread) t="64 KiB seq read QD1" ;;
		jobs4) t="4 KiB randread, 4 jobs QD1" ;;
		null-dd) t="dd bs=4k iflag=direct" ;;
		file) t="ext4 file 4 KiB randread psync" ;;
		esac
		if [ "$s" = null-dd ]; then
			# MB/s only has a median: no error bars
			printf 'set title "%s (MB/s)"\nset ylabel "MB/s"\n' "$t"
			printf 'plot "%s/bench-iops-%s.dat" using 5:5:5:xtic(1) lc rgb "#4477aa"\n' "$RESULTS" "$s"
		else
			printf 'set title "%s (IOPS)"\nset ylabel "IOPS"\n' "$t"
			printf 'plot "%s/bench-iops-%s.dat" using 2:3:4:xtic(1) lc rgb "#4477aa"\n' "$RESULTS" "$s"
		fi
	done
	echo 'unset multiplot'
} > "$RESULTS/bench-iops.gp"
gnuplot "$RESULTS/bench-iops.gp"
stage "bench-plot: $RESULTS/bench-iops.png"

if [ -s "$RESULTS/bench-cdf.dat" ]; then
	nblk=$(grep -c '^"' "$RESULTS/bench-cdf.dat")
	cat > "$RESULTS/bench-latency.gp" <<EOF
set terminal $TERM_PNG size 1000,600
set output "$RESULTS/bench-latency.png"
set title "4 KiB randread QD1, null-co NVMe: latency percentiles (fio total latency, median over repetitions)"
set xlabel "percentile"
set ylabel "latency (us)"
set logscale y
set grid xtics ytics mytics
# x = number of nines: -log10(1 - p/100)
nines(p) = -log10(1 - p / 100.0)
set xtics ("10" nines(10), "50" nines(50), "90" nines(90), "99" nines(99), "99.9" nines(99.9), "99.99" nines(99.99))
set xrange [0:4.1]
set key outside right top
plot for [i=0:$((nblk - 1))] "$RESULTS/bench-cdf.dat" index i using (nines(\$1)):2 with linespoints lw 2 title columnheader(1)
EOF
	gnuplot "$RESULTS/bench-latency.gp"
	stage "bench-plot: $RESULTS/bench-latency.png"
fi

jobs_modes=''
for m in irq poll hybrid hipri iopoll; do
	[ -s "$RESULTS/bench-jobs-$m.dat" ] && jobs_modes="$jobs_modes $m"
done
# jobs_plot "COLUMNS with STYLE": one plot command, a line per mode in $jobs_modes
jobs_plot() {
	_sep='plot'
	for _m in $jobs_modes; do
		printf '%s "%s/bench-jobs-%s.dat" using %s lw 2 title "%s"' \
			"$_sep" "$RESULTS" "$_m" "$1" "$(jobs_mode_title "$_m")"
		_sep=','
	done
	echo
}
if [ -n "$jobs_modes" ]; then
	{
		printf 'set terminal %s size 1400,520\n' "$TERM_PNG"
		printf 'set output "%s/bench-jobs.png"\n' "$RESULTS"
		echo 'set multiplot layout 1,2 title "4 KiB randread QD1 psync per job, null-co NVMe, 2 vCPUs: median over repetitions, bars min..max"'
		echo 'set logscale x 2'
		echo 'set xlabel "jobs"'
		echo 'set grid xtics ytics'
		echo 'set yrange [0:*]'
		echo 'set key top right'
		echo 'set title "IOPS (all jobs)"'
		echo 'set ylabel "IOPS"'
		jobs_plot '1:2:3:4 with yerrorlines'
		echo 'set title "CPU per I/O (fio usr+sys)"'
		echo 'set ylabel "us per I/O"'
		jobs_plot '1:5 with linespoints'
		echo 'unset multiplot'
	} > "$RESULTS/bench-jobs.gp"
	gnuplot "$RESULTS/bench-jobs.gp"
	stage "bench-plot: $RESULTS/bench-jobs.png"
fi

#!/bin/sh
# Turn the BENCH lines of the benchmark boots into a Markdown report and a short summary.
# usage: bench-report.sh [FILE.bench...]    (default: $RESULTS/bench-*.bench)
# env:   RESULTS ($BUILD/results)
# Writes $RESULTS/bench.md, and for scripts/bench-plot.sh $RESULTS/bench-iops-<section>.dat
# (median/min/max IOPS per row) and $RESULTS/bench-cdf.dat (latency percentiles, main
# workload). Prints the summary on stdout.
#
# Per row (kernel, boot, device, mode, workload), over the repetitions: IOPS min/median/max;
# the medians of MB/s, mean/p50/p99/p99.9 latency, CPU time per I/O (fio: (usr+sys)% *
# job runtime / ios, the I/O thread only; all: the whole guest's non-idle time / ios, which
# includes interrupt handlers), interrupts per I/O. Ratios are of median IOPS:
#   x irq       to the interrupt-driven row of the same boot (psync-irq; dd-irq for dd)
#   x stock     to stock psync-irq (dd-irq) of the stock default boot
#   x IOPOLL    to stock io_uring IOPOLL of the stock pq1 boot (nvme.poll_queues=1)
# A ratio marked * compares two rows of the same boot; unmarked ones compare across
# boots, where TCG noise between boots adds to the error.
set -eu
. "$(dirname "$0")/lib.sh"

RESULTS=${RESULTS:-$BUILD/results}
if [ $# -eq 0 ]; then
	set -- "$RESULTS"/bench-*.bench
	[ -e "$1" ] || die "bench-report: no $RESULTS/bench-*.bench (run scripts/bench.sh)"
fi
OUT=$RESULTS/bench.md
mkdir -p "$RESULTS"
rm -f "$RESULTS"/bench-iops-*.dat "$RESULTS/bench-cdf.dat"

# The boots' own description lines ("# bench: kernel ...") from their TAP files.
boots=$(for f in "$@"; do
	t=${f%.bench}.tap
	[ ! -f "$t" ] || sed -n 's/^# bench: kernel \([^,]*\), \([^,]*\), \([0-9]* CPUs\).*/\1, \2, \3/p' "$t" |
		head -1 | sed "s|^|- ${f##*/}: |"
done)

cat "$@" | tr -d '\r' | awk -v out="$OUT" -v dat="$RESULTS" -v boots="$boots" -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" '
function med(a, n,    i, j, t, s) {
	for (i = 1; i <= n; i++) s[i] = a[i]
	for (i = 2; i <= n; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
	smin = s[1]; smax = s[n]
	return n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
}
# mstat(G, METRIC): median over the runs of group G that have the metric; "" if none
function mstat(g, m,    i, k, a) {
	k = 0
	for (i = 1; i <= n[g]; i++) if ((g SUBSEP m SUBSEP i) in val) a[++k] = val[g, m, i] + 0
	if (k == 0) { smin = smax = ""; return "" }
	return med(a, k)
}
function f1(x) { return x == "" ? "na" : sprintf("%.1f", x) }
function f2(x) { return x == "" ? "na" : sprintf("%.2f", x) }
function f0(x) { return x == "" ? "na" : sprintf("%.0f", x) }
function section(dev, mode, rw, bs, jobs) {
	if (mode ~ /^dd-/) return dev "-dd"
	if (dev == "file") return "file"
	if (rw == "randread" && jobs == 1) return "main"
	if (rw == "randwrite") return "randwrite"
	if (rw == "read") return "seqread"
	if (jobs == 4) return "jobs4"
	return rw "-" bs "-" jobs
}
function ratio(g, ref, same) {
	if (!(ref in n) || miops[ref] <= 0) return "na"
	return sprintf("%.2f%s", miops[g] / miops[ref], same ? "*" : "")
}
BEGIN {
	title["main"] = "4 KiB random read, QD1, 1 job (null-co NVMe): the main figure"
	title["randwrite"] = "4 KiB random write, QD1 (null-co NVMe)"
	title["seqread"] = "64 KiB sequential read, QD1 (null-co NVMe)"
	title["jobs4"] = "4 KiB random read, 4 jobs at QD1, group reporting (null-co NVMe, 2 CPUs)"
	title["null-dd"] = "busybox dd bs=4k iflag=direct (null-co NVMe), MB/s from dd"
	title["file"] = "ext4 file (256 MiB, written) on the file-backed NVMe, 4 KiB random read psync QD1"
	nsec = split("main randwrite seqread jobs4 null-dd file", secs, " ")
	nmo = split("psync-irq pvsync2-hipri uring-irq uring-iopoll psync-poll psync-hybrid psync-delay20 dd-irq dd-poll", mos, " ")
	for (i = 1; i <= nmo; i++) mord[mos[i]] = i
	bord["stock" SUBSEP "default"] = 1; bord["stock" SUBSEP "pq1"] = 2
	bord["series" SUBSEP "default"] = 3; bord["series" SUBSEP "pq1"] = 4
}
/^BENCH / {
	delete f
	for (i = 2; i <= NF; i++) { p = index($i, "="); if (p > 1) f[substr($i, 1, p - 1)] = substr($i, p + 1) }
	if (!("kernel" in f) || !("mode" in f) || f["iops"] !~ /^[0-9.]+$/ || f["ios"] + 0 <= 0) { bad++; next }
	g = f["kernel"] SUBSEP f["boot"] SUBSEP f["dev"] SUBSEP f["mode"] SUBSEP f["rw"] SUBSEP f["bs"] SUBSEP f["jobs"]
	if (!(g in n)) { n[g] = 0; order[++ng] = g }
	k = ++n[g]
	ios = f["ios"]
	val[g, "iops", k] = f["iops"]
	val[g, "mbs", k] = f["bw_kib"] * 1024 / 1e6
	if (f["lat_mean_us"] != "na") {
		val[g, "lat", k] = f["lat_mean_us"]; val[g, "p50", k] = f["lat_p50_us"]
		val[g, "p99", k] = f["lat_p99_us"]; val[g, "p999", k] = f["lat_p999_us"]
	}
	if (f["cpu_usr"] != "na" && f["runtime_ms"] > 0)
		val[g, "cpuf", k] = (f["cpu_usr"] + f["cpu_sys"]) / 100 * f["runtime_ms"] * 1000 / ios
	val[g, "cpua", k] = f["busy_ms"] * 1000 / ios
	val[g, "irq", k] = f["irqs"] / ios
	if (f["lat_cdf_us"] != "na" && f["lat_cdf_us"] != "") {
		np = split(f["lat_cdf_us"], pp, "/")
		for (j = 1; j <= np; j++) { split(pp[j], kv, ":"); val[g, "cdf" kv[1], k] = kv[2]; pctl[kv[1]] = 1 }
		cdfl = f["lat_cdf_us"]
	}
	runs++
}
END {
	if (runs == 0) { print "bench-report: no valid BENCH lines" > "/dev/stderr"; exit 1 }
	for (i = 1; i <= ng; i++) {
		g = order[i]; split(g, K, SUBSEP)
		miops[g] = mstat(g, "iops"); imin[g] = smin; imax[g] = smax
		sec[g] = section(K[3], K[4], K[5], K[6], K[7])
	}
	printf "# Block polling benchmark: synchronous O_DIRECT, polled vs interrupts vs io_uring\n\n" > out
	printf "%s, %d runs (%d malformed lines skipped). QEMU TCG, so absolute figures are slow and noisy:\n", date, runs, bad + 0 > out
	printf "read the ratios, and trust same-boot ratios (marked *) more than cross-boot ones.\n\n" > out
	if (boots != "") printf "Boots (kernel, boot, CPUs):\n%s\n\n", boots > out
	printf "Columns: IOPS over the repetitions (min / median / max); the rest are medians. Latency is fio total latency in us.\n" > out
	printf "CPU us/IO: *fio* = the I/O threads (usr+sys), *all* = whole guest non-idle time (includes interrupt handlers).\n" > out
	printf "x irq: to the same boot'"'"'s interrupt-driven row (psync-irq, dd-irq for dd; series: io_poll=0). " > out
	printf "x stock: to stock psync-irq of the stock default boot. x IOPOLL: to stock io_uring IOPOLL of the stock pq1 boot (nvme.poll_queues=1). " > out
	printf "* = same boot; unmarked = across boots.\n" > out
	for (s = 1; s <= nsec; s++) {
		S = secs[s]; rows = 0
		for (i = 1; i <= ng; i++) if (sec[order[i]] == S) rows++
		if (!rows) continue
		printf "\n## %s\n\n", title[S] > out
		printf "| kernel | boot | mode | n | IOPS min / med / max | MB/s | lat mean | p50 | p99 | p99.9 | CPU us/IO fio | all | IRQ/IO | x irq | x stock | x IOPOLL |\n" > out
		printf "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n" > out
		# rows in a fixed order: stock default, stock pq1, series; modes as in mos[]
		cnt = 0
		for (b = 1; b <= 4; b++) for (m = 1; m <= nmo; m++) for (i = 1; i <= ng; i++) {
			g = order[i]; split(g, K, SUBSEP)
			if (sec[g] != S || bord[K[1], K[2]] != b || K[4] != mos[m]) continue
			refm = K[4] ~ /^dd-/ ? "dd-irq" : "psync-irq"
			rest = SUBSEP K[5] SUBSEP K[6] SUBSEP K[7]
			r_irq = ratio(g, K[1] SUBSEP K[2] SUBSEP K[3] SUBSEP refm rest, 1)
			r_st = ratio(g, "stock" SUBSEP "default" SUBSEP K[3] SUBSEP refm rest, K[1] == "stock" && K[2] == "default")
			r_io = (K[3] == "null" && K[4] !~ /^dd-/) ? ratio(g, "stock" SUBSEP "pq1" SUBSEP "null" SUBSEP "uring-iopoll" rest, K[1] == "stock" && K[2] == "pq1") : "na"
			mbs = mstat(g, "mbs"); lat = mstat(g, "lat"); p50 = mstat(g, "p50"); p99 = mstat(g, "p99"); p999 = mstat(g, "p999")
			cpuf = mstat(g, "cpuf"); cpua = mstat(g, "cpua"); irq = mstat(g, "irq")
			printf "| %s | %s | %s | %d | %s / **%s** / %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				K[1], K[2], K[4], n[g], f0(imin[g]), f0(miops[g]), f0(imax[g]), f1(mbs), f1(lat), f1(p50), f1(p99), f1(p999),
				f1(cpuf), f1(cpua), f2(irq), r_irq, r_st, r_io > out
			label = K[1] "/" K[2] " " K[4]
			printf "\"%s\" %s %s %s %s\n", label, f0(miops[g]), f0(imin[g]), f0(imax[g]), f1(mbs) > (dat "/bench-iops-" S ".dat")
			# The summary: the series rows and the stock references, main-like sections only.
			if (S == "main" || S == "null-dd" || S == "file" || S == "jobs4") {
				line = sprintf("%-8s %-22s %-14s %7s IOPS", S, K[1] "/" K[2], K[4], f0(miops[g]))
				if (S == "null-dd") line = sprintf("%-8s %-22s %-14s %7s MB/s", S, K[1] "/" K[2], K[4], f1(mbs))
				line = line sprintf("  x irq %-6s x stock %-6s x IOPOLL %-6s p99 %7s us  IRQ/IO %s  CPU/IO all %s us", r_irq, r_st, r_io, f1(p99), f2(irq), f1(cpua))
				summ[++nsum] = line
			}
			if (S == "main" && (K[4] ~ /^psync-(irq|poll|hybrid|delay20)$/ && (K[1] == "series" || K[2] == "default") || K[4] == "uring-iopoll") && cdfl != "") {
				printf "\"%s\"\n", label > (dat "/bench-cdf.dat")
				np = split(cdfl, pp, "/")
				for (j = 1; j <= np; j++) { split(pp[j], kv, ":"); c = mstat(g, "cdf" kv[1]); if (c != "") printf "%s %s\n", kv[1], c > (dat "/bench-cdf.dat") }
				printf "\n\n" > (dat "/bench-cdf.dat")
			}
		}
	}
	# Does stock psync depend on the poll queue boot? (the default boot is the reference)
	gd = "stock" SUBSEP "default" SUBSEP "null" SUBSEP "psync-irq" SUBSEP "randread" SUBSEP "4k" SUBSEP "1"
	gp = "stock" SUBSEP "pq1" SUBSEP "null" SUBSEP "psync-irq" SUBSEP "randread" SUBSEP "4k" SUBSEP "1"
	pq = ""
	if ((gd in n) && (gp in n) && miops[gd] > 0)
		pq = sprintf("stock psync-irq 4k randread: pq1 boot / default boot = %.2f (cross-boot; %s .. %s vs %s .. %s IOPS)",
			miops[gp] / miops[gd], f0(imin[gp]), f0(imax[gp]), f0(imin[gd]), f0(imax[gd]))
	if (pq != "") printf "\n%s\n", pq > out
	print "Summary (median IOPS; x irq: same boot; x stock, x IOPOLL: * same boot, else cross-boot):"
	for (i = 1; i <= nsum; i++) print "  " summ[i]
	if (pq != "") print "  " pq
}'
stage "bench-report: $OUT"

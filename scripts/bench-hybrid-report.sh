#!/bin/sh
# The hybrid polling table: medians of guest/bench-hybrid.sh's BENCH test=hybrid lines
# per (completion_nsec, jobs, mode), and each mode against classic polling of the same
# device and jobs: IOPS and CPU time per I/O (fio usr+sys of the I/O threads). Then issue
# 14's and 28's adaptive targets on null_blk (1 job), each with the interrupt's own CPU per I/O
# against classic's: sleeping cannot cost less CPU than not polling at all, so where that
# floor is above the target the target is out of reach on the machine measured.
# usage: bench-hybrid-report.sh FILE.bench...   Markdown on stdout.
set -eu

[ $# -gt 0 ] || { echo "usage: bench-hybrid-report.sh FILE.bench..." >&2; exit 2; }
awk '
function median(key,    n, i, j, t, a) {
	n = split(vals[key], a, " ")
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ sub(/\r$/, "") }
$1 == "BENCH" && / test=hybrid / {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["iops"] + 0 <= 0) next
	row = f["nsec"] SUBSEP f["jobs"] SUBSEP f["mode"]
	if (!(row in n)) order[++rows] = row
	n[row]++
	cpu = (f["cpu_usr"] + f["cpu_sys"]) / 100 * f["jobs"] * 1000000 / f["iops"]
	vals[row SUBSEP "iops"] = vals[row SUBSEP "iops"] " " f["iops"]
	vals[row SUBSEP "cpu"] = vals[row SUBSEP "cpu"] " " cpu
	vals[row SUBSEP "p99"] = vals[row SUBSEP "p99"] " " f["lat_p99_us"]
	# polled modes: I/Os = completions found by polling
	slp = 0
	if (f["poll_completions"] > 0) slp = f["hybrid_sleeps"] / f["poll_completions"]
	vals[row SUBSEP "sleeps"] = vals[row SUBSEP "sleeps"] " " slp
	# lines of before the polled modes forced RWF_HIPRI have no ios
	if (f["ios"] > 0) vals[row SUBSEP "polled"] = vals[row SUBSEP "polled"] " " f["poll_completions"] / f["ios"]
}
END {
	if (!rows) { print "No hybrid benchmark lines."; exit }
	print "| device ns/IO | jobs | mode | n | IOPS | x poll IOPS | CPU us/IO | x poll CPU | p99 us | sleeps/IO | polled |"
	print "|--:|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|"
	for (r = 1; r <= rows; r++) {
		split(order[r], k, SUBSEP)
		poll = k[1] SUBSEP k[2] SUBSEP "poll"
		iops = median(order[r] SUBSEP "iops"); cpu = median(order[r] SUBSEP "cpu")
		xi = (poll in n) ? sprintf("%.2f", iops / median(poll SUBSEP "iops")) : "-"
		xc = (poll in n) ? sprintf("%.2f", cpu / median(poll SUBSEP "cpu")) : "-"
		pol = (order[r] SUBSEP "polled") in vals ? sprintf("%.2f", median(order[r] SUBSEP "polled")) : "-"
		printf "| %d | %d | %s | %d | %.0f | %s | %.1f | %s | %.0f | %.2f | %s |\n", k[1], k[2], k[3], n[order[r]],
			iops, xi, cpu, xc, median(order[r] SUBSEP "p99"), median(order[r] SUBSEP "sleeps"), pol
	}
	# adaptive vs classic at 1 job: completion_nsec, IOPS at least, CPU per I/O at most
	split("50000 0.90 0.70 100000 0.95 0.50 2000000 0.95 0.50", t, " ")
	print "\n| adaptive vs classic, 1 job | target | IOPS x classic | CPU/IO x classic | irq CPU/IO x classic | met |"
	print "|---|---|--:|--:|--:|---|"
	for (i = 1; i in t; i += 3) {
		hyb = t[i] SUBSEP 1 SUBSEP "hybrid"; poll = t[i] SUBSEP 1 SUBSEP "poll"; irq = t[i] SUBSEP 1 SUBSEP "irq"
		want = sprintf(">= %.2f IOPS at <= %.2f CPU", t[i + 1], t[i + 2])
		if (!(hyb in n) || !(poll in n)) {
			printf "| %d ns null_blk | %s | - | - | - | not measured |\n", t[i], want
			continue
		}
		xi = median(hyb SUBSEP "iops") / median(poll SUBSEP "iops")
		xc = median(hyb SUBSEP "cpu") / median(poll SUBSEP "cpu")
		floor = (irq in n) ? median(irq SUBSEP "cpu") / median(poll SUBSEP "cpu") : -1
		met = (xi >= t[i + 1] && xc <= t[i + 2]) ? "yes" : "no"
		if (met == "no" && floor > t[i + 2])
			met = sprintf("no: out of reach here, the interrupt alone costs %.2fx", floor)
		printf "| %d ns null_blk | %s | %.2f | %.2f | %s | %s |\n", t[i], want, xi, xc,
			floor < 0 ? "-" : sprintf("%.2f", floor), met
	}
}' "$@"

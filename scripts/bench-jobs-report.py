#!/usr/bin/env python3
"""Table of guest/bench-jobs.sh runs: medians per row, ratios within the boot.

usage: bench-jobs-report.py LOG   (the console log of one boot)
"""
import statistics
import sys


def parse(path):
    runs = []
    with open(path, errors="replace") as f:
        for line in f:
            at = line.find("BENCH test=jobs ")
            if at < 0:
                continue
            fields = dict(kv.split("=", 1) for kv in line[at:].split()[1:] if "=" in kv)
            runs.append(fields)
    return runs


def med(runs, key, **match):
    vals = [float(r[key]) for r in runs if all(r.get(k) == str(v) for k, v in match.items())]
    if not vals:
        return None
    return statistics.median(vals), min(vals), max(vals), len(vals)


def fmt(x, digits=0):
    return "-" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b[0] == 0 else a[0] / b[0]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    runs = parse(sys.argv[1])
    if not runs:
        sys.exit(f"bench-jobs-report: no 'BENCH test=jobs' lines in {sys.argv[1]}")
    print("| queues | jobs | mode | IOPS median (min-max, n) | x irq | x IOPOLL | CPU us/IO | IRQ/IO |")
    print("|---|--:|---|--:|--:|--:|--:|--:|")
    for queues in ("irq", "pq1"):
        jobs = sorted({int(r["jobs"]) for r in runs if r["queues"] == queues and not r["mode"].startswith("hog")})
        for j in jobs:
            irq = med(runs, "iops", queues=queues, mode="irq", jobs=j)
            iopoll = med(runs, "iops", queues=queues, mode="iopoll", jobs=j)
            for mode in ("irq", "poll", "pvpoll", "hipri", "iopoll"):
                m = med(runs, "iops", queues=queues, mode=mode, jobs=j)
                if m is None:
                    continue
                cpu = med(runs, "cpu_us_per_io", queues=queues, mode=mode, jobs=j)
                ipi = med(runs, "irq_per_io", queues=queues, mode=mode, jobs=j)
                print(f"| {queues} | {j} | {mode} | {m[0]:.0f} ({m[1]:.0f}-{m[2]:.0f}, {m[3]}) "
                      f"| {fmt(ratio(m, irq), 2)} | {fmt(ratio(m, iopoll), 2)} "
                      f"| {fmt(cpu and cpu[0], 1)} | {fmt(ipi and ipi[0], 3)} |")
    print()
    print("| queues | 1 reader + 2 CPU-bound tasks | reader IOPS | x irq | hog loops | x irq |")
    print("|---|---|--:|--:|--:|--:|")
    for queues in ("irq", "pq1"):
        irq = med(runs, "iops", queues=queues, mode="hog-irq")
        loops_irq = med(runs, "hog_loops", queues=queues, mode="hog-irq")
        for mode in ("hog-irq", "hog-poll"):
            m = med(runs, "iops", queues=queues, mode=mode)
            loops = med(runs, "hog_loops", queues=queues, mode=mode)
            if m is None:
                continue
            print(f"| {queues} | {mode} | {m[0]:.0f} | {fmt(ratio(m, irq), 2)} "
                  f"| {fmt(loops and loops[0])} | {fmt(ratio(loops, loops_irq), 2)} |")


if __name__ == "__main__":
    main()

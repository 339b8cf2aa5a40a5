#!/usr/bin/env python3
"""Table of guest/bench-jobs.sh runs: medians per row, ratios within the boot.

usage: bench-jobs-report.py [--targets] [--dat DIR] LOG   (the console log of one boot)
  --targets  also print the targets (TARGETS below: polling against the interrupt
             and io_uring IOPOLL at 1-8 jobs, beside CPU-bound tasks, hybrid
             polling's IOPS and CPU), each with its ratio of medians, the
             range of the per-repetition ratios and whether the median meets it;
             where the log has the control (mode irq2: the interrupt run twice per
             repetition), a target against the interrupt that is not met says
             whether its ratio lies within the interrupt's ratios to itself
  --dat DIR  write DIR/bench-jobs-MODE.dat (jobs, IOPS median, min, max, CPU us/IO
             median) for scripts/bench-plot.sh, one file per mode
"""
import argparse
import os
import statistics
import sys

MODES = ("irq", "irq2", "poll", "hybrid", "pvpoll", "hipri", "iopoll")
# what the plot draws: every way of waiting, not the control (the interrupt again)
PLOTTED = tuple(m for m in MODES if m != "irq2")


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


def values(runs, key, **match):
    return [float(r[key]) for r in runs if all(r.get(k) == str(v) for k, v in match.items())]


def med(runs, key, **match):
    vals = values(runs, key, **match)
    if not vals:
        return None
    return statistics.median(vals), min(vals), max(vals), len(vals)


def fmt(x, digits=0):
    return "-" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b[0] == 0 else a[0] / b[0]


def rep_ratios(runs, key, num, den):
    """num / den of the same repetition, for each repetition that has both."""
    out = []
    for rep in sorted({r["rep"] for r in runs}):
        a = values(runs, key, rep=rep, **num)
        b = values(runs, key, rep=rep, **den)
        if a and b and b[0] > 0:
            out.append(a[0] / b[0])
    return out


def rows_table(runs):
    print("| queues | jobs | mode | IOPS median (min-max, n) | x irq | x IOPOLL | CPU us/IO | IRQ/IO |")
    print("|---|--:|---|--:|--:|--:|--:|--:|")
    for queues in ("irq", "pq1"):
        jobs = sorted({int(r["jobs"]) for r in runs if r["queues"] == queues and not r["mode"].startswith("hog")})
        for j in jobs:
            irq = med(runs, "iops", queues=queues, mode="irq", jobs=j)
            iopoll = med(runs, "iops", queues=queues, mode="iopoll", jobs=j)
            for mode in MODES:
                m = med(runs, "iops", queues=queues, mode=mode, jobs=j)
                if m is None:
                    continue
                cpu = med(runs, "cpu_us_per_io", queues=queues, mode=mode, jobs=j)
                ipi = med(runs, "irq_per_io", queues=queues, mode=mode, jobs=j)
                print(f"| {queues} | {j} | {mode} | {m[0]:.0f} ({m[1]:.0f}-{m[2]:.0f}, {m[3]}) "
                      f"| {fmt(ratio(m, irq), 2)} | {fmt(ratio(m, iopoll), 2)} "
                      f"| {fmt(cpu and cpu[0], 1)} | {fmt(ipi and ipi[0], 3)} |")


def hog_table(runs):
    print("| queues | 1 reader + 2 CPU-bound tasks | reader IOPS | x irq | hog loops | x irq |")
    print("|---|---|--:|--:|--:|--:|")
    for queues in ("irq", "pq1"):
        irq = med(runs, "iops", queues=queues, mode="hog-irq")
        loops_irq = med(runs, "hog_loops", queues=queues, mode="hog-irq")
        for mode in ("hog-irq", "hog-irq2", "hog-poll"):
            m = med(runs, "iops", queues=queues, mode=mode)
            loops = med(runs, "hog_loops", queues=queues, mode=mode)
            if m is None:
                continue
            print(f"| {queues} | {mode} | {m[0]:.0f} | {fmt(ratio(m, irq), 2)} "
                  f"| {fmt(loops and loops[0])} | {fmt(ratio(loops, loops_irq), 2)} |")


# (case, key, numerator, denominator, at least (True) or at most, target, ceiling,
# control): ceiling, where given, is the best any polling reaches in the same boot
# (io_uring IOPOLL); a target above ceiling / denominator is out of reach on this
# machine. control, where given, is the denominator's mode run again: its ratios to
# the denominator are what this boot's noise alone gives.
TARGETS = [
    ("1 job, io_poll=1 vs io_poll=0", "iops", dict(mode="poll", jobs=1), dict(mode="irq", jobs=1), True, 2.0,
     dict(mode="iopoll", jobs=1), None),
    ("1 job, io_poll=1 vs io_uring IOPOLL", "iops", dict(mode="poll", jobs=1), dict(mode="iopoll", jobs=1), True, 1.0, None,
     None),
    ("2 jobs (= vCPUs), io_poll=1 vs io_poll=0", "iops", dict(mode="poll", jobs=2), dict(mode="irq", jobs=2), True, 1.0, None,
     dict(mode="irq2", jobs=2)),
    ("4 jobs, io_poll=1 vs io_poll=0", "iops", dict(mode="poll", jobs=4), dict(mode="irq", jobs=4), True, 1.0, None,
     dict(mode="irq2", jobs=4)),
    ("8 jobs, io_poll=1 vs io_poll=0", "iops", dict(mode="poll", jobs=8), dict(mode="irq", jobs=8), True, 1.0, None,
     dict(mode="irq2", jobs=8)),
    ("1 polled reader + 2 CPU-bound tasks: reader", "iops", dict(mode="hog-poll"), dict(mode="hog-irq"), True, 1.0, None,
     dict(mode="hog-irq2")),
    ("1 polled reader + 2 CPU-bound tasks: their loops", "hog_loops", dict(mode="hog-poll"), dict(mode="hog-irq"), True, 0.9,
     None, dict(mode="hog-irq2")),
    ("adaptive vs classic, emulated NVMe, 1 job: IOPS", "iops", dict(mode="hybrid", jobs=1), dict(mode="poll", jobs=1), True,
     0.95, None, None),
    ("adaptive vs classic, emulated NVMe, 1 job: CPU per I/O", "cpu_us_per_io", dict(mode="hybrid", jobs=1),
     dict(mode="poll", jobs=1), False, 1.0, None, None),
]


def verdict(runs, key, den, at_least, target, ceiling, control, r):
    """'yes', 'no', 'no: out of reach here' with the ceiling's own ratio, or 'no:
    within this boot's noise' where r is no further from the target than the
    control's per-repetition ratios to the denominator went"""
    if (r >= target) if at_least else (r <= target):
        return "yes"
    best = ratio(med(runs, key, **ceiling), med(runs, key, **den)) if ceiling else None
    if best is not None and best < target:
        return f"no: out of reach here, io_uring IOPOLL reaches {best:.2f}x"
    noise = rep_ratios(runs, key, control, den) if control else []
    if noise and ((r >= min(noise)) if at_least else (r <= max(noise))):
        return (f"no: within this boot's noise, the interrupt against itself "
                f"{statistics.median(noise):.2f} ({min(noise):.2f}-{max(noise):.2f}, {len(noise)})")
    return "no"


def targets_table(runs):
    runs = [r for r in runs if r["queues"] == "irq"]
    print("| case | target | median ratio | per-repetition ratios (min-max, n) | met |")
    print("|---|--:|--:|--:|---|")
    for case, key, num, den, at_least, target, ceiling, control in TARGETS:
        r = ratio(med(runs, key, **num), med(runs, key, **den))
        reps = rep_ratios(runs, key, num, den)
        want = f"{'>=' if at_least else '<='} {target:.2f}"
        if r is None:
            print(f"| {case} | {want} | - | - | not measured |")
            continue
        span = f"{min(reps):.2f}-{max(reps):.2f}, {len(reps)}" if reps else "-"
        print(f"| {case} | {want} | {r:.2f} | {span} | {verdict(runs, key, den, at_least, target, ceiling, control, r)} |")


def write_dat(runs, directory):
    os.makedirs(directory, exist_ok=True)
    for mode in PLOTTED:
        path = os.path.join(directory, f"bench-jobs-{mode}.dat")
        jobs = sorted({int(r["jobs"]) for r in runs if r["queues"] == "irq" and r["mode"] == mode})
        if not jobs:
            if os.path.exists(path):
                os.remove(path)
            continue
        with open(path, "w") as f:
            f.write("# jobs iops_median iops_min iops_max cpu_us_per_io_median\n")
            for j in jobs:
                m = med(runs, "iops", queues="irq", mode=mode, jobs=j)
                cpu = med(runs, "cpu_us_per_io", queues="irq", mode=mode, jobs=j)
                f.write(f"{j} {m[0]:.0f} {m[1]:.0f} {m[2]:.0f} {cpu[0]:.1f}\n")


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--targets", action="store_true")
    ap.add_argument("--dat")
    ap.add_argument("log")
    args = ap.parse_args()
    runs = parse(args.log)
    if not runs:
        sys.exit(f"bench-jobs-report: no 'BENCH test=jobs' lines in {args.log}")
    rows_table(runs)
    print()
    hog_table(runs)
    if args.targets:
        print()
        targets_table(runs)
    if args.dat:
        write_dat(runs, args.dat)


if __name__ == "__main__":
    main()

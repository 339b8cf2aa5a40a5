#!/usr/bin/env python3
"""Report of guest/bench-memory.sh's BENCH lines: per CPU count, the cost of the spare
poll queue: MemFree after a reset with it against the mean of the resets without it
just before and just after (the boot's MemFree drifts upwards for minutes, by more than
the queue costs: bracketing removes a linear drift), with a 95% confidence interval
(Student's t); hardware contexts and reset times either way.

usage: bench-memory-report.py LINES   (BENCH mem smp=.. spare=.. rep=.. memfree_kib=..
       hctx=.. queues=.. reset_ms=..)
"""
import statistics
import sys

# two-sided 95% Student t quantiles by degrees of freedom
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
       10: 2.23, 15: 2.13, 20: 2.09, 30: 2.04}


def t95(df):
    return T95.get(df) or T95[max(k for k in T95 if k <= df)]


def mean_ci(xs):
    m = statistics.mean(xs)
    if len(xs) < 2:
        return m, float("nan")
    return m, t95(len(xs) - 1) * statistics.stdev(xs) / len(xs) ** 0.5


def main():
    rows = {}
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            if not line.startswith("BENCH mem "):
                continue
            kv = dict(w.split("=", 1) for w in line.split()[2:])
            rows.setdefault(int(kv["smp"]), []).append(kv)
    if not rows:
        sys.exit("bench-memory-report: no BENCH mem lines")
    print("| CPUs | queues off / on | hctx off / on | spare queue's memory, KiB (95% CI) | reset ms off / on |")
    print("|---|---|---|---|---|")
    for smp in sorted(rows):
        off = {r["rep"]: r for r in rows[smp] if r["spare"] == "0"}
        on = {r["rep"]: r for r in rows[smp] if r["spare"] != "0"}
        reps = sorted(set(off) & set(on), key=int)
        # on(i) lies between off(i) and off(i + 1)
        bracketed = [r for r in reps if str(int(r) + 1) in off]
        if not bracketed:
            sys.exit(f"bench-memory-report: smp={smp}: no reset with it between two without it")
        cost = [(int(off[r]["memfree_kib"]) + int(off[str(int(r) + 1)]["memfree_kib"])) / 2
                - int(on[r]["memfree_kib"]) for r in bracketed]
        m, ci = mean_ci(cost)
        roff = statistics.median(int(off[r]["reset_ms"]) for r in reps)
        ron = statistics.median(int(on[r]["reset_ms"]) for r in reps)
        q = lambda d: "/".join(sorted({d[r]["queues"] for r in reps}))
        h = lambda d: "/".join(sorted({d[r]["hctx"] for r in reps}))
        print(f"| {smp} | {q(off)} / {q(on)} | {h(off)} / {h(on)} | {m:.0f} ± {ci:.0f} (n={len(bracketed)}) "
              f"| {roff:.0f} / {ron:.0f} |")


if __name__ == "__main__":
    main()

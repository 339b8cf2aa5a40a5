#!/usr/bin/env python3
"""Report of guest/bench-choice.sh: per device and load, the per-I/O choice
(io_poll=1) against always-interrupt, always-polling and the better of the two
(the oracle), with the choice's targets marked met or not met: per cell >= 0.95x
the oracle, >= 1.0x the interrupt less the boot's noise (the interrupt against
itself) make a cell met; its p99.9 against the interrupt's (<= 1) is shown beside
it; beside CPU-bound tasks, their work against theirs beside the interrupt; one
reader alone on the null-co disk >= 2.0x the interrupt at <= 0.01 interrupts per
I/O; hybrid polling on a 100 us device >= 0.95x classic polling's IOPS at <= 0.5x
its CPU (all in main()). "Other way" is the share of the choice's I/Os that went
the way the oracle did not (the interrupt where polling was better, polling where
the interrupt was): a cell whose choice went the oracle's way for nearly all I/Os
and still trails it by more than those I/Os can cost trails by the boot's noise.
Beside an RWF_HIPRI reader it is not shown: the device's counters hold that
reader's polled I/Os too.

usage: bench-choice-report.py LOG   (the boot log with BENCH test=choice lines)
"""
import statistics
import sys

DEVICES = {
    "nullco": "null-co NVMe (emulated by the host CPUs)",
    "file": "file-backed NVMe",
    "nb10": "null_blk 10 us, poll queues",
    "nb100": "null_blk 100 us, poll queues",
}


def parse(path):
    runs = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("BENCH test=choice "):
                continue
            fields = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
            try:
                fields["iops"] = float(fields["iops"])
            except (KeyError, ValueError):
                continue
            runs.append(fields)
    return runs


def med(runs, key):
    vals = [float(r[key]) for r in runs]
    return statistics.median(vals) if vals else float("nan")


def span(runs):
    vals = sorted(r["iops"] for r in runs)
    return f"{vals[0]:.0f} / **{statistics.median(vals):.0f}** / {vals[-1]:.0f}"


def ratio(a, b):
    return a / b if b else float("nan")


def main():
    runs = parse(sys.argv[1])
    if not runs:
        sys.exit("bench-choice-report: no BENCH test=choice lines")
    cells = {}
    for r in runs:
        cells.setdefault((r["dev"], r["load"]), {}).setdefault(r["mode"], []).append(r)

    print("# The choice (io_poll=1) against the better fixed policy\n")
    print("IOPS over the repetitions (min / median / max), latencies in us (medians).")
    print("x oracle: choice / the better of irq and poll medians; x irq: choice / irq;")
    print("noise: |irq2 / irq - 1|, the interrupt against itself in the same boot.\n")
    print("| device | load | mode | n | IOPS | p50 | p99 | p99.9 | CPU us/IO | IRQ/IO | polled share |")
    print("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    verdicts, verdicts_h, alone, hogs = [], [], [], []
    for (dev, load), modes in sorted(cells.items()):
        for mode in ("irq", "irq2", "poll", "choice", "hybrid"):
            rs = modes.get(mode)
            if not rs:
                continue
            polled = sum(int(r.get("polled", 0)) for r in rs)
            chosen = sum(int(r.get("irq_chosen", 0)) + int(r.get("declined", 0)) for r in rs)
            share = f"{polled / (polled + chosen):.2f}" if polled + chosen else "-"
            print(f"| {dev} | {load} | {mode} | {len(rs)} | {span(rs)} | {med(rs, 'p50_us'):.0f} "
                  f"| {med(rs, 'p99_us'):.0f} | {med(rs, 'p999_us'):.0f} | {med(rs, 'cpu_us_per_io'):.1f} "
                  f"| {med(rs, 'irq_per_io'):.3f} | {share} |")
        if not all(m in modes for m in ("irq", "irq2", "poll", "choice")):
            continue
        irq, poll, choice = (med(modes[m], "iops") for m in ("irq", "poll", "choice"))
        noise = abs(ratio(med(modes["irq2"], "iops"), irq) - 1)
        oracle = max(irq, poll)
        other = None
        if load != "hipri":
            ios = sum(int(r.get("ios", 0)) for r in modes["choice"])
            other = ratio(sum(int(r.get("irq_chosen" if poll >= irq else "polled", 0))
                              for r in modes["choice"]), ios)
        verdicts.append((dev, load, ratio(choice, oracle), ratio(choice, irq), noise,
                         med(modes["choice"], "p999_us"), med(modes["irq"], "p999_us"), other))
        if load == "j1" and "hybrid" in modes:
            hyb = modes["hybrid"]
            verdicts_h.append((dev, ratio(med(hyb, "iops"), poll),
                               ratio(med(hyb, "cpu_us_per_io"), med(modes["poll"], "cpu_us_per_io"))))
        if any(int(r.get("hog_loops", 0)) for r in modes["irq"]):
            hogs.append((dev, *(ratio(med(modes[m], "hog_loops"), med(modes["irq"], "hog_loops"))
                               for m in ("poll", "choice"))))
        if load == "j1" and dev == "nullco":
            alone.append((ratio(choice, irq), med(modes["choice"], "irq_per_io")))

    print("\n## Targets per cell\n")
    print("| device | load | x oracle (>= 0.95) | x irq (>= 1 - noise) | noise | other way "
          "| p99.9 choice / irq (<= 1) | met |")
    print("|---|---|--:|--:|--:|--:|--:|---|")
    met_all = 0
    for dev, load, xo, xi, noise, p9c, p9i, other in verdicts:
        ok = xo >= 0.95 and xi >= 1 - noise
        met_all += ok
        other_way = "-" if other is None else f"{other:.3f}"
        print(f"| {DEVICES.get(dev, dev)} | {load} | {xo:.2f} | {xi:.2f} | {noise:.2f} | {other_way} | "
              f"{ratio(p9c, p9i):.2f} | {'yes' if ok else 'no'} |")
    print(f"\n{met_all} of {len(verdicts)} cells met both throughput targets.\n")
    for xi, ipi in alone:
        print(f"- One reader alone on the null-co disk: {xi:.2f}x interrupts (target >= 2.0: "
              f"{'met' if xi >= 2 else 'not met'}), {ipi:.3f} interrupts per I/O (target <= 0.01: "
              f"{'met' if ipi <= 0.01 else 'not met'})")
    for dev, xpoll, xchoice in hogs:
        print(f"- {DEVICES.get(dev, dev)}, hog: the two CPU-bound tasks did "
              f"{xpoll:.2f}x the work they did beside the interrupt-driven reader when it polled "
              f"every I/O, {xchoice:.2f}x with the choice (medians)")
    for dev, xiops, xcpu in verdicts_h:
        verdict = ""
        if dev == "nb100":
            ok = xiops >= 0.95 and xcpu <= 0.5
            verdict = f" (target >= 0.95 at <= 0.5: {'met' if ok else 'not met'})"
        print(f"- Hybrid on {DEVICES.get(dev, dev)}, 1 job: {xiops:.2f}x classic polling's IOPS at "
              f"{xcpu:.2f}x its CPU per I/O{verdict}")


if __name__ == "__main__":
    main()

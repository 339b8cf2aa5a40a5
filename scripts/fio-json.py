#!/usr/bin/python3
"""The BENCH figures of one fio --output-format=json run, parsed with a JSON parser.

usage: fio-json.py FILE|- read|write

Prints one line of key=value figures, the same as guest/bench.sh's fio_fields:
  iops= bw_kib= lat_mean_us= lat_p50_us= lat_p99_us= lat_p999_us= cpu_usr= cpu_sys=
  ios= runtime_ms= error= lat_cdf_us=P:US/P:US/...
from the first job (fio runs one group_reporting job per row) and its read or write
figures. Latencies are fio's total latency (lat_ns, needs --lat_percentiles=1) in
microseconds with one decimal; a percentile fio did not report is "na". Numbers are
printed as fio wrote them (the JSON text, not a float's repr). Text before the JSON
(fio's warnings on stdout) is skipped. Exits 1 with error=no_DIR_figures when the
job has no such figures, 2 on a usage or parse error.
"""
import json
import sys

# The percentiles of the CDF, as guest/bench.sh passes them to --percentile_list.
PCTS = "1:5:10:25:50:75:90:95:99:99.5:99.9:99.99"


def us(ns):
    """Nanoseconds (JSON text) as microseconds with one decimal, or "na"."""
    if ns is None:
        return "na"
    return "%.1f" % (float(ns) / 1000)


def fields(doc, direction):
    job = doc["jobs"][0]
    figs = job.get(direction)
    if not isinstance(figs, dict) or "iops" not in figs:
        return None
    pct = figs.get("lat_ns", {}).get("percentile", {})

    def p(x):
        return us(pct.get("%.6f" % float(x)))

    cdf = "/".join("%s:%s" % (x, p(x)) for x in PCTS.split(":"))
    return ("iops=%.0f bw_kib=%s lat_mean_us=%s lat_p50_us=%s lat_p99_us=%s lat_p999_us=%s"
            " cpu_usr=%s cpu_sys=%s ios=%s runtime_ms=%s error=%s lat_cdf_us=%s") % (
        float(figs["iops"]), figs["bw"], us(figs.get("lat_ns", {}).get("mean")),
        p(50), p(99), p(99.9), job["usr_cpu"], job["sys_cpu"], figs["total_ios"],
        job["job_runtime"], job["error"], cdf)


def main(argv):
    if len(argv) != 3 or not argv[2]:
        sys.stderr.write("usage: fio-json.py FILE|- read|write\n")
        return 2
    text = sys.stdin.read() if argv[1] == "-" else open(argv[1], encoding="utf-8").read()
    start = text.find("{")
    try:
        # Keep numbers as their JSON text, so they print as fio wrote them.
        doc = json.loads(text[max(start, 0):], parse_float=str, parse_int=str)
        line = fields(doc, argv[2])
    except (ValueError, KeyError, IndexError, TypeError) as e:
        sys.stderr.write("fio-json: %s: not fio JSON output: %s\n" % (argv[1], e))
        return 2
    if line is None:
        print("error=no_%s_figures" % argv[2])
        return 1
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

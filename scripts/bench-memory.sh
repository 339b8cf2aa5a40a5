#!/bin/sh
# What the default spare poll queue costs those who never poll (nvme-pci,
# spare_poll_queues): one boot per CPU count, in each the disk's controller reset
# alternately without and with it (guest/bench-memory.sh), then the table of
# scripts/bench-memory-report.py: MemFree, hardware contexts, reset time.
# usage: bench-memory.sh   env: BENCH_MEMORY_SMP ("2 8"), BENCH_MEMORY_REPS (8), BASE
set -eu
. "$(dirname "$0")/lib.sh"

out=${RESULTS:-$BUILD/results}/bench-memory
mkdir -p "$out"
for smp in ${BENCH_MEMORY_SMP:-2 8}; do
	SMP=$smp MEM=2G sh "$TOP/scripts/boot.sh" -v normal -l "$out/smp$smp.log" \
		bench-memory.sh "reps=${BENCH_MEMORY_REPS:-8}"
done
cat "$out"/smp*.bench > "$out/bench-memory.lines"
python3 "$TOP/scripts/bench-memory-report.py" "$out/bench-memory.lines" | tee "$out/bench-memory.md"

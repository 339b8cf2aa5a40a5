#!/bin/sh
# guest/selftest.sh's verdict on kselftest harness output (format as printed by
# tools/testing/selftests/kselftest_harness.h in 6.12): failures, errors, a missing
# "# Totals:" line and unexpected skips fail a run; expected skips do not.
# Run under busybox sh/awk as in the guest when /bin/busybox is there.
set -eu
. "$(dirname "$0")/lib.sh"
G=$TOP/guest/selftest.sh
SH="sh"
[ -x /bin/busybox ] && SH="/bin/busybox sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

# harness PASS SKIPLINE: harness output with 2 passes and, if SKIPLINE, a skipped test.
harness() {
	printf 'TAP version 13\n1..%d\n# Starting %d tests from 2 test cases.\n' "$1" "$1"
	printf '#  RUN           attr.io_poll_write_1_twice ...\n#            OK  attr.io_poll_write_1_twice\n'
	printf 'ok 1 attr.io_poll_write_1_twice\n'
	printf '#  RUN           data.roundtrip_4k ...\n#            OK  data.roundtrip_4k\nok 2 data.roundtrip_4k\n'
}
skipped() {
	printf '#  RUN           polling.io_poll_on_takes_no_interrupts ...\n'
	printf '#      SKIP      nullb0: interrupts are counted for NVMe only\n'
	printf '#            OK  polling.io_poll_on_takes_no_interrupts\n'
	printf 'ok 3 polling.io_poll_on_takes_no_interrupts # SKIP nullb0: interrupts are counted for NVMe only\n'
}
verdict() {
	# shellcheck disable=SC2086 # SH may be "busybox sh"
	$SH "$G" verdict "$@"
}

{ harness 2; printf '# PASSED: 2 / 2 tests passed.\n# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0\n'; } > "$d/pass"
t_expect 0 "all passed: the run passes ($SH)" verdict disk "$d/pass"
t_grep '^Totals: pass:2 fail:0' "the totals are reported"

{ harness 3; skipped; printf '# PASSED: 3 / 3 tests passed.\n# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0\n'; } > "$d/skip"
t_expect 1 "a skip not on the expected list fails, though the harness says PASSED" verdict disk "$d/skip"
t_grep '^unexpected skip: polling.io_poll_on_takes_no_interrupts: nullb0: interrupts' "it names the test and the reason"
t_expect 0 "the same skip is expected on null_blk (EXPECTED_SKIPS)" verdict null_blk "$d/skip"
t_grep '^expected skip: polling.io_poll_on_takes_no_interrupts' "and is still reported"

{ harness 3; printf 'not ok 3 polling.poll_stat_counts_polled_reads\n# FAILED: 2 / 3 tests passed.\n'
	printf '# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:0 error:0\n'; } > "$d/fail"
t_expect 1 "fail:1 in the totals fails" verdict disk "$d/fail"
t_grep '^1 failed, 0 errors' "it says so"

{ harness 3; printf 'not ok 3 load.signals_leave_polled_reads_intact # Test terminated unexpectedly\n'
	printf '# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:1\n'; } > "$d/error"
t_expect 1 "error:1 in the totals fails" verdict disk "$d/error"

{ harness 5; printf '#  RUN           load.io_poll_switching_under_load ...\n'; } > "$d/cut"
t_expect 1 "no Totals line (harness killed or hung) fails" verdict disk "$d/cut"
t_grep 'no "# Totals:" line' "it says so"

{ harness 5; printf '# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0\n'; } > "$d/short"
t_expect 1 "totals that do not add up to the plan fail" verdict disk "$d/short"

{ harness 3; printf 'ok 3 polling.io_poll_off_takes_interrupts\n# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0\n'; } > "$d/hidden"
t_expect 1 "a skip counted in the totals without its SKIP line fails" verdict disk "$d/hidden"

printf '%s\r\n' 'TAP version 13' '1..1' 'ok 1 attr.io_poll_write_1_twice' \
	'# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0' > "$d/crlf"
t_expect 0 "CRLF line ends are accepted" verdict disk "$d/crlf"

# The read-only run expects every data.* test to skip (a prefix), nothing else.
dataskip() {
	printf 'ok 3 %s # SKIP writes to /dev/nvme1n1: set BLK_POLL_WRITE=1 to allow it\n' "$1"
	printf '# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0\n'
}
{ harness 3; dataskip data.io_poll_pread.roundtrip_4k; } > "$d/ro"
t_expect 0 "a data.* skip is expected on the read-only run (prefix)" verdict ro "$d/ro"
t_expect 1 "but not on the writable disk run" verdict disk "$d/ro"
{ harness 3; dataskip polling.io_poll_on_takes_no_interrupts; } > "$d/ro-poll"
t_expect 1 "a skip outside the prefix fails the read-only run" verdict ro "$d/ro-poll"
{ harness 3; dataskip database.x; } > "$d/ro-near"
t_expect 1 "the prefix is data. with its dot: database.x is not expected" verdict ro "$d/ro-near"
t_expect 0 "a data.* skip is expected on namespace 2 (null-co drops writes)" verdict ns2 "$d/ro"
t_expect 1 "a polling skip fails the namespace 2 run" verdict ns2 "$d/ro-poll"
t_expect 1 "the partition run is writable: a data.* skip fails it" verdict part "$d/ro"
t_end

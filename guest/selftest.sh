#!/bin/sh
# The blk_poll kselftest (tools/testing/selftests/blk_poll, built statically
# into /guest/bin): first on the null_blk devices it creates through configfs,
# then on the file-backed NVMe disk with writes allowed, then on the NVMe
# multipath head node (two controllers, 4 KiB logical blocks) with writes allowed,
# then on the second disk set read-only (blockdev --setro), then on a partition of that
# disk with writes allowed, then read-only on namespace 2 of the first disk's
# controller (null-co: it drops writes, so no data test there).
# Each run is one TAP result here; the harness's own TAP is nested below it as
# '# ' lines (the kselftest runner's convention), so the log stays one stream.
# A run passes when the harness exits 0 and its "# Totals:" line shows no
# failure or error and only the skips listed in EXPECTED_SKIPS.
#
# usage (guest): selftest.sh
#        (host):  sh guest/selftest.sh verdict RUN FILE   judge saved harness output
set -u

# Skips a run may have: "RUN TEST REASON" a line (RUN: null_blk, disk, mpath, ro, part or ns2; TEST
# as the harness names it, or a prefix ending in *). Any other skip fails the run: a
# skip is not a pass.
EXPECTED_SKIPS='
null_blk polling.io_poll_on_takes_no_interrupts interrupts are counted for NVMe only; the disk run measures them
null_blk polling.io_poll_off_takes_interrupts interrupts are counted for NVMe only; the disk run measures them
null_blk polling.hipri_takes_no_interrupts interrupts are counted for NVMe only; the disk run measures them
mpath data.io_poll_pread.roundtrip_512 not a multiple of the 4 KiB logical block size
mpath data.io_poll_pread.roundtrip_4m_plus_512 not a multiple of the 4 KiB logical block size
mpath data.hipri_preadv2.roundtrip_512 not a multiple of the 4 KiB logical block size
mpath data.hipri_preadv2.roundtrip_4m_plus_512 not a multiple of the 4 KiB logical block size
mpath data.io_poll_preadv.roundtrip_512 not a multiple of the 4 KiB logical block size
mpath data.io_poll_preadv.roundtrip_4m_plus_512 not a multiple of the 4 KiB logical block size
ro data.* every data test writes its pattern first; a read-only device takes no write
ns2 data.* every data test writes its pattern first; null-co drops writes and reads zeroes
'

# ksft_verdict RUN FILE: judge kselftest harness output (FILE) of run RUN: one line
# per finding on stdout; fails on a failure or error in "# Totals:", no Totals line,
# totals that disagree with the plan or the SKIP lines, or a skip not expected for RUN.
ksft_verdict() {
	KSFT_RUN=$1 KSFT_SKIPS=$EXPECTED_SKIPS awk '
	BEGIN {
		n = split(ENVIRON["KSFT_SKIPS"], e, "\n")
		for (i = 1; i <= n; i++)
			if (split(e[i], f, " ") >= 3 && f[1] == ENVIRON["KSFT_RUN"]) {
				if (f[2] ~ /\*$/) prefix[substr(f[2], 1, length(f[2]) - 1)] = 1
				else expected[f[2]] = 1
			}
		plan = -1
	}
	function is_expected(test,  p) {
		if (test in expected) return 1
		for (p in prefix) if (index(test, p) == 1) return 1
		return 0
	}
	{ sub(/\r$/, "") }
	/^1\.\.[0-9]+/ { plan = substr($0, 4) + 0 }
	/^ok [0-9]+ [^ ]+ # SKIP/ {
		skips++
		reason = $0; sub(/^[^#]*# SKIP */, "", reason)
		if (is_expected($3)) printf "expected skip: %s: %s\n", $3, reason
		else { printf "unexpected skip: %s: %s\n", $3, reason; bad++ }
	}
	/^# Totals: / {
		totals = $0; sub(/^# /, "", totals)
		for (i = 3; i <= NF; i++) { split($i, kv, ":"); t[kv[1]] = kv[2] + 0 }
	}
	END {
		if (totals == "") { print "no \"# Totals:\" line: the harness did not finish"; exit 1 }
		print totals
		if (t["fail"] > 0 || t["error"] > 0) { printf "%d failed, %d errors\n", t["fail"], t["error"]; bad++ }
		sum = t["pass"] + t["fail"] + t["xfail"] + t["xpass"] + t["skip"] + t["error"]
		if (plan >= 0 && sum != plan) { printf "plan 1..%d but totals add up to %d\n", plan, sum; bad++ }
		if (t["skip"] != skips) { printf "totals say skip:%d, %d SKIP results seen\n", t["skip"], skips; bad++ }
		exit bad > 0
	}' "$2"
}

if [ "${1:-}" = verdict ]; then
	ksft_verdict "$2" "$3"
	exit
fi

. /guest/lib/tap.sh
. /guest/lib/nvme-disk.sh

BIN=/guest/bin/blk_poll_test
tap_diag "kernel $(uname -r), $(nproc) CPUs, file-backed disk ${BLKPOLL_DISK:-?}"

# run_selftest RUN DESC [VAR=value...]: one run of the harness, judged by ksft_verdict.
run_selftest() {
	run=$1 desc=$2
	shift 2
	rcfile=/tmp/blk_poll_test.rc
	out=/tmp/blk_poll_test.$run.out
	rm -f "$rcfile"
	tap_diag "$desc: env $* $BIN"
	{
		env -u BLK_POLL_DEV -u BLK_POLL_WRITE -u BLK_POLL_NOPOLL_DEV "$@" "$BIN" 2>&1
		echo $? > "$rcfile"
	} | tee "$out" | while IFS= read -r line; do
		printf '# %s\n' "$line"
	done
	rc=$(cat "$rcfile" 2>/dev/null || echo 255)
	verdict=$(ksft_verdict "$run" "$out")
	vrc=$?
	printf '%s\n' "$verdict" | while IFS= read -r line; do
		tap_diag "$desc: $line"
	done
	if [ "$rc" = 0 ] && [ "$vrc" = 0 ]; then
		tap_ok "blk_poll_test: $desc"
	else
		why=$(printf '%s\n' "$verdict" | grep -v -e '^Totals:' -e '^expected skip' | head -1)
		tap_not_ok "blk_poll_test: $desc (exit $rc${why:+; $why})"
	fi
}

if [ ! -x "$BIN" ]; then
	tap_not_ok "blk_poll_test present in /guest/bin (build it into \$BUILD/selftests)"
	tap_end
	exit 1
fi

run_selftest null_blk "null_blk via configfs"
if [ -n "${BLKPOLL_DISK:-}" ]; then
	run_selftest disk "$BLKPOLL_DISK" BLK_POLL_DEV="$BLKPOLL_DISK" BLK_POLL_WRITE=1
else
	tap_not_ok "blk_poll_test: file-backed NVMe disk (no NVMe controller with serial blkpoll0)"
fi
if [ -n "${BLKPOLL_MPATH:-}" ]; then
	run_selftest mpath "$BLKPOLL_MPATH (multipath, 4 KiB blocks)" BLK_POLL_DEV="$BLKPOLL_MPATH" BLK_POLL_WRITE=1
else
	tap_not_ok "blk_poll_test: NVMe multipath head (no controller with serial blkpollmp, or no CONFIG_NVME_MULTIPATH)"
fi
# Read-only: io_poll, polled reads, signals and switching, without a write.
if [ -n "${BLKPOLL_DISK2:-}" ] && blockdev --setro "$BLKPOLL_DISK2" &&
	[ "$(blockdev --getro "$BLKPOLL_DISK2")" = 1 ]; then
	run_selftest ro "$BLKPOLL_DISK2 (read-only)" BLK_POLL_DEV="$BLKPOLL_DISK2"
	blockdev --setrw "$BLKPOLL_DISK2"
else
	tap_not_ok "blk_poll_test: read-only device (no second disk ${BLKPOLL_DISK2:-}, or blockdev --setro failed)"
fi
# A partition: the test resolves it to its disk's queue/io_poll and controller.
PART=${BLKPOLL_DISK2:-}p1
if [ -n "${BLKPOLL_DISK2:-}" ] &&
	partition_at_1m "$BLKPOLL_DISK2" 256 &&
	blockdev --rereadpt "$BLKPOLL_DISK2" && [ -b "$PART" ]; then
	run_selftest part "$PART (partition at 1 MiB)" BLK_POLL_DEV="$PART" BLK_POLL_WRITE=1
else
	tap_not_ok "blk_poll_test: partition (no second disk ${BLKPOLL_DISK2:-}, or sfdisk made no $PART)"
fi
# The next boot's tests expect the second disk unpartitioned.
[ -z "${BLKPOLL_DISK2:-}" ] || wipe "$BLKPOLL_DISK2" || tap_diag "wiping $BLKPOLL_DISK2 failed"
if [ -n "${BLKPOLL_DISK_NS2:-}" ]; then
	run_selftest ns2 "$BLKPOLL_DISK_NS2 (namespace 2 beside the disk, read-only run)" BLK_POLL_DEV="$BLKPOLL_DISK_NS2"
else
	tap_not_ok "blk_poll_test: namespace 2 of the blkpoll0 controller (not found)"
fi

tap_end

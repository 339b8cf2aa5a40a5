# shellcheck shell=sh
# Markers in the kernel log, as blktests writes them: a test marks its start and
# reads the log from there on, so a ring buffer that wraps or a line count taken
# at the wrong moment cannot blame or clear the wrong test.
# BLKPOLL_KMSG and BLKPOLL_DMESG replace /dev/kmsg and dmesg (for tests on the host).

# kmsg_mark TAG: write "blkpoll-test: TAG" to the kernel log (TAG unique per boot)
kmsg_mark() {
	echo "blkpoll-test: $1" > "${BLKPOLL_KMSG:-/dev/kmsg}"
}

# kmsg_since TAG: the kernel log after the last marker TAG (all of it when the
# marker is gone from the ring buffer: better a false alarm than a missed warning)
kmsg_since() {
	${BLKPOLL_DMESG:-dmesg} | awk -v m="blkpoll-test: $1" '{ l[NR] = $0 } index($0, m) { s = NR }
		END { for (i = s + 1; i <= NR; i++) print l[i] }'
}

# kmsg_bad TAG: the lines after marker TAG with a kernel splat or a hang, as
# scripts/check-log.sh finds them in the whole boot's log (keep the two in step);
# succeeds iff there is one
kmsg_bad() {
	kmsg_since "$1" | grep -E 'BUG:|WARNING:|Oops|general protection fault|possible (circular|recursive) locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|KASAN:|UBSAN:|Kernel panic|stall on CPU|detected (expedited )?stalls|soft lockup|hard LOCKUP|INFO: task|blocked for more than|hung_task:|timeout, completion polled'
}

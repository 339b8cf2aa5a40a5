#!/bin/sh
# The blk_poll kselftest (tools/testing/selftests/blk_poll, built statically
# into /guest/bin): first on the null_blk devices it creates through configfs,
# then on the file-backed NVMe disk with writes allowed.
# Each run is one TAP result here; the harness's own TAP is nested below it as
# '# ' lines (the kselftest runner's convention), so the log stays one stream.
set -u
. /guest/lib/tap.sh

BIN=/guest/bin/blk_poll_test
tap_diag "kernel $(uname -r), $(nproc) CPUs, file-backed disk ${BLKPOLL_DISK:-?}"

# run_selftest DESC [VAR=value...]: one run of the harness, its exit code.
run_selftest() {
	desc=$1
	shift
	rcfile=/tmp/blk_poll_test.rc
	rm -f "$rcfile"
	tap_diag "$desc: env $* $BIN"
	{
		env -u BLK_POLL_DEV -u BLK_POLL_WRITE -u BLK_POLL_NOPOLL_DEV "$@" "$BIN" 2>&1
		echo $? > "$rcfile"
	} | while IFS= read -r line; do
		printf '# %s\n' "$line"
	done
	rc=$(cat "$rcfile" 2>/dev/null || echo 255)
	if [ "$rc" = 0 ]; then
		tap_ok "blk_poll_test: $desc"
	else
		tap_not_ok "blk_poll_test: $desc (exit $rc)"
	fi
}

if [ ! -x "$BIN" ]; then
	tap_not_ok "blk_poll_test present in /guest/bin (build it into \$BUILD/selftests)"
	tap_end
	exit 1
fi

run_selftest "null_blk via configfs"
if [ -n "${BLKPOLL_DISK:-}" ]; then
	run_selftest "$BLKPOLL_DISK" BLK_POLL_DEV="$BLKPOLL_DISK" BLK_POLL_WRITE=1
else
	tap_not_ok "blk_poll_test: file-backed NVMe disk (no NVMe controller with serial blkpoll0)"
fi

tap_end

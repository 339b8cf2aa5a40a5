#!/bin/sh
# Run the series' KUnit suite (config/blk-poll.kunitconfig) on the host, in a UML
# kernel built from $KSRC into $BUILD/kunit with ccache: about 6 min the first time,
# a minute after an edit of block/blk-poll*. Extra arguments go to kunit.py run.
# usage: kunit.sh [kunit.py run option...]   env: JOBS (nproc)
set -eu
. "$(dirname "$0")/lib.sh"

[ -f "$KSRC/tools/testing/kunit/kunit.py" ] || die "kunit: no kernel tree in $KSRC (run 'make apply')"
ccache_env
cd "$KSRC"
exec python3 tools/testing/kunit/kunit.py run --kunitconfig="$TOP/config/blk-poll.kunitconfig" \
	--build_dir="$BUILD/kunit" --jobs="$JOBS" --make_options CC="ccache gcc" "$@"

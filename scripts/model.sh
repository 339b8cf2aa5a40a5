#!/bin/sh
# The series' polling choice and hybrid polling on modelled real devices, on the host:
# block/blk-poll.h is rebuilt from patches/ (each patch of the series in order, only
# that file), so the model compiles the header exactly as the series has it; the
# waiter's constants that live in blk-core.c (spin budget, backoff) are read from the
# patches' blk-core.c hunks. model/blk-poll-model.c drives both with a simulated clock,
# CPU and device and prints one table (see its header comment).
# usage: model.sh [standin=always-poll|never-poll]   (a stand-in for the choice, to
#        see the targets of tests/test-model.sh fail)
# env:   PATCHES (default $TOP/patches/$BASE), CC (default gcc)
set -eu
. "$(dirname "$0")/lib.sh"

CC=${CC:-gcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

series() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' -e '/^0000-cover-letter\.patch$/d' "$PATCHES/series"
}

# git apply outside a repository patches the current directory; patches that do not
# touch blk-poll.h apply as nothing.
for p in $(series); do
	(cd "$tmp" && git apply --include=block/blk-poll.h "$PATCHES/$p") ||
		die "model: $p does not apply to block/blk-poll.h"
done
[ -f "$tmp/block/blk-poll.h" ] || die "model: no patch of $PATCHES/series creates block/blk-poll.h"

# The #define BLK_POLL_* lines of blk-core.c as the last patch that touches each
# leaves it (a later patch's - and + lines replace an earlier one's).
# shellcheck disable=SC2016 # an awk program
for p in $(series); do cat "$PATCHES/$p"; done | awk '
	/^\+\+\+ / { f = $2; next }
	/^diff --git / { f = ""; next }
	f == "b/block/blk-core.c" && /^[-+]#define BLK_POLL_[A-Z_]+[ \t]/ {
		if (/\\$/) { print "model: multi-line " $2 > "/dev/stderr"; exit 1 }
		if (substr($0, 1, 1) == "+")
			def[$2] = substr($0, 2)
		else
			delete def[$2]
	}
	END { for (n in def) print def[n] }' | sort > "$tmp/blk-core-poll.h"
[ -s "$tmp/blk-core-poll.h" ] || die "model: no BLK_POLL_ constants in the patches' blk-core.c"

$CC -std=gnu11 -O2 -Wall -Werror -I "$TOP/model/include" -I "$tmp/block" -I "$tmp" \
	-o "$tmp/blk-poll-model" "$TOP/model/blk-poll-model.c" -lm
"$tmp/blk-poll-model" "$@"

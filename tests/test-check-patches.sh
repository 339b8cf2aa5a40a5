#!/bin/sh
# check-patches.sh catches what maintainers reject: a patch with a style error
# fails the checkpatch check, the committed series passes it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
S=$TOP/scripts
[ -x "$KSRC/scripts/checkpatch.pl" ] || { echo "ok 1 # SKIP no kernel tree in $KSRC"; exit 0; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

t_expect 0 "the committed series is checkpatch --strict clean" \
	sh "$S/check-patches.sh" checkpatch

cp "$TOP"/patches/series "$TOP"/patches/0*.patch "$d/"
first=$(sed -n 1p "$d/series")
# A trailing space on an added line is an error checkpatch always reports.
awk '!done && /^\+[^+]/ { print $0 " "; done = 1; next } { print }' "$d/$first" > "$d/x"
mv "$d/x" "$d/$first"
t_expect 1 "a patch with trailing whitespace fails the check" \
	env PATCHES="$d" sh "$S/check-patches.sh" checkpatch
t_end

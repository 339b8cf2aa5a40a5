#!/bin/sh
# Write base..HEAD of $KSRC as patches/0001-*.patch and regenerate patches/series.
# usage: export.sh [OUTDIR]   (default $PATCHES or $TOP/patches)
# 0000-cover-letter.patch is hand-written and left alone. The output depends only on the
# commits: zero From-line ids, no signature, fixed abbrev, user/system git config ignored.
set -eu
. "$(dirname "$0")/lib.sh"

OUT=${1:-${PATCHES:-$TOP/patches}}
[ -d "$KSRC/.git" ] || die "export: no git tree in $KSRC (run 'make apply')"
cd "$KSRC"
git rev-parse -q --verify 'base^{commit}' >/dev/null || die "export: $KSRC has no tag base"
dirty=$(git status --porcelain --untracked-files=no)
[ -z "$dirty" ] || die "export: uncommitted changes in $KSRC: commit them first (export takes base..HEAD)"
[ -z "$(git rev-list --merges base..HEAD)" ] || die "export: merge commits in base..HEAD; the series must be linear"
n=$(git rev-list --count base..HEAD)

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
tmp=$(mktemp -d "$OUT/.export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git \
	-c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
	-c diff.relative=false -c diff.algorithm=myers -c diff.renames=true \
	format-patch --zero-commit --no-signature --abbrev=12 --no-numbered \
	--no-cover-letter --no-thread --no-base --no-notes -M \
	--filename-max-length=64 --start-number=1 -o "$tmp" base..HEAD >/dev/null

# Replace the numbered patches (never the cover letter), then the series file.
for f in "$OUT"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$f" ] || continue
	[ "${f##*/}" = 0000-cover-letter.patch ] || rm -f "$f"
done
: > "$tmp/.series"
for f in "$tmp"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$f" ] || continue
	mv "$f" "$OUT/"
	printf '%s\n' "${f##*/}" >> "$tmp/.series"
done
mv "$tmp/.series" "$OUT/series"
if [ -f "$KSRC/.debian-version" ]; then
	cp "$KSRC/.debian-version" "$OUT/BASE"
fi
stage "export: $n patch(es) from $KSRC base..HEAD into $OUT"

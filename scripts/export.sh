#!/bin/sh
# Write base..HEAD of $KSRC as $PATCHES/0001-*.patch and regenerate $PATCHES/series.
# Where OUT's series file names its patches dir/NNNN-*.patch it holds several series,
# stacked: the tree has a branch per series ending at its last patch (apply.sh sets
# them; git rebase -i --update-refs keeps them), and each is written into its own
# directory, numbered from 1, the last one ending at HEAD.
# usage: export.sh [OUTDIR]   (default $PATCHES)
# 0000-cover-letter.patch is hand-written and left alone. The output depends only on the
# commits: zero From-line ids, no signature, fixed abbrev, user/system git config ignored.
set -eu
. "$(dirname "$0")/lib.sh"

OUT=${1:-$PATCHES}
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

# The series in OUT, in order: the directory prefixes of the series file there (a
# new layout starts from a series file naming them).
subs=$(series_names "$OUT/series")

# format RANGE DIR: RANGE as DIR/0001-*.patch ..., their names (DIR/-prefixed) on stdout
format() {
	mkdir -p "$tmp/$2"
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git \
		-c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.relative=false -c diff.algorithm=myers -c diff.renames=true \
		format-patch --zero-commit --no-signature --abbrev=12 --no-numbered \
		--no-cover-letter --no-thread --no-base --no-notes -M \
		--filename-max-length=64 --start-number=1 -o "$tmp/$2" "$1" >/dev/null
	for f in "$tmp/$2"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] && printf '%s\n' "${2:+$2/}${f##*/}"
	done
	return 0
}

# replace DIR: the numbered patches of $OUT/DIR (never its cover letter) by tmp's
replace() {
	mkdir -p "$OUT/$1"
	for f in "$OUT/$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] || continue
		[ "${f##*/}" = 0000-cover-letter.patch ] || rm -f "$f"
	done
	for f in "$tmp/$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -e "$f" ] && mv "$f" "$OUT/$1/"
	done
	return 0
}

if [ -z "$subs" ]; then
	format base..HEAD "" > "$tmp/.series"
	replace ""
else
	from=base
	last=$(printf '%s\n' "$subs" | tail -n 1)
	for sub in $subs; do
		to=$sub
		[ "$sub" != "$last" ] || to=HEAD
		git rev-parse -q --verify "refs/heads/$sub" >/dev/null ||
			die "export: no branch $sub in $KSRC marking the end of series $sub (make apply sets them)"
		git merge-base --is-ancestor "$sub" HEAD ||
			die "export: branch $sub is not part of HEAD: after git rebase -i, move it (git rebase -i --update-refs does)"
		git merge-base --is-ancestor "$from" "$sub" ||
			die "export: branch $sub does not follow $from"
		format "$from..$to" "$sub" >> "$tmp/.series"
		from=$sub
	done
	for sub in $subs; do replace "$sub"; done
fi
mv "$tmp/.series" "$OUT/series"
if [ -f "$KSRC/.debian-version" ]; then
	cp "$KSRC/.debian-version" "$OUT/BASE"
fi
stage "export: $n patch(es) from $KSRC base..HEAD into $OUT${subs:+ (series: $(printf '%s\n' "$subs" | paste -sd " "))}"

#!/bin/sh
# export-check: apply patches/ into a scratch tree, export it again, and require the
# result to be byte-identical to patches/ (numbered patches and series; not the
# hand-written cover letter, not BASE), and the cover letter to agree with the series
# (scripts/cover-check.py: subject, shortlog, and the diffstat of git diff --shortstat
# base..HEAD). Exit 1 with the diff on mismatch.
# env: PATCHES (default $TOP/patches/$BASE), ROUNDTRIP (scratch tree, default $BUILD/roundtrip)
set -eu
. "$(dirname "$0")/lib.sh"

RT=${ROUNDTRIP:-$BUILD/roundtrip}
[ "$RT" != "$KSRC" ] || die "roundtrip: ROUNDTRIP must not be KSRC ($KSRC)"

sh "$TOP/scripts/base.sh"
# A scratch clone of an older base (KSRC re-unpacked since) shares objects that are gone.
if [ -d "$RT/.git" ] && { ! cmp -s "$KSRC/.debian-version" "$RT/.debian-version" ||
	! git -C "$RT" rev-parse -q --verify 'HEAD^{tree}' >/dev/null 2>&1; }; then
	stage "roundtrip: $RT is from another base, recloning"
	rm -rf "$RT"
fi
if [ ! -d "$RT/.git" ]; then
	stage "roundtrip: cloning $KSRC (shared objects) into $RT"
	rm -rf "$RT"
	git clone -q --shared --no-checkout "$KSRC" "$RT"
fi
git -C "$RT" fetch -q -f "$KSRC" 'refs/tags/base:refs/tags/base'
git -C "$RT" config core.abbrev 12
cp "$KSRC/.debian-version" "$RT/.debian-version"

KSRC=$RT PATCHES=$PATCHES FORCE=1 NO_BACKUP=1 sh "$TOP/scripts/apply.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/want"
list=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$PATCHES/series")
for p in $list; do
	mkdir -p "$tmp/want/$(dirname "$p")"
	cp "$PATCHES/$p" "$tmp/want/$p"
done
# Numbered patches the series does not list are stale: export would remove them.
for f in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch "$PATCHES"/*/[0-9][0-9][0-9][0-9]-*.patch; do
	[ -e "$f" ] || continue
	rel=${f#"$PATCHES"/}
	case ${rel##*/} in 0000-cover-letter.patch) continue ;; esac
	[ -e "$tmp/want/$rel" ] || { mkdir -p "$tmp/want/$(dirname "$rel")"; cp "$f" "$tmp/want/$rel"; }
done
cp "$PATCHES/series" "$tmp/want/series"
# the series file says how the patches are laid out
mkdir "$tmp/got"
cp "$PATCHES/series" "$tmp/got/series"
KSRC=$RT sh "$TOP/scripts/export.sh" "$tmp/got"
rm -f "$tmp/got/BASE"

if ! diff -ru "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	sed -e "s|$tmp/want|patches/$BASE|g" -e "s|$tmp/got|exported|g" "$tmp/diff"
	die "export-check: patches/$BASE is not what 'make export' produces from the applied series (diff above: - patches/$BASE, + exported)"
fi
n=$(printf '%s\n' "$list" | wc -l)
# The cover letters are written by hand: their subjects, shortlogs and diffstats must
# still be their series'.
subs=$(series_names "$PATCHES/series")
if [ -z "$subs" ]; then
	if [ -f "$PATCHES/0000-cover-letter.patch" ]; then
		python3 "$TOP/scripts/cover-check.py" --shortstat "$(git -C "$RT" diff --shortstat base HEAD)" "$PATCHES" ||
			die "export-check: the cover letter disagrees with the series (above)"
	fi
else
	from=base
	for sub in $subs; do
		[ -f "$PATCHES/$sub/0000-cover-letter.patch" ] || die "export-check: series $sub has no cover letter"
		python3 "$TOP/scripts/cover-check.py" --series "$sub" \
			--shortstat "$(git -C "$RT" diff --shortstat "$from" "$sub")" "$PATCHES" ||
			die "export-check: the cover letter of series $sub disagrees with it (above)"
		from=$sub
	done
fi
stage "export-check: OK, $n patch(es) round-trip byte for byte, the cover letters agree"

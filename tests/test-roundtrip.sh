#!/bin/sh
# apply.sh / export.sh / roundtrip.sh on a synthetic two-patch series: the round trip
# holds, and export-check fails when a patch file, the series order or the patch set
# changes; apply names the patch that does not apply and stops after N on request.
# Uses the scratch tree $BUILD/roundtrip (never $KSRC's branches).
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
S=$TOP/scripts
RT=${ROUNDTRIP:-$BUILD/roundtrip}
export ROUNDTRIP="$RT"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

# Start from base in the scratch tree (an empty series), then make two commits there.
mkdir "$d/empty"
: > "$d/empty/series"
PATCHES=$d/empty sh "$S/roundtrip.sh" > "$d/setup.log" 2>&1 || { cat "$d/setup.log"; exit 1; }
export GIT_AUTHOR_NAME="Test Author" GIT_AUTHOR_EMAIL=test@example.org GIT_AUTHOR_DATE=2001-02-03T04:05:06Z
export GIT_COMMITTER_NAME="Test Author" GIT_COMMITTER_EMAIL=test@example.org GIT_COMMITTER_DATE=2001-02-03T04:05:06Z
printf '\nA line for the round-trip test.\n' >> "$RT/README"
git -C "$RT" commit -q -a -m "README: add a line

First test patch: one idea, one commit."
mkdir -p "$RT/Documentation/blkpoll-test"
printf 'hello\n' > "$RT/Documentation/blkpoll-test/hello.txt"
git -C "$RT" add -f Documentation/blkpoll-test/hello.txt
git -C "$RT" commit -q -m "Documentation: add a test file

Second test patch, a new file."
mkdir "$d/p"
printf 'Subject: [PATCH v1 00/2] test cover letter\n\nhand-written\n\nTest Author (2):\n      %s\n      %s\n\n%s\n' \
	"README: add a line" "Documentation: add a test file" \
	"$(git -C "$RT" diff --shortstat base HEAD)" > "$d/p/0000-cover-letter.patch"
t_expect 0 "export writes the series" env KSRC="$RT" sh "$S/export.sh" "$d/p"
t_expect 0 "series lists the two patches in order" \
	sh -c "[ \"\$(cat '$d/p/series')\" = '0001-README-add-a-line.patch
0002-Documentation-add-a-test-file.patch' ]"
t_expect 0 "the hand-written cover letter is kept" grep -q hand-written "$d/p/0000-cover-letter.patch"
t_expect 0 "From lines carry the zero commit id" \
	sh -c "! grep -h '^From ' '$d'/p/000[12]-*.patch | grep -qv '^From 0\{40\} '"
cp -R "$d/p" "$d/orig"

t_expect 0 "export-check passes on an untouched export" env PATCHES="$d/p" sh "$S/roundtrip.sh"
t_grep 'OK, 2 patch' "export-check reports the patch count"
t_expect 0 "export is reproducible (second export is byte-identical)" \
	sh -c "KSRC='$RT' sh '$S/export.sh' '$d/p2' >/dev/null 2>&1 && cp '$d/p/0000-cover-letter.patch' '$d/p2/' && diff -r '$d/p' '$d/p2'"

# A change git am ignores (the diffstat) is still a mismatch: the file is not what export writes.
sed -i 's/^ README | 2 ++$/ README | 3 +++/' "$d/p/0001-README-add-a-line.patch"
t_expect 0 "(setup) diffstat edited" sh -c "! cmp -s '$d/p/0001-README-add-a-line.patch' '$d/orig/0001-README-add-a-line.patch'"
t_expect nonzero "export-check fails when a patch file was edited" env PATCHES="$d/p" sh "$S/roundtrip.sh"
t_grep '^\+ README \| 2 \+\+$' "the mismatch is shown as a diff"

rm -rf "$d/p" && cp -R "$d/orig" "$d/p"
sed -i 's/ 3 insertions(+)$/ 4 insertions(+)/' "$d/p/0000-cover-letter.patch"
t_expect 0 "(setup) cover letter diffstat edited" grep -q ' 4 insertions' "$d/p/0000-cover-letter.patch"
t_expect nonzero "export-check fails when the cover letter's diffstat is stale" env PATCHES="$d/p" sh "$S/roundtrip.sh"
t_grep "diffstat is not the series' \( 2 files changed, 3 insertions\(\+\)\)" "it prints the series' diffstat"

rm -rf "$d/p" && cp -R "$d/orig" "$d/p"
printf '0002-Documentation-add-a-test-file.patch\n0001-README-add-a-line.patch\n' > "$d/p/series"
t_expect nonzero "export-check fails when the series order changed" env PATCHES="$d/p" sh "$S/roundtrip.sh"

rm -rf "$d/p" && cp -R "$d/orig" "$d/p"
cp "$d/p/0002-Documentation-add-a-test-file.patch" "$d/p/0003-stray.patch"
t_expect nonzero "export-check fails on a patch file the series does not list" env PATCHES="$d/p" sh "$S/roundtrip.sh"

rm -rf "$d/p" && cp -R "$d/orig" "$d/p"
sed -i '/^@@/{n;s/^ \(.*\)$/ \1 (changed context)/}' \
	"$d/p/0001-README-add-a-line.patch"
t_expect nonzero "apply refuses a patch whose context does not match (no fuzz)" \
	env KSRC="$RT" PATCHES="$d/p" FORCE=1 NO_BACKUP=1 sh "$S/apply.sh"
t_grep 'patch 1/2 0001-README-add-a-line.patch does not apply' "apply names the failing patch"

rm -rf "$d/p" && cp -R "$d/orig" "$d/p"
t_expect 0 "apply UPTO=1 stops after the first patch" \
	env KSRC="$RT" PATCHES="$d/p" NO_BACKUP=1 UPTO=1 sh "$S/apply.sh"
t_expect 0 "the tree holds base + 1 commit on branch series" \
	sh -c "[ \"\$(git -C '$RT' rev-list --count base..series)\" = 1 ] && [ \"\$(git -C '$RT' rev-parse --abbrev-ref HEAD)\" = series ]"
printf 'x\n' >> "$RT/README"
t_expect nonzero "apply refuses to discard uncommitted edits" env KSRC="$RT" PATCHES="$d/p" sh "$S/apply.sh"
t_expect nonzero "export refuses uncommitted edits" env KSRC="$RT" sh "$S/export.sh" "$d/p3"
git -C "$RT" checkout -q -- README
t_expect 0 "apply keeps the old tip under refs/backup/" \
	sh -c "KSRC='$RT' PATCHES='$d/p' sh '$S/apply.sh' && git -C '$RT' for-each-ref refs/backup/ | grep -q ."
git -C "$RT" for-each-ref --format='%(refname)' refs/backup/ | while read -r r; do git -C "$RT" update-ref -d "$r"; done

# Leave the scratch tree at base again.
PATCHES=$d/empty sh "$S/roundtrip.sh" >/dev/null 2>&1
t_end

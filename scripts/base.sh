#!/bin/sh
# Unpack Debian's linux-source-$BASE into a git tree whose first commit is the untouched base.
set -eu
. "$(dirname "$0")/lib.sh"

if [ "$BASE_SUITE" = bookworm ]; then
	[ -f "$BASE_TARBALL" ] || die "$BASE_TARBALL missing: run 'make deps' (apt install $BASE_PKG)"
	found=$(dpkg-query -W -f '${Version}' "$BASE_PKG" 2>/dev/null || true)
else
	[ -f "$BASE_TARBALL" ] || sh "$TOP/scripts/source-fetch.sh"
	found=$BASE_VERSION
fi
# A base other than the one the series was refreshed against may not take the
# patches (git am refuses, or worse, applies with a changed meaning).
[ "$found" = "$BASE_VERSION" ] ||
	die "base: $BASE_PKG ${found:-(none)} installed, the series applies to $BASE_VERSION (patches/$BASE/BASE): run 'make deps'"
stage "base: $BASE_PKG $found, the series' base (patches/$BASE/BASE)"

if [ -d "$KSRC/.git" ] && [ "$(git -C "$KSRC" tag -l base)" = base ] &&
   [ "$(cat "$KSRC/.debian-version" 2>/dev/null || true)" = "$found" ]; then
	stage "base: reusing $KSRC"
	exit 0
fi

rm -rf "$KSRC" "$BUILD/unpack"
mkdir -p "$BUILD/unpack"
stage "base: unpacking $BASE_TARBALL"
tar -C "$BUILD/unpack" -xf "$BASE_TARBALL"
mv "$BUILD/unpack/$BASE_PKG" "$KSRC"
rmdir "$BUILD/unpack"
printf '%s\n' "$found" > "$KSRC/.debian-version"

cd "$KSRC"
git init -q -b base-branch
git config user.name "${GIT_USER_NAME:-Block Poll Series}"
git config user.email "${GIT_USER_EMAIL:-blkpoll@example.org}"
git config core.abbrev 12
# Debian's top-level .gitignore ignores everything (/*): force-add the tree.
git add -f -A .
git reset -q -- .debian-version
git_fixed commit -q -m "Linux $found (Debian $BASE_PKG)"
git tag -f base >/dev/null
stage "base: commit $(git rev-parse HEAD)"

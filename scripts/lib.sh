# shellcheck shell=sh
# shellcheck disable=SC2034 # the settings are used by the scripts that source this file
# Shared settings for the host scripts; sourced, never run.
TOP=$(cd "$(dirname "$0")/.." && pwd)
# The kernel worked on: a name in patches/bases (the first line's by default).
BASES=$TOP/patches/bases
BASE=${BASE:-$(awk '!/^#/ && NF { print $1; exit }' "$BASES")}
# Debian's suite that has linux-source-$BASE: the machine's own (bookworm), whose
# package make deps installs, or another, from which source-fetch.sh downloads it.
BASE_SUITE=$(awk -v b="$BASE" '!/^#/ && $1 == b { print $2 }' "$BASES")
[ -n "$BASE_SUITE" ] || { printf 'error: BASE=%s is not in patches/bases\n' "$BASE" >&2; exit 1; }
PATCHES=${PATCHES:-$TOP/patches/$BASE}
BUILD=${BUILD:-$TOP/build/$BASE}
KSRC=${KSRC:-$BUILD/linux}
BASE_PKG=linux-source-$BASE
# The Debian version of $BASE_PKG the series applies to: make deps installs or
# fetches exactly this one, base.sh refuses another (a newer upload may not take the patches).
BASE_VERSION=$(cat "$TOP/patches/$BASE/BASE" 2> /dev/null || true)
# Where its tarball is (env BASE_TARBALL: another, for the tests of the tooling).
if [ -n "${BASE_TARBALL:-}" ]; then
	:
elif [ "$BASE_SUITE" = bookworm ]; then
	BASE_TARBALL=/usr/src/$BASE_PKG.tar.xz
else
	BASE_TARBALL=$TOP/build/src/$BASE_PKG-$BASE_VERSION/usr/src/$BASE_PKG.tar.xz
fi
# make -j: one job per CPU this machine gives us (nproc honours taskset).
JOBS=${JOBS:-$(nproc)}

# ccache in build/ccache, one for all bases. Depend mode hashes the dependency file gcc writes anyway
# instead of preprocessing every source once more: a cold build (CI, a fresh
# machine) costs what it costs without ccache, not a third more.
ccache_env() {
	export CCACHE_DIR="${CCACHE_DIR:-$TOP/build/ccache}" CCACHE_DEPEND="${CCACHE_DEPEND:-1}"
	mkdir -p "$CCACHE_DIR"
}

# series_names FILE: the series a series file names (its dir/ prefixes), in order;
# nothing for a base with one series
series_names() {
	sed -n 's|^\([A-Za-z0-9_-]*\)/.*|\1|p' "$1" 2>/dev/null | awk '!seen[$0]++'
}

stage() {
	printf '==> %s\n' "$*" >&2
}

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# Fixed identity and dates keep the base commit id reproducible.
git_fixed() {
	GIT_AUTHOR_NAME="Debian linux-source" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org" \
	GIT_COMMITTER_NAME="Debian linux-source" GIT_COMMITTER_EMAIL="debian-kernel@lists.debian.org" \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git "$@"
}

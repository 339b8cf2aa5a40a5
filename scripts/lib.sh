# shellcheck shell=sh
# shellcheck disable=SC2034 # the settings are used by the scripts that source this file
# Shared settings for the host scripts; sourced, never run.
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
KSRC=${KSRC:-$BUILD/linux}
BASE_PKG=linux-source-6.12
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz
# The Debian version of $BASE_PKG the series applies to: make deps installs exactly
# this one, base.sh refuses another (a newer upload may not take the patches).
BASE_VERSION=$(cat "$TOP/patches/BASE")
# make -j: one job per CPU this machine gives us (nproc honours taskset).
JOBS=${JOBS:-$(nproc)}

# ccache in $BUILD/ccache. Depend mode hashes the dependency file gcc writes anyway
# instead of preprocessing every source once more: a cold build (CI, a fresh
# machine) costs what it costs without ccache, not a third more.
ccache_env() {
	export CCACHE_DIR="${CCACHE_DIR:-$BUILD/ccache}" CCACHE_DEPEND="${CCACHE_DEPEND:-1}"
	mkdir -p "$CCACHE_DIR"
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

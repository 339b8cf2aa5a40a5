#!/bin/sh
# Install the Debian packages the tooling needs, and the source of the base that comes
# from the machine's own suite (patches/bases: 6.12) at exactly the version in
# patches/<base>/BASE; a quick no-op when all are present. A base from another suite
# (7.2) is fetched by source-fetch.sh, without installing it.
set -eu
BASE=$(awk '!/^#/ && $2 == "bookworm" { print $1; exit }' "$(dirname "$0")/../patches/bases")
. "$(dirname "$0")/lib.sh"

# By what needs them:
#  the kernel: the source (pinned below), xz-utils tar (unpack), gcc libc6-dev make flex
#    bison bc libelf-dev libssl-dev dwarves lz4 binutils perl (the kernel's own scripts)
#    ccache git;
#  the guest image and QEMU: cpio busybox-static fio jq e2fsprogs xfsprogs dmsetup mdadm
#    fdisk (sfdisk) util-linux (chrt taskset) qemu-system-x86 coreutils (timeout);
#  checks and reports: shellcheck sparse python3 (scripts/*.py, kunit.py, doc-check)
#    gnuplot-nox diffutils (cmp) findutils procps (pgrep) mawk (awk) sed grep;
#  make deb: linux-config-6.12 dpkg-dev debhelper rsync kmod (depmod) openssl.
PKGS="$BASE_PKG xz-utils tar git gcc libc6-dev make flex bison bc libelf-dev libssl-dev
dwarves lz4 binutils perl ccache cpio busybox-static fio jq e2fsprogs xfsprogs dmsetup
mdadm fdisk util-linux qemu-system-x86 coreutils shellcheck sparse python3 gnuplot-nox
diffutils findutils procps mawk sed grep linux-config-6.12 dpkg-dev debhelper rsync kmod
openssl"

# One dpkg-query for all: "<package> <status> <version>" per installed package.
# shellcheck disable=SC2086 # word splitting of the package list is wanted
have=$(dpkg-query -W -f '${Package} ${db:Status-Abbrev} ${Version}\n' $PKGS 2>/dev/null || true)
missing=
for p in $PKGS; do
	line=$(printf '%s\n' "$have" | awk -v p="$p" '$1 == p && $2 ~ /^ii/ { print $3 }')
	if [ "$p" = "$BASE_PKG" ]; then
		# The series is made against this upload; a newer one may not take it.
		[ "$line" = "$BASE_VERSION" ] || missing="$missing $p=$BASE_VERSION"
	elif [ -z "$line" ]; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	stage "deps: all $(echo "$PKGS" | wc -w) packages present ($BASE_PKG $BASE_VERSION)"
	exit 0
fi

# The pinned source cannot be installed: say which versions the archive has.
base_unavailable() {
	offered=$(apt-cache madison "$BASE_PKG" 2>/dev/null | awk '{ printf "%s ", $3 }')
	die "deps: $BASE_PKG $BASE_VERSION (patches/$BASE/BASE) cannot be installed; the package lists offer: ${offered:-none}. Refresh the series against one of them (make apply, then patches/$BASE/BASE) or install that exact .deb by hand"
}

stage "deps: installing$missing"
[ "$(id -u)" -eq 0 ] || die "deps: missing packages$missing; run as root (apt-get install)"
export DEBIAN_FRONTEND=noninteractive
# --allow-downgrades: the pinned source may be older than an installed security upload.
# shellcheck disable=SC2086 # word splitting of the package list is wanted
if ! apt-get install -y -q --no-install-recommends --allow-downgrades $missing; then
	stage "deps: install failed, refreshing package lists and retrying"
	apt-get update -q || die "deps: apt-get update failed (network or sources.list?)"
	case $missing in
	*" $BASE_PKG=$BASE_VERSION"*)
		apt-cache madison "$BASE_PKG" 2>/dev/null | awk -v v="$BASE_VERSION" '$3 == v { f = 1 } END { exit !f }' ||
			base_unavailable
		;;
	esac
	apt-get install -y -q --no-install-recommends --allow-downgrades $missing ||
		die "deps: apt-get install failed for:$missing"
fi
stage "deps: done"

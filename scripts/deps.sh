#!/bin/sh
# Install the Debian packages the tooling needs; quick no-op when all are present.
set -eu
. "$(dirname "$0")/lib.sh"

# Kernel build, patch workflow, guest image (with the dm/md/partition tools), QEMU, linting, plots;
# the Debian package (make deb): Debian's config, bindeb-pkg's tools, depmod, module signing.
PKGS="$BASE_PKG xz-utils git gcc libc6-dev make flex bison bc libelf-dev libssl-dev
dwarves lz4 cpio ccache qemu-system-x86 busybox-static fio jq e2fsprogs xfsprogs
shellcheck sparse gnuplot-nox coreutils diffutils dmsetup mdadm util-linux fdisk
linux-config-6.12 dpkg-dev debhelper rsync kmod openssl"

missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case $st in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done
if [ -z "$missing" ]; then
	stage "deps: all $(echo "$PKGS" | wc -w) packages present"
	exit 0
fi

stage "deps: installing$missing"
[ "$(id -u)" -eq 0 ] || die "deps: missing packages$missing; run as root (apt-get install)"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is wanted
if ! apt-get install -y -q --no-install-recommends $missing; then
	stage "deps: install failed, refreshing package lists and retrying"
	apt-get update -q || die "deps: apt-get update failed (network or sources.list?)"
	apt-get install -y -q --no-install-recommends $missing ||
		die "deps: apt-get install failed for:$missing"
fi
stage "deps: done"

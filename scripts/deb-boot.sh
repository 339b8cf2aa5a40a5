#!/bin/sh
# Boot the Debian package's kernel in QEMU as a user would get it: unpack
# $BUILD/deb/linux-image-*.deb (dpkg-deb -x) into $BUILD/deb-boot/root, check that
# its modules resolve against its System.map (depmod -e), build an initramfs holding
# its /lib/modules (/init loads them with guest/modules.sh), then boot its vmlinuz
# once per guest script through scripts/suite.sh (variant "deb").
# usage: deb-boot.sh [SCRIPT...]   (default: modules.sh smoke.sh selftest.sh readme.sh)
# env: boot.sh's (TIMEOUT, SMP, MEM, ...); logs in $RESULTS/<script>-deb.log
set -eu
. "$(dirname "$0")/lib.sh"

W=$BUILD/deb-boot
img=''
for f in "$BUILD"/deb/linux-image-*.deb; do
	case $f in *-dbg_*) continue ;; esac
	[ -e "$f" ] || continue
	[ -z "$img" ] || die "deb-boot: more than one linux-image .deb in $BUILD/deb"
	img=$f
done
[ -n "$img" ] || die "deb-boot: no $BUILD/deb/linux-image-*.deb (make deb)"
command -v depmod >/dev/null || die "deb-boot: depmod missing (make deps)"

stage "deb-boot: unpacking ${img##*/}"
rm -rf "$W/root"
mkdir -p "$W/root"
dpkg-deb -x "$img" "$W/root"
release=$(ls "$W/root/lib/modules")
case $release in '' | *[[:space:]]*) die "deb-boot: want one release in lib/modules of ${img##*/}, got '$release'" ;; esac
[ -f "$W/root/boot/vmlinuz-$release" ] || die "deb-boot: no boot/vmlinuz-$release in ${img##*/}"

# The package's module dependencies as an installed system has them, and every
# symbol a module needs exported by the kernel or another module.
depmod -b "$W/root" -F "$W/root/boot/System.map-$release" -e "$release" 2> "$W/depmod.log" ||
	die "deb-boot: depmod failed: $(cat "$W/depmod.log")"
if grep -q 'unknown symbol' "$W/depmod.log"; then
	sed 's/^/  /' "$W/depmod.log" >&2
	die "deb-boot: modules of $release need symbols nothing exports"
fi

# The blk_poll kselftest, if no normal build made it yet: headers of this build.
ST=$KSRC/tools/testing/selftests/blk_poll
if [ -d "$ST" ] && [ -d "$BUILD/obj-deb/usr/include" ]; then
	mkdir -p "$BUILD/selftests"
	CFLAGS="-O2 -Wall -static" LDFLAGS=-static \
		make -s -C "$ST" OUTPUT="$BUILD/selftests" KHDR_INCLUDES="-isystem $BUILD/obj-deb/usr/include"
fi

INITRAMFS=$W/initramfs.cpio INITRAMFS_STAGE=$W/initramfs.d INITRAMFS_MODULES=$W/root \
	sh "$TOP/scripts/initramfs.sh"

[ $# -gt 0 ] || set -- modules.sh smoke.sh selftest.sh readme.sh
entries=''
for s in "$@"; do entries="$entries $s@deb"; done
stage "deb-boot: $release:$entries"
# shellcheck disable=SC2086 # one entry a word
KERNEL=$W/root/boot/vmlinuz-$release INITRAMFS=$W/initramfs.cpio sh "$TOP/scripts/suite.sh" $entries

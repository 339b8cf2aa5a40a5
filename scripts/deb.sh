#!/bin/sh
# Build the patched kernel as Debian packages with the kernel's own `make bindeb-pkg`
# in $BUILD/obj-deb (configured by scripts/deb-config.sh) and put linux-image-* and
# linux-headers-* into $BUILD/deb. linux-libc-dev is dropped: installing it would
# replace Debian's C library headers.
# env: JOBS (nproc), CCACHE_DIR (build/ccache, shared by the bases),
#      KDEB_PKGVERSION (default <Debian version>+blkpoll.<UTC date and time>)
set -eu
. "$(dirname "$0")/lib.sh"

OBJ=$BUILD/obj-deb
OUT=$BUILD/deb
[ -f "$KSRC/Makefile" ] || die "deb: no kernel tree in $KSRC (run 'make tree')"
[ -f "$OBJ/.config" ] || die "deb: no $OBJ/.config (run scripts/deb-config.sh)"
command -v dpkg-buildpackage >/dev/null || die "deb: dpkg-buildpackage missing (make deps)"
command -v dh_builddeb >/dev/null || die "deb: debhelper missing (make deps)"
ccache_env
# Each build sorts after the previous one, so dpkg -i upgrades in place.
KDEB_PKGVERSION=${KDEB_PKGVERSION:-$BASE_VERSION+blkpoll.$(date -u +%Y%m%d%H%M)}
export KDEB_PKGVERSION
mkdir -p "$OUT"

start=$(date +%s)
stage "deb: make -j$JOBS bindeb-pkg in $OBJ, version $KDEB_PKGVERSION (ccache in $CCACHE_DIR)"
# HOSTCC = CC: otherwise the headers package rebuilds scripts/ with CC.
# LOCALVERSION= : no "+" for building from a git tree; the release is
# <version>-blkpoll (CONFIG_LOCALVERSION).
make -s -C "$KSRC" O="$OBJ" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
	LOCALVERSION= -j"$JOBS" bindeb-pkg
release=$(cat "$OBJ/include/config/kernel.release")

# dpkg-buildpackage runs in $OBJ and writes its results next to it, in $BUILD.
rm -f "$OUT"/*.deb
for f in "$BUILD"/*_"$KDEB_PKGVERSION"_*; do
	[ -e "$f" ] || continue
	case ${f##*/} in
	linux-image-*.deb | linux-headers-*.deb) mv "$f" "$OUT/" ;;
	*) rm -f "$f" ;;
	esac
done
img=$(ls "$OUT"/linux-image-"$release"_*.deb 2>/dev/null || true)
[ -n "$img" ] || die "deb: no linux-image-${release}_*.deb came out of bindeb-pkg"

# What the guest test loads must be in the package.
dpkg-deb -c "$img" > "$OBJ/deb.contents"
for m in boot/vmlinuz-"$release" nvme.ko null_blk.ko dm-mod.ko md-mod.ko raid1.ko xfs.ko ext4.ko blk-poll-test.ko; do
	grep -q "/$m\$" "$OBJ/deb.contents" || die "deb: $m missing from $img"
done
stage "deb: release $release in $(($(date +%s) - start)) s:"
ls -l "$OUT"/*.deb >&2

#!/bin/sh
# Build the guest initramfs (uncompressed newc cpio) from the host's Debian packages:
# busybox-static with its applets, fio and jq (the guest scripts read fio's JSON output
# with it), each with every library ldd lists and the loader, mkfs.ext4/mkfs.xfs/xfs_io,
# the stack tools dmsetup/mdadm/sfdisk/chrt/taskset (guest/stacks.sh),
# guest/ at /guest, guest/init at /init, selftest binaries from $BUILD/selftests at
# /guest/bin, a non-root user (uid 1000).
# env: INITRAMFS (output, default $BUILD/initramfs.cpio), INITRAMFS_EXTRA (more host binaries),
#      INITRAMFS_STAGE (work directory, default $BUILD/initramfs.d), INITRAMFS_MODULES (a
#      root holding lib/modules/<release>, e.g. an unpacked linux-image .deb: copied in,
#      and /init loads the modules; scripts/deb-boot.sh)
set -eu
. "$(dirname "$0")/lib.sh"

OUT=${INITRAMFS:-$BUILD/initramfs.cpio}
EXTRA=${INITRAMFS_EXTRA:-"/usr/sbin/mkfs.ext4 /usr/sbin/mkfs.xfs /usr/sbin/xfs_io"}
# Debian's, not busybox's: LVM-style dm tables, md arrays, partition tables, RT priority.
STACK_TOOLS="/usr/sbin/dmsetup /usr/sbin/mdadm /usr/sbin/sfdisk /usr/bin/chrt /usr/bin/taskset"
ST=${INITRAMFS_STAGE:-$BUILD/initramfs.d}
[ -x /bin/busybox ] || die "initramfs: /bin/busybox missing (apt install busybox-static)"
[ -x /usr/bin/fio ] || die "initramfs: /usr/bin/fio missing (apt install fio)"
[ -x /usr/bin/jq ] || die "initramfs: /usr/bin/jq missing (apt install jq)"
[ -f "$TOP/guest/init" ] || die "initramfs: $TOP/guest/init missing"
command -v cpio >/dev/null || die "initramfs: cpio missing (apt install cpio)"

rm -rf "$ST"
mkdir -p "$ST"
cd "$ST"
mkdir -p bin sbin usr/bin usr/sbin lib lib64 etc dev proc sys tmp run mnt root home/user var/tmp guest/bin
chmod 1777 tmp var/tmp

# busybox: one symlink per applet, never over a real binary.
cp /bin/busybox bin/busybox
for app in $(/bin/busybox --list-full); do
	[ -e "$app" ] || [ -L "$app" ] || ln -s /bin/busybox "$app"
done

# A dynamic binary, its libraries and the loader, at the paths ldd prints.
add_dynamic() {
	bin=$1
	mkdir -p ".$(dirname "$bin")"
	rm -f ".$bin"
	cp -L "$bin" ".$bin"
	ldd "$bin" | awk '/=> \//{print $3} /^[[:space:]]*\//{print $1}' | while read -r lib; do
		[ -e ".$lib" ] && continue
		mkdir -p ".$(dirname "$lib")"
		cp -L "$lib" ".$lib"
	done
}
add_dynamic /usr/bin/fio
add_dynamic /usr/bin/jq
for b in $STACK_TOOLS $EXTRA; do
	if [ -x "$b" ]; then add_dynamic "$b"; else stage "initramfs: $b not on the host, skipped"; fi
done
[ ! -f /etc/mke2fs.conf ] || cp /etc/mke2fs.conf etc/
# mdadm keeps its map in /run/mdadm and reads /etc/mdadm/mdadm.conf: no udev in the
# guest, so mdadm makes the /dev/md* nodes itself; no homehost, no mail, no mdmon.
mkdir -p run/mdadm etc/mdadm
cat > etc/mdadm/mdadm.conf <<'MD'
HOMEHOST <none>
CREATE owner=root group=root mode=0600 auto=yes
MD

# Users: root and an unprivileged one for permission tests.
cat > etc/passwd <<'PW'
root:x:0:0:root:/root:/bin/sh
user:x:1000:1000:blkpoll test user:/home/user:/bin/sh
PW
cat > etc/group <<'GR'
root:x:0:
user:x:1000:
GR
chown 1000:1000 home/user

# The kernel opens /dev/console before /init runs (devtmpfs is mounted later).
mknod -m 600 dev/console c 5 1 || die "initramfs: mknod dev/console failed (needs root)"
mknod -m 666 dev/null c 1 3

if [ -n "${INITRAMFS_MODULES:-}" ]; then
	[ -d "$INITRAMFS_MODULES/lib/modules" ] || die "initramfs: no lib/modules in $INITRAMFS_MODULES"
	cp -R "$INITRAMFS_MODULES/lib/modules" lib/
fi
cp -R "$TOP/guest/." guest/
cp "$TOP/guest/init" init
chmod 755 init
if [ -d "$BUILD/selftests" ]; then
	find "$BUILD/selftests" -maxdepth 1 -type f -perm -u+x -exec cp {} guest/bin/ \;
fi
nsel=$(find guest/bin -type f | wc -l)

# Reproducible archive: sorted names, fixed times, renumbered inodes.
find . -exec touch -h -d @946684800 {} +
find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort |
	cpio --create --format=newc --reproducible --quiet > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
stage "initramfs: $OUT ($(du -h "$OUT" | cut -f1), $nsel selftest binaries, busybox $(/bin/busybox | head -1 | cut -d' ' -f2))"

#!/bin/sh
# scripts/boot.sh's timeout is a hang detector: 900 s by default, 1800 s for the debug
# kernel (KASAN and lockdep run the guest scripts about 3x slower), and what TIMEOUT or -t
# says wins. QEMU is a fake that exits at once, so each boot fails its log check after
# saying what timeout it runs under.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

mkdir -p "$d/bin" "$d/build/obj-normal" "$d/build/obj-debug"
printf '#!/bin/sh\nexit 0\n' > "$d/bin/qemu-system-x86_64"
chmod +x "$d/bin/qemu-system-x86_64"
: > "$d/build/obj-normal/vmlinux"
: > "$d/build/obj-debug/vmlinux"
: > "$d/build/initramfs.cpio"

# boot TIMEOUT ARGS...: boot.sh ARGS... smoke.sh with the fake QEMU and TIMEOUT in its
# environment ("" for none)
boot() {
	_t=$1
	shift
	env ${_t:+TIMEOUT="$_t"} PATH="$d/bin:$PATH" BUILD="$d/build" QUIET=1 \
		sh "$TOP/scripts/boot.sh" -l "$d/boot.log" "$@" smoke.sh
}

t_expect nonzero "a boot of the normal kernel" boot "" -v normal
t_grep '^==> boot: normal smoke\.sh: .*, timeout 900s, ' "runs under 900 s"
t_expect nonzero "a boot of the debug kernel" boot "" -v debug
t_grep '^==> boot: debug smoke\.sh: .*, timeout 1800s, ' "runs under 1800 s"
t_expect nonzero "TIMEOUT=60 on the debug kernel" boot 60 -v debug
t_grep ', timeout 60s, ' "runs under 60 s"
t_expect nonzero "-t 70 on the debug kernel" boot "" -v debug -t 70
t_grep ', timeout 70s, ' "runs under 70 s"
t_end

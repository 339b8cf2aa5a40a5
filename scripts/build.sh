#!/bin/sh
# Build vmlinux for VARIANT (normal|debug) from $KSRC into $BUILD/obj-VARIANT:
# tinyconfig + config/base.config (+ config/debug.config), ccache, make -j JOBS; vmlinux
# (debug: bzImage too, see config/debug.config).
# Also builds tools/testing/selftests/blk_poll statically into $BUILD/selftests if present.
# usage: build.sh [normal|debug]   env: JOBS (nproc), CCACHE_DIR (build/ccache, shared by the bases),
#        CONFIG_ONLY=1 (stop after the config check), FRAGMENTS (paths, replace the variant's)
set -eu
. "$(dirname "$0")/lib.sh"

VARIANT=${1:-${VARIANT:-normal}}
# What QEMU boots: vmlinux through PVH (no decompressor); debug needs bzImage
# (config/debug.config says why). boot.sh reads the choice from $OBJ/.boot-image.
image=vmlinux
case $VARIANT in
normal) frags="$TOP/config/base.config" ;;
debug) frags="$TOP/config/base.config $TOP/config/debug.config" image=bzImage ;;
*) [ -n "${FRAGMENTS:-}" ] || die "build: unknown variant '$VARIANT' (normal|debug)" ;;
esac
frags=${FRAGMENTS:-$frags}
[ -f "$KSRC/Makefile" ] || die "build: no kernel tree in $KSRC (run 'make apply')"
OBJ=$BUILD/obj-$VARIANT
ccache_env
# Fixed build identity: init/version.c stays cacheable, the image reproducible.
export KBUILD_BUILD_TIMESTAMP="2000-01-01 00:00:00 UTC" KBUILD_BUILD_USER=blkpoll KBUILD_BUILD_HOST=blkpoll
mkdir -p "$OBJ"

kmake() {
	make -s -C "$KSRC" O="$OBJ" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}

start=$(date +%s)
# shellcheck disable=SC2086 # $frags is a list of paths without spaces
sum=$( (echo "$VARIANT"; cat $frags) | sha256sum | cut -d' ' -f1)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.fragment.sum" 2>/dev/null || true)" != "$sum" ]; then
	stage "build[$VARIANT]: configuring: tinyconfig + $(for f in $frags; do printf '%s ' "${f#"$TOP"/}"; done)"
	rm -f "$OBJ/.fragment.sum"
	kmake tinyconfig >/dev/null
	# shellcheck disable=SC2086
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" $frags >/dev/null
	kmake olddefconfig >/dev/null
	echo "$sum" > "$OBJ/.fragment.sum"
else
	# Re-assert the fragments: a symbol the tree gained since (a patch adding a
	# Kconfig option) would otherwise get its default, not the fragment's value.
	stage "build[$VARIANT]: fragment unchanged, reusing $OBJ/.config"
	# shellcheck disable=SC2086
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" $frags >/dev/null
	kmake olddefconfig >/dev/null
fi

# Every line of the fragments must be in the final .config. A line right after a
# comment starting "# optional" is checked only when the tree defines the symbol
# (options the series adds, so that the stock kernel and bisect steps still build).
# shellcheck disable=SC2086
# As in merge_config.sh, a later fragment's line for a symbol replaces an earlier one.
awk 'function want(sym, val) {
		if (!(sym in v)) order[++n] = sym
		v[sym] = val; k[sym] = o ? "opt" : "req"; o = 0
	}
	/^# *optional/ { o = 1; next }
	/^CONFIG_[A-Za-z0-9_]*=/ { i = index($0, "="); want(substr($0, 1, i - 1), substr($0, i + 1)); next }
	/^# CONFIG_[A-Za-z0-9_]* is not set$/ { want($2, "n"); next }
	{ o = 0 }
	END { for (i = 1; i <= n; i++) print k[order[i]], order[i] "=" v[order[i]] }' $frags > "$OBJ/.fragment.want"
bad=0
while read -r kind line; do
	sym=${line%%=*}
	want=${line#*=}
	got=$(sed -n "s/^$sym=//p" "$OBJ/.config")
	[ -n "$got" ] || got=n
	[ "$got" != "$want" ] || continue
	if [ "$kind" = opt ] && ! grep -rqsE --include='Kconfig*' \
		"^[[:space:]]*(menu)?config ${sym#CONFIG_}[[:space:]]*\$" "$KSRC"; then
		stage "build[$VARIANT]: optional $sym not defined in this tree, skipped"
		continue
	fi
	printf 'build[%s]: %s wanted %s, .config has %s\n' "$VARIANT" "$sym" "$want" "$got" >&2
	bad=$((bad + 1))
done < "$OBJ/.fragment.want"
[ "$bad" -eq 0 ] || die "build[$VARIANT]: $bad fragment setting(s) did not survive olddefconfig (missing dependency or renamed symbol)"
stage "build[$VARIANT]: config verified ($(grep -c '^CONFIG_' "$OBJ/.config") symbols set)"
[ "${CONFIG_ONLY:-0}" != 1 ] || exit 0

stage "build[$VARIANT]: make -j$JOBS $image (ccache in $CCACHE_DIR)"
kmake "$image"
case $image in
bzImage) path=arch/x86/boot/bzImage ;;
*) path=vmlinux ;;
esac
echo "$path" > "$OBJ/.boot-image"
stage "build[$VARIANT]: $OBJ/$path ($(du -h "$OBJ/$path" | cut -f1)) in $(($(date +%s) - start)) s"

ST=$KSRC/tools/testing/selftests/blk_poll
if [ -d "$ST" ]; then
	stage "build[$VARIANT]: selftests blk_poll (static) into $BUILD/selftests"
	kmake headers
	mkdir -p "$BUILD/selftests"
	CFLAGS="-O2 -Wall -static" LDFLAGS=-static \
		make -s -C "$ST" OUTPUT="$BUILD/selftests" KHDR_INCLUDES="-isystem $OBJ/usr/include"
else
	stage "build[$VARIANT]: no tools/testing/selftests/blk_poll in the tree, no selftests"
fi

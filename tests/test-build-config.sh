#!/bin/sh
# scripts/build.sh config check (CONFIG_ONLY=1, scratch O= dir $BUILD/obj-cfgtest):
# a fragment line that olddefconfig drops fails the build and is named; a line marked
# "# optional" for a symbol the tree lacks is skipped; an unchanged fragment is reused.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
[ -f "$KSRC/Makefile" ] || sh "$TOP/scripts/base.sh"
d=$(mktemp -d)
trap 'rm -rf "$d" "$BUILD/obj-cfgtest"' EXIT INT TERM

cat > "$d/bad.config" <<'CFG'
# CONFIG_FAULT_INJECTION_CONFIGFS is not set
CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION=y
CONFIG_BLKPOLL_NO_SUCH_SYMBOL=y
CFG
cat > "$d/opt.config" <<'CFG'
# optional: added by the series
CONFIG_BLKPOLL_NO_SUCH_SYMBOL=y
CFG

t_expect nonzero "a fragment line that olddefconfig drops fails the build" \
	env CONFIG_ONLY=1 FRAGMENTS="$TOP/config/base.config $d/bad.config" sh "$TOP/scripts/build.sh" cfgtest
t_grep 'CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION wanted y, .config has n' "the dropped dependency is named"
t_grep 'CONFIG_BLKPOLL_NO_SUCH_SYMBOL wanted y' "an unknown symbol without the optional mark is an error"
t_grep " 2 fragment setting" "the count is given; a later fragment overrides an earlier line"

t_expect 0 "an optional symbol the tree does not define is skipped" \
	env CONFIG_ONLY=1 FRAGMENTS="$TOP/config/base.config $d/opt.config" sh "$TOP/scripts/build.sh" cfgtest
t_grep 'optional CONFIG_BLKPOLL_NO_SUCH_SYMBOL not defined in this tree, skipped' "the skip is reported"
t_expect 0 "the same fragments again reuse the .config (no tinyconfig)" \
	env CONFIG_ONLY=1 FRAGMENTS="$TOP/config/base.config $d/opt.config" sh "$TOP/scripts/build.sh" cfgtest
t_grep 'fragment unchanged, reusing' "reuse is reported"
t_end

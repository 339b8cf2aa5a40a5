#!/bin/sh
# module-exports.sh fails a module that takes an unexported built-in symbol and
# passes one that takes only exported ones, on objects compiled here with gcc in
# the layout kbuild leaves (<dir>/<module>.mod lists the module's objects).
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
mkdir -p "$d/o/block" "$d/o/drv"

cc_obj() {
	printf '%s\n' "$2" > "$d/src.c"
	gcc -c -o "$d/o/$1" "$d/src.c"
}

# block/: built in; blk_bar carries the label EXPORT_SYMBOL_GPL makes, blk_foo not.
cc_obj block/core.o 'int blk_foo(void) { return 1; }
int blk_bar(void) { return 2; }
asm(".section \".export_symbol\",\"a\"\n__export_symbol_blk_bar:\n.asciz \"GPL\"\n.previous");'
# drv/m.ko: two objects; helper() is the module's own.
cc_obj drv/m-main.o 'int helper(void); int blk_bar(void);
int m_init(void) { return helper() + blk_bar(); }'
cc_obj drv/m-help.o 'int helper(void) { return 3; }'
printf 'drv/m-main.o\ndrv/m-help.o\n' > "$d/o/drv/m.mod"

t_expect 0 "a module using an exported built-in symbol and its own passes" \
	sh "$TOP/scripts/module-exports.sh" "$d/o" block drv
t_grep '^ok - 1 module\(s\) of block drv take nothing unexported from 1 built-in' "it counts the module and the built-in object"

cc_obj drv/m-help.o 'int blk_foo(void);
int helper(void) { return blk_foo(); }'
t_expect 1 "a module using an unexported built-in symbol fails" \
	sh "$TOP/scripts/module-exports.sh" "$d/o" block drv
t_grep '^not ok - blk_foo: used by a module' "it names the symbol"
t_expect 2 "a directory missing from the object tree is an error" \
	sh "$TOP/scripts/module-exports.sh" "$d/o" block nonexistent
t_end

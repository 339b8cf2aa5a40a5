#!/bin/sh
# Symbols that modules of the given directories take from the built-in objects of
# the same directories must be exported: a missing EXPORT_SYMBOL passes every
# build with the drivers built in and fails only at modpost of a modular kernel.
# Reads a kbuild object tree after "make <dir>/": a module's objects are listed in
# its <name>.mod, every other object under the directories is built in; an object's
# exports are its __export_symbol_<name> labels (include/linux/export.h).
# Prints one "not ok" line per unexported symbol and exits 1 if there is any.
# usage: module-exports.sh OBJTREE DIR...
set -eu

[ $# -ge 2 ] || { echo "usage: module-exports.sh OBJTREE DIR..." >&2; exit 2; }
obj=$1
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
: > "$tmp/mods"
: > "$tmp/modobjs"
: > "$tmp/objs"

for dir in "$@"; do
	[ -d "$obj/$dir" ] || { echo "module-exports: no $obj/$dir" >&2; exit 2; }
	find "$obj/$dir" -name '*.mod' >> "$tmp/mods"
	find "$obj/$dir" -name '*.o' ! -name '*.mod.o' | sed "s|^$obj/||" >> "$tmp/objs"
done
while IFS= read -r m; do
	# the members, and the module's own (linked) object
	tr ' ' '\n' < "$m" | sed '/^$/d' >> "$tmp/modobjs"
	printf '%s.o\n' "${m%.mod}" | sed "s|^$obj/||" >> "$tmp/modobjs"
done < "$tmp/mods"
sort -u "$tmp/modobjs" -o "$tmp/modobjs"
sort -u "$tmp/objs" | comm -23 - "$tmp/modobjs" > "$tmp/builtin"

nm_of() {
	while IFS= read -r o; do
		[ ! -f "$obj/$o" ] || nm "$@" "$obj/$o"
	done
}

# What the modules need, what the built-in objects define, what they export.
nm_of -u < "$tmp/modobjs" | awk '{ print $NF }' | sort -u > "$tmp/need"
nm_of --defined-only < "$tmp/builtin" > "$tmp/defs"
awk '$2 ~ /^[TDRB]$/ { print $3 }' "$tmp/defs" | sort -u > "$tmp/global"
sed -n 's/^.* __export_symbol_\(.*\)$/\1/p' "$tmp/defs" | sort -u > "$tmp/exported"

missing=$(comm -12 "$tmp/need" "$tmp/global" | comm -23 - "$tmp/exported")
if [ -n "$missing" ]; then
	for s in $missing; do
		printf 'not ok - %s: used by a module of %s, defined built-in, not exported\n' "$s" "$*"
	done
	exit 1
fi
printf 'ok - %d module(s) of %s take nothing unexported from %d built-in object(s)\n' \
	"$(wc -l < "$tmp/mods")" "$*" "$(wc -l < "$tmp/builtin")"

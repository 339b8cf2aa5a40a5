#!/bin/sh
# scripts/sparse-filter.sh (kbuild's CHECK in the bisect check): sparse runs, with
# every argument kbuild gave, on a source in SPARSE_FILES, named as kbuild names it
# (relative, or under the tree's absolute path with O=), and on no other source.
set -eu
. "$(dirname "$0")/lib.sh"
F=$TOP/scripts/sparse-filter.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
printf '#!/bin/sh\nprintf "%%s\\n" "$*" > "%s/ran"\n' "$d" > "$d/sparse"
chmod +x "$d/sparse"

# check SOURCE: run the filter as kbuild runs CHECK; $d/ran holds sparse's arguments
check() {
	rm -f "$d/ran"
	SPARSE="$d/sparse" SPARSE_FILES="block/fops.c drivers/md/dm.c" \
		sh "$F" -D__linux__ -Wbitwise -I ./include "$1"
}

t_expect 0 "a listed source, relative" check block/fops.c
t_expect 0 "sparse ran on it with kbuild's arguments" \
	grep -qx -- '-D__linux__ -Wbitwise -I ./include block/fops.c' "$d/ran"
t_expect 0 "a listed source under the tree's absolute path (O= build)" check /work/linux/drivers/md/dm.c
t_expect 0 "sparse ran on it" grep -q -- ' /work/linux/drivers/md/dm\.c$' "$d/ran"
t_expect 0 "a source not listed exits 0" check block/blk-mq.c
t_expect 1 "and sparse did not run" test -e "$d/ran"
t_expect 0 "a name that only ends like a listed one (xblock/fops.c)" check /work/xblock/fops.c
t_expect 1 "is not the listed file: sparse did not run" test -e "$d/ran"
rm -f "$d/ran"
t_expect 0 "no SPARSE_FILES: nothing is checked, exit 0" \
	env SPARSE="$d/sparse" sh "$F" -D__linux__ block/fops.c
t_expect 1 "and sparse did not run" test -e "$d/ran"
t_end

#!/bin/sh
# The checks block maintainers run on a series, on patches/ as committed:
#  1. scripts/checkpatch.pl --strict on every patch: no error, warning or check;
#  2. bisectability: in a scratch tree, after each patch, the directories it
#     touches build with W=1, and sparse (C=1) checks the C files it touches,
#     adding no warning that the base does not have in the touched files;
#  3. scripts/kernel-doc -none on every C file and header the series touches;
#  4. the newest linux-source-$BASE in its suite versus the recorded base;
#  5. the modular build: the series directories, at the last patch, build with
#     Debian's config as make deb trims it (nvme, dm, md, null_blk as modules)
#     and no module takes a built-in symbol of them that is not exported.
# usage: check-patches.sh [checkpatch|kerneldoc|bisect|base|modular]...   (default: all)
#        check-patches.sh bisect-base | bisect-step N PATCH
#        (the two halves of bisect on a tree that is already set up: the base
#        warnings of the series directories, then the verdict on patch N)
# env:   BISECT_TREE ($BUILD/bisect), JOBS (nproc), KBUILD_MAKE (make),
#        MODULAR_OBJ ($BUILD/obj-modular)
set -eu
. "$(dirname "$0")/lib.sh"

TREE=${BISECT_TREE:-$BUILD/bisect}
OBJ=$BUILD/obj-bisect
ccache_env
list=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e '/^0000-cover-letter\.patch$/d' "$PATCHES/series")
fail=0

# The tree is Debian's tarball imported as one commit: it has no upstream history
# to look up a Fixes: commit id in, so that one check (UNKNOWN_COMMIT_ID) is off.
check_checkpatch() {
	stage "check: checkpatch --strict on $(printf '%s\n' "$list" | wc -l) patch(es)"
	for p in $list; do
		out=$("$KSRC/scripts/checkpatch.pl" --strict --quiet --show-types \
			--ignore UNKNOWN_COMMIT_ID --no-tree --root="$KSRC" "$PATCHES/$p" 2>&1) || true
		if printf '%s\n' "$out" | grep -qE '^(ERROR|WARNING|CHECK):'; then
			printf 'not ok - checkpatch %s\n%s\n' "$p" "$out" | sed '2,$s/^/#   /'
			fail=1
		else
			printf 'ok - checkpatch %s\n' "$p"
		fi
	done
}

# Directories whose objects a patch can break: those of its .c files, and
# block/ plus every series directory when it changes a header.
series_dirs() {
	for p in $list; do
		sed -n 's|^+++ b/\(.*\)/[^/]*\.c$|\1|p' "$PATCHES/$p"
	done | grep -v '^tools/' | sort -u
}

patch_dirs() {
	if grep -qE '^\+\+\+ b/.*\.h$' "$1"; then
		series_dirs
	else
		sed -n 's|^+++ b/\(.*\)/[^/]*\.c$|\1|p' "$1" | grep -v '^tools/' | sort -u
	fi
}

patch_files() {
	sed -n 's|^+++ b/||p' "$1"
}

# kbuild DIR...: build the directories in $TREE with W=1, and sparse on those of
# the files it recompiles that are in SPARSE_FILES (scripts/sparse-filter.sh); the
# whole log on stdout, make's exit status as the function's.
kbuild() {
	_dirs=$(for d in "$@"; do printf '%s/ ' "$d"; done)
	if sparse_usable; then
		set -- C=1 "CHECK=sh $TOP/scripts/sparse-filter.sh"
	else
		set --
	fi
	# shellcheck disable=SC2086 # one make target per directory
	"${KBUILD_MAKE:-make}" -s -C "$TREE" O="$OBJ" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" \
		W=1 "$@" $_dirs 2>&1
}

# sparse_usable: whether this machine's sparse parses the tree: Debian 12's (0.6.4)
# does not know __typeof_unqual__, which 7.x headers use everywhere, and then fails
# every file; the bisect builds are then W=1 only, and say so.
sparse_usable() {
	grep -qs __typeof_unqual__ "$TREE/include/linux/compiler_types.h" || return 0
	_t=$(mktemp --suffix=.c)
	printf 'int f(void) { const int a = 0; return (__typeof_unqual__(a))a; }\n' > "$_t"
	_e=$(sparse "$_t" 2>&1 | grep -c 'error:' || true)
	rm -f "$_t"
	[ "$_e" = 0 ]
}

# touched_files ERE PATCH...: the files the patches touch whose names match ERE,
# outside tools/
touched_files() {
	_re=$1
	shift
	for _p in "$@"; do
		patch_files "$_p"
	done | grep -E "$_re" | grep -v '^tools/' | sort -u || true
}

# series_patches: the paths of the series' patches, one a line
series_patches() {
	for _p in $list; do
		printf '%s\n' "$PATCHES/$_p"
	done
}

# kbuild_warnings LOG: "file: warning: message" (or error) for every compiler or
# sparse diagnostic in a build log, relative to $TREE, without line numbers; sorted.
# With O= kbuild names sources by the tree's real path (symlinks resolved).
kbuild_warnings() {
	_real=$(cd "$TREE" 2>/dev/null && pwd -P) || _real=$TREE
	awk -v tree="$TREE/" -v real="$_real/" '
	{ sub(/\r$/, "") }
	index($0, tree) == 1 { $0 = substr($0, length(tree) + 1) }
	index($0, real) == 1 { $0 = substr($0, length(real) + 1) }
	/^[^ :]+:[0-9]+:[0-9]+: (warning|error): / {
		f = $0; sub(/:.*/, "", f)
		m = $0; sub(/^[^ :]+:[0-9]+:[0-9]+: /, "", m)
		print f ": " m
	}' "$1" | LC_ALL=C sort -u
}

# new_warnings BASE NEW FILE...: the diagnostics of NEW (kbuild_warnings output)
# that BASE lacks: warnings in FILE... (what the patch touches) and errors anywhere.
new_warnings() {
	_base=$1 _new=$2
	shift 2
	{
		grep ': error: ' "$_new" || true
		for _f in "$@"; do
			awk -v f="$_f: " 'index($0, f) == 1' "$_new"
		done
	} | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$_base"
}

# bisect_base: the base warnings of every series directory, for bisect_step.
bisect_base() {
	# shellcheck disable=SC2046
	set -- $(series_dirs)
	if sparse_usable; then
		stage "check: base warnings (W=1 C=1) in $*"
	else
		printf '# WARNING: %s cannot parse this tree (__typeof_unqual__): the bisect builds are W=1 without sparse\n' \
			"sparse $(sparse --version 2>&1 | head -1)"
		stage "check: base warnings (W=1, no sparse) in $*"
	fi
	mkdir -p "$OBJ"
	# shellcheck disable=SC2046 # the patch paths have no spaces
	SPARSE_FILES=$(touched_files '\.c$' $(series_patches)) kbuild "$@" > "$OBJ/.build.base" ||
		die "check: the base does not build (log: $OBJ/.build.base)"
	kbuild_warnings "$OBJ/.build.base" > "$OBJ/.warnings.base"
}

# bisect_step N PATCH: with PATCH applied in $TREE, build the directories it
# touches; one TAP line. Fails when make fails or a diagnostic is new.
bisect_step() {
	_i=$1 _p=$2
	# shellcheck disable=SC2046
	set -- $(patch_dirs "$PATCHES/$_p")
	if [ $# -eq 0 ]; then
		printf 'ok - bisect %d %s (nothing to build)\n' "$_i" "$_p"
		return 0
	fi
	stage "check: [$_i] $_p: building $*"
	_rc=0
	SPARSE_FILES=$(touched_files '\.c$' "$PATCHES/$_p") kbuild "$@" > "$OBJ/.build.$_i" || _rc=$?
	kbuild_warnings "$OBJ/.build.$_i" > "$OBJ/.warnings.$_i"
	if [ "$_rc" -ne 0 ]; then
		printf 'not ok - bisect %d %s: build failed (make exit %d)\n' "$_i" "$_p" "$_rc"
		{ grep ': error: ' "$OBJ/.warnings.$_i" || tail -20 "$OBJ/.build.$_i"; } | sed 's/^/#   /'
		return 1
	fi
	# shellcheck disable=SC2046 # one argument per touched file
	_new=$(new_warnings "$OBJ/.warnings.base" "$OBJ/.warnings.$_i" $(patch_files "$PATCHES/$_p"))
	if [ -n "$_new" ]; then
		printf 'not ok - bisect %d %s: new warnings\n' "$_i" "$_p"
		printf '%s\n' "$_new" | sed 's/^/#   /'
		return 1
	fi
	printf 'ok - bisect %d %s builds (W=1%s) with no new warning\n' "$_i" "$_p" "$(sparse_usable && echo ' C=1' || echo ', no sparse')"
}

check_bisect() {
	command -v sparse >/dev/null || die "check: sparse missing (make deps)"
	stage "check: bisect tree $TREE from $KSRC tag base"
	if [ ! -d "$TREE/.git" ] && [ ! -f "$TREE/.git" ]; then
		git -C "$KSRC" worktree prune
		git -C "$KSRC" worktree add -q --detach "$TREE" base
	fi
	git -C "$TREE" am --abort >/dev/null 2>&1 || true
	git -C "$TREE" checkout -q -f --detach base
	KSRC=$TREE FRAGMENTS="$TOP/config/base.config" CONFIG_ONLY=1 \
		sh "$TOP/scripts/build.sh" bisect >/dev/null
	bisect_base
	i=0
	for p in $list; do
		i=$((i + 1))
		git -C "$TREE" am -q --no-3way "$PATCHES/$p" ||
			die "check: $p does not apply in the bisect tree"
		bisect_step "$i" "$p" || fail=1
	done
}

# kernel-doc warnings of a file at a revision of $KSRC, without line numbers.
kerneldoc_warnings() {
	d=$(mktemp -d)
	mkdir -p "$d/$(dirname "$2")"
	git -C "$KSRC" show "$1:$2" > "$d/$2" 2>/dev/null || { rm -rf "$d"; return 0; }
	(cd "$d" && "$KSRC/scripts/kernel-doc" -none "$2" 2>&1) | sed 's/:[0-9]*: /: /' | sort -u
	rm -rf "$d"
}

check_kerneldoc() {
	# shellcheck disable=SC2046 # the patch paths have no spaces
	files=$(touched_files '\.[ch]$' $(series_patches))
	new=$(for f in $files; do
		kerneldoc_warnings base "$f" > "$BUILD/.kdoc.base"
		kerneldoc_warnings HEAD "$f" | comm -23 - "$BUILD/.kdoc.base"
	done)
	rm -f "$BUILD/.kdoc.base"
	if [ -n "$new" ]; then
		printf 'not ok - kernel-doc -none: new warnings in the touched files\n'
		printf '%s\n' "$new" | sed 's/^/#   /'
		fail=1
	else
		printf 'ok - kernel-doc -none adds no warning in %d touched files\n' \
			"$(printf '%s\n' "$files" | wc -l)"
	fi
}

check_base() {
	recorded=$BASE_VERSION
	if [ "$BASE_SUITE" = bookworm ]; then
		installed=$(dpkg-query -W -f '${Version}' "$BASE_PKG" 2>/dev/null || echo none)
		newest=$(apt-cache madison "$BASE_PKG" 2>/dev/null | awk 'NR == 1 { print $3 }')
	else
		# fetched, not installed: source-fetch.sh's private package lists
		installed=none
		[ ! -f "$BASE_TARBALL" ] || installed=$BASE_VERSION
		apt=$TOP/build/apt-$BASE_SUITE
		newest=$(apt-cache -o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
			-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" madison "$BASE_PKG" 2>/dev/null |
			awk 'NR == 1 { print $3 }')
	fi
	printf '# base: recorded %s, installed %s, newest in the archive %s\n' \
		"$recorded" "$installed" "${newest:-unknown}"
	if [ -n "$newest" ] && dpkg --compare-versions "$newest" gt "$recorded"; then
		printf '# WARNING: the archive has a newer %s (%s) than the recorded base %s:\n' \
			"$BASE_PKG" "$newest" "$recorded"
		printf '# WARNING: take %s, make apply, then refresh patches/%s/BASE\n' "$BASE_PKG" "$BASE"
	fi
	if [ "$installed" = "$recorded" ]; then
		printf 'ok - base: the installed %s is the recorded base\n' "$installed"
	else
		# apply.sh (git am --no-3way) has just proved whether it applies.
		printf 'ok - base: the series applies to the installed %s (recorded %s) # loud: base moved\n' \
			"$installed" "$recorded"
	fi
}

# On $KSRC, the tree make apply made of the whole series.
check_modular() {
	mobj=${MODULAR_OBJ:-$BUILD/obj-modular}
	dirs=$(series_dirs)
	# shellcheck disable=SC2086 # directory names have no spaces
	targets=$(printf '%s/ ' $dirs)
	stage "check: modular build of $(echo "$dirs" | tr '\n' ' ')with Debian's config in $mobj"
	DEB_OBJ=$mobj sh "$TOP/scripts/deb-config.sh" 2> "$BUILD/.modular.log" || {
		printf 'not ok - modular: Debian config for the series\n'
		sed 's/^/#   /' "$BUILD/.modular.log" | tail -20
		fail=1
		return
	}
	# shellcheck disable=SC2086 # one make target per directory
	if ! make -s -C "$KSRC" O="$mobj" ARCH=x86_64 CC="ccache gcc" -j"$JOBS" \
		$targets > "$BUILD/.modular.log" 2>&1; then
		printf 'not ok - modular: the series directories build with Debian'"'"'s config\n'
		grep -E 'error|Error' "$BUILD/.modular.log" | head -20 | sed 's/^/#   /'
		fail=1
		return
	fi
	printf 'ok - modular: the series directories build with Debian'"'"'s config\n'
	# shellcheck disable=SC2086 # directory names have no spaces
	sh "$TOP/scripts/module-exports.sh" "$mobj" $dirs || fail=1
}

case ${1:-} in
bisect-base) bisect_base; exit 0 ;;
bisect-step) shift; bisect_step "$@" || exit 1; exit 0 ;;
esac
[ $# -gt 0 ] || set -- checkpatch kerneldoc bisect base modular
for c in "$@"; do
	case $c in
	checkpatch) check_checkpatch ;;
	kerneldoc) check_kerneldoc ;;
	bisect) check_bisect ;;
	base) check_base ;;
	modular) check_modular ;;
	*) die "check: unknown check '$c' (checkpatch|kerneldoc|bisect|base|modular)" ;;
	esac
done
exit "$fail"

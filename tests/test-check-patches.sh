#!/bin/sh
# check-patches.sh catches what maintainers reject: a patch with a style error
# fails the checkpatch check, the committed series passes it; a patch that adds
# a compiler or sparse warning, or breaks the build, fails the bisect check.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/lib.sh"
S=$TOP/scripts
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

# --- bisect, without a kernel: a fake make prints a build log and exits with a
# chosen status; bisect-base and bisect-step judge it as they judge a real build.
mkdir -p "$d/p" "$d/tree"
printf '0001-block-x.patch\n' > "$d/p/series"
cat > "$d/p/0001-block-x.patch" <<'PATCH'
Subject: [PATCH] block: x

--- a/block/fops.c
+++ b/block/fops.c
@@ -1 +1,2 @@
 a
+b
PATCH
cat > "$d/make" <<'MAKE'
#!/bin/sh
printf '%s\n' "$*" > "$FAKE_DIR/make.args"
printf '%s\n' "${SPARSE_FILES:-}" > "$FAKE_DIR/sparse.files"
cat "$FAKE_DIR/build.log"
exit "$FAKE_RC"
MAKE
chmod +x "$d/make"
T=$d/tree
base_log() {
	printf '  CC      block/fops.o\n'
	printf '%s/block/fops.c:10:5: warning: no previous prototype for '"'"'old'"'"' [-Wmissing-prototypes]\n' "$T"
	printf '%s/block/bio.c:20:1: warning: symbol '"'"'b'"'"' was not declared. Should it be static?\n' "$T"
}
step() {
	env PATCHES="$d/p" BUILD="$d/b" BISECT_TREE="$T" KBUILD_MAKE="$d/make" FAKE_DIR="$d" \
		FAKE_RC="$1" sh "$S/check-patches.sh" "$2" ${3:+"$3"} ${4:+"$4"}
}
base_log > "$d/build.log"
t_expect 0 "bisect-base records the base warnings" step 0 bisect-base
t_expect 0 "make builds the series directories with W=1 C=1, sparse through sparse-filter.sh" \
	grep -q 'W=1 C=1 CHECK=sh .*/scripts/sparse-filter\.sh block/$' "$d/make.args"
t_expect 0 "at the base sparse checks the C files the series touches" \
	grep -qx 'block/fops.c' "$d/sparse.files"
t_expect 0 "the base warning is kept as 'file: warning: message'" \
	grep -qx "block/fops.c: warning: no previous prototype for 'old' \\[-Wmissing-prototypes\\]" \
	"$d/b/obj-bisect/.warnings.base"

# The same warnings on other lines (the patch moved code) are not new.
base_log | sed 's/:10:5:/:11:5:/' > "$d/build.log"
t_expect 0 "a patch adding no warning passes" step 0 bisect-step 1 0001-block-x.patch
t_grep '^ok - bisect 1 0001-block-x.patch builds' "it says so"
t_expect 0 "sparse checks the C files the patch touches" grep -qx 'block/fops.c' "$d/sparse.files"

# kbuild names sources by the real path of the tree (O= build, symlinks resolved).
ln -s tree "$d/link"
{ base_log; printf '%s/block/fops.c:42:6: warning: unused variable '"'"'z'"'"'\n' "$T"; } > "$d/build.log"
t_expect 1 "a new warning under the tree's real path fails when BISECT_TREE is a symlink" \
	env BISECT_TREE="$d/link" PATCHES="$d/p" BUILD="$d/b" KBUILD_MAKE="$d/make" FAKE_DIR="$d" FAKE_RC=0 \
	sh "$S/check-patches.sh" bisect-step 1 0001-block-x.patch
t_grep "^#   block/fops.c: warning: unused variable 'z'" "the warning is named relative to the tree"

{ base_log; printf '%s/block/fops.c:42:6: warning: unused variable '"'"'x'"'"' [-Wunused-variable]\n' "$T"; } \
	> "$d/build.log"
t_expect 1 "a new warning in a file the patch touches fails" step 0 bisect-step 1 0001-block-x.patch
t_grep '^not ok - bisect 1 0001-block-x.patch: new warnings' "it gives not ok"
t_grep "^#   block/fops.c: warning: unused variable 'x'" "and names the warning"

{ base_log; printf 'block/fops.c:43:9: warning: incorrect type in argument 1 (different address spaces)\n'; } \
	> "$d/build.log"
t_expect 1 "a new sparse warning without the tree prefix fails" step 0 bisect-step 1 0001-block-x.patch

{ base_log; printf '%s/block/blk-core.c:7:1: warning: unused variable '"'"'y'"'"'\n' "$T"; } > "$d/build.log"
t_expect 0 "a warning in a file the patch does not touch is not its own" step 0 bisect-step 1 0001-block-x.patch

{ base_log; printf '%s/block/bio.c:30:1: error: bad constant expression\n' "$T"; } > "$d/build.log"
t_expect 1 "a new error anywhere fails, even when make succeeds (sparse)" step 0 bisect-step 1 0001-block-x.patch

{ base_log; printf '%s/block/fops.c:42:2: error: expected '"'"';'"'"' before '"'"'}'"'"' token\n' "$T"
	printf 'make[4]: *** [scripts/Makefile.build:229: block/fops.o] Error 1\n'; } > "$d/build.log"
t_expect 1 "a build that breaks fails" step 2 bisect-step 1 0001-block-x.patch
t_grep '^not ok - bisect 1 0001-block-x.patch: build failed \(make exit 2\)' "it gives not ok: build failed"
t_grep "^#   block/fops.c: error: expected ';'" "and shows the error"

printf 'make: *** No rule to make target\n' > "$d/build.log"
t_expect 1 "make failing without any diagnostic fails too" step 2 bisect-step 1 0001-block-x.patch
t_grep 'No rule to make target' "the log's tail is shown"

t_expect 1 "a base that does not build stops the check" step 2 bisect-base
t_grep 'the base does not build' "it says so"

# --- checkpatch, on the kernel tree's checkpatch.pl
if [ ! -x "$KSRC/scripts/checkpatch.pl" ]; then
	t_ok "checkpatch # SKIP no kernel tree in $KSRC"
	t_end
	exit
fi
t_expect 0 "the committed series is checkpatch --strict clean" \
	sh "$S/check-patches.sh" checkpatch

cp -R "$TOP/patches/${BASE:-7.2}/." "$d/"
first=$(sed -n 1p "$d/series")
# A trailing space on an added line is an error checkpatch always reports.
awk '!done && /^\+[^+]/ { print $0 " "; done = 1; next } { print }' "$d/$first" > "$d/x"
mv "$d/x" "$d/$first"
t_expect 1 "a patch with trailing whitespace fails the check" \
	env PATCHES="$d" sh "$S/check-patches.sh" checkpatch
t_end

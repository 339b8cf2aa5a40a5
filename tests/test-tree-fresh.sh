#!/bin/sh
# scripts/tree-fresh.sh on a small git tree (no kernel): a tree that holds
# patches/ is used as it is, one older than patches/ is applied again, one
# changed by hand is used with a warning, and a conflict stops the run.
# apply.sh is replaced by a fake that resets to base and git-ams the series.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

mkdir -p "$d/top/scripts" "$d/top/patches"
cp "$TOP/scripts/tree-fresh.sh" "$TOP/scripts/lib.sh" "$d/top/scripts/"
P=$d/top/patches
K=$d/linux
printf '6.12\tbookworm\tthe only base here\n' > "$P/bases"
export BASE=6.12
cat > "$d/top/scripts/apply.sh" <<'APPLY'
#!/bin/sh
set -eu
echo "apply UPTO=${UPTO:-}" >> "$LOGF"
[ -d "$KSRC/.git" ] || git clone -q "$ORIGIN" "$KSRC"
cd "$KSRC"
git checkout -q -f -B series base
for p in $(grep -v '^0000' "$PATCHES/series"); do git am -q "$PATCHES/$p"; done
APPLY
export KSRC="$K" PATCHES="$P" LOGF="$d/apply.log" BUILD="$d/build" ORIGIN="$d/origin"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
F=$d/top/scripts/tree-fresh.sh

# A "kernel" with tag base and two patches exported from it.
git init -q "$K"
printf 'all:\n' > "$K/Makefile"
printf 'a\n' > "$K/a.c"
git -C "$K" add Makefile a.c && git -C "$K" commit -q -m base && git -C "$K" tag base
printf 'a\nb\n' > "$K/a.c" && git -C "$K" commit -q -am "one: add b"
printf 'a\nb\nc\n' > "$K/a.c" && git -C "$K" commit -q -am "two: add c"
git -C "$K" format-patch -q -o "$P" base..HEAD
printf '6.12.0-1\n' > "$P/BASE"
(cd "$P" && ls 0*.patch) > "$P/series"
applied() { [ -f "$LOGF" ] && wc -l < "$LOGF" | tr -d ' ' || echo 0; }

t_expect 0 "sum prints a checksum" sh "$F" sum
s0=$T_OUT
t_expect 0 "a tree that holds patches/ is fresh, even without a stamp" sh "$F"
t_grep 'holds patches/ \(2 patches\)' "it says so"
t_expect 0 "nothing was applied" test "$(applied)" = 0
t_expect 0 "the stamp is written" grep -q "^sum $s0 head " "$K/.patches.sum"

# patches/ changes (a pull, a rebase): the tree is stale.
sed -i 's/^+c$/+C/' "$P/0002-two-add-c.patch"
t_expect 0 "sum changes with a patch" sh -c "[ \"\$(sh '$F' sum)\" != '$s0' ]"
t_expect 0 "a tree older than patches/ is applied again" sh "$F"
t_grep 'patches/ changed since' "it says why"
t_expect 0 "apply ran once, for the whole series" test "$(cat "$LOGF")" = "apply UPTO="
t_expect 0 "the tree now holds the new patch" grep -qx C "$K/a.c"
t_expect 0 "and is fresh" sh "$F"
t_expect 0 "without applying again" test "$(applied)" = 1

# A commit made by hand in the tree, patches/ unchanged: test the tree, loudly.
printf 'a\nb\nC\nd\n' > "$K/a.c" && git -C "$K" commit -q -am "three: add d"
t_expect 0 "a tree changed by hand is used" sh "$F"
t_grep 'WARNING: testing .* differs from patches/' "with a warning"
t_expect 0 "and not reset" test "$(applied)" = 1

# make export: patches/ catches up with the tree.
git -C "$K" format-patch -q -o "$P" base..HEAD
(cd "$P" && ls 0*.patch) > "$P/series"
t_expect 0 "after an export the tree is fresh" sh "$F"
t_grep 'holds patches/ \(3 patches\)' "by content"

# Both changed: stop rather than guess.
printf 'a\nb\nC\nd\ne\n' > "$K/a.c" && git -C "$K" commit -q -am "four: add e"
printf '6.12.0-2\n' > "$P/BASE"
t_expect 1 "patches/ and the tree both changed: stop" sh "$F"
t_grep 'both changed since make apply' "and say what to do"
t_expect 0 "nothing was applied" test "$(applied)" = 1

rm "$K/.patches.sum"
t_expect 1 "a differing tree without a stamp: stop" sh "$F"
t_grep 'no record of the last apply' "it says so"

# A tree applied only up to patch 1 (make apply UPTO=1) is not the series.
git -C "$K" checkout -q -f -B series base
git -C "$K" am -q "$P/0001-one-add-b.patch"
sh "$F" stamp 1
t_expect 0 "a tree applied with UPTO is applied again in full" sh "$F"
t_expect 0 "apply ran" test "$(applied)" = 2
t_expect 0 "the tree holds the whole series" grep -qx d "$K/a.c"

git clone -q "$K" "$d/origin"
rm -rf "$K"
t_expect 0 "no tree at all: it is made by apply" sh "$F"
t_expect 0 "apply ran" test "$(applied)" = 3
t_expect 0 "the new tree holds the series" grep -qx d "$K/a.c"
t_expect 0 "and has its stamp" grep -q "^sum $(sh "$F" sum) head " "$K/.patches.sum"
t_end

#!/bin/sh
# scripts/doc-check.py: README.md, doc/ and the cover letter agree with the tree; a
# broken link, a patch name that does not exist, a wrong KUnit, patch or boot count
# each fail it.
# shellcheck disable=SC2016 # backticks in the Markdown written to the copies
set -eu
. "$(dirname "$0")/lib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

t_expect 0 "the tree's documents pass" python3 "$TOP/scripts/doc-check.py" "$TOP"
t_grep '^doc-check: ok \(' "it says what it checked"

# fresh: a copy of the tree (no build/, no .git) in $d/t
fresh() {
	rm -rf "$d/t"
	mkdir "$d/t"
	(cd "$TOP" && tar --exclude=./build --exclude=./.git -cf - .) | tar -C "$d/t" -xf -
}

fresh
t_expect 0 "(setup) the copy passes" python3 "$TOP/scripts/doc-check.py" "$d/t"

printf '\nSee [the notes](doc/no-such-notes.md).\n' >> "$d/t/README.md"
t_expect 1 "a broken link in README.md fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep '^README.md:[0-9]+: broken link: doc/no-such-notes.md' "it names the file, line and target"

fresh
printf '\nSee [v10](../v10/nothing.md).\n' >> "$d/t/doc/results/history.md"
t_expect 1 "a broken link in doc/results/history.md fails" python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
printf '\nDocumented in `patches/0016-Documentation-block-io-polling.patch`.\n' >> "$d/t/README.md"
t_expect 1 "a patch file name that does not exist fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep 'no patch file 0016-Documentation-block-io-polling.patch in patches/' "it names the patch file"

fresh
printf '\nPatch 0014-block-choose-the-faster-way does it.\n' >> "$d/t/patches/0000-cover-letter.patch"
t_expect 1 "a patch name without .patch that no file starts with fails (cover letter)" \
	python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep 'no patch file 0014-block-choose-the-faster-way in patches/' "it names it"

fresh
printf '\nThe suite has 9 KUnit cases.\n' >> "$d/t/README.md"
t_expect 1 "a wrong KUnit case count fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
cases=$(cat "$TOP"/patches/0*.patch | grep -c '^+[[:space:]]*KUNIT_CASE(')
t_grep "says '9 KUnit cases', the patches add $cases KUNIT_CASE" "it says what the patches add ($cases)"

fresh
sed -i "s/one suite, $cases cases/one suite, $((cases + 1)) cases/" "$d/t/patches/0000-cover-letter.patch"
t_expect 1 "a wrong KUnit count in the cover letter fails" python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
printf '\n    # blk-poll: pass:9 fail:0 skip:0 total:9 (KUnit)\n' >> "$d/t/README.md"
t_expect 1 "a wrong KUnit pass:N fails" python3 "$TOP/scripts/doc-check.py" "$d/t"

# the boots the tree's Makefile makes: smoke.sh and one per TEST_SCRIPTS entry
boots=$(($(sed -n 's/^TEST_SCRIPTS ?= //p' "$TOP/Makefile" | wc -w) + 1))
fresh
sed -i "s/It makes $boots suite boots/It makes $((boots + 1)) suite boots/" "$d/t/README.md"
t_expect 1 "a wrong suite boot count fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "says '$((boots + 1)) suite boots', make test boots $boots times" "it says what the Makefile makes"

fresh
sed -i 's/^\(TEST_SCRIPTS ?=.*\) passthrough.sh$/\1/' "$d/t/Makefile"
t_expect 1 "a TEST_SCRIPTS entry dropped from the Makefile fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "make test boots $((boots - 1)) times" "it counts the Makefile's entries"

fresh
t_expect 0 "TEST_SCRIPTS set for this run does not change the count" \
	env TEST_SCRIPTS=smoke.sh MAKEFLAGS='TEST_SCRIPTS=smoke.sh' python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
# the README's "now at series vN with M patches", M one short of patches/series
npatches=$(grep -c . "$TOP/patches/series")
sed -i "s/\(now at series v[0-9]*\) with $npatches/\1 with $((npatches - 1))/" "$d/t/README.md"
t_expect 1 "a wrong patch count fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "says '$((npatches - 1)) patches', patches/series has $npatches" "it says what the series has"

fresh
sed -i 's/`make bench` (five boots/`make bench` (six boots/' "$d/t/README.md"
t_expect 1 "a wrong make bench boot count fails" python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
printf '\nThe report is `doc/results/v10/nothing.md`.\n' >> "$d/t/doc/interfaces.md"
t_expect 1 "a path in backticks that does not exist fails" python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
# the cover letter's changelog may cite an earlier version's results that git history holds
printf '\nv1 measured it (doc/results/v1/never-kept.md).\n' >> "$d/t/patches/0000-cover-letter.patch"
t_expect 1 "an earlier version's results path git history never held fails (cover letter)" \
	python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep 'no such file in the repository: doc/results/v1/never-kept.md' "it names the path"

fresh
printf '\n```\n[not a link](nowhere.md) in a code block\n```\n' >> "$d/t/README.md"
t_expect 0 "links inside code blocks are not links" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_end

#!/bin/sh
# scripts/doc-check.py: README.md, doc/ and the cover letter agree with the tree; a
# broken link (file or #heading), a patch name that does not exist, a wrong KUnit,
# patch or boot count, a README over 120 lines and a name of another series version
# than the cover letter's in README.md or doc/ (but doc/results/history.md) each fail it.
# shellcheck disable=SC2016 # backticks in the Markdown written to the copies
set -eu
. "$(dirname "$0")/lib.sh"

d=$(mktemp -d)
# a cover letter of the default base's series
COVER=patches/7.2/choice/0000-cover-letter.patch
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
printf '\nPatch 0014-block-choose-the-faster-way does it.\n' >> "$d/t/$COVER"
t_expect 1 "a patch name without .patch that no file starts with fails (cover letter)" \
	python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep 'no patch file 0014-block-choose-the-faster-way in patches/' "it names it"

fresh
printf '\nThe suite has 9 KUnit cases.\n' >> "$d/t/README.md"
t_expect 1 "a wrong KUnit case count fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
cases=$(cat "$TOP"/patches/7.2/*/0*.patch | grep -c '^+[[:space:]]*KUNIT_CASE(')
t_grep "says '9 KUnit cases', the patches add $cases KUNIT_CASE" "it says what the patches add ($cases)"

fresh
printf '\nKUnit (one suite, %s cases).\n' $((cases + 1)) >> "$d/t/$COVER"
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
# a count in the README that is no series' and no base's (7.2: 19 in all)
npatches=$(grep -c . "$TOP/patches/7.2/series")
printf '\nThe series have %s patches.\n' $((npatches + 5)) >> "$d/t/README.md"
t_expect 1 "a wrong patch count fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "says '$((npatches + 5)) patches', the series have \[" "it says what the series have"
fresh
printf '\nThis series has 3 patches.\n' >> "$d/t/$COVER"
t_expect 1 "a cover letter counting other than its series fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "says '3 patches', its series has" "it says what its series has"

fresh
printf '\n`make bench` (six boots) compares stock and series.\n' >> "$d/t/README.md"
t_expect 1 "a wrong make bench boot count fails" python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
printf '\nThe report is `doc/results/v10/nothing.md`.\n' >> "$d/t/doc/interfaces.md"
t_expect 1 "a path in backticks that does not exist fails" python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
# the cover letter's changelog may cite an earlier version's results that git history holds
printf '\nv1 measured it (doc/results/v1/never-kept.md).\n' >> "$d/t/$COVER"
t_expect 1 "an earlier version's results path git history never held fails (cover letter)" \
	python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep 'no such file in the repository: doc/results/v1/never-kept.md' "it names the path"

fresh
printf '\n```\n[not a link](nowhere.md) in a code block\n```\n' >> "$d/t/doc/interfaces.md"
t_expect 0 "links inside code blocks are not links" python3 "$TOP/scripts/doc-check.py" "$d/t"

# The front page: at most 120 lines.
fresh
n=$(wc -l < "$d/t/README.md")
yes '' | head -n $((120 - n)) >> "$d/t/README.md"
t_expect 0 "a README of 120 lines passes" python3 "$TOP/scripts/doc-check.py" "$d/t"
echo >> "$d/t/README.md"
t_expect 1 "a README of 121 lines fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep '^README.md: 121 lines, the front page has at most 120' "it says how long it is and the limit"

# Another version than the cover letter's, in README.md or doc/.
v=$(sed -n 's/^Subject: \[PATCH v\([0-9]*\) .*/\1/p' "$TOP/$COVER")
fresh
printf '\nOn v%s the same read did 1.70x.\n' $((v - 1)) >> "$d/t/README.md"
t_expect 1 "a figure of v$((v - 1)) in README.md fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "^README.md:[0-9]+: names v$((v - 1)) .*the series is v$v" "it names the file, line, version and the current one"

fresh
printf '\nThe jobs table was in `bench-jobs-v%s.md`.\n' $((v - 2)) >> "$d/t/doc/howto.md"
t_expect 1 "a file name of v$((v - 2)) in doc/howto.md fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "^doc/howto.md:[0-9]+: names v$((v - 2))" "it names the file and line"

fresh
mkdir "$d/t/doc/results/v$((v - 1))"
printf '# Results\n' > "$d/t/doc/results/v$((v - 1))/README.md"
t_expect 1 "an earlier version's results folder in doc/results fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "^doc/results/v$((v - 1))/README.md: the file's name names v$((v - 1))" "it names the file"

fresh
printf '\nio.max needs cgroup v2.\n' >> "$d/t/doc/interfaces.md"
t_expect 0 "another thing's version (cgroup v2) passes" python3 "$TOP/scripts/doc-check.py" "$d/t"

fresh
printf '| v%s | 1.70 |\n' $((v - 1)) >> "$d/t/doc/results/history.md"
t_expect 0 "earlier versions in doc/results/history.md pass" python3 "$TOP/scripts/doc-check.py" "$d/t"

# The version is the cover letter's: bumped there, the old one fails until the
# documents follow it (its results folder renamed, its name replaced).
fresh
for c in "$d/t"/patches/*/*/0000-cover-letter.patch "$d/t"/patches/*/0000-cover-letter.patch; do
	[ ! -f "$c" ] || sed -i "s/^Subject: \[PATCH v$v /Subject: [PATCH v$((v + 1)) /" "$c"
done
t_expect 1 "the cover letter at v$((v + 1)): README.md and doc/ naming v$v fail" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "^README.md:[0-9]+: names v$v .*the series is v$((v + 1))" "v$((v + 1)) is read from the cover letter"
[ ! -d "$d/t/doc/results/v$v" ] || mv "$d/t/doc/results/v$v" "$d/t/doc/results/v$((v + 1))"
find "$d/t/README.md" "$d/t/doc" -type f \( -name '*.md' -o -name '*.txt' \) -exec sed -i "s/\bv$v\b/v$((v + 1))/g" {} +
t_expect 0 "and pass once they name v$((v + 1))" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "series v$((v + 1));" "it says which version it checked against"

# Links that do not resolve: a file, a heading of another file, a heading of the same one.
fresh
printf '\nSee [how](doc/howto.md#add-a-guest-test) and [up](#two-commands).\n' >> "$d/t/README.md"
t_expect 0 "links to headings that exist pass" python3 "$TOP/scripts/doc-check.py" "$d/t"
printf '\nSee [how](doc/howto.md#add-a-kernel-test).\n' >> "$d/t/README.md"
t_expect 1 "a link to a heading another file lacks fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "broken link: doc/howto.md#add-a-kernel-test \(no heading" "it names the heading"
fresh
printf '\nSee [below](#three-commands).\n' >> "$d/t/doc/interfaces.md"
t_expect 1 "a link to a heading of the same file that it lacks fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
fresh
printf '\nSee [the cover](../patches/0000-cover-letter.patch) and [none](../patches/0099-none.patch).\n' >> "$d/t/doc/howto.md"
t_expect 1 "a relative link out of doc/ to a file that does not exist fails" python3 "$TOP/scripts/doc-check.py" "$d/t"
t_grep "^doc/howto.md:[0-9]+: broken link: ../patches/0099-none.patch" "it names the missing one"
t_end

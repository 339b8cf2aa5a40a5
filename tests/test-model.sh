#!/bin/sh
# The model of real devices (scripts/model.sh, issue 41 item 1): it runs, prints the
# same table every time, runs the patches' blk-poll.h (a changed constant there changes
# the table), and its judge of issue 41's targets (scripts/model-targets.sh) fails
# stand-ins that always and never poll. Which targets the series itself meets is what
# `make model` prints: the misses are open findings (cover letter), not a test result.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

t_expect 0 "scripts/model.sh runs" sh "$TOP/scripts/model.sh"
table=$T_OUT
# shellcheck disable=SC2016 # the inner shell expands them
t_expect 0 "scripts/model.sh prints the same table again" \
	sh -c 'test "$(sh "$1/scripts/model.sh")" = "$2"' model "$TOP" "$table"

judged=$(printf '%s\n' "$table" | sh "$TOP/scripts/model-targets.sh" || :)
# shellcheck disable=SC2016 # the inner shell expands them
t_expect 0 "the table has its 48 cells" sh -c 'printf "%s\n" "$1" | grep -q "^ok.the table has its 48 cells (48)"' judge "$judged"
# shellcheck disable=SC2016
t_expect 0 "the table has the hybrid row of tlc100" sh -c 'printf "%s\n" "$1" | grep -q "^ok.the table has the hybrid row"' judge "$judged"

# The table follows the patches' blk-poll.h: probes 8 times rarer change it.
cp -R "$TOP/patches/$(awk '!/^#/ && NF { print $1; exit }' "$TOP/patches/bases")" "$d/p"
sed -i 's/^+#define BLK_POLL_PROBE_INTERVAL\t128$/+#define BLK_POLL_PROBE_INTERVAL\t1024/' \
	"$d"/p/choice/0001-*.patch
t_expect 0 "(setup) a series whose probe interval is 1024" grep -q 'PROBE_INTERVAL.1024$' "$d"/p/choice/0001-*.patch
t_expect 0 "scripts/model.sh runs that series" env PATCHES="$d/p" sh "$TOP/scripts/model.sh"
t_expect 0 "and its table is another" test "$T_OUT" != "$table"

: > "$d/p/series"
t_expect nonzero "scripts/model.sh refuses a series without blk-poll.h" env PATCHES="$d/p" sh "$TOP/scripts/model.sh"
t_grep 'no patch of .* creates block/blk-poll.h' "and says so"

for s in always-poll never-poll; do
	t_expect 0 "scripts/model.sh runs with a choice that is a stand-in: $s" sh "$TOP/scripts/model.sh" "standin=$s"
	missed=$(printf '%s\n' "$T_OUT" | sh "$TOP/scripts/model-targets.sh" | grep -c '^miss' || :)
	t_expect 0 "the targets catch the $s stand-in ($missed missed)" test "$missed" -gt 0
done
t_end

#!/bin/sh
# scripts/cover-check.py: the cover letter's subject and shortlog agree with patches/.
set -eu
. "$(dirname "$0")/lib.sh"

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

t_expect 0 "patches/6.12 and its cover letter agree" python3 "$TOP/scripts/cover-check.py" "$TOP/patches/6.12"

cp "$TOP"/patches/6.12/* "$d"
sed -i '0,/^Subject: \[PATCH\] /s//Subject: [PATCH] renamed: /' "$d/$(sed -n 2p "$d/series")"
t_expect 1 "a patch renamed without the shortlog fails" python3 "$TOP/scripts/cover-check.py" "$d"
t_grep "^shortlog line 2: " "it names the line that disagrees"

cp "$TOP"/patches/6.12/* "$d"
sed -i '$d' "$d/series"
t_expect 1 "a patch dropped from the series fails" python3 "$TOP/scripts/cover-check.py" "$d"
t_grep "cover subject does not say 00/" "it says the count is wrong"

cp "$TOP"/patches/6.12/* "$d"
sed -i '/^      block: add hybrid polling/d' "$d/0000-cover-letter.patch"
t_expect 1 "a shortlog line missing fails" python3 "$TOP/scripts/cover-check.py" "$d"

cp "$TOP"/patches/6.12/* "$d"
stat=$(grep -E '^ [0-9]+ files? changed' "$d/0000-cover-letter.patch")
t_expect 0 "--shortstat: the cover letter's own diffstat line passes" \
	python3 "$TOP/scripts/cover-check.py" --shortstat "$stat" "$d"
t_expect 1 "--shortstat: another diffstat fails" \
	python3 "$TOP/scripts/cover-check.py" --shortstat " 1 file changed, 1 insertion(+)" "$d"
t_grep "diffstat is not the series' \( 1 file changed, 1 insertion\(\+\)\)" "it prints the series' diffstat"
t_end

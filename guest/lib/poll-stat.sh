# shellcheck shell=sh
# The poll_stat debugfs file the series adds (patch "count synchronous polling").

# poll_stat_line QUEUE: the poll statistics of QUEUE (nvme0n1, dm-0) in one line
# ("declined 0 polls 12 ..."), or "absent" without debugfs or the series
poll_stat_line() {
	# debugfs files have size 0: read, then look
	_psl=$(tr '\n' ' ' < "/sys/kernel/debug/block/$1/poll_stat" 2> /dev/null) || _psl=''
	if [ -n "$_psl" ]; then printf '%s' "$_psl"; else printf 'absent'; fi
}

# poll_stat_delta BEFORE AFTER: AFTER - BEFORE for each key of two poll_stat_line
# outputs, in one line ("declined 3 polls 2000 ..."); "absent" when either is
poll_stat_delta() {
	awk -v b="$1" -v a="$2" 'BEGIN {
		if (b == "absent" || a == "absent") { printf "absent"; exit }
		nb = split(b, vb, " "); na = split(a, va, " ")
		for (i = 1; i < nb; i += 2) old[vb[i]] = vb[i + 1]
		for (i = 1; i < na; i += 2) printf "%s%s %d", (i > 1 ? " " : ""), va[i], va[i + 1] - old[va[i]]
	}'
}

# poll_stat_get LINE KEY: the value of KEY in a poll_stat_line/poll_stat_delta line
# (0 when the line has no such key)
poll_stat_get() {
	echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i += 2) if ($i == k) { v = $(i + 1); break } }
		END { print v + 0 }'
}

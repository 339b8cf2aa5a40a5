# shellcheck shell=sh
# The poll_stat debugfs file the series adds (patch "count synchronous polling").
# polled_ipi_ok needs tap.sh (tap_diag) and fio-check.sh (ratio).

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

# polled_ipi_ok STAT IRQS READS LIMIT MIN_POLLED: READS synchronous reads took IRQS
# interrupts with poll_stat delta STAT. An I/O left to the interrupt by choice
# (declined: another task runnable; irq_chosen: the interrupt measured faster) takes
# its interrupt; a polled one none, also when its waiter backed off (a poll queue
# raises no interrupt). The other interrupts per polled I/O must be <= LIMIT, with
# >= MIN_POLLED (and > 0) polled I/Os and every read seen by poll_stat. QUEUE's
# poll_choice is shown when it fails (set PSQ to the queue's name).
polled_ipi_ok() {
	_pst=$1 _pirq=$2 _pn=$3 _plim=$4 _pmin=$5
	[ "$_pst" != absent ] || { tap_diag "no poll_stat (CONFIG_BLK_DEBUG_FS): cannot tell polled I/Os"; return 1; }
	_pdec=$(($(poll_stat_get "$_pst" declined) + $(poll_stat_get "$_pst" irq_chosen)))
	_pseen=$((_pdec + $(poll_stat_get "$_pst" poll_completions) + $(poll_stat_get "$_pst" irq_completions)))
	_ppolled=$((_pn - _pdec))
	_pextra=$((_pirq - _pdec))
	[ "$_pextra" -ge 0 ] || _pextra=0
	_prp=$(ratio "$_pextra" "$_ppolled")
	tap_diag "$_pdec I/Os took the interrupt by choice, $(poll_stat_get "$_pst" backoffs) backoffs; $_pextra other interrupts / $_ppolled polled I/Os = $_prp per polled I/O (want <= $_plim, >= $_pmin polled; poll_stat saw $_pseen of $_pn reads)"
	if [ "$_ppolled" -gt 0 ] && [ "$_ppolled" -ge "$_pmin" ] && [ "$_pseen" -ge "$_pn" ] &&
		awk -v r="$_prp" -v l="$_plim" 'BEGIN { exit !(r != "nan" && r + 0 <= l + 0) }'; then
		return 0
	fi
	tap_diag "poll_choice of ${PSQ:-?}: $(tr '\n' ';' < "/sys/kernel/debug/block/${PSQ:-none}/poll_choice" 2> /dev/null)"
	return 1
}

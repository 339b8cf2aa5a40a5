#!/bin/sh
# Bad input: junk written to io_poll and io_poll_delay (empty, negative, overflow,
# non-numeric, whitespace, 8 KiB) fails and leaves the value as it was (for io_poll,
# the synchronous polling switch: attr_value); 1/0 and the
# documented delays are accepted; uid 1000 may read them, not write them.
# BLKPOLL_BREAK=f: a valid value among the junk, and root posing as uid 1000.
# Run by guest/reliability.sh (phase f), or alone: sh /guest/reliability/bad-input.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="su dd"
DEVICES="BLKPOLL_DISK"
DEADLINE=120
set -eu
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/reliability.sh

# try_junk ATTR VALUE: writing VALUE must fail and leave ATTR as it was. dd writes it
# in one write(2): printf to a stdout that started as the console is line buffered and
# would cut "1<NL>2" into a valid "1<NL>" and a "2".
JUNK_FAIL=0 JUNK_N=0
try_junk() {
	_before=$(attr_value "$1")
	JUNK_N=$((JUNK_N + 1))
	if printf '%s' "$2" | dd of="$1" bs=65536 count=1 iflag=fullblock conv=notrunc 2>/dev/null; then
		_r="accepted"
	else
		_r="rejected"
	fi
	_after=$(attr_value "$1")
	[ -z "${JUNK_DEBUG:-}" ] || echo "# dbg '$(printf '%s' "$2" | head -c 12 | tr '\n\t' '|>')' $_r $_before->$_after"
	if [ "$_r" = rejected ] && [ "$_after" = "$_before" ]; then
		return 0
	fi
	JUNK_FAIL=$((JUNK_FAIL + 1))
	tap_diag "  ${1##*/} <- '$(printf '%s' "$2" | head -c 40 | tr '\n\t' '|>')' ($(printf '%s' "$2" | wc -c) bytes): $_r, $_before -> $_after"
	return 1
}

# junk_settled ATTR VALUE: ATTR still reads VALUE a while after the junk (a junk write
# whose effect came late would show here)
junk_settled() {
	sleep 2
	_v=$(attr_value "$1")
	[ "$_v" = "$2" ] && return 0
	JUNK_FAIL=$((JUNK_FAIL + 1))
	tap_diag "  ${1##*/} reads $_v 2 s after the junk writes, was $2"
	return 1
}

bad_input() {
	# 8 KiB of 9s: more than a page, and every piece stdio may cut it into overflows
	big=$(printf '%8192s' '' | tr ' ' 9)
	# values that are junk for both attributes
	common="
-
1abc
abc
0x1
1.5
 1
1 
	1
++1
1-
99999999999999999999
18446744073709551616
-99999999999999999999"
	# (newline separated; entries with a newline in them are tried one by one below)
	# a second 1 right after the first is a valid write too and must succeed
	# (interfaces.md: only junk is EINVAL)
	if [ "$(attr_value "$QP")" = 0 ]; then
		e1=$(set_attr "$QP" 1 2>&1) && r1=0 || r1=$?
		e2=$(set_attr "$QP" 1 2>&1) && r2=0 || r2=$?
		if [ "$r1" = 0 ] && [ "$r2" = 0 ]; then
			tap_ok "io_poll: 1 written twice in a row succeeds both times"
		else
			tap_not_ok "io_poll: 1 written twice in a row succeeds both times (first: ${e1:-ok}, second: ${e2:-ok})"
		fi
		set_io_poll "$DISK" 1 || true
		set_io_poll "$DISK" 0 || true
	fi
	for start in 0 1; do
		if ! set_io_poll "$DISK" "$start"; then
			tap_not_ok "io_poll=$start before the junk writes"
			continue
		fi
		JUNK_FAIL=0 JUNK_N=0
		old_ifs=$IFS
		IFS='
'
		for v in $common -1 2 4294967296 4294967297 -0 10 01x; do
			IFS=$old_ifs
			try_junk "$QP" "$v" || true
		done
		IFS=$old_ifs
		try_junk "$QP" "
" || true
		try_junk "$QP" "1
2" || true
		try_junk "$QP" "$big" || true
		try_junk "$QP" "1$big" || true
		if [ "$BREAK" = f ]; then try_junk "$QP" $((1 - start)) || true; fi
		junk_settled "$QP" "$start" || true
		if [ "$JUNK_FAIL" -eq 0 ]; then
			tap_ok "io_poll=$start: $JUNK_N junk writes (empty, negative, overflow, non-numeric, whitespace, 8 KiB, 1abc) all fail, value unchanged"
		else
			tap_not_ok "io_poll=$start: $JUNK_FAIL of $JUNK_N junk writes were accepted or changed the value"
		fi
	done
	for start in -1 0 50; do
		set_attr "$QD" "$start" || true
		JUNK_FAIL=0 JUNK_N=0
		old_ifs=$IFS
		IFS='
'
		for v in $common -2 -1000 1000001 2147483648 -2147483649 4294967295 50us 5e1 --1; do
			IFS=$old_ifs
			try_junk "$QD" "$v" || true
		done
		IFS=$old_ifs
		try_junk "$QD" "
" || true
		try_junk "$QD" "$big" || true
		try_junk "$QD" "-$big" || true
		if [ "$BREAK" = f ]; then try_junk "$QD" 7 || true; fi
		junk_settled "$QD" "$start" || true
		if [ "$JUNK_FAIL" -eq 0 ]; then
			tap_ok "io_poll_delay=$start: $JUNK_N junk writes all fail, value unchanged"
		else
			tap_not_ok "io_poll_delay=$start: $JUNK_FAIL of $JUNK_N junk writes were accepted or changed the value"
		fi
	done
	tap_diag "  (empty = a lone newline: a write(2) of 0 bytes never reaches the store)"

	# the ABI takes 0 and 1 only (doc/interfaces.md); y/n are junk and change nothing
	bad=''
	for v in 1 0 1 0; do
		if printf '%s\n' "$v" > "$QP" 2>/dev/null; then
			got=$(attr_value "$QP")
			[ "$got" = "$v" ] || bad="$bad $v->$got"
		else
			bad="$bad $v:rejected"
		fi
	done
	for v in y n; do
		before=$(attr_value "$QP")
		if printf '%s\n' "$v" > "$QP" 2>/dev/null; then
			bad="$bad $v:accepted"
		fi
		[ "$(attr_value "$QP")" = "$before" ] || bad="$bad $v:changed"
	done
	if [ -z "$bad" ]; then
		tap_ok "io_poll accepts 1/0 and rejects y/n (newline terminated)"
	else
		tap_not_ok "io_poll accepts 1/0 and rejects y/n (failed:$bad)"
	fi
	bad=''
	for v in -1 0 1 50 1000000 -1; do
		if printf '%s\n' "$v" > "$QD" 2>/dev/null && [ "$(cat "$QD")" = "$v" ]; then :; else bad="$bad $v"; fi
	done
	if [ -z "$bad" ]; then
		tap_ok "io_poll_delay accepts -1, 0, 1, 50, 1000000"
	else
		tap_not_ok "io_poll_delay accepts -1, 0, 1, 50, 1000000 (failed:$bad)"
	fi

	# uid 1000 may read, not write
	set_io_poll "$DISK" 1 || true
	set_attr "$QD" 50 || true
	for pair in "$QP:0" "$QP:1" "$QD:-1" "$QD:0"; do
		attr=${pair%:*} v=${pair##*:}
		before=$(attr_value "$attr")
		if [ "$BREAK" = f ] && [ "$attr" = "$QD" ] && [ "$v" = 0 ]; then
			out=$(sh -c "printf '%s\n' '$v' > '$attr'" 2>&1) && rc=0 || rc=$?
		else
			out=$(su -s /bin/sh -c "id -u; printf '%s\n' '$v' > '$attr'" user 2>&1) && rc=0 || rc=$?
		fi
		after=$(attr_value "$attr")
		if [ "$rc" -ne 0 ] && [ "$after" = "$before" ]; then
			tap_ok "uid 1000 cannot write $v to ${attr##*/} ($(printf '%s' "$out" | tr '\n' ' '))"
		else
			tap_not_ok "uid 1000 cannot write $v to ${attr##*/} (rc=$rc, $before -> $after: $(printf '%s' "$out" | tr '\n' ' '))"
		fi
		got=$(su -s /bin/sh -c "cat '$attr'" user 2>&1) || got="error: $got"
		want=$(cat "$attr")
		[ "$got" = "$want" ] || tap_not_ok "uid 1000 reads ${attr##*/} (got '$got', want '$want')"
	done
	set_attr "$QD" -1 || true
}

bad_input
tap_end

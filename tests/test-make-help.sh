#!/bin/sh
# make help lists every entry point: each target the Makefile defines appears in it
# as "make TARGET" (the pattern print-% as "make print-VAR").
set -eu
. "$(dirname "$0")/lib.sh"

t_expect 0 "make help runs" make -s --no-print-directory -C "$TOP" help
help=$T_OUT
# shellcheck disable=SC2016 # a sed program
targets=$(sed -n 's/^\([a-z][a-z0-9%-]*\):\([^=]\|$\).*/\1/p' "$TOP/Makefile" | sort -u)
t_expect 0 "(setup) the Makefile defines targets" test -n "$targets"
for t in $targets; do
	case $t in
	help) continue ;;
	print-%) shown=print-VAR ;;
	*) shown=$t ;;
	esac
	if printf '%s\n' "$help" | grep -qE "^  make $shown( |$)"; then
		t_ok "make help lists $t"
	else
		t_not_ok "make help lists $t"
	fi
done
t_end

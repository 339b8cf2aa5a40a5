#!/bin/sh
# Reliability of synchronous polling (meant for the debug kernel: lockdep, KASAN, hung
# task detection; about 10 min under TCG on 2 vCPUs), one test a file in
# /guest/reliability/ (run by guest/lib/runner.sh, each under its deadline, a kernel
# log marker at its start), in this order, each with the letter that names it:
#  f bad-input   junk to io_poll / io_poll_delay fails, value unchanged; uid 1000 cannot write
#  a integrity   >= 1 GiB written and crc32c verified, raw and ext4, classic and hybrid
#  b switching   io_poll 0 -> 1 >= 1000 times under verifying load
#  c signals     polled fio and dd readers signalled, then SIGKILLed: gone, data intact
#  d faults      controller resets, queue freezes, fail_make_request, fail_io_timeout
#  e scheduling  6 polling jobs on 2 vCPUs all progress, a nice -10 task keeps CPU
# args: only=<letters> (e.g. only=af) runs some tests; break=<letter> (or env
# BLKPOLL_BREAK) breaks one check of that test on purpose, to show it can fail.
set -u
. /guest/lib/tap.sh
. /guest/lib/deadline.sh
. /guest/lib/kmsg.sh
. /guest/lib/slow.sh
. /guest/lib/runner.sh

TESTS="f:bad-input a:integrity b:switching c:signals d:faults e:scheduling"
names='' only='' args=''
for t in $TESTS; do names="$names ${t#*:}"; done
for a in "$@"; do
	case $a in
	only=*)
		for t in $TESTS; do
			case ${a#only=} in *"${t%%:*}"*) only="$only+${t#*:}" ;; esac
		done
		args="$args only=${only#+}"
		;;
	break=*) args="$args $a" ;;
	*) tap_not_ok "reliability: argument $a is one of only= and break=" ;;
	esac
done
tap_diag "reliability: disk ${BLKPOLL_DISK:-none}"
# shellcheck disable=SC2086 # a list of arguments without spaces
run_group reliability "$names" $args
dmesg | grep -E 'nvme|poll' | tail -15 | sed 's/^/# dmesg: /'
tap_end

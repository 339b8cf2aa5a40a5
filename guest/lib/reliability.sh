# shellcheck shell=sh
# What the reliability tests (guest/reliability/*.sh) share: the file-backed disk, its
# queue attributes and layout, the fio options of a verifying job, switching polling
# (poll_on, poll_set) and judging from poll_stat whether the disk's I/O polled
# (poll_mark, polled_since, not_polled_since). Source after tap.sh and fio-check.sh
# (it sources deadline.sh, whose irqs_of counts the disk's interrupts, and
# poll-stat.sh); a test without its disk ends here with one failure.
# BLKPOLL_BREAK=nopoll: poll_on and poll_set leave io_poll 0 (every polled check must
# fail); BLKPOLL_BREAK=ctlpoll: poll_set 0 switches polling on (the io_poll=0 controls
# must fail).
# shellcheck disable=SC2034 # the tests use these
. /guest/lib/deadline.sh
. /guest/lib/poll-stat.sh
BREAK=${BLKPOLL_BREAK:-}
DISK=${BLKPOLL_DISK:-}
if [ -z "$DISK" ] || [ ! -b "$DISK" ]; then
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
	tap_end
	exit 1
fi
DEV=${DISK#/dev/}
CTRL=$(nvme_ctrl "$DISK")
QP=$(qattr "$DISK" io_poll)
QD=$(qattr "$DISK" io_poll_delay)
MNT=/mnt/rel
mkdir -p "$MNT"
# Disk layout: ext4 in the first 512 MiB (integrity), raw test regions above.
RAW=536870912

# fio options of a verifying psync job; region jobs add --offset / --offset_increment
VFY="--ioengine=psync --direct=1 --verify=crc32c --randrepeat=1"

# poll_set 0|1: switch io_poll of the disk (BLKPOLL_BREAK nopoll and ctlpoll above)
poll_set() {
	_pv=$1
	case $BREAK:$1 in
	nopoll:1) _pv=0 ;;
	ctlpoll:0) _pv=1 ;;
	esac
	[ "$_pv" = "$1" ] || tap_diag "BLKPOLL_BREAK=$BREAK: io_poll=$_pv where the test asks for $1"
	set_io_poll "$DISK" "$_pv"
}

# poll_on: io_poll=1, classic polling
poll_on() {
	poll_set 1 && set_attr "$QD" -1
}

# poll_mark: remember the disk's poll_stat, for polled_since / not_polled_since
poll_mark() {
	PS0=$(poll_stat_line "$DEV")
}

# polled_since DESC [IOS]: one TAP line: the disk's I/O since poll_mark polled
# (poll_share_ok; IOS: how many I/Os the run did, when known)
polled_since() {
	_pss=$(poll_stat_delta "$PS0" "$(poll_stat_line "$DEV")")
	tap_diag "  poll_stat of $DEV: $_pss"
	if _psw=$(poll_share_ok "$_pss" "${2:-}"); then
		tap_ok "$1: its I/O polled (poll_stat)"
	else
		tap_not_ok "$1: its I/O polled (poll_stat)"
	fi
	printf '%s\n' "$_psw"
}

# not_polled_since DESC: one TAP line: the disk's I/O since poll_mark did not poll
# (poll_none_ok), for a control run with io_poll=0
not_polled_since() {
	_pss=$(poll_stat_delta "$PS0" "$(poll_stat_line "$DEV")")
	tap_diag "  poll_stat of $DEV: $_pss"
	if _psw=$(poll_none_ok "$_pss"); then
		tap_ok "$1: its I/O did not poll (poll_stat)"
	else
		tap_not_ok "$1: its I/O did not poll (poll_stat)"
	fi
	printf '%s\n' "$_psw"
}

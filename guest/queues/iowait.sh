#!/bin/sh
# A synchronous I/O declines to poll only beside a runnable task: an RWF_HIPRI reader
# pinned to CPU 0 declines fewer than half its reads alone (the control) and beside
# another task on CPU 0 that waits, not runnable, for a slow read (a null_blk whose
# reads take 1 s), by polling (io_poll=1, sleeping between polls) or by interrupt
# (io_poll=0); in each case >= 3/4 of the rest poll. RWF_HIPRI, as a psync reader's
# share depends on which way the choice measured faster in the boot (on this VM the
# file-backed disk's interrupt often, and 1000 reads then hold as few as 1 probe).
# Run by guest/queues.sh, or alone: sh /guest/queues/iowait.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio taskset dd"
DEVICES="BLKPOLL_DISK"
DEADLINE=300
set -u
. /guest/lib/queues.sh

NB=/sys/kernel/config/nullb/slowread

# pinned_reader_stat: 1000 RWF_HIPRI reads of $DISK at io_poll=1 by a job pinned to CPU 0
# (fio itself on CPU 1); prints the poll_stat delta of $Q
pinned_reader_stat() {
	_s0=$(poll_stat_line "$Q")
	# shellcheck disable=SC2086 # $PS is a list of options, --ioengine the last wins
	taskset -c 1 fio --output-format=json --output=/tmp/iowait.json --name=pinned \
		--filename="$DISK" $PS --ioengine=pvsync2 --hipri --size=256M --number_ios=1000 --cpus_allowed=0 > /tmp/iowait.log 2>&1 || return 1
	poll_stat_delta "$_s0" "$(poll_stat_line "$Q")"
}

# went_polled_way STAT: of the 1000 reads, fewer than half declined, and >= 3/4 of the
# rest polled (found by polling or completed while the waiter slept between polls),
# some found by polling: a reader left to the interrupt fails
went_polled_way() {
	_dec=$(poll_stat_get "$1" declined)
	_pc=$(poll_stat_get "$1" poll_completions)
	_pol=$((_pc + $(poll_stat_get "$1" irq_completions)))
	tap_diag "$_dec of 1000 reads declined (want < 500); $_pol polled ($_pc found by polling), want >= $((3 * (1000 - _dec) / 4))"
	[ "$_dec" -lt 500 ] && [ "$_pc" -gt 0 ] && [ "$_pol" -ge $((3 * (1000 - _dec) / 4)) ]
}

# control_mostly_polls: alone on CPU 0 the reads go the polled way
control_mostly_polls() {
	set_io_poll "$DISK" 1 || return 1
	_st=$(pinned_reader_stat) || return 1
	tap_diag "poll_stat of $Q, reader alone: $_st"
	went_polled_way "$_st"
}

# beside_waiter DEVPOLL: a busybox dd on CPU 0 reads the null_blk (irqmode=2, 1 s a
# read, one poll queue) with direct I/O at io_poll=DEVPOLL, so it sleeps there waiting
# for I/O (between polls at 1, by interrupt at 0); meanwhile the pinned reader runs,
# and its poll_stat is left in _st
beside_waiter() {
	set_io_poll "$DISK" 1 || return 1
	_nbdev=$(nullb_make "${NB##*/}" irqmode=2 completion_nsec=1000000000 poll_queues=1 size=64) || return 1
	set_io_poll "$_nbdev" "$1" || return 1
	taskset -c 0 dd if="$_nbdev" of=/dev/null bs=4k count=20 iflag=direct 2> /dev/null &
	_dd=$!
	sleep 2
	tap_diag "tasks blocked on I/O: $(awk '$1 == "procs_blocked" { print $2 }' /proc/stat)"
	_st=$(pinned_reader_stat) || _st=failed
	kill "$_dd" 2> /dev/null
	wait "$_dd" 2> /dev/null
	dl_run "$(s 30)" nullb_remove "$NB" || tap_diag "null_blk $NB removal: status $DL_RC"
	tap_diag "poll_stat of $Q, reader beside a dd waiting at io_poll=$1: $_st"
	[ "$_st" != failed ]
}

# beside_polling_waiter_polls: a task sleeping between polls is not runnable: the
# reads go the polled way
beside_polling_waiter_polls() {
	beside_waiter 1 || return 1
	went_polled_way "$_st"
}

# beside_other_waiter_polls: a task waiting for an interrupt is not runnable either
beside_other_waiter_polls() {
	beside_waiter 0 || return 1
	went_polled_way "$_st"
}

deadline "$(s 60)" "iowait: control: an RWF_HIPRI reader alone on CPU 0 polls (< 1/2 declined, >= 3/4 of the rest polled)" control_mostly_polls
deadline "$(s 90)" "iowait: beside a task waiting on CPU 0 for a read of a polling device, the pinned RWF_HIPRI reader polls" beside_polling_waiter_polls
deadline "$(s 90)" "iowait: beside a task waiting on CPU 0 for a slow device that does not poll, the pinned RWF_HIPRI reader polls" beside_other_waiter_polls
dl_run "$(s 30)" nullb_remove "$NB" || tap_diag "null_blk $NB removal: status $DL_RC"
dl_run "$(s 20)" set_io_poll "$DISK" 0 || tap_diag "io_poll back to 0: status $DL_RC"
tap_end

#!/bin/sh
# dm-striped (4 KiB chunks) over both disks under cgroup v2 io.max rbps: 256 KiB
# random reads by two jobs, psync at io_poll=1, RWF_HIPRI and io_uring IOPOLL, each
# completes with the limit holding; then 10 suspend/resume cycles under polled
# readers. blk-throttle's kworker maps a held-back polled bio while its submitter
# polls it, and dm's deferred work does the same after a resume: any of these left
# tasks in D state for good (dm_poll_bio() racing dm_queue_poll_io()). After each step
# no user task may be in D state. First a polled 4 KiB psync run shows the stack polls.
# On a kernel without the series (no queue/io_poll_sync; boot it with
# nvme.poll_queues=1, scripts/fixes-on-stock.sh) only io_uring IOPOLL polls: the same
# steps run, psync and RWF_HIPRI then by interrupt, and the stock kernel's dm and
# blk-throttle bugs show (the fixes series).
# Run by guest/stacks.sh, or alone: sh /guest/stacks/dm-throttle.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio dmsetup"
DEVICES="BLKPOLL_DISK BLKPOLL_DISK2"
DEADLINE=420
set -u
. /guest/lib/stacks.sh

# 4 MiB/s for the cgroup: 16 reads of 256 KiB a second, two jobs together
RBPS=4194304
RUNTIME=10

st_create() {
	# 512 MiB from each disk, striped in 8-sector (4 KiB) chunks
	printf '0 2097152 striped 2 8 %s 0 %s 0\n' "$DISK" "$DISK2" | dmsetup create stkst || return 1
	_n=$(dm_node stkst) || { echo "no dm device named stkst in /sys/block"; return 1; }
	echo "$_n" > /tmp/stk.st
	tap_diag "dm stkst = $_n; table: $(dmsetup table stkst)"
	io_poll_is "$DISK" 1 && io_poll_is "$DISK2" 1 && io_poll_is "$_n" 1
}

# stuck_tasks: user tasks in D state (kernel threads have no cmdline), one a line
stuck_tasks() {
	for _f in /proc/[0-9]*/stat; do
		{ read -r _l < "$_f"; } 2> /dev/null || continue
		_s=${_l##*) }
		[ "${_s%% *}" = D ] || continue
		_p=${_f#/proc/}
		_p=${_p%/stat}
		# procfs reports size 0: read it (kernel threads have none)
		[ -n "$(tr -d '\0' < "/proc/$_p/cmdline" 2> /dev/null)" ] || continue
		dl_state "$_p"
	done
}
# none_stuck WHAT: TAP line: no user task in D state after WHAT (waits up to 10 s for
# tasks that are finishing)
none_stuck() {
	_t=0
	while [ -n "$(stuck_tasks)" ] && [ "$_t" -lt 100 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	_st=$(stuck_tasks)
	if [ -z "$_st" ]; then
		tap_ok "dm-throttle: no task left in D state after $1"
	else
		tap_not_ok "dm-throttle: no task left in D state after $1"
		printf '%s\n' "$_st"
	fi
}

# st_throttled NAME FIO-ARG...: two jobs of 256 KiB random reads for RUNTIME s in a
# cgroup with io.max rbps=RBPS on the striped device: both end, no error, the limit
# holds (<= 1.5x its 16 reads a second, for the bursts blk-throttle allows) and is
# reached (>= half of it: a read left on a poll queue waits for the I/O timeout)
st_throttled() {
	_nm=$1
	shift
	_dm=$(cat /tmp/stk.st) || return 1
	_mm=$(cat "/sys/block/${_dm#/dev/}/dev")
	set_attr "$CGT/io.max" "$_mm rbps=$RBPS" || return 1
	# shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
	fio_with sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CGT" -- --name="$_nm" \
		--filename="$_dm" --rw=randread --bs=256k --numjobs=2 --group_reporting \
		--time_based --runtime="$RUNTIME" "$@"
	set_attr "$CGT/io.max" "$_mm rbps=max" || true
	fio_ok || return 1
	_iops=$(ratio "$FIO_RIOS" "$RUNTIME")
	tap_diag "$_nm: $FIO_RIOS reads of 256 KiB in $RUNTIME s ($_iops IOPS; io.max allows $((RBPS / 262144)))"
	le "$_iops" $((RBPS * 3 / 2 / 262144)) && ge "$_iops" $((RBPS / 2 / 262144))
}

# st_suspend_loop: polled 4 KiB and 256 KiB readers (psync, RWF_HIPRI, io_uring
# IOPOLL) for 8 s while
# the striped device is suspended and resumed 10 times
st_suspend_loop() {
	_dm=$(cat /tmp/stk.st) || return 1
	# shellcheck disable=SC2086 # $PS and $HP are lists of options
	fio_start --filename="$_dm" --rw=randread --time_based --runtime=8 \
		--name=sus4k --bs=4k $PS --name=sus256k --bs=256k $PS \
		--name=sushipri4k --bs=4k $HP --name=sushipri256k --bs=256k $HP \
		--name=susiopoll4k --bs=4k $UP --name=susiopoll256k --bs=256k $UP
	suspend_cycles stkst
}

st_down() {
	cg_down || true
	if dmsetup info stkst > /dev/null 2>&1; then dmsetup remove stkst || return 1; fi
	set_io_poll "$DISK" 0 || true
	set_io_poll "$DISK2" 0 || true
}

UP="--ioengine=io_uring --hipri --direct=1"
rm -f /tmp/stk.st
deadline "$(s 30)" "dm-throttle: dm-striped stkst over $DISK and $DISK2 (4 KiB chunks), io_poll=1 everywhere" st_create
dm=$(cat /tmp/stk.st 2> /dev/null || echo /dev/null)
if [ -e "/sys/block/${DISK#/dev/}/queue/io_poll_sync" ]; then
	deadline "$(s 60)" "dm-throttle: polled 4 KiB psync reads on the striped device take <= 0.01 interrupts per I/O" \
		ipi_reads "$dm" MAX --size=512M
else
	tap_skip "dm-throttle: polled 4 KiB psync reads on the striped device" "a kernel without the series: no synchronous polling"
fi
dl_run "$(s 20)" cg_setup || true
if [ "$DL_RC" = 3 ] || ! [ -e "$CGT/io.max" ]; then
	tap_skip "dm-throttle: polled readers under io.max rbps" "no io controller or io.max (CONFIG_BLK_DEV_THROTTLING)"
elif [ "$DL_RC" != 0 ]; then
	tap_not_ok "dm-throttle: cgroup v2 mounted, io controller enabled (status $DL_RC)"
else
	# shellcheck disable=SC2086 # $PS and $HP are lists of options
	deadline "$(s 60)" "dm-throttle: io.max rbps=$RBPS, 2 psync io_poll=1 jobs read 256 KiB blocks at 1/2 to 3/2 of the limit" \
		st_throttled thrpsync $PS
	none_stuck "psync under io.max"
	# shellcheck disable=SC2086
	deadline "$(s 60)" "dm-throttle: io.max rbps=$RBPS, 2 RWF_HIPRI jobs read 256 KiB blocks at 1/2 to 3/2 of the limit" \
		st_throttled thrhipri $HP
	none_stuck "RWF_HIPRI under io.max"
	# shellcheck disable=SC2086 # $UP is a list of options
	deadline "$(s 60)" "dm-throttle: io.max rbps=$RBPS, 2 io_uring IOPOLL jobs read 256 KiB blocks at 1/2 to 3/2 of the limit" \
		st_throttled thriopoll $UP
	none_stuck "io_uring IOPOLL under io.max"
fi
deadline "$(s 90)" "dm-throttle: 10 suspend/resume cycles under polled 4 KiB and 256 KiB readers: 0 errors, no hang" \
	st_suspend_loop
none_stuck "the suspend/resume loop"
deadline "$(s 30)" "dm-throttle: cgroup removed, striped device removed" st_down
tap_end

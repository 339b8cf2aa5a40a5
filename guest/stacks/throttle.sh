#!/bin/sh
# cgroup v2 io.max riops=200 on a polled reader: io.max holds it, and it uses <= 50%
# of a CPU (a waiter spinning while blk-throttle holds its bio uses ~100%).
# Run by guest/stacks.sh, or alone: sh /guest/stacks/throttle.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES="BLKPOLL_DISK"
DEADLINE=260
set -u
. /guest/lib/stacks.sh

# throttle_run NAME WRAPPER...: 5 s polled psync reader, CPU per I/O into /tmp/stk.NAME
throttle_run() {
	_name=$1
	shift
	io_poll_is "$DISK" 1 || return 1
	_s0=$(poll_stat_line "${DISK#/dev/}")
	# shellcheck disable=SC2086
	fio_with "$@" -- --name="$_name" --filename="$DISK" --size=256M --rw=randread --bs=4k $PS \
		--time_based --runtime=5
	tap_diag "poll_stat of ${DISK#/dev/} during the run: $(poll_stat_delta "$_s0" "$(poll_stat_line "${DISK#/dev/}")")"
	fio_ok || return 1
	_cpi=$(fio_cpu_per_io)
	_pct=$(fio_cpu_pct)
	_iops=$(ratio "$FIO_RIOS" 5)
	tap_diag "$_name: $FIO_RIOS I/Os in 5 s ($_iops IOPS), $_cpi us CPU per I/O, $_pct% of a CPU"
	echo "BENCH test=stacks case=$_name dev=${DISK#/dev/} io_poll=1 ios=$FIO_RIOS iops=$_iops cpu_us_per_io=$_cpi cpu_pct=$_pct"
	echo "$_pct $_iops" > "/tmp/stk.$_name"
	[ "$FIO_RIOS" -gt 0 ]
}
throttle_irq() {
	io_poll_is "$DISK" 0 || return 1
	# shellcheck disable=SC2016,SC2086
	fio_with sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CGT" -- --name=throttled-irq \
		--filename="$DISK" --size=256M --rw=randread --bs=4k $PS --time_based --runtime=5
	fio_ok || return 1
	tap_diag "throttled-irq (io_poll=0, for comparison): $FIO_RIOS I/Os in 5 s, $(fio_cpu_per_io) us CPU per I/O"
	echo "BENCH test=stacks case=throttled-irq dev=${DISK#/dev/} io_poll=0 ios=$FIO_RIOS iops=$(ratio "$FIO_RIOS" 5) cpu_us_per_io=$(fio_cpu_per_io)"
}
rm -f /tmp/stk.unthrottled /tmp/stk.throttled
dl_run "$(s 20)" cg_setup || true
if [ "$DL_RC" = 3 ]; then
	tap_skip "throttle: polled reader under io.max riops=200" "no io controller in cgroup v2 (no CONFIG_BLK_CGROUP)"
elif [ "$DL_RC" != 0 ]; then
	tap_not_ok "throttle: cgroup v2 mounted, io controller enabled (status $DL_RC)"
elif ! [ -e "$CGT/io.max" ]; then
	tap_skip "throttle: polled reader under io.max riops=200" "no io.max in $CGT (no CONFIG_BLK_DEV_THROTTLING)"
else
	deadline "$(s 20)" "throttle: io.max riops=200 set on $DISK" \
		set_attr "$CGT/io.max" "$(cat "/sys/block/${DISK#/dev/}/dev") riops=200"
	deadline "$(s 60)" "throttle: unthrottled polled psync reader on $DISK does I/O" throttle_run unthrottled env
	# shellcheck disable=SC2016 # $0 and $@ belong to the inner shell
	deadline "$(s 60)" "throttle: polled psync reader under io.max riops=200 does I/O" throttle_run throttled \
		sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$CGT"
	# for the reader: the same throttled reader taking interrupts (io_poll=0)
	dl_run "$(s 60)" throttle_irq || tap_diag "throttled io_poll=0 reader: status $DL_RC"
	read -r cpu_thr iops_thr < /tmp/stk.throttled 2> /dev/null || { cpu_thr=nan iops_thr=nan; }
	if le "$iops_thr" 250; then
		tap_ok "throttle: io.max holds the polled reader to <= 250 IOPS ($iops_thr)"
	else
		tap_not_ok "throttle: io.max holds the polled reader to <= 250 IOPS ($iops_thr)"
	fi
	# A waiter spinning while blk-throttle holds its bio keeps its CPU busy.
	if le "$cpu_thr" 50; then
		tap_ok "throttle: the polled reader under io.max uses <= 50% of a CPU ($cpu_thr%): the waiter sleeps through the delay"
	else
		tap_not_ok "throttle: the polled reader under io.max uses <= 50% of a CPU ($cpu_thr%): the waiter sleeps through the delay"
	fi
	deadline "$(s 20)" "throttle: io.max lifted, cgroup removed" cg_down
fi
tap_end

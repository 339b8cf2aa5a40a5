#!/bin/sh
# Controller resets to more, then fewer queues (nvme write_queues, spare_poll_queues)
# under a RWF_HIPRI reader: no hang, it completes or gets EIO; then a reset back to the
# parameters the boot had, and reads poll. spare_poll_queues, not poll_queues: a
# poll_queues once written, 0 included, replaces the spare poll queue for good.
# Run by guest/stacks.sh, or alone: sh /guest/stacks/reset.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES="BLKPOLL_DISK"
DEADLINE=300
set -u
. /guest/lib/stacks.sh

WQ=/sys/module/nvme/parameters/write_queues
PQ=/sys/module/nvme/parameters/spare_poll_queues
ctrl_live() {
	[ "$(cat "/sys/class/nvme/$1/state")" = live ]
}
# reset_ctrl CTRL: reset and wait until the controller is live again
reset_ctrl() {
	set_attr "/sys/class/nvme/$1/reset_controller" 1 || return 1
	dl_until 30 ctrl_live "$1" || { echo "$1 not live 30 s after the reset"; return 1; }
	tap_diag "$1 live after the reset: $(dmesg | grep "$1: .*queues" | tail -1 | sed 's/^\[[^]]*\] //')"
}
# queues N: write_queues=N and spare_poll_queues=N
queues() {
	set_attr "$WQ" "$1" && set_attr "$PQ" "$1" || return 1
	tap_diag "nvme write_queues=$(cat "$WQ") spare_poll_queues=$(cat "$PQ")"
}
reset_step() {
	_c=$(nvme_ctrl "$DISK")
	[ -e "/sys/class/nvme/$_c/reset_controller" ] || { echo "no controller for $DISK"; return 1; }
	io_poll_is "$DISK" 1 || return 1
	[ -w "$PQ" ] || { echo "no nvme spare_poll_queues"; return 1; }
	_w0=$(cat "$WQ") _p0=$(cat "$PQ")
	# RWF_HIPRI: polled I/O in flight across each reset, whatever io_poll measured
	# shellcheck disable=SC2086
	fio_start --name=resetread --filename="$DISK" --size=512M --rw=randread --bs=4k $HP \
		--time_based --runtime=20
	sleep 2
	_bad=0
	queues 2 && reset_ctrl "$_c" || _bad=1
	sleep 2
	queues 0 && reset_ctrl "$_c" || _bad=1
	tap_diag "resets done; the polled reader is $(fio_running && echo still running || echo finished)"
	while fio_running; do sleep 0.5; done
	fio_wait
	# the boot's queues again, so that what follows polls as before
	set_attr "$WQ" "$_w0" && set_attr "$PQ" "$_p0" && reset_ctrl "$_c" || _bad=1
	tap_diag "$(fio_figures)"
	grep -iE 'error|err=' "$FIO_LOG" | head -5
	[ "$_bad" = 0 ] || { echo "a queue change or reset failed"; return 1; }
	[ "$FIO_JOBS" -gt 0 ] || { echo "fio reported no job"; return 1; }
	if [ "$FIO_RC" -eq 0 ] && [ "$FIO_ERR" -eq 0 ]; then return 0; fi
	# an I/O error is an allowed outcome, any other error is not; fio's messages are in
	# its log and some also ahead of the JSON
	grep -qE 'Input/output error|error=5[^0-9]' "$FIO_LOG" "$FIO_JSON" || fio_error_is 5
}
reset_after() {
	io_poll_is "$DISK" 1 || return 1
	tap_diag "poll_choice of ${DISK#/dev/} after the resets: $(tr '\n' ';' < "/sys/kernel/debug/block/${DISK#/dev/}/poll_choice" 2> /dev/null)"
	# shellcheck disable=SC2086
	ipi_reads "$DISK" MAX --size=256M $HP
}
deadline "$(s 180)" "reset: controller reset to more queues and back to fewer under a polled (RWF_HIPRI) reader: no hang, reader completes or gets EIO" reset_step
deadline "$(s 90)" "reset: after the resets polled (RWF_HIPRI) 4 KiB reads on $DISK work (<= 0.01 interrupts per I/O, >= 3/4 of those not declined polled)" reset_after
tap_end

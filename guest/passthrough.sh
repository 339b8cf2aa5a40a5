#!/bin/sh
# NVMe passthrough with io_uring IOPOLL (fio io_uring_cmd --hipri on the namespace's
# generic char device): on a controller probed with default parameters its polled
# commands go to the poll queues and are polled by io_uring, as on stock 6.12 with
# poll_queues; nothing waits for an interrupt that never comes. One behaviour a step:
#  cdev     the null-co namespace's char device /dev/ngXnY exists
#  polled   io_uring_cmd --hipri, 4 s of 4 KiB random reads: no error, <= 0.01
#           interrupts per read
#  control  io_uring_cmd without --hipri: no error, >= 0.5 interrupts per read
#  figures  BENCH line: IOPS polled against interrupt-driven
# Needs BLKPOLL_NULL (null-co NVMe, serial blkpoll1).
set -u
. /guest/lib/tap.sh
. /guest/lib/fio-check.sh
. /guest/lib/deadline.sh

DEV=${BLKPOLL_NULL:-}
tap_diag "passthrough: kernel $(uname -r), $(nproc) CPUs, disk ${DEV:-none}, $(fio --version)"
if [ -z "$DEV" ] || [ ! -b "$DEV" ]; then
	tap_not_ok "null-co NVMe disk (serial blkpoll1) present"
	tap_end
	exit
fi
NG=/dev/ng${DEV#/dev/nvme}
if [ -c "$NG" ]; then
	tap_ok "cdev: $NG is the char device of $DEV"
else
	tap_not_ok "cdev: $NG is the char device of $DEV"
	tap_end
	exit
fi

# pt_run ARG...: 4 s of io_uring_cmd 4 KiB random reads on $NG; "iops irqs_per_read"
# in /tmp/pt.out ("0 nan" when the run failed)
pt_run() {
	echo "0 nan" > /tmp/pt.out
	_i0=$(irqs_of "$DEV") || return 1
	fio_run --name=pt --filename="$NG" --ioengine=io_uring_cmd --cmd_type=nvme \
		--rw=randread --bs=4k --size=256M --time_based --runtime=4 "$@"
	_i1=$(irqs_of "$DEV") || return 1
	tap_diag "io_uring_cmd $*: $(fio_figures), interrupts $((_i1 - _i0))"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] || return 1
	echo "$((FIO_RIOS / 4)) $(ratio $((_i1 - _i0)) "$FIO_RIOS")" > /tmp/pt.out
}

# judge WHAT IOPS IPR OP LIMIT: the run read something and its interrupts per read
# (IPR) compare to LIMIT as OP (<= or >=)
judge() {
	if [ "$2" -gt 0 ] && awk -v r="$3" -v l="$5" -v op="$4" \
		'BEGIN { exit !(r != "nan" && (op == "<=" ? r + 0 <= l : r + 0 >= l)) }'; then
		tap_ok "$1 reads without error, $3 interrupts per read"
	else
		tap_not_ok "$1 reads without error, $4 $5 interrupts per read (got $3)"
		fio_dump
	fi
}

pt_run --hipri || :
read -r hip_iops hip_ipr < /tmp/pt.out
judge "polled: io_uring_cmd --hipri" "$hip_iops" "$hip_ipr" "<=" 0.01
pt_run || :
read -r irq_iops irq_ipr < /tmp/pt.out
judge "control: io_uring_cmd without --hipri" "$irq_iops" "$irq_ipr" ">=" 0.5
echo "BENCH test=passthrough hipri_iops=$hip_iops irq_iops=$irq_iops hipri_x_irq=$(ratio "$hip_iops" "$irq_iops")"
tap_ok "figures: io_uring_cmd IOPS polled $hip_iops, by interrupt $irq_iops"
tap_end

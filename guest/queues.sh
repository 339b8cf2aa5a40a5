#!/bin/sh
# NVMe polling without a poll queue of the user's making: one test a file in
# /guest/queues/ (run by guest/lib/runner.sh, each under its deadline, a kernel log
# marker at its start), in this order:
#  default  one poll queue by default, shared by the CPUs, and it polls
#  per-cpu  polled readers on two CPUs use their own NVMe queues, and poll
#  switch   echo 1 > io_poll under verifying load: on at once, no reset, no error
#  iowait   only a runnable task beside the waiter makes it decline to poll
#  hotplug  CPU 1 offline and online under a polled reader; then it polls
# args: only=<test+test> (e.g. only=switch+hotplug).
set -u
. /guest/lib/queues.sh
. /guest/lib/runner.sh

# boot.sh always attaches these: a missing one is a failure here, a "not run" in a
# test run alone
if [ -n "$DISK" ] && [ -b "$DISK" ]; then
	tap_ok "file-backed NVMe disk $DISK (serial blkpoll0) present"
	tap_diag "$(dmesg | grep -E "$(nvme_ctrl "$DISK"): [0-9/]+ default/read/poll queues" | tail -1)"
else
	tap_not_ok "file-backed NVMe disk (serial blkpoll0) present"
fi
if [ -n "$NS2" ] && [ -b "$NS2" ]; then
	tap_ok "namespace 2 of the same controller present: $NS2"
else
	tap_not_ok "namespace 2 of the same controller (serial blkpoll0, nsid 2) present"
fi

run_group queues "default per-cpu switch iowait hotplug" "$@"
tap_end

#!/bin/sh
# A controller probed with default parameters has exactly one poll queue, taken from
# the queues it has to spare, and the interrupt driven queues it would have without
# polling, one per CPU: "nproc/0/1 default/read/poll queues" (nvme.spare_poll_queues=1,
# what every NVMe user pays, about one queue's requests). And it polls: RWF_HIPRI
# reads on it take no interrupt (poll_share_ok, the rule of every polled check).
# Run by guest/queues.sh, or alone: sh /guest/queues/default.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES="BLKPOLL_DISK"
DEADLINE=90
set -u
. /guest/lib/queues.sh

CTRL=$(nvme_ctrl "$DISK")
SPARE=/sys/module/nvme/parameters/spare_poll_queues

# one_poll_queue: the controller's last queue setup is nproc/0/1
one_poll_queue() {
	_line=$(dmesg | grep -E "$CTRL: [0-9/]+ default/read/poll queues" | tail -1)
	tap_diag "$_line; spare_poll_queues=$(cat "$SPARE" 2> /dev/null || echo absent)"
	case $_line in
	*" $(nproc)/0/1 default/read/poll queues"*) return 0 ;;
	*) echo "want $(nproc)/0/1 default/read/poll queues"; return 1 ;;
	esac
}

# polled_reads: 2000 RWF_HIPRI reads on the shared poll queue poll
polled_reads() {
	_s0=$(poll_stat_line "$Q")
	# shellcheck disable=SC2086 # $HS is a list of options
	fio_run --name=r --filename="$DISK" $HS --size=128M --number_ios=2000
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$Q")")
	tap_diag "$(fio_figures); poll_stat of $Q: $_st"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] && poll_share_ok "$_st" "$FIO_RIOS"
}

deadline "$(s 10)" "queues: $CTRL has one poll queue and nproc interrupt driven ones by default" one_poll_queue
deadline "$(s 60)" "queues: RWF_HIPRI reads on $CTRL's one poll queue poll" polled_reads
tap_end

#!/bin/sh
# Two polled (RWF_HIPRI) readers pinned to different CPUs submit to different NVMe
# queue pairs (the nvme_setup_cmd tracepoint names each command's qid; not run
# without it): each CPU to its poll queue and, for reads it declined to poll, its
# interrupt driven queue, no qid shared by the two; and they poll (poll_share_ok:
# two readers and fio on 2 CPUs, so a waiter beside another runnable task declines
# to poll by design, 60% of the reads on the debug kernel). A controller has one
# spare poll queue by default, shared by the CPUs: the test gives it one per CPU
# (nvme.spare_poll_queues, and a rebind of the driver: the queue slots are sized at
# probe, so a reset can only take fewer), as a machine that polls from several CPUs
# would, and restores the default after.
# Run by guest/queues.sh, or alone: sh /guest/queues/per-cpu.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES="BLKPOLL_DISK"
DEADLINE=200
set -u
. /guest/lib/queues.sh

EVENT=$TRACE/events/nvme/nvme_setup_cmd
# qids_by_cpu TRACEFILE: "cpu qid reads" for the reads of $Q in the trace
qids_by_cpu() {
	awk -v disk="disk=$Q," '
	$0 ~ /nvme_setup_cmd:/ && index($0, disk) && /nvme_cmd_read/ {
		cpu = ""; qid = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/) { cpu = $i; gsub(/[][]/, "", cpu); cpu += 0 }
			if ($i ~ /^qid=/) { qid = $i; sub(/^qid=/, "", qid); sub(/,$/, "", qid) }
		}
		if (cpu != "" && qid != "") n[cpu " " qid]++
	}
	END { for (k in n) print k, n[k] }' "$1" | sort -n
}

# pinned_readers: one RWF_HIPRI reader on each of CPU 0 and 1, traced; each CPU's reads
# must go to at most two qids (its poll queue, and its interrupt driven one for the
# reads it declined to poll), none the other CPU uses, and the reads must poll
# (poll_share_ok, the rule of every polled check)
pinned_readers() {
	set_io_poll "$DISK" 1 || return 1
	echo 0 > "$TRACE/tracing_on"
	: > "$TRACE/trace"
	echo 1 > "$EVENT/enable"
	_s0=$(poll_stat_line "$Q")
	echo 1 > "$TRACE/tracing_on"
	# shellcheck disable=SC2086 # $HS is a list of options
	fio_run --name=r0 --filename="$DISK" $HS --size=128M --number_ios=1000 --cpus_allowed=0 \
		--name=r1 --filename="$DISK" $HS --offset=128M --size=128M --number_ios=1000 --cpus_allowed=1
	echo 0 > "$TRACE/tracing_on"
	echo 0 > "$EVENT/enable"
	_st=$(poll_stat_delta "$_s0" "$(poll_stat_line "$Q")")
	cat "$TRACE/trace" > /tmp/queues.trace
	tap_diag "$(fio_figures)"
	tap_diag "poll_stat of $Q: $_st"
	qids_by_cpu /tmp/queues.trace > /tmp/queues.qids
	tap_diag "reads of $Q by CPU and qid: $(tr '\n' ';' < /tmp/queues.qids)"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] || return 1
	poll_share_ok "$_st" "$FIO_RIOS" || return 1
	# a CPU's polled reads go to its poll queue, the ones it declined to poll to its
	# interrupt driven queue: each CPU may use two qids, none the other CPU uses
	awk '{ tot[$1] += $3; n[$1 " " $2] = $3 }
	END {
		if (!(0 in tot) || !(1 in tot)) { print "no reads traced on CPU 0 or 1"; exit 1 }
		for (k in n) {
			split(k, f, " ")
			if (n[k] * 20 < tot[f[1]]) continue
			used[f[1]] = used[f[1]] " " f[2]
			cnt[f[1]]++
			if ((1 - f[1]) " " f[2] in n && n[(1 - f[1]) " " f[2]] * 20 >= tot[1 - f[1]]) {
				printf "qid %s takes reads of both CPUs\n", f[2]; exit 1
			}
		}
		for (c = 0; c <= 1; c++)
			if (tot[c] < 500 || cnt[c] > 2) {
				printf "CPU %d: %d reads on qids%s\n", c, tot[c], used[c]; exit 1
			}
		printf "CPU 0 -> qids%s, CPU 1 -> qids%s\n", used[0], used[1]
	}' /tmp/queues.qids
}

SPARE=/sys/module/nvme/parameters/spare_poll_queues
CTRL=$(nvme_ctrl "$DISK")

# spare_poll_queues N: N spare poll queues after the driver is bound to the disk's
# controller again (a probe), and the disk, under its name, able to poll again
spare_poll_queues() {
	_pci=$(readlink "/sys/class/nvme/$CTRL/device") || return 1
	_pci=${_pci##*/}
	echo "$1" > "$SPARE" || return 1
	echo "$_pci" > /sys/bus/pci/drivers/nvme/unbind || return 1
	echo "$_pci" > /sys/bus/pci/drivers/nvme/bind || return 1
	until [ "$(cat "/sys/block/$Q/queue/io_poll" 2> /dev/null)" = 1 ]; do sleep 0.2; done
	_line=$(dmesg | grep -E "$CTRL: [0-9/]+ default/read/poll queues" | tail -1)
	tap_diag "$_line"
	case $_line in
	*"/$1 default/read/poll queues"*) ;;
	*) echo "want $1 poll queues"; return 1 ;;
	esac
}

[ -e "$SPARE" ] || { tap_not_ok "queues: nvme has spare_poll_queues"; tap_end; exit 0; }
SPARE_WAS=$(cat "$SPARE")
deadline "$(s 30)" "queues: $CTRL probed again with a spare poll queue per CPU" spare_poll_queues "$(nproc)"
[ -e "$EVENT" ] || mount -t tracefs nodev "$TRACE" 2> /dev/null || true
if [ ! -e "$EVENT/enable" ]; then
	tap_skip "queues: polled readers on CPU 0 and 1 use different NVMe queues" \
		"not run: no nvme_setup_cmd tracepoint (CONFIG_EVENT_TRACING; the debug kernel has it)"
else
	deadline "$(s 90)" "queues: polled readers on CPU 0 and 1 use different NVMe queues" pinned_readers
fi
dl_run "$(s 20)" set_io_poll "$DISK" 0 || tap_diag "io_poll back to 0: status $DL_RC"
deadline "$(s 30)" "queues: $CTRL probed again with spare_poll_queues=$SPARE_WAS" spare_poll_queues "$SPARE_WAS"
tap_end

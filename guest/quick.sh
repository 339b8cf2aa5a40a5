#!/bin/sh
# Developer quick look: switch io_poll on the null-backed NVMe disk and compare psync.
set -u
dev=${BLKPOLL_NULL:-/dev/nvme1n1}
n=${dev#/dev/}
q=/sys/block/$n/queue
echo "# $n io_poll=$(cat $q/io_poll) io_poll_delay=$(cat $q/io_poll_delay)"
irqs() { awk -v c="${n%n1}q" '$NF ~ c {for(i=2;i<NF;i++) if ($i ~ /^[0-9]+$/) s+=$i} END {print s+0}' /proc/interrupts; }
run() {
	i0=$(irqs)
	fio --name=x --filename="$dev" --rw=randread --bs=4k --direct=1 --ioengine="$1" ${2:-} \
		--runtime=3 --time_based --minimal 2>&1 | awk -F';' '$1==3 {print "iops=" $8 " lat_us=" $40}'
	echo "# irqs=$(( $(irqs) - i0 ))"
}
echo "# off: $(run psync)"
echo 1 > $q/io_poll; echo "# write rc=$?"
for i in 1 2 3 4 5 6 7 8 9 10; do [ "$(cat $q/io_poll)" = 1 ] && break; sleep 0.2; done
echo "# io_poll now $(cat $q/io_poll)"; grep -i nvme /proc/interrupts | head
echo "# on: $(run psync)"
echo 0 > $q/io_poll
echo "# off: $(run psync)"
echo "# hipri: $(run pvsync2 --hipri)"
echo 1 > $q/io_poll
echo "# on: $(run psync)"
echo 0 > $q/io_poll_delay; echo "# delay=0"
echo "# hybrid: $(run psync)"
echo -1 > $q/io_poll_delay
echo "# dd off/on"; echo 0 > $q/io_poll; dd if=$dev of=/dev/null bs=4k count=20000 iflag=direct 2>&1 | tail -1
echo 1 > $q/io_poll; dd if=$dev of=/dev/null bs=4k count=20000 iflag=direct 2>&1 | tail -1
echo junk > $q/io_poll; echo "# junk rc=$?"
dmesg | grep -iE "nvme|poll|kunit|blk-poll" | tail -20

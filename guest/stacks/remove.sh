#!/bin/sh
# The second disk's controller removed (PCI remove: nvme-pci has no
# delete_controller) under a RWF_HIPRI reader: it completes or gets EIO, nobody
# hangs; a PCI rescan brings it back, and it polls.
# Run by guest/stacks.sh, or alone: sh /guest/stacks/remove.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES="BLKPOLL_DISK2"
DEADLINE=220
set -u
. /guest/lib/stacks.sh

# rm_under_reader: remove DISK2's controller under a RWF_HIPRI reader
rm_under_reader() {
	_c=$(nvme_ctrl "$DISK2")
	[ -e "/sys/class/nvme/$_c" ] || { echo "no controller for $DISK2"; return 1; }
	# shellcheck disable=SC2086
	read_across_removal "$_c" "$DISK2" $HP || return 1
	tap_diag "$(fio_figures)"
	tap_diag "fio: $(grep -m1 -iE 'error' "$FIO_LOG")"
	[ ! -b "$DISK2" ] || { echo "$DISK2 still there"; return 1; }
	[ "$FIO_JOBS" -gt 0 ] || { echo "fio reported no job"; return 1; }
	if [ "$FIO_RC" -eq 0 ] && [ "$FIO_ERR" -eq 0 ]; then return 0; fi
	# an I/O error is the expected outcome, any other error is not (messages as in reset_step)
	grep -qE 'Input/output error|error=5[^0-9]|No such device|error=19[^0-9]' "$FIO_LOG" "$FIO_JSON" ||
		fio_error_is 5 19
}
# rm_back: rescan, find the disk by its serial again, and poll it
disk2_back() {
	DISK2=$(nvme_disk_by_serial blkpoll2)
	[ -n "$DISK2" ]
}
rm_back() {
	pci_back blkpoll2 1 || return 1
	dl_until "$(s 30)" disk2_back || {
		echo "no namespace of blkpoll2 $(s 30) s after the rescan:" /sys/class/nvme/nvme*/nvme*n*
		return 1
	}
	tap_diag "blkpoll2 is $DISK2 again"
	# shellcheck disable=SC2086
	ipi_at "$DISK2" 1 "$DISK2" MAX $HP
}
deadline "$(s 90)" "remove: $DISK2's controller removed under a RWF_HIPRI reader: it completes or gets EIO, no hang" \
	rm_under_reader
deadline "$(s 90)" "remove: PCI rescan brings it back, and RWF_HIPRI reads on it poll (<= 0.01 interrupts per I/O)" rm_back
dl_run "$(s 20)" set_io_poll "$DISK2" 0 || tap_diag "io_poll of $DISK2 back to 0: status $DL_RC"
tap_end

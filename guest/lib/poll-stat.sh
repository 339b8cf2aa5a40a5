# shellcheck shell=sh
# The poll_stat debugfs file the series adds (patch "count synchronous polling").
# The judges need tap.sh (tap_diag) and fio-check.sh (ratio, fio_judge).

# poll_stat_line QUEUE: the poll statistics of QUEUE (nvme0n1, dm-0) in one line
# ("declined 0 polls 12 ..."), or "absent" without debugfs or the series
poll_stat_line() {
	# debugfs files have size 0: read, then look
	_psl=$(tr '\n' ' ' < "/sys/kernel/debug/block/$1/poll_stat" 2> /dev/null) || _psl=''
	if [ -n "$_psl" ]; then printf '%s' "$_psl"; else printf 'absent'; fi
}

# poll_stat_delta BEFORE AFTER: AFTER - BEFORE for each key of two poll_stat_line
# outputs, in one line ("declined 3 polls 2000 ..."); "absent" when either is
poll_stat_delta() {
	awk -v b="$1" -v a="$2" 'BEGIN {
		if (b == "absent" || a == "absent") { printf "absent"; exit }
		nb = split(b, vb, " "); na = split(a, va, " ")
		for (i = 1; i < nb; i += 2) old[vb[i]] = vb[i + 1]
		for (i = 1; i < na; i += 2) printf "%s%s %d", (i > 1 ? " " : ""), va[i], va[i + 1] - old[va[i]]
	}'
}

# poll_stat_get LINE KEY: the value of KEY in a poll_stat_line/poll_stat_delta line
# (0 when the line has no such key)
poll_stat_get() {
	echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i += 2) if ($i == k) { v = $(i + 1); break } }
		END { print v + 0 }'
}

# Interrupts per I/O, the one rule every guest check uses:
# - a polled I/O takes no interrupt: a poll queue raises none, and a waiter that
#   backs off sleeps on a timer. IPI_POLLED_MAX allows 1 in 100 for interrupts of
#   I/O the test did not submit (a filesystem's journal, an admin command);
# - an I/O left to the interrupt takes one: the controls (io_poll=0) must see at
#   least IPI_IRQ_MIN per I/O (below 1 for interrupt coalescing: QEMU's NVMe
#   completes several commands per interrupt under load).
# An I/O left to the interrupt by choice (declined: another task runnable;
# irq_chosen: the interrupt measured faster) takes its interrupt and is no polled I/O.
IPI_POLLED_MAX=0.01
IPI_IRQ_MIN=0.5

# ipi_polled STAT IRQS IOS: "POLLED EXTRA RATIO" for IOS I/Os that took IRQS
# interrupts with poll_stat delta STAT: the I/Os not left to the interrupt by choice,
# the interrupts beyond one for each of those that were, and EXTRA per POLLED I/O
ipi_polled() {
	_ipd=$(($(poll_stat_get "$1" declined) + $(poll_stat_get "$1" irq_chosen)))
	_ipx=$(($2 - _ipd))
	[ "$_ipx" -ge 0 ] || _ipx=0
	echo "$(($3 - _ipd)) $_ipx $(ratio "$_ipx" $(($3 - _ipd)))"
}

# polled_ipi_ok STAT IRQS READS LIMIT MIN_POLLED: READS synchronous reads took IRQS
# interrupts with poll_stat delta STAT: interrupts per polled I/O (ipi_polled) must be
# <= LIMIT (IPI_POLLED_MAX unless a caller says why not), with >= MIN_POLLED (and > 0)
# polled I/Os and every read seen by poll_stat. QUEUE's poll_choice is shown when it
# fails (set PSQ to the queue's name).
polled_ipi_ok() {
	_pst=$1 _pirq=$2 _pn=$3 _plim=$4 _pmin=$5
	[ "$_pst" != absent ] || { tap_diag "no poll_stat (CONFIG_BLK_DEBUG_FS): cannot tell polled I/Os"; return 1; }
	# shellcheck disable=SC2046 # three numbers
	set -- $(ipi_polled "$_pst" "$_pirq" "$_pn")
	_ppolled=$1 _pextra=$2 _prp=$3
	_pdec=$((_pn - _ppolled))
	_pseen=$((_pdec + $(poll_stat_get "$_pst" poll_completions) + $(poll_stat_get "$_pst" irq_completions)))
	tap_diag "$_pdec I/Os took the interrupt by choice, $(poll_stat_get "$_pst" backoffs) backoffs; $_pextra other interrupts / $_ppolled polled I/Os = $_prp per polled I/O (want <= $_plim, >= $_pmin polled; poll_stat saw $_pseen of $_pn reads)"
	if [ "$_ppolled" -gt 0 ] && [ "$_ppolled" -ge "$_pmin" ] && [ "$_pseen" -ge "$_pn" ] &&
		awk -v r="$_prp" -v l="$_plim" 'BEGIN { exit !(r != "nan" && r + 0 <= l + 0) }'; then
		return 0
	fi
	tap_diag "poll_choice of ${PSQ:-?}: $(tr '\n' ';' < "/sys/kernel/debug/block/${PSQ:-none}/poll_choice" 2> /dev/null)"
	return 1
}

# ipi_reads DEV MAX|MIN ARG...: 2000 4 KiB random O_DIRECT reads of DEV (psync; fio
# ARGs added, e.g. --size, or pvsync2 --hipri options, which win), > 0 of them. The job
# runs alone on the last CPU, fio's own process on CPU 0: a waiter beside another
# runnable task takes the interrupt, by design. MIN: interrupts of the NVMe
# controllers behind DEV per read >= IPI_IRQ_MIN. MAX: polled_ipi_ok with
# IPI_POLLED_MAX; with psync some reads must poll (io_poll=1 polls where that
# measured faster, and probes one in 128 otherwise), with --hipri (forced) >= 3/4 of
# those not declined.
# Prints a BENCH line (test=ipi). Needs deadline.sh (irqs_of) and fio-check.sh.
# shellcheck disable=SC2034 # FIO_RC: read by fio_judge
ipi_reads() {
	_ird=$1 _irc=$2
	shift 2
	# a partition has no queue of its own: the whole disk's io_poll applies
	_irq=${_ird#/dev/}
	[ ! -e "/sys/class/block/$_irq/partition" ] || _irq=$(basename "$(readlink -f "/sys/class/block/$_irq/..")")
	_irs0=$(poll_stat_line "$_irq")
	_iri0=$(irqs_of "$_ird") || return 1
	FIO_SEQ=$((FIO_SEQ + 1))
	FIO_JSON=/tmp/fio.ipi$FIO_SEQ.json FIO_LOG=/tmp/fio.ipi$FIO_SEQ.log FIO_RC=0
	taskset -c 0 fio --output-format=json --output="$FIO_JSON" --name=ipi --filename="$_ird" \
		--rw=randread --bs=4k --ioengine=psync --direct=1 --number_ios=2000 \
		--cpus_allowed="$(($(nproc) - 1))" "$@" > "$FIO_LOG" 2>&1 || FIO_RC=$?
	fio_judge
	_iri1=$(irqs_of "$_ird") || return 1
	_irqs=$((_iri1 - _iri0))
	_irst=$(poll_stat_delta "$_irs0" "$(poll_stat_line "$_irq")")
	_irr=$(ratio "$_irqs" "$FIO_RIOS")
	tap_diag "$_ird: $_irqs interrupts / $FIO_RIOS reads = $_irr per read; poll_stat of $_irq: $_irst"
	echo "BENCH test=ipi dev=${_ird#/dev/} io_poll=$(cat "/sys/block/$_irq/queue/io_poll" 2> /dev/null || echo na) ios=$FIO_RIOS irqs=$_irqs irq_per_io=$_irr"
	if ! fio_clean || [ "$FIO_RIOS" -eq 0 ]; then
		tap_diag "fio: $(fio_figures)"
		return 1
	fi
	if [ "$_irc" = MIN ]; then
		tap_diag "want >= $IPI_IRQ_MIN interrupts per read"
		awk -v r="$_irr" -v l="$IPI_IRQ_MIN" 'BEGIN { exit !(r != "nan" && r + 0 >= l + 0) }'
		return
	fi
	# forced polling: the reads not declined (declined: another task was runnable on
	# the CPU, by design; 28-38% on the debug kernel beside fio's own process) poll,
	# all but a quarter for what a TCG guest may add
	case " $* " in
	*" --hipri "*) _irmin=$((3 * (FIO_RIOS - $(poll_stat_get "$_irst" declined)) / 4)) ;;
	*) _irmin=1 ;;
	esac
	PSQ=$_irq polled_ipi_ok "$_irst" "$_irqs" "$FIO_RIOS" "$IPI_POLLED_MAX" "$_irmin"
}

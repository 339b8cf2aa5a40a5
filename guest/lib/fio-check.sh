# shellcheck shell=sh
# What guest tests share about a disk and fio: queue attributes and the io_poll switch;
# the guest's one reader of fio's output, its JSON through jq (fio_jq; fio_run and
# fio_start/fio_wait judge a run by exit status, per-job errors and verify messages;
# fio_figures, fio_read_rate and clat_max_us report it); whether a run polled, from
# poll_stat (poll_share_ok, poll_none_ok); O_DIRECT probes, corrupting a block, the
# kernel log since a mark. Source after tap.sh; the poll_stat judges need poll-stat.sh.
# NVMe interrupt counting (irqs_of) is in deadline.sh.

# qattr DEV NAME: path of /sys/block/<dev>/queue/NAME
qattr() {
	printf '/sys/block/%s/queue/%s' "${1#/dev/}" "$2"
}

# set_attr FILE VALUE: write VALUE (newline terminated); fails like the write, and
# says why (busybox printf fails silently; the echo builtin prints strerror)
set_attr() {
	echo "$2" > "$1"
}

# sync_poll DEV: 1 while synchronous polling of DEV is switched on (SYNC_POLL in
# its queue's debugfs state), 0 while off, "na" where the queue has no debugfs
# state (bio-based: dm, md, an NVMe multipath head). Reading io_poll tells only
# whether the device can poll.
sync_poll() {
	_sps=/sys/kernel/debug/block/${1#/dev/}/state
	if [ ! -r "$_sps" ]; then
		echo na
		return 0
	fi
	case "|$(cat "$_sps")|" in
	*'|SYNC_POLL|'*) echo 1 ;;
	*) echo 0 ;;
	esac
}

# attr_value FILE: what FILE holds; for queue/io_poll, the switch writes set
# (sync_poll of its device)
attr_value() {
	case $1 in
	*/queue/io_poll)
		_avd=${1%/queue/io_poll}
		sync_poll "${_avd##*/}"
		;;
	*) cat "$1" ;;
	esac
}

# set_io_poll DEV 0|1: switch synchronous polling; the switch must then read
# the value (on a bio-based device, without debugfs state, writing 1 must leave
# io_poll reading 1: the device can poll)
set_io_poll() {
	_a=$(qattr "$1" io_poll)
	_t=$(cut -d' ' -f1 /proc/uptime)
	if ! _e=$(set_attr "$_a" "$2" 2>&1); then
		tap_diag "writing $2 to $_a at $_t s failed: $_e"
		return 1
	fi
	_s=$(sync_poll "$1")
	case $_s in
	"$2") ;;
	na) [ "$2" = 0 ] || [ "$(cat "$_a")" = 1 ] || {
		tap_diag "io_poll of $1 reads $(cat "$_a") after writing 1"
		return 1
	} ;;
	*)
		tap_diag "synchronous polling of $1 reads $_s after writing $2"
		return 1
		;;
	esac
}

# nvme_ctrl DEV: the controller (nvme0) of namespace DEV (/dev/nvme0n1)
nvme_ctrl() {
	_c=$(readlink "/sys/block/${1#/dev/}/device" 2>/dev/null || true)
	_c=${_c##*/}
	case $_c in
	nvme[0-9]*) printf '%s' "$_c" ;;
	*) _c=${1#/dev/}; printf '%s' "${_c%n[0-9]*}" ;;
	esac
}

# dio_einval PATH OFFSET LENGTH: an O_DIRECT read of LENGTH bytes at OFFSET of PATH
# fails with EINVAL; otherwise says what it did. xfs_io, not busybox dd, which
# retries a read refused with EINVAL without O_DIRECT.
dio_einval() {
	_de=$(xfs_io -d -r -c "pread $2 $3" "$1" 2>&1) || :
	case $_de in *"Invalid argument"*) return 0 ;; esac
	echo "O_DIRECT read of $3 bytes at $2 of $1: ${_de:-no output}, not EINVAL"
	return 1
}

# ratio A B: A/B with 3 decimals ("nan" when B is 0)
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "nan" }'
}

# fio_jq FILE JQ_ARG...: jq JQ_ARG... on fio's JSON output in FILE. fio 3.33 also writes
# some of its messages into --output, ahead of the JSON ("fio: refusing extend of file
# due to read-only"), and jq rejects such a file: only the lines from a "{" at the start
# of a line to the next "}" there reach jq (fio indents everything inside its object).
fio_jq() {
	_fq=$1
	shift
	sed -n '/^{/,/^}/p' "$_fq" | jq "$@"
}

# clat_max_us: the slowest completion of any job of the last fio run, in us
clat_max_us() {
	# -n and inputs: 0 for a file without a job; the echo: 0 for one jq cannot parse
	fio_jq "$FIO_JSON" -n '[inputs | .jobs[]? | .read, .write, .trim | .clat_ns.max? // 0] | max // 0 | . / 1000 | floor' ||
		echo 0
}

# fio_read_rate: "IOPS KIB_S" of the last fio run's reads, summed over its jobs and
# rounded down (fio's read.iops, read.bw); "0 0" for a file without a job
fio_read_rate() {
	fio_jq "$FIO_JSON" -rn '[inputs | .jobs[]? | .read] | "\(map(.iops // 0) | add // 0 | floor) \(map(.bw // 0) | add // 0 | floor)"' ||
		echo "0 0"
}

# POLL_SHARE: a run with io_poll=1 must have polled at least 1 in POLL_SHARE of the
# I/Os the choice decided (those not declined: a declined I/O takes the interrupt
# because another task was runnable, by design). Where the interrupt measured faster,
# the choice (patch 14) still polls one I/O in 128, a probe: 256 is half of that, room
# for probes that were declined or recorded neither way (a split bio). At 128 such a
# run would sit on the limit and fail at random; at 512 a kernel probing half as often
# as it says would pass.
POLL_SHARE=256

# poll_share_ok STAT [IOS]: the poll_stat_delta line STAT shows a run that polled:
# poll_completions > 0 (a waiter found its I/O done by polling: nothing else shows it
# polled) and polled I/Os (poll_completions + irq_completions, the latter completed
# while their waiter slept) >= 1/POLL_SHARE of the decided ones; those are what
# poll_stat saw, or the run's IOS (fio's count) when more, less the declined (an I/O
# that bypassed the choice must not shrink the share). One diagnostic line either way.
poll_share_ok() {
	[ "$1" != absent ] || { echo "# no poll_stat (CONFIG_BLK_DEBUG_FS, the series): cannot tell polled I/Os"; return 1; }
	_psk_pc=$(poll_stat_get "$1" poll_completions)
	_psk_ic=$(poll_stat_get "$1" irq_completions)
	_psk_dec=$(poll_stat_get "$1" declined)
	_psk_seen=$((_psk_dec + $(poll_stat_get "$1" irq_chosen) + _psk_pc + _psk_ic))
	_psk_n=${2:-0}
	[ "$_psk_n" -ge "$_psk_seen" ] || _psk_n=$_psk_seen
	_psk_min=$(((_psk_n - _psk_dec) / POLL_SHARE))
	[ "$_psk_min" -ge 1 ] || _psk_min=1
	echo "# polled: $_psk_pc found by polling + $_psk_ic while asleep = $((_psk_pc + _psk_ic)) of $((_psk_n - _psk_dec)) decided I/Os (want >= $_psk_min, 1/$POLL_SHARE; $_psk_dec declined; poll_stat saw $_psk_seen${2:+ of $2})"
	[ "$_psk_pc" -gt 0 ] && [ $((_psk_pc + _psk_ic)) -ge "$_psk_min" ]
}

# poll_none_ok STAT: the poll_stat_delta line STAT shows a run (a control with io_poll=0)
# that polled nothing: poll_completions and irq_completions 0. An absent poll_stat
# fails: a control that cannot see polling must not pass as "did not poll".
poll_none_ok() {
	[ "$1" != absent ] || { echo "# no poll_stat (CONFIG_BLK_DEBUG_FS, the series): cannot tell polled I/Os"; return 1; }
	_pno=$(($(poll_stat_get "$1" poll_completions) + $(poll_stat_get "$1" irq_completions)))
	echo "# polled I/Os: $_pno (want 0)"
	[ "$_pno" -eq 0 ]
}

# fio_jobs JSON: one line a job: name err rbytes rios wbytes wios total_err (0 for a
# figure the job lacks: total_err is only there with continue_on_error). Nothing for an
# empty, missing or unparsable file, and never a failure (callers run under set -e).
fio_jobs() {
	[ -f "$1" ] || return 0
	fio_jq "$1" -r '.jobs[]? | "\(.jobname) \(.error // 0) \(.read.io_bytes // 0) \(.read.total_ios // 0) \(.write.io_bytes // 0) \(.write.total_ios // 0) \(.total_err // 0)"' || :
}

# fio_error_is CODE...: some job of the last fio run (FIO_JSON) ended with one of these
# error codes (errno values: 5 EIO, 19 ENODEV)
fio_error_is() {
	# -n and inputs: jq -e exits 0 on an empty input, this way it is false
	# shellcheck disable=SC2016 # $c and $codes are jq's
	fio_jq "$FIO_JSON" -n -e --arg codes "$*" \
		'($codes | split(" ") | map(tonumber)) as $c | any(inputs | .jobs[]?; .error | IN($c[]))' >/dev/null
}

# FIO_RC, FIO_JOBS, FIO_ERR, FIO_RBYTES, FIO_RIOS, FIO_WBYTES, FIO_WIOS, FIO_VERR are set
# by fio_run. FIO_VERR counts verify failure messages, FIO_ERR jobs with error != 0 or
# total_err != 0.
FIO_SEQ=0
# fio_run ARG...: run fio with JSON output into /tmp/fio.N.{json,log}
fio_run() {
	FIO_SEQ=$((FIO_SEQ + 1))
	FIO_JSON=/tmp/fio.$FIO_SEQ.json FIO_LOG=/tmp/fio.$FIO_SEQ.log
	FIO_RC=0
	fio --output-format=json --output="$FIO_JSON" "$@" > "$FIO_LOG" 2>&1 || FIO_RC=$?
	fio_judge
}

# fio_judge: fill the FIO_* figures from FIO_JSON, FIO_LOG and FIO_RC
fio_judge() {
	[ -f "$FIO_JSON" ] || : > "$FIO_JSON"
	fio_jobs "$FIO_JSON" > "$FIO_JSON.jobs"
	# shellcheck disable=SC2046 # six numbers
	set -- $(awk '{ n++; if ($2 != 0 || $7 != 0) e++; rb += $3; ri += $4; wb += $5; wi += $6 }
		END { printf "%d %d %d %d %d %d\n", n, e, rb, ri, wb, wi }' "$FIO_JSON.jobs")
	FIO_JOBS=$1 FIO_ERR=$2 FIO_RBYTES=$3 FIO_RIOS=$4 FIO_WBYTES=$5 FIO_WIOS=$6
	FIO_VERR=$(grep -cE '^verify: |verify failed|bad magic header|bad header|bad pattern' "$FIO_LOG" || true)
}

# fio_figures: one diagnostic line for the last fio_run
fio_figures() {
	printf 'rc=%s jobs=%s job_errors=%s verify_errors=%s read_bytes=%s read_ios=%s write_bytes=%s write_ios=%s' \
		"$FIO_RC" "$FIO_JOBS" "$FIO_ERR" "$FIO_VERR" "$FIO_RBYTES" "$FIO_RIOS" "$FIO_WBYTES" "$FIO_WIOS"
}

# fio_clean: the last run succeeded: exit 0, every job error 0, no verify message,
# at least one job reported
fio_clean() {
	[ "$FIO_RC" -eq 0 ] && [ "$FIO_ERR" -eq 0 ] && [ "$FIO_VERR" -eq 0 ] && [ "$FIO_JOBS" -gt 0 ]
}

# fio_passed: the last fio run was clean and read (verified) something
fio_passed() {
	fio_clean && [ "$FIO_RBYTES" -gt 0 ]
}

# fio_dump: the last fio run's log and per-job figures as TAP diagnostics
fio_dump() {
	grep -vE '^ *$' "$FIO_LOG" | head -15 | sed 's/^/#   /'
	sed 's/^/#   job: /' "$FIO_JSON.jobs"
}

# fio_report DESC: diagnostics and one TAP line for the last fio run, which must pass
# (fio_passed).
fio_report() {
	tap_diag "  $(fio_figures)"
	if fio_passed; then
		tap_ok "$1"
	else
		tap_not_ok "$1"
		fio_dump
	fi
}

# corrupt_block DEV_OR_FILE BYTE_OFFSET: overwrite 4 KiB there with random bytes, O_DIRECT
corrupt_block() {
	dd if=/dev/urandom of="$1" bs=4096 count=1 seek=$(($2 / 4096)) conv=notrunc oflag=direct 2>/dev/null
	tap_diag "BLKPOLL_BREAK: corrupted 4 KiB of $1 at byte $2"
}

# zero_md5 LEN: md5 of LEN zero bytes
zero_md5() {
	head -c "$1" /dev/zero | md5sum | cut -d' ' -f1
}

# reads_zero FILE OFFSET LEN: an O_DIRECT read of LEN bytes at OFFSET returns zeros
reads_zero() {
	_got=$(dd if="$1" bs="$3" count=1 skip=$(($2 / $3)) iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1)
	[ "$_got" = "$(zero_md5 "$3")" ]
}

# fio_start ARG...: fio in the background (FIO_PID); fio_wait reaps it and judges it
fio_start() {
	FIO_SEQ=$((FIO_SEQ + 1))
	FIO_JSON=/tmp/fio.$FIO_SEQ.json FIO_LOG=/tmp/fio.$FIO_SEQ.log
	rm -f "$FIO_JSON.rc"
	(
		_rc=0
		fio --output-format=json --output="$FIO_JSON" "$@" > "$FIO_LOG" 2>&1 || _rc=$?
		echo "$_rc" > "$FIO_JSON.rc"
	) &
	FIO_PID=$!
}

# fio_running: the fio of the last fio_start has not finished
fio_running() {
	[ ! -e "$FIO_JSON.rc" ]
}

fio_wait() {
	wait "$FIO_PID" || true
	FIO_RC=$(cat "$FIO_JSON.rc" 2>/dev/null || echo 255)
	fio_judge
}

# uptime_ds: time since boot in tenths of a second
uptime_ds() {
	read -r _up _ < /proc/uptime
	# the fraction has two digits; 1xx - 100 keeps a leading 0 from meaning octal
	echo $((${_up%.*} * 10 + (1${_up#*.} - 100) / 10))
}

# wait_dead PID SECS: wait until PID is gone or a zombie (then reap it), at most SECS
wait_dead() {
	_n=0
	while [ -e "/proc/$1" ] && [ "$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" != Z ]; do
		_n=$((_n + 1))
		[ "$_n" -le $(($2 * 10)) ] || return 1
		sleep 0.1
	done
	wait "$1" 2>/dev/null || true
}

# fio_verify_only ARG...: fio_run ARG... --verify_only, without any --verify_backlog:
# fio 3.33 reads but checks nothing when both are given
fio_verify_only() {
	_n=$#
	while [ "$_n" -gt 0 ]; do
		case $1 in
		--verify_backlog=*) ;;
		*) set -- "$@" "$1" ;;
		esac
		shift
		_n=$((_n - 1))
	done
	fio_run "$@" --verify_only
}

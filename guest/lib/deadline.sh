# shellcheck shell=sh
# Two things guest tests share, both from /proc alone: hard per-step deadlines
# (deadline, dl_run, dl_wait, dl_until) and counting the interrupts of the NVMe
# controllers behind a block device (irqs_of, dl_ctrls). Interrupt counting has
# nothing to do with fio, so it is not in fio-check.sh; the scripts that count
# interrupts source it from here.
# Source after tap.sh.
#
# deadline SECS DESC CMD [ARG...]: one TAP test. CMD (a command or a shell function,
#   run in a background subshell, so variables it sets do not come back) gets at most
#   SECS seconds: `ok` when it exits 0 in time, `not ok` when it exits non-zero or
#   misses the deadline. A miss dumps the blocked tasks into the kernel log
#   (sysrq w), prints the dmesg tail as TAP comments and SIGKILLs CMD and everything
#   it started (a task stuck in D state outlives that; the script goes on anyway).
#   CMD's output follows as TAP comments (lines starting with "# " or "BENCH " as they are).
# dl_run SECS CMD [ARG...]: the same without a TAP line (cleanups): DL_RC is CMD's
#   exit status, or "hung"; returns 0 iff CMD exited 0 in time.
# dl_wait SECS CMD [ARG...]: dl_run without printing CMD's output: it is left in the
#   file DL_OUT (for a caller that reads CMD's TAP itself).
# dl_until SECS CMD [ARG...]: run CMD every 0.1 s until it succeeds; fails when it
#   has not within SECS seconds (a device node to appear, a controller to go live).
# irqs_of DEV...: interrupts so far on the NVMe controllers behind the block devices
#   (through partitions and dm/md slaves), summed over the nvmeXqN lines of
#   /proc/interrupts and all CPUs; fails when no such line exists (a measurement that
#   cannot see interrupts must not pass as "no interrupts").

DL_SEQ=0
DL_RC=0
DL_DMESG_LINES=${DL_DMESG_LINES:-150}
DL_SYSRQ=${DL_SYSRQ:-/proc/sysrq-trigger}
DL_INTERRUPTS=${DL_INTERRUPTS:-/proc/interrupts}
DL_DIR=${DL_DIR:-/tmp}

# dl_now: tenths of a second since boot
dl_now() {
	read -r _dl_up _ < /proc/uptime
	echo $((${_dl_up%.*} * 10 + (1${_dl_up#*.} - 100) / 10))
}

# dl_alive PID: PID exists and is not a zombie
dl_alive() {
	[ -e "/proc/$1" ] || return 1
	{ read -r _dl_st < "/proc/$1/stat"; } 2> /dev/null || return 1
	_dl_st=${_dl_st##*) }
	[ "${_dl_st%% *}" != Z ]
}

# dl_tree PID: PID and its descendants, parents first
dl_tree() {
	echo "$1"
	for _dl_f in /proc/[0-9]*/stat; do
		{ read -r _dl_l < "$_dl_f"; } 2> /dev/null || continue
		_dl_l=${_dl_l##*) }
		_dl_l=${_dl_l#* }
		if [ "${_dl_l%% *}" = "$1" ]; then
			_dl_c=${_dl_f#/proc/}
			dl_tree "${_dl_c%/stat}"
		fi
	done
}

# dl_state PID: one line: state and kernel stack of a process (for a miss)
dl_state() {
	{ read -r _dl_l < "/proc/$1/stat"; } 2> /dev/null || return 0
	_dl_n=${_dl_l#*(}
	_dl_n=${_dl_n%%)*}
	_dl_l=${_dl_l##*) }
	printf '# pid %s (%s) state %s, stack: %s\n' "$1" "$_dl_n" "${_dl_l%% *}" \
		"$(awk '{ printf "%s ", $2 }' "/proc/$1/stack" 2> /dev/null)"
}

dl_wait() {
	_dl_secs=$1
	shift
	DL_SEQ=$((DL_SEQ + 1))
	DL_OUT=$DL_DIR/deadline.$DL_SEQ.out
	"$@" > "$DL_OUT" 2>&1 < /dev/null &
	_dl_pid=$!
	_dl_end=$(($(dl_now) + _dl_secs * 10))
	while dl_alive "$_dl_pid" && [ "$(dl_now)" -lt "$_dl_end" ]; do
		sleep 0.2
	done
	if dl_alive "$_dl_pid"; then
		DL_RC=hung
		tap_diag "no result after $_dl_secs s: $*"
		_dl_pids=$(dl_tree "$_dl_pid")
		for _dl_p in $_dl_pids; do dl_state "$_dl_p"; done
		echo w > "$DL_SYSRQ" 2> /dev/null || tap_diag "$DL_SYSRQ not writable"
		sleep 1
		tap_diag "dmesg tail (blocked tasks from sysrq w):"
		# from a few lines before the dump just made, at most DL_DMESG_LINES
		dmesg | awk -v max="$DL_DMESG_LINES" '{ l[NR] = $0 } /sysrq: Show Blocked State/ { s = NR }
			END { b = s > 10 ? s - 10 : 1; if (NR - b >= max) b = NR - max + 1
				for (i = b; i <= NR; i++) print l[i] }' | sed 's/^/#   dmesg: /'
		for _dl_p in $_dl_pids; do kill -KILL "$_dl_p" 2> /dev/null || true; done
		_dl_end=$(($(dl_now) + 50))
		while dl_alive "$_dl_pid" && [ "$(dl_now)" -lt "$_dl_end" ]; do sleep 0.2; done
		if dl_alive "$_dl_pid"; then
			tap_diag "still there 5 s after SIGKILL, left behind:"
			for _dl_p in $_dl_pids; do dl_state "$_dl_p"; done
		else
			wait "$_dl_pid" 2> /dev/null || true
		fi
	else
		if wait "$_dl_pid"; then DL_RC=0; else DL_RC=$?; fi
	fi
	[ "$DL_RC" = 0 ]
}

dl_run() {
	_dl_rc=0
	dl_wait "$@" || _dl_rc=1
	sed 's/^/#   /; s/^#   # /# /; s/^#   BENCH /BENCH /' "$DL_OUT"
	return "$_dl_rc"
}

dl_until() {
	_du_end=$(($(dl_now) + $1 * 10))
	shift
	until "$@"; do
		[ "$(dl_now)" -lt "$_du_end" ] || return 1
		sleep 0.1
	done
}

deadline() {
	_dl_desc=$2
	_dl_s=$1
	shift 2
	if dl_run "$_dl_s" "$@"; then
		tap_ok "$_dl_desc"
	elif [ "$DL_RC" = hung ]; then
		tap_not_ok "$_dl_desc (HUNG: no result within the $_dl_s s deadline)"
	else
		tap_not_ok "$_dl_desc (exit status $DL_RC)"
	fi
}

# dl_ctrls DEV...: the NVMe controllers (nvme0 ...) behind block devices (through dm
# slaves and NVMe multipath paths), one a line
dl_ctrls() {
	for _dl_d in "$@"; do
		_dl_n=$(readlink -f "$_dl_d" 2> /dev/null || echo "$_dl_d")
		_dl_n=${_dl_n##*/}
		if [ -e "/sys/class/block/$_dl_n/partition" ]; then
			_dl_n=$(readlink -f "/sys/class/block/$_dl_n/..")
			_dl_n=${_dl_n##*/}
		fi
		_dl_s=$(ls "/sys/block/$_dl_n/slaves" 2> /dev/null || true)
		# an NVMe multipath head node (nvmeXnY, no controller): its paths nvmeXcZnY
		case $(readlink "/sys/block/$_dl_n/device" 2> /dev/null) in
		*/nvme-subsys[0-9]*)
			for _dl_p in /sys/block/"${_dl_n%n[0-9]*}"c*n"${_dl_n##*n}"; do
				[ ! -e "$_dl_p" ] || _dl_s="$_dl_s ${_dl_p##*/}"
			done
			;;
		esac
		if [ -n "$_dl_s" ]; then
			# shellcheck disable=SC2086 # one name a word
			dl_ctrls $_dl_s
			continue
		fi
		_dl_c=$(readlink "/sys/block/$_dl_n/device" 2> /dev/null || true)
		_dl_c=${_dl_c##*/}
		case $_dl_c in
		nvme[0-9]*) echo "$_dl_c" ;;
		*)
			case $_dl_n in
			nvme[0-9]*n[0-9]*) echo "${_dl_n%n[0-9]*}" ;;
			esac
			;;
		esac
	done
}

irqs_of() {
	_dl_cs=$(dl_ctrls "$@" | sort -u | tr '\n' ' ')
	[ -n "$_dl_cs" ] || {
		echo "irqs_of: no NVMe controller behind $*" >&2
		return 1
	}
	awk -v ctrls="$_dl_cs" '
	BEGIN { n = split(ctrls, c, " "); for (i = 1; i <= n; i++) want[c[i]] = 1 }
	NR == 1 { ncpu = NF; next }
	{
		hit = 0
		for (i = ncpu + 2; i <= NF; i++) {
			f = $i
			sub(/,$/, "", f)
			q = f
			sub(/q[0-9]+$/, "", q)
			if (q != f && (q in want)) hit = 1
		}
		if (!hit) next
		lines++
		for (i = 2; i <= ncpu + 1; i++) if ($i ~ /^[0-9]+$/) s += $i
	}
	END {
		if (!lines) { printf "irqs_of: no line of %s in /proc/interrupts\n", ctrls > "/dev/stderr"; exit 1 }
		printf "%d\n", s
	}' "$DL_INTERRUPTS"
}

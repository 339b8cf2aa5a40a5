#!/bin/sh
# shellcheck disable=SC2016 # the commands in single quotes expand in g's shell
# The guest's jq readers of fio's JSON output (guest/lib/fio-check.sh fio_jq, fio_jobs,
# fio_judge, fio_error_is, fio_read_rate, clat_max_us, which queues.sh and
# no-spare-queue.sh use from there) on real fio runs on the host, under busybox sh with
# set -eu as in the guest: the figures are the ones asked for, fio's messages around
# the JSON are skipped, and an empty, garbage, cut-off or missing file gives no job and
# does not fail the caller. Then fio-check.sh's judges of poll_stat lines
# (poll_share_ok, poll_none_ok), each seen to pass and to fail.
set -eu
. "$(dirname "$0")/lib.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM
if ! command -v fio >/dev/null || ! command -v jq >/dev/null || [ ! -x /bin/busybox ]; then
	t_ok "fio-check # SKIP no fio, jq or busybox on the host"
	t_end
	exit
fi

# g CMD: CMD in busybox sh -eu with the guest's helpers; D is $d.
g() {
	D=$d /bin/busybox sh -c '. "$0/guest/lib/tap.sh"; . "$0/guest/lib/fio-check.sh"
		. "$0/guest/lib/poll-stat.sh"
		set -eu
		eval "$1"' "$TOP" "$1"
}
# lines N DESC: the last output has N lines
lines() {
	if [ "$(printf '%s\n' "$T_OUT" | grep -c .)" -eq "$1" ]; then
		t_ok "$2"
	else
		t_not_ok "$2"
		printf '%s\n' "$T_OUT" | tail -10 | sed 's/^/#   /'
	fi
}

# Two jobs of 1 MiB in 4 KiB psync I/Os: one reads, one writes and verifies (reads back).
fio --output-format=json --output="$d/two.json" --ioengine=psync --bs=4k --size=1M \
	--name=plain --filename="$d/f1" --rw=randread \
	--name=verified --filename="$d/f2" --rw=write --verify=crc32c --verify_state_save=0 > "$d/two.log" 2>&1
t_expect 0 "fio_jobs on fio $(fio --version) JSON of 2 jobs" g 'fio_jobs "$D/two.json"'
lines 2 "one line a job"
t_grep '^plain 0 1048576 256 0 0 0$' "the reader: no error, 1 MiB read in 256 I/Os, nothing written"
t_grep '^verified 0 1048576 256 1048576 256 0$' "the verified writer: 1 MiB written and read back, 256 I/Os each"
t_expect 0 "fio_judge sums the jobs" g 'FIO_JSON=$D/two.json FIO_LOG=$D/two.log FIO_RC=0
	fio_judge; fio_figures; fio_passed && echo " passed"'
t_grep '^rc=0 jobs=2 job_errors=0 verify_errors=0 read_bytes=2097152 read_ios=512 write_bytes=1048576 write_ios=256 passed$' \
	"2 jobs, 2 MiB read, 1 MiB written, no error: fio_passed"

# fio_read_rate: the reads' IOPS and KiB/s summed over the jobs, as jq reads them
want=$(jq -r '[.jobs[].read] | "\(map(.iops) | add | floor) \(map(.bw) | add | floor)"' "$d/two.json")
t_expect 0 "fio_read_rate runs" g 'FIO_JSON=$D/two.json fio_read_rate'
t_expect 0 "fio_read_rate is the jobs' read IOPS and KiB/s summed ($want)" test "$T_OUT" = "$want"
t_expect 0 "fio_read_rate of a file without a job" g 'FIO_JSON=$D/nothing.json fio_read_rate 2>/dev/null'
t_grep '^0 0$' "is 0 0"

# clat_max_us: against Python's JSON parser, and a maximum planted in the second job's writes
t_expect 0 "clat_max_us runs" g 'FIO_JSON=$D/two.json clat_max_us'
got=$T_OUT
if command -v python3 >/dev/null; then
	want=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(max(j[k]["clat_ns"]["max"] for j in d["jobs"] for k in ("read", "write", "trim")) // 1000)' "$d/two.json")
	t_expect 0 "clat_max_us is the slowest clat_ns.max of any job, in us ($want, as Python reads it)" \
		test "$got" = "$want"
else
	t_ok "clat_max_us against Python # SKIP no python3"
fi
jq '.jobs[1].write.clat_ns.max = 7654321' "$d/two.json" > "$d/planted.json"
t_expect 0 "clat_max_us with 7654321 ns planted in the second job's writes" \
	g 'FIO_JSON=$D/planted.json clat_max_us'
t_grep '^7654$' "is 7654 us"

# fio's own messages: fio 3.33 copies some into --output, ahead of the JSON.
fio --output-format=json --output="$d/ro.json" --name=ro --filename="$d/nope" --readonly \
	--rw=read --bs=4k --size=1M > "$d/ro.log" 2>&1 || true
t_expect 0 "fio wrote a message ahead of its JSON (why fio_jq starts at a '{' line)" \
	sh -c "head -1 '$d/ro.json' | grep -v '^{'"
t_expect 0 "fio_jobs reads that file" g 'fio_jobs "$D/ro.json"'
t_grep '^ro 2 0 0 0 0 0$' "one job, error 2 (ENOENT), nothing read"
t_expect 0 "fio_error_is 2 there" g 'FIO_JSON=$D/ro.json fio_error_is 2'
t_expect 1 "but not fio_error_is 5 19" g 'FIO_JSON=$D/ro.json fio_error_is 5 19'
t_expect 1 "nor fio_error_is 5 on the clean run" g 'FIO_JSON=$D/two.json fio_error_is 5'
{ echo 'fio: text ahead'; cat "$d/two.json"; echo 'fio: text after'; } > "$d/noisy.json"
t_expect 0 "text before and after the JSON" g 'fio_jobs "$D/noisy.json"; FIO_JSON=$D/noisy.json clat_max_us'
t_expect 0 "gives the same jobs and clat max" \
	test "$T_OUT" = "$(printf 'plain 0 1048576 256 0 0 0\nverified 0 1048576 256 1048576 256 0\n%s' "$got")"

# Nothing to read: no job line, the caller (set -eu) goes on, clat max 0, no error code.
: > "$d/empty.json"
printf 'fio: no JSON here\n' > "$d/garbage.json"
head -c 2000 "$d/two.json" > "$d/cut.json"
for f in empty garbage cut missing; do
	t_expect 0 "$f file: fio_jobs prints no job, and the caller (set -eu) goes on" \
		g 'fio_jobs "$D/'"$f"'.json" 2>/dev/null; echo end'
	lines 1 "$f file: only the caller's line"
	t_expect 0 "$f file: clat_max_us" g 'FIO_JSON=$D/'"$f"'.json clat_max_us 2>/dev/null'
	t_grep '^0$' "$f file: is 0"
	t_expect nonzero "$f file: fio_error_is 2 is false" g 'FIO_JSON=$D/'"$f"'.json fio_error_is 2 2>/dev/null'
	# last: fio_judge creates a missing file
	t_expect 0 "$f file: fio_judge" g 'FIO_JSON=$D/'"$f"'.json FIO_LOG=$D/two.log FIO_RC=0
		fio_judge 2>/dev/null; echo "jobs=$FIO_JOBS"; fio_clean || echo unclean'
	t_grep '^jobs=0$' "$f file: counts 0 jobs"
	t_grep '^unclean$' "$f file: and fio_clean fails"
done

# dio_einval on a file of a filesystem with O_DIRECT (tmpfs has none): the build
# directory's, else the repository's
o=$(mktemp -d -p "$( [ -d "$TOP/build" ] && echo "$TOP/build" || echo "$TOP")")
dd if=/dev/zero of="$o/f" bs=64k count=1 2> /dev/null
einval() { sh -c '. "$1/guest/lib/fio-check.sh"; shift; dio_einval "$@"' sh "$TOP" "$o/f" "$@"; }
t_expect 0 "dio_einval: an O_DIRECT read at offset 1 fails with EINVAL" einval 1 4096
t_expect 0 "dio_einval: an O_DIRECT read of 4095 bytes fails with EINVAL" einval 0 4095
t_expect 1 "dio_einval: an aligned O_DIRECT read does not" einval 0 4096
t_grep 'read 4096/4096 bytes' "and says what it did"
t_grep 'not EINVAL$' "and that it was not EINVAL"
rm -rf "$o"

# poll_share_ok / poll_none_ok on poll_stat_delta lines as the guest makes them
ps() { printf 'declined %s irq_chosen %s polls 9 spins 9 poll_completions %s irq_completions %s backoffs 0 hybrid_sleeps 0 hybrid_sleep_ns 0' "$@"; }
t_expect 0 "poll_share_ok: 1800 of 2000 I/Os found by polling" g "poll_share_ok '$(ps 0 200 1800 0)' 2000"
t_grep 'want >= 7,' "wants 2000/256 = 7 polled"
t_expect 0 "poll_share_ok: 8 probes polled (7 found by polling, 1 asleep) of 2000, 1992 irq_chosen" \
	g "poll_share_ok '$(ps 0 1992 7 1)' 2000"
t_expect 1 "but not 6 of 2000 (under 1/256)" g "poll_share_ok '$(ps 0 1994 6 0)' 2000"
t_expect 1 "nor 2000 polled I/Os none of which a waiter found by polling" g "poll_share_ok '$(ps 0 0 0 2000)' 2000"
t_expect 0 "6 polled I/Os are the share of the 6 poll_stat saw" g "poll_share_ok '$(ps 0 0 6 0)'"
t_expect 1 "but not of 2000 fio I/Os (the rest bypassed the choice)" g "poll_share_ok '$(ps 0 0 6 0)' 2000"
t_expect 0 "declined I/Os are not in the share: 1990 declined, 1 polled of 2000" g "poll_share_ok '$(ps 1990 9 1 0)' 2000"
t_expect 1 "a run with io_poll=0 (nothing counted) fails" g "poll_share_ok '$(ps 0 0 0 0)' 2000"
t_expect 1 "an absent poll_stat fails" g "poll_share_ok absent 2000"
t_grep 'cannot tell' "and says it cannot tell"
t_expect 0 "poll_none_ok: nothing polled" g "poll_none_ok '$(ps 0 0 0 0)'"
t_expect 1 "poll_none_ok: one I/O found by polling fails" g "poll_none_ok '$(ps 0 0 1 0)'"
t_expect 1 "poll_none_ok: one polled I/O completed while asleep fails" g "poll_none_ok '$(ps 0 0 0 1)'"
t_expect 1 "poll_none_ok: an absent poll_stat fails" g "poll_none_ok absent"
t_end

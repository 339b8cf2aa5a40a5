#!/bin/sh
# scripts/check-log.sh: TAP/BENCH extraction and the verdict on a guest console log.
set -eu
. "$(dirname "$0")/lib.sh"
C=$TOP/scripts/check-log.sh
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT INT TERM

good() {
	printf '[    0.000000] Linux version 6.12.0\r\n'
	printf '[    1.100000] nvme nvme0: 2/0/0 default/read/poll queues\r\n'
	printf '# init: running /guest/smoke.sh\r\n'
	printf 'ok 1 - disk exists\r\n'
	printf '# a test may print WARNING: or BUG: in its own output\r\n'
	printf 'BENCH test=x iops=1234\r\n'
	printf '1..1\r\n'
	printf 'BLKPOLL-DONE rc=0\r\n'
	printf '[    2.000000] BLKPOLL-DONE rc=0\r\n'
	printf '[    2.100000] reboot: Power down\r\n'
}
good > "$d/good.log"
t_expect 0 "a clean log passes" sh "$C" "$d/good.log"
t_grep 'good.log: 1 ok, 0 skipped, 0 not ok' "it counts the pass"
good | sed 's/^1\.\.1/ok 2 - tracepoint # SKIP not run: no tracepoint\r/' > "$d/skip.log"
printf '1..2\r\n' >> "$d/skip.log"
t_expect 0 "a log with a skip passes" sh "$C" "$d/skip.log"
t_grep 'skip.log: 1 ok, 1 skipped, 0 not ok' "the skip is counted apart, not as ok"
t_expect 0 "TAP lines are extracted without CR" grep -qx 'ok 1 - disk exists' "$d/good.tap"
t_expect 0 "kernel lines stay out of the TAP file" sh -c "! grep -q nvme '$d/good.tap'"
t_expect 0 "BENCH lines are extracted" grep -qx 'BENCH test=x iops=1234' "$d/good.bench"

good | sed 's/BLKPOLL-DONE rc=0/BLKPOLL-DONE rc=3/' > "$d/rc.log"
t_expect nonzero "rc != 0 fails" sh "$C" "$d/rc.log"
t_grep 'rc=3' "the guest rc is reported"

good | grep -v BLKPOLL-DONE > "$d/nodone.log"
t_expect nonzero "no BLKPOLL-DONE line fails" sh "$C" "$d/nodone.log"

for s in 'WARNING: CPU: 1 PID: 42 at block/blk-mq.c:123 blk_mq_poll+0x1/0x2' \
	'BUG: kernel NULL pointer dereference, address: 0000000000000008' \
	'Oops: 0000 [#1] SMP' \
	'WARNING: possible circular locking dependency detected' \
	'BUG: KASAN: slab-use-after-free in nvme_poll+0x10/0x20' \
	'INFO: task fio:77 blocked for more than 30 seconds.' \
	'BUG: sleeping function called from invalid context at block/blk-core.c:9' \
	'Kernel panic - not syncing: Attempted to kill init!' \
	'rcu: INFO: rcu_preempt self-detected stall on CPU' \
	'rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:' \
	'rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... } 21002 jiffies s: 113 root: 0x2/.' \
	'watchdog: BUG: soft lockup - CPU#1 stuck for 123s! [fio:81]' \
	'Future hung task reports are suppressed, see sysctl kernel.hung_task_warnings' \
	'Kernel panic - not syncing: hung_task: blocked tasks' \
	'nvme nvme0: I/O tag 12 (300c) QID 2 timeout, completion polled'; do
	{ good | head -3; printf '[    1.500000] %s\r\n' "$s"; good | tail -n +4; } > "$d/splat.log"
	t_expect nonzero "splat fails the run: $s" sh "$C" "$d/splat.log"
done
# Timestamped kernel lines that look like the above but are not failures.
for s in 'Kernel command line: console=ttyS0 hung_task_timeout_secs=30 rcupdate.rcu_cpu_stall_timeout=60 softlockup_panic=0' \
	'nvme nvme0: I/O tag 12 (300c) opcode 0x2 (Read) QID 2 timeout, aborting req_op:READ(0) size:4096' \
	'rcu: RCU calculated value of scheduler-enlistment delay is 25 jiffies.' \
	'watchdog: Delayed init of the lockup detector failed: -19'; do
	{ good | head -3; printf '[    1.500000] %s\r\n' "$s"; good | tail -n +4; } > "$d/alike.log"
	t_expect 0 "harmless look-alike passes: $s" sh "$C" "$d/alike.log"
done
{ good | head -3; printf '# fio: rcu: INFO: rcu_preempt self-detected stall on CPU\r\n'; good | tail -n +4; } > "$d/guest.log"
t_expect 0 "a stall message in the guest's own (untimestamped) output passes" sh "$C" "$d/guest.log"
{ good | head -3; printf '[    1.500000] rcu: INFO: rcu_preempt self-detected stall on CPU\r\n'; good | tail -n +4; } > "$d/splat.log"
t_expect 0 "ALLOW_SPLATS=1 reports but passes" env ALLOW_SPLATS=1 sh "$C" "$d/splat.log"
t_grep 'kernel splat' "the splat is reported"
t_end

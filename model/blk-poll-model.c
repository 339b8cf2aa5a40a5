// SPDX-License-Identifier: GPL-2.0
/*
 * A deterministic model of synchronous direct I/O on one CPU of a real host,
 * waiting by interrupt or by polling, that runs the series' own code: the
 * per-CPU choice and adaptive hybrid polling of block/blk-poll.h, compiled
 * unchanged from the patches (scripts/model.sh), with the waiter's spin
 * budget and backoff constants read from the patches' blk-core.c.
 *
 * What blk-core.c does around those functions is restated here, step for
 * step, in the model's event loop: blk_poll_wait_init() polls only while
 * single_task_running(); blk_poll_choose() asks blk_poll_class_choose()
 * unless the I/O is RWF_HIPRI; blk_poll_wait() sleeps before polling for the
 * time blk_poll_hybrid_sleep_ns() gives, spins while it is alone on its CPU
 * and for at most BLK_POLL_SPIN_NS without a completion, else sleeps an
 * eighth of the time waited (BLK_POLL_BACKOFF_*), and records the wait with
 * blk_poll_class_record().  A poll pass completes every request found done
 * on the CPU's poll queue, other waiters' too, and wakes them.
 *
 * The CPU runs one task at a time, without wakeup preemption (6.12's EEVDF
 * with RUN_TO_PARITY lets the running task finish its slice); interrupts
 * and timer interrupts take their time from whatever runs.  Queues are per
 * CPU, as on a real NVMe controller, so one CPU stands for all of them.
 *
 * Everything is drawn from seeded generators, one stream per task and
 * purpose, so each I/O of a reader meets the same device time under every
 * policy: the policies are compared on the same draws.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blk-poll.h"
#include "blk-core-poll.h"

#if !defined(BLK_POLL_SPIN_NS) || !defined(BLK_POLL_BACKOFF_SHIFT) || \
	!defined(BLK_POLL_BACKOFF_MIN_NS) || !defined(BLK_POLL_BACKOFF_MAX_NS)
#error "the waiter's constants are missing from the patches' blk-core.c"
#endif

/*
 * The host: one core of a current x86 server.  The CPU costs of the read
 * path are set so that a lone polled 4 KiB reader of the Optane model waits
 * 3.4 us, Axboe's P5800X figure (below); they are not measured one by one.
 */
#define SUBMIT_NS	600	/* read() to the doorbell: dio, bio, queue_rq */
#define SUBMIT_MIB_NS	3000	/* a 1 MiB read more: pin and map 256 pages */
#define PASS_NS		100	/* one bio_poll() pass that finds nothing */
#define REAP_NS		200	/* end a request found done: end_request..endio */
#define RETURN_NS	200	/* from the waiter's wake-up back to user space */
#define SWITCH_NS	800	/* schedule() from one task to another */
/*
 * Interrupt and wake-up: the completion reaches the waiter about 3.5 us
 * after the device posted it, on an idle CPU: delivery 0.5, leaving C1
 * 1-2 us (intel_idle's state tables give C1 an exit latency of 1-2 us),
 * the handler 0.7 (nvme_irq, blk_mq_complete_request, the wake-up) and the
 * switch 0.8.  Anchors: Yang, Minturn, Hady, "When Poll Is Better than
 * Interrupt" (FAST '12) measured the interrupt path some microseconds slower
 * than polling; AMD's Onload guide (UG1586, "Polling vs. Interrupts") puts
 * an interrupt and the switch to the woken thread at about a microsecond.
 * At half these costs the Optane model's interrupt wait would be about
 * 1.4x its polled one instead of 1.9x; at twice, 2.9x.
 */
#define IRQ_DELIVERY_NS	500
#define IRQ_NS		(500 + REAP_NS)
#define IDLE_EXIT_NS	1000	/* plus an exponential of IDLE_EXIT_TAIL_NS */
#define IDLE_EXIT_TAIL_NS 500
/*
 * A timer wakes 2-8 us late on a real host (timer interrupt 1-7 us after
 * the expiry, its handler 0.4, the switch 0.8): cyclictest on an idle,
 * non-RT kernel shows a few microseconds on average (OSADL's latency plots,
 * LWN 704870), and the series' own KUnit model of "a real machine's timer"
 * (blk_poll_hybrid_sleeps_where_the_timer_is_punctual) is 2-8 us.  This
 * VM's timer, 65-200 us late, is not modelled.
 */
#define TIMER_LATE_NS	1000	/* plus a uniform draw of TIMER_JITTER_NS */
#define TIMER_JITTER_NS	6000
#define TIMER_NS	400
/* 6.12's base slice 0.75 ms times 1 + log2(CPUs), for 8 CPUs or more */
#define SLICE_NS	3000000

#define MIB		(1024 * 1024)
#define NR_PHASES	3
#define MAX_TASKS	10
#define IOS		20000	/* counted I/Os per run: p99.9 is 20 of them */

/*
 * Devices: the 4 KiB device time is base + uniform(spread) + exponential
 * (tail); a second mode adds slow_ns to slow_per_mille of the reads; a
 * 1 MiB read takes mib_ns more (its transfer at the sequential bandwidth).
 * A device with a middle phase uses that device's figures in its middle
 * third of the I/Os.
 */
struct dev_model {
	const char *name;
	u32 base_ns, spread_ns, tail_ns;
	u32 slow_ns, slow_per_mille;
	u32 mib_ns;
	const struct dev_model *middle;
};

/*
 * Intel Optane SSD P5800X: 3.4 us a 4 KiB read polled at QD1, 290K IOPS on
 * one core (Jens Axboe's figures, as issue 41 quotes them): 2.4 us of device
 * time with the costs above; 7.2 GB/s sequential reads (Intel's data sheet).
 */
static const struct dev_model optane = {
	.name = "optane", .base_ns = 2200, .tail_ns = 200,
	.mib_ns = 145600,
};

/*
 * A fast NAND SSD, Samsung 983 ZET class: Z-NAND is an SLC NAND whose page
 * read (tR) takes 3 us against 45-60 us for TLC (AnandTech's 983 ZET
 * review, its table of Samsung's NAND).  The drive's 4 KiB QD1 read of
 * about 20 us adds the controller and the transfer to tR: a modelling
 * figure, not a vendor's.  3.4 GB/s sequential.
 */
static const struct dev_model nand = {
	.name = "nand", .base_ns = 14000, .tail_ns = 6000,
	.mib_ns = 308400,
};

/*
 * A 100 us device: a TLC NVMe SSD, Micron 9200 (data sheet: "latency to
 * media, typical (QD = 1) READ: 92-150 us", 3.5 GB/s sequential reads).
 */
static const struct dev_model tlc100 = {
	.name = "tlc100", .base_ns = 92000, .tail_ns = 8000,
	.mib_ns = 299600,
};

/*
 * A 2 ms device: a 15,000 rpm disk reading within a few tracks, whose
 * rotational latency is uniform over one turn, 0-4 ms (2 ms on average),
 * 250 MB/s sequential.
 */
static const struct dev_model disk2ms = {
	.name = "disk2ms", .spread_ns = 4000000,
	.mib_ns = 4194000,
};

/*
 * Two latency modes: a TLC SSD whose reads take 60-80 us from the array,
 * and one in ten waits for a program on its die first (tPROG 660-700 us,
 * AnandTech's table of Samsung's NAND, as above).
 */
static const struct dev_model bimodal = {
	.name = "bimodal", .base_ns = 60000, .tail_ns = 20000,
	.slow_ns = 700000, .slow_per_mille = 100, .mib_ns = 299600,
};

/*
 * A device whose latency changes mid-run: the fast NAND SSD above, whose
 * reads take the 2 ms disk's time in the middle third of the run (garbage
 * collection, a thermal throttle, a path failing over), then recover.
 */
static const struct dev_model shift = {
	.name = "shift", .base_ns = 14000, .tail_ns = 6000,
	.mib_ns = 308400, .middle = &disk2ms,
};

static const struct dev_model *const devices[] = {
	&optane, &nand, &tlc100, &disk2ms, &bimodal, &shift,
};

/* Loads on one CPU: the counted readers and what runs beside them. */
struct load {
	const char *name;
	int readers;
	bool hog;	/* a CPU-bound task */
	bool hipri;	/* an RWF_HIPRI reader, not counted */
	bool think;	/* CPU work of twice the interrupt wait between reads */
	bool mix;	/* 4 KiB and 1 MiB reads, half each */
};

static const struct load loads[] = {
	{ .name = "j1", .readers = 1 },
	{ .name = "j2", .readers = 2 },
	{ .name = "j4", .readers = 4 },
	{ .name = "j8", .readers = 8 },
	{ .name = "hog", .readers = 1, .hog = true },
	{ .name = "think", .readers = 1, .think = true },
	{ .name = "mix", .readers = 1, .mix = true },
	{ .name = "hipri", .readers = 1, .hipri = true },
};

/* io_poll=0; RWF_HIPRI on every counted read; io_poll=1 */
enum policy { P_IRQ, P_POLL, P_CHOICE, NR_POLICIES };
static const char *const policy_name[] = { "irq", "poll", "choice" };

/* What replaces blk_poll_class_choose() to show that the targets can fail. */
enum standin { SERIES, ALWAYS_POLL, NEVER_POLL };
static enum standin standin;

struct cfg {
	const struct dev_model *dev;
	const struct load *load;
	enum policy policy;
	int poll_delay;		/* queue/io_poll_delay */
	u64 think_ns;
	u64 seed;
	int nr_phases;		/* phases told apart in the results */
};

/* splitmix64 (Steele, Lea, Flood): small, and enough for a model */
struct rng {
	u64 s;
};

static u64 rng_next(struct rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double rng_unit(struct rng *r)
{
	return (rng_next(r) >> 11) * 0x1.0p-53;
}

static u64 rng_exp(struct rng *r, double mean)
{
	return (u64)(-mean * log(1.0 - rng_unit(r)));
}

enum tstate { T_READY, T_RUN, T_BLOCKED };

/* What the task does when its running segment ends. */
enum step {
	ST_START, ST_THINK, ST_SUBMIT, ST_SPIN, ST_DECIDE, ST_RETURN, ST_HOG,
	ST_WOKE_IRQ, ST_WOKE_HYBRID, ST_WOKE_BACKOFF,
};

enum blocked { BL_IRQ, BL_HYBRID, BL_BACKOFF };

struct task {
	bool hog, hipri, counted;
	enum tstate state;
	enum step step;
	enum blocked blocked;
	u64 ready_seq;
	u64 seg_start, seg_end, seg_steal;
	u64 timer;		/* expiry of a blocked task's timer, 0 if none */
	struct rng dev_rng;	/* one size, mode and time per I/O */
	struct rng rng;		/* timers, idle exits */

	/* the I/O in flight */
	bool in_flight, polled, irq_sent, reaped;
	u64 done_at;
	u32 bytes;
	int phase;

	/* struct blk_poll_wait, and blk_poll_wait()'s locals */
	bool poll;
	int class;
	u64 start_ns, wait_start, spin_start, sleep_start, sleep_ns;

	u64 sys_start;
	u64 cpu_ns;		/* its read path, interrupts included */
};

struct result {
	u64 ios, elapsed_ns, cpu_ns;
	u64 *lat;
	u64 phase_ios[NR_PHASES], phase_ns[NR_PHASES];
	u64 polled[NR_PHASES], irq_chosen[NR_PHASES], declined[NR_PHASES];
	u64 hybrid_sleeps;
};

struct sim {
	const struct cfg *cfg;
	u64 now, cpu_free_at, seq;
	int cur, nr_tasks;
	struct task t[MAX_TASKS];
	struct blk_poll_cpu pc;	/* the CPU's polling state, as the kernel's */
	struct result *res;
	u64 phase_start;
};

static int nr_running(const struct sim *s)
{
	int i, n = 0;

	for (i = 0; i < s->nr_tasks; i++)
		n += s->t[i].state != T_BLOCKED;
	return n;
}

static int phase_of(const struct sim *s)
{
	return min(s->res->ios * NR_PHASES / IOS, NR_PHASES - 1);
}

/* Start a running segment of @len ns of CPU that ends with @step. */
static void seg(struct sim *s, struct task *t, u64 len, enum step step)
{
	t->seg_start = s->now;
	t->seg_end = s->now + len;
	t->seg_steal = 0;
	t->step = step;
}

/* An interrupt takes @ns from whatever runs, or wakes an idle CPU. */
static void interrupt(struct sim *s, u64 ns, u64 idle_exit)
{
	if (s->cur >= 0) {
		s->t[s->cur].seg_end += ns;
		s->t[s->cur].seg_steal += ns;
	} else {
		s->cpu_free_at = max(s->cpu_free_at, s->now + idle_exit) + ns;
	}
}

/*
 * Make @t runnable.  A spinning waiter notices another runnable task at its
 * next pass, after the interrupt that woke it (@after).
 */
static void wake(struct sim *s, struct task *t, enum step step, u64 after)
{
	struct task *cur;

	t->state = T_READY;
	t->ready_seq = ++s->seq;
	t->timer = 0;
	t->step = step;
	if (s->cur < 0)
		return;
	cur = &s->t[s->cur];
	if (cur->step == ST_SPIN)
		cur->seg_end = min(cur->seg_end, s->now + after + PASS_NS);
}

static void block(struct sim *s, struct task *t, enum blocked why, u64 timer)
{
	t->state = T_BLOCKED;
	t->blocked = why;
	t->timer = timer;
	s->cur = -1;
}

static u64 timer_late(struct task *t)
{
	return TIMER_LATE_NS + (u64)(rng_unit(&t->rng) * TIMER_JITTER_NS);
}

/* The device time of @t's next I/O: three draws each, whatever the device. */
static u64 dev_time(struct sim *s, struct task *t)
{
	const struct dev_model *d = s->cfg->dev;
	double u_size = rng_unit(&t->dev_rng);
	double u_mode = rng_unit(&t->dev_rng);
	double u_time = rng_unit(&t->dev_rng);
	u64 ns;

	if (d->middle && t->phase == 1)
		d = d->middle;
	t->bytes = s->cfg->load->mix && u_size < 0.5 ? MIB : 4096;
	ns = d->base_ns + (u64)(u_time * d->spread_ns) +
	     (u64)(-(double)d->tail_ns * log(1.0 - u_time));
	if (u_mode * 1000 < d->slow_per_mille)
		ns += d->slow_ns;
	if (t->bytes == MIB)
		ns += d->mib_ns;
	return ns;
}

/*
 * blk_poll_bios(): one pass over the CPU's poll queue, which ends every
 * polled request found done, other waiters' too, and wakes their waiters.
 * Returns the CPU time it took.
 */
static u64 poll_pass(struct sim *s)
{
	u64 cost = PASS_NS;
	int i;

	for (i = 0; i < s->nr_tasks; i++) {
		struct task *u = &s->t[i];

		if (!u->in_flight || !u->polled || u->reaped ||
		    u->done_at > s->now)
			continue;
		u->reaped = true;
		cost += REAP_NS;
		if (u->state == T_BLOCKED)
			wake(s, u, u->blocked == BL_HYBRID ? ST_WOKE_HYBRID :
			     ST_WOKE_BACKOFF, 0);
	}
	return cost;
}

static void finish_wait(struct sim *s, struct task *t)
{
	/* no bio of a model I/O goes by interrupt after all: !partly_irq */
	if (t->class >= 0)
		blk_poll_class_record(&s->pc.class[t->class], t->poll,
				      s->now - t->start_ns);
	t->in_flight = false;
	seg(s, t, RETURN_NS, ST_RETURN);
}

/* Spin until something changes: a completion, or the budget ends. */
static void spin(struct sim *s, struct task *t)
{
	u64 until = t->spin_start + BLK_POLL_SPIN_NS;
	int i;

	for (i = 0; i < s->nr_tasks; i++) {
		struct task *u = &s->t[i];

		if (u->in_flight && u->polled && !u->reaped)
			until = min(until, max(u->done_at, s->now));
	}
	seg(s, t, max_t(u64, 1, (until - s->now + PASS_NS - 1) / PASS_NS) *
		  PASS_NS, ST_SPIN);
}

/* blk_poll_wait()'s loop: done, spin on (blk_poll_keep_spinning()), or sleep. */
static void decide(struct sim *s, struct task *t)
{
	u64 sleep;

	if (t->reaped) {
		finish_wait(s, t);
		return;
	}
	if (nr_running(s) == 1) {
		if (!t->spin_start)
			t->spin_start = s->now;
		if (s->now - t->spin_start < BLK_POLL_SPIN_NS) {
			spin(s, t);
			return;
		}
	}
	sleep = clamp_t(u64, (s->now - t->wait_start) >> BLK_POLL_BACKOFF_SHIFT,
			BLK_POLL_BACKOFF_MIN_NS, BLK_POLL_BACKOFF_MAX_NS);
	block(s, t, BL_BACKOFF, s->now + sleep + timer_late(t));
}

/* blk_poll_wait_init(), blk_poll_submit_bio() and blk_poll_choose() */
static void submit(struct sim *s, struct task *t)
{
	const struct cfg *c = s->cfg;
	bool sync_poll = t->hipri || c->policy == P_CHOICE;
	int phase = phase_of(s);

	t->sys_start = s->now;
	t->phase = phase;
	t->done_at = dev_time(s, t);	/* drawn now, started at the doorbell */
	t->poll = nr_running(s) == 1;
	t->class = -1;
	t->polled = false;
	if (sync_poll) {
		if (!t->poll) {
			if (t->counted)
				s->res->declined[phase]++;
		} else {
			t->class = blk_poll_class(false, t->bytes);
			t->start_ns = s->now;
			if (!t->hipri) {
				struct blk_poll_class *pc = &s->pc.class[t->class];

				if (standin == SERIES)
					t->poll = blk_poll_class_choose(pc);
				else
					t->poll = standin == ALWAYS_POLL;
				if (!t->poll && t->counted)
					s->res->irq_chosen[phase]++;
			}
		}
		t->polled = t->poll;
		if (t->polled && t->counted)
			s->res->polled[phase]++;
	}
	seg(s, t, SUBMIT_NS + (t->bytes == MIB ? SUBMIT_MIB_NS : 0), ST_SUBMIT);
}

/* The doorbell rang: wait, by interrupt or in blk_poll_wait(). */
static void doorbell(struct sim *s, struct task *t)
{
	int delay = s->cfg->poll_delay;
	u64 sleep_ns = 0;

	t->done_at += s->now;
	t->in_flight = true;
	t->reaped = false;
	t->irq_sent = false;
	if (!t->polled) {
		block(s, t, BL_IRQ, 0);
		return;
	}
	t->wait_start = s->now;
	t->spin_start = 0;

	/* blk_poll_hybrid_sleep() */
	if (delay > 0)
		sleep_ns = (u64)delay * NSEC_PER_USEC;
	else if (delay == BLK_POLL_DELAY_ADAPTIVE && t->class >= 0)
		sleep_ns = blk_poll_hybrid_sleep_ns(&s->pc.class[t->class]);
	if (sleep_ns >= BLK_POLL_MIN_SLEEP_NS) {
		t->sleep_start = s->now;
		t->sleep_ns = sleep_ns;
		if (t->counted)
			s->res->hybrid_sleeps++;
		block(s, t, BL_HYBRID, s->now + sleep_ns + timer_late(t));
		return;
	}
	decide(s, t);
}

static void io_done(struct sim *s, struct task *t)
{
	struct result *r = s->res;
	int p;

	if (t->counted) {
		r->lat[r->ios++] = s->now - t->sys_start;
		p = (r->ios - 1) * NR_PHASES / IOS;
		r->phase_ios[p]++;
		if (p != min(r->ios * NR_PHASES / IOS, NR_PHASES - 1) ||
		    r->ios == IOS) {
			r->phase_ns[p] = s->now - s->phase_start;
			s->phase_start = s->now;
		}
	}
	if (s->cfg->load->think && t->counted) {
		seg(s, t, s->cfg->think_ns, ST_THINK);
		return;
	}
	submit(s, t);
}

/* The running task's segment ended: its next step. */
static void step(struct sim *s, struct task *t)
{
	u64 slept;

	if (t->step != ST_THINK && t->step != ST_HOG)
		t->cpu_ns += t->seg_end - t->seg_start - t->seg_steal;
	switch (t->step) {
	case ST_START:
		if (t->hog)
			seg(s, t, SLICE_NS, ST_HOG);
		else
			submit(s, t);
		break;
	case ST_THINK:
		submit(s, t);
		break;
	case ST_SUBMIT:
		doorbell(s, t);
		break;
	case ST_SPIN:
		seg(s, t, poll_pass(s) - PASS_NS, ST_DECIDE);
		break;
	case ST_DECIDE:
		decide(s, t);
		break;
	case ST_RETURN:
		io_done(s, t);
		break;
	case ST_HOG:
		if (nr_running(s) > 1) {
			t->state = T_READY;
			t->ready_seq = ++s->seq;
			s->cur = -1;
		} else {
			seg(s, t, SLICE_NS, ST_HOG);
		}
		break;
	case ST_WOKE_IRQ:
		finish_wait(s, t);
		break;
	case ST_WOKE_HYBRID:
		slept = s->now - t->sleep_start;
		if (t->class >= 0 && slept > t->sleep_ns)
			blk_poll_hybrid_record(&s->pc.class[t->class],
					       slept - t->sleep_ns);
		decide(s, t);
		break;
	case ST_WOKE_BACKOFF:
		seg(s, t, poll_pass(s), ST_DECIDE);
		break;
	}
}

/* The CPU is free: switch to the task that has waited longest. */
static void dispatch(struct sim *s)
{
	struct task *t = NULL;
	int i, pick = -1;

	for (i = 0; i < s->nr_tasks; i++) {
		if (s->t[i].state != T_READY)
			continue;
		if (!t || s->t[i].ready_seq < t->ready_seq) {
			t = &s->t[i];
			pick = i;
		}
	}
	if (!t)
		return;
	s->cur = pick;
	t->state = T_RUN;
	t->seg_start = max(s->now, s->cpu_free_at);
	t->seg_end = t->seg_start + SWITCH_NS;
	t->seg_steal = 0;
}

enum event { EV_NONE, EV_SEG, EV_TIMER, EV_IRQ };

static void run(const struct cfg *c, struct result *r)
{
	static struct sim sim;
	struct sim *s = &sim;
	int i;

	memset(s, 0, sizeof(*s));
	s->cfg = c;
	s->res = r;
	s->cur = -1;
	for (i = 0; i < c->load->readers + c->load->hog + c->load->hipri; i++) {
		struct task *t = &s->t[s->nr_tasks++];

		t->counted = i < c->load->readers;
		t->hog = !t->counted && c->load->hog;
		t->hipri = (t->counted && c->policy == P_POLL) ||
			   (!t->counted && c->load->hipri);
		t->state = T_READY;
		t->ready_seq = ++s->seq;
		t->step = ST_START;
		t->dev_rng.s = c->seed * 1000003 + i * 2 + 1;
		t->rng.s = c->seed * 1000003 + i * 2 + 2;
	}
	dispatch(s);
	while (r->ios < IOS) {
		enum event ev = EV_NONE;
		u64 next = ~0ULL;
		int who = -1;

		if (s->cur >= 0) {
			next = s->t[s->cur].seg_end;
			ev = EV_SEG;
			who = s->cur;
		}
		for (i = 0; i < s->nr_tasks; i++) {
			struct task *t = &s->t[i];

			if (t->state == T_BLOCKED && t->timer &&
			    t->timer < next) {
				next = t->timer;
				ev = EV_TIMER;
				who = i;
			}
			if (t->in_flight && !t->polled && !t->irq_sent &&
			    t->done_at + IRQ_DELIVERY_NS < next) {
				next = t->done_at + IRQ_DELIVERY_NS;
				ev = EV_IRQ;
				who = i;
			}
		}
		if (ev == EV_NONE) {
			fprintf(stderr, "model: nothing to do at %llu ns\n",
				(unsigned long long)s->now);
			exit(1);
		}
		s->now = next;
		switch (ev) {
		case EV_SEG:
			step(s, &s->t[who]);
			break;
		case EV_TIMER:
			s->t[who].cpu_ns += TIMER_NS;
			interrupt(s, TIMER_NS, 0);
			wake(s, &s->t[who], s->t[who].blocked == BL_HYBRID ?
			     ST_WOKE_HYBRID : ST_WOKE_BACKOFF, TIMER_NS);
			break;
		case EV_IRQ: {
			struct task *t = &s->t[who];

			t->irq_sent = true;
			t->reaped = true;
			t->cpu_ns += IRQ_NS;
			interrupt(s, IRQ_NS, IDLE_EXIT_NS +
				  rng_exp(&t->rng, IDLE_EXIT_TAIL_NS));
			wake(s, t, ST_WOKE_IRQ, IRQ_NS);
			break;
		}
		case EV_NONE:
			break;
		}
		if (s->cur < 0)
			dispatch(s);
	}
	r->elapsed_ns = s->now;
	for (i = 0; i < s->nr_tasks; i++)
		if (s->t[i].counted)
			r->cpu_ns += s->t[i].cpu_ns;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* What the table shows of a run. */
struct figures {
	double iops, mean_us, p99_us, p999_us, cpu_us;
	double phase_iops[NR_PHASES];
};

static void figures_of(struct result *r, struct figures *f)
{
	double sum = 0;
	int i;

	qsort(r->lat, r->ios, sizeof(*r->lat), cmp_u64);
	for (i = 0; i < (int)r->ios; i++)
		sum += r->lat[i];
	f->iops = r->ios * 1e9 / r->elapsed_ns;
	f->mean_us = sum / r->ios / 1000;
	f->p99_us = r->lat[(r->ios * 990 + 999) / 1000 - 1] / 1000.0;
	f->p999_us = r->lat[(r->ios * 999 + 999) / 1000 - 1] / 1000.0;
	f->cpu_us = (double)r->cpu_ns / r->ios / 1000;
	for (i = 0; i < NR_PHASES; i++)
		f->phase_iops[i] = r->phase_ns[i] ?
				   r->phase_ios[i] * 1e9 / r->phase_ns[i] : 0;
}

static void run_figures(struct cfg *c, struct result *r, struct figures *f)
{
	u64 *lat = r->lat;

	memset(r, 0, sizeof(*r));
	r->lat = lat;
	run(c, r);
	figures_of(r, f);
}

static u64 seed_of(int dev, int load)
{
	return 1 + dev * 64 + load;
}

int main(int argc, char **argv)
{
	static u64 lat[IOS];
	struct result r = { .lat = lat };
	struct figures calib = {};
	int d, l, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "standin=always-poll")) {
			standin = ALWAYS_POLL;
		} else if (!strcmp(argv[i], "standin=never-poll")) {
			standin = NEVER_POLL;
		} else {
			fprintf(stderr, "usage: %s [standin=always-poll|never-poll]\n",
				argv[0]);
			return 2;
		}
	}

	printf("# blk-poll model: block/blk-poll.h of the series on one CPU of a real host, %d counted reads per run\n",
	       IOS);
	if (standin != SERIES)
		printf("# STAND-IN: the choice replaced by %s\n",
		       standin == ALWAYS_POLL ? "always-poll" : "never-poll");
	printf("# better: the fixed policy of higher throughput, irq (io_poll=0) or poll (RWF_HIPRI);\n"
	       "# x_*: the choice (io_poll=1) over the better; slow: share of the choice's reads sent the\n"
	       "# slower way (per third of the run on shift); decl: declined beside a runnable task\n");
	printf("%-8s %-6s %-6s %7s %6s %8s %6s %8s %6s %8s %6s %7s %6s %6s %6s %6s\n",
	       "dev", "load", "better", "kiops", "x_iops", "mean_us", "x_mean",
	       "p99_us", "x_p99", "p999_us", "x_p999", "cpu_us", "x_cpu",
	       "p/i", "slow", "decl");
	for (d = 0; d < (int)(sizeof(devices) / sizeof(devices[0])); d++) {
		u64 think_ns = 0;

		for (l = 0; l < (int)(sizeof(loads) / sizeof(loads[0])); l++) {
			struct figures f[NR_POLICIES];
			struct result rc;
			struct cfg c = {
				.dev = devices[d], .load = &loads[l],
				.poll_delay = BLK_POLL_DELAY_CLASSIC,
				.seed = seed_of(d, l),
				.nr_phases = devices[d]->middle ? NR_PHASES : 1,
			};
			const struct figures *b, *ch = &f[P_CHOICE];
			u64 slow = 0, decl = 0, n = 0;
			int better, p;

			if (loads[l].think) {
				/* twice a lone reader's interrupt wait */
				struct cfg ci = c;
				struct figures fi;

				ci.load = &loads[0];
				ci.policy = P_IRQ;
				run_figures(&ci, &r, &fi);
				think_ns = 2000 * fi.mean_us;
			}
			c.think_ns = think_ns;
			for (i = 0; i < NR_POLICIES; i++) {
				c.policy = i;
				run_figures(&c, &r, &f[i]);
				if (i == P_CHOICE)
					rc = r;
			}
			better = f[P_POLL].iops > f[P_IRQ].iops ? P_POLL : P_IRQ;
			b = &f[better];
			for (p = 0; p < NR_PHASES; p++) {
				bool poll_faster;

				if (c.nr_phases == 1)
					poll_faster = better == P_POLL;
				else
					poll_faster = f[P_POLL].phase_iops[p] >
						      f[P_IRQ].phase_iops[p];
				slow += poll_faster ? rc.irq_chosen[p] :
						      rc.polled[p];
				decl += rc.declined[p];
				n += rc.polled[p] + rc.irq_chosen[p] +
				     rc.declined[p];
			}
			printf("%-8s %-6s %-6s %7.1f %6.3f %8.1f %6.3f %8.1f %6.3f %8.1f %6.3f %7.2f %6.3f %6.3f %6.4f %6.3f\n",
			       devices[d]->name, loads[l].name,
			       policy_name[better], ch->iops / 1000,
			       ch->iops / b->iops, ch->mean_us,
			       ch->mean_us / b->mean_us, ch->p99_us,
			       ch->p99_us / b->p99_us, ch->p999_us,
			       ch->p999_us / b->p999_us, ch->cpu_us,
			       ch->cpu_us / b->cpu_us,
			       f[P_POLL].iops / f[P_IRQ].iops,
			       (double)slow / n, (double)decl / n);
		}
	}

	/*
	 * Hybrid polling (io_poll_delay=0) against classic polling: a lone
	 * reader polling every I/O (RWF_HIPRI), as patch 0018 measured it.
	 */
	printf("# hybrid: io_poll_delay=0 against -1, one RWF_HIPRI reader; slept: share of its reads that slept first\n");
	printf("%-8s %-8s %7s %6s %7s %6s %6s\n", "hybrid", "dev", "kiops",
	       "x_iops", "cpu_us", "x_cpu", "slept");
	for (d = 0; d < (int)(sizeof(devices) / sizeof(devices[0])); d++) {
		struct cfg c = {
			.dev = devices[d], .load = &loads[0], .policy = P_POLL,
			.seed = seed_of(d, 0), .nr_phases = 1,
		};
		struct figures classic, hybrid;

		c.poll_delay = BLK_POLL_DELAY_CLASSIC;
		run_figures(&c, &r, &classic);
		c.poll_delay = BLK_POLL_DELAY_ADAPTIVE;
		run_figures(&c, &r, &hybrid);
		printf("%-8s %-8s %7.1f %6.3f %7.2f %6.3f %6.3f\n", "hybrid",
		       devices[d]->name, hybrid.iops / 1000,
		       hybrid.iops / classic.iops, hybrid.cpu_us,
		       hybrid.cpu_us / classic.cpu_us,
		       (double)r.hybrid_sleeps / IOS);
		if (devices[d] == &optane)
			calib = classic;
	}
	printf("# calibration: optane, one polled reader: %.2f us, %.0fK IOPS (Axboe's P5800X: 3.4 us, 290K)\n",
	       calib.mean_us, calib.iops / 1000);
	return 0;
}

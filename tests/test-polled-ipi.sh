#!/bin/sh
# guest/lib/poll-stat.sh polled_ipi_ok, the judge of the guest checks "interrupts per
# polled I/O": it passes a run that polled, and fails each way a run can fail to.
set -eu
. "$(dirname "$0")/lib.sh"

# judge STAT IRQS READS LIMIT MIN: polled_ipi_ok in a shell with the guest libraries
judge() {
	sh -c '. "$1/guest/lib/tap.sh"; . "$1/guest/lib/fio-check.sh"; . "$1/guest/lib/poll-stat.sh"
		shift; polled_ipi_ok "$@"' judge "$TOP" "$@"
}
st() { # declined irq_chosen poll_completions irq_completions backoffs
	echo "declined $1 irq_chosen $2 polls 9999 spins 9000 poll_completions $3 irq_completions $4 backoffs $5 hybrid_sleeps 0 hybrid_sleep_ns 0"
}

t_expect 0 "all 2000 polled, no interrupt: passes" judge "$(st 0 0 2000 0 0)" 0 2000 0.01 1500
t_grep '0 other interrupts / 2000 polled I/Os = 0.000' "and says so"
t_expect 0 "the interrupt of each declined and irq_chosen I/O does not count" \
	judge "$(st 10 990 990 10 10)" 1000 2000 0.01 1
t_expect 1 "but a second one per irq_chosen I/O does" judge "$(st 10 990 990 10 10)" 1990 2000 0.01 1
t_expect 0 "backoffs take no interrupt and fail nothing" judge "$(st 0 0 1000 1000 600)" 0 2000 0.01 1
t_expect 1 "one interrupt per polled I/O: fails" judge "$(st 0 0 1000 1000 0)" 2000 2000 0.01 1
t_grep 'poll_choice of' "and shows poll_choice"
t_expect 1 "nothing polled (all irq_chosen): fails" judge "$(st 0 2000 0 0 0)" 2000 2000 0.01 1
t_expect 1 "fewer polled than the minimum (forced polling): fails" \
	judge "$(st 0 1000 1000 0 0)" 1000 2000 0.01 1500
t_expect 1 "reads poll_stat did not see (not through the poll path): fails" \
	judge "$(st 0 0 1000 0 0)" 0 2000 0.01 1
t_grep 'poll_stat saw 1000 of 2000 reads' "and says how many it saw"
t_expect 1 "no poll_stat (absent): fails" judge absent 0 2000 0.01 1
t_end

#!/bin/sh
# guest/lib/order.sh rotated: each repetition of a benchmark starts at another mode,
# and every mode runs once per repetition.
set -eu
. "$(dirname "$0")/lib.sh"

rot() {
	sh -c '. "$1/guest/lib/order.sh"; shift; rotated "$@"' rot "$TOP" "$@"
}

t_expect 0 "rotated 0 keeps the order" test "$(rot 0 a b c)" = "a b c"
t_expect 0 "rotated 1 starts at the second" test "$(rot 1 a b c)" = "b c a"
t_expect 0 "rotated 2 starts at the third" test "$(rot 2 a b c)" = "c a b"
t_expect 0 "rotated wraps around the count" test "$(rot 4 a b c)" = "b c a"
t_expect 0 "two modes alternate" test "$(rot 1 irq poll)" = "poll irq"
t_expect 0 "one mode stays" test "$(rot 5 irq)" = "irq"
t_end

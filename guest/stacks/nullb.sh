#!/bin/sh
# pvsync2 --hipri on a null_blk without poll queues: written and verified, 0 errors
# (a polled bio on a queue that cannot poll completes by interrupt).
# Run by guest/stacks.sh, or alone: sh /guest/stacks/nullb.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio"
DEVICES=""
DEADLINE=200
set -u
. /guest/lib/stacks.sh

NB=/sys/kernel/config/nullb/stknopoll
nb_up() {
	_b=$(nullb_make "${NB##*/}" poll_queues=0 memory_backed=1 size=256 blocksize=4096) || return 1
	echo "$_b" > /tmp/stk.nb
	tap_diag "null_blk $_b: poll_queues=$(cat "$NB/poll_queues" 2> /dev/null || echo n/a), io_poll=$(cat "$(qattr "$_b" io_poll)")"
}
nb_hipri() {
	_b=$(cat /tmp/stk.nb) || return 1
	# shellcheck disable=SC2086 # $VFY is a list of options
	fio_run --name=nbhipri --filename="$_b" --size=64M --rw=randwrite --bsrange=4k-1m \
		--ioengine=pvsync2 --hipri --direct=1 $VFY
	fio_ok
}
nb_down() {
	nullb_remove "$NB"
}
rm -f /tmp/stk.nb
deadline "$(s 30)" "nullb: null_blk without poll queues (configfs poll_queues=0) created" nb_up
deadline "$(s 120)" "nullb: pvsync2 --hipri write + crc32c verify on null_blk without poll queues: 0 errors" nb_hipri
deadline "$(s 30)" "nullb: null_blk removed" nb_down
tap_end

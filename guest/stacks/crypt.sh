#!/bin/sh
# dm-crypt (cipher_null) over the disk, a target that submits bios of its own:
# io_poll reads 0 and writing 1 fails with EINVAL; with the disk's io_poll=1, RWF_HIPRI
# 4 KiB reads on it complete by interrupt (>= 0.5 per read: no polled clone left for
# nobody to poll); IOPS against io_poll=0 printed (BENCH test=crypt).
# Run by guest/stacks.sh, or alone: sh /guest/stacks/crypt.sh
# shellcheck disable=SC2034 # REQUIRES, DEVICES, DEADLINE: read by guest/lib/runner.sh
REQUIRES="fio dmsetup taskset"
DEVICES="BLKPOLL_DISK"
DEADLINE=260
set -u
. /guest/lib/stacks.sh

CRYPT=''
crypt_up() {
	_sz=$(($(cat "/sys/block/${DISK#/dev/}/size") / 4))
	dmsetup create blkpollcrypt --table "0 $_sz crypt cipher_null-ecb - 0 $DISK 0" || return 1
	CRYPT=$(dm_node blkpollcrypt) || { echo "no dm device named blkpollcrypt in /sys/block"; return 1; }
	echo "$CRYPT" > /tmp/stk.crypt
	tap_diag "dm-crypt = $CRYPT; table: $(dmsetup table blkpollcrypt | sed 's/ [0-9a-f]\{32,\}/ KEY/')"
	[ -b "$CRYPT" ]
}
crypt_no_poll() {
	CRYPT=$(cat /tmp/stk.crypt) || return 1
	_a=$(qattr "$CRYPT" io_poll)
	if _e=$( { set_attr "$_a" 1; } 2>&1); then
		echo "writing 1 to $_a accepted"
		return 1
	fi
	tap_diag "writing 1 to $_a refused: $_e; reads $(cat "$_a")"
	case $_e in *"Invalid argument"*) [ "$(cat "$_a")" = 0 ] ;; *) return 1 ;; esac
}
# crypt_iops ARG...: 4 s of 4 KiB random reads on CRYPT, alone on the last CPU: IOPS
crypt_iops() {
	# shellcheck disable=SC2086 # $PS is a list of options
	fio_with taskset -c 0 -- --name=crypt --filename="$CRYPT" --rw=randread --bs=4k $PS \
		--size=64M --time_based --runtime=4 --cpus_allowed="$(($(nproc) - 1))" "$@"
	fio_clean && [ "$FIO_RIOS" -gt 0 ] || return 1
	echo $((FIO_RIOS / 4))
}
crypt_speed() {
	CRYPT=$(cat /tmp/stk.crypt) || return 1
	set_io_poll "$DISK" 0 || return 1
	_irq=$(crypt_iops) || return 1
	set_io_poll "$DISK" 1 || return 1
	# shellcheck disable=SC2086 # $HP is a list of options
	_hip=$(crypt_iops $HP) || return 1
	_psy=$(crypt_iops) || return 1
	set_io_poll "$DISK" 0 || return 1
	echo "BENCH test=crypt irq_iops=$_irq hipri_iops=$_hip psync_poll1_iops=$_psy hipri_x_irq=$(ratio "$_hip" "$_irq") psync_x_irq=$(ratio "$_psy" "$_irq")"
}
crypt_down() {
	dmsetup remove blkpollcrypt && set_io_poll "$DISK" 0
}
deadline "$(s 30)" "crypt: dm-crypt (cipher_null) over $DISK created" crypt_up
deadline "$(s 30)" "crypt: io_poll reads 0 and writing 1 fails with EINVAL" crypt_no_poll
# shellcheck disable=SC2086 # $HP is a list of options
deadline "$(s 60)" "crypt: disk io_poll=1: RWF_HIPRI 4 KiB reads on dm-crypt complete by interrupt (>= 0.5 interrupts per I/O)" \
	ipi_at "$DISK" 1 "$(cat /tmp/stk.crypt 2> /dev/null || echo none)" MIN $HP
deadline "$(s 90)" "crypt: IOPS of RWF_HIPRI and psync at disk io_poll=1 against io_poll=0 (BENCH line)" crypt_speed
deadline "$(s 30)" "crypt: dm-crypt removed" crypt_down
tap_end

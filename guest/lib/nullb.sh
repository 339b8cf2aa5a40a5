# shellcheck shell=sh
# null_blk devices through configfs for the guest tests. Source after tap.sh,
# fio-check.sh (set_attr) and deadline.sh (dl_until).

# nullb_node DIR: the device node of the configfs null_blk DIR (6.12 names it after
# the directory, older kernels nullb<index>); fails while there is none
nullb_node() {
	for _nn in "/dev/${1##*/}" "/dev/nullb$(cat "$1/index")"; do
		[ -b "$_nn" ] && { echo "$_nn"; return 0; }
	done
	return 1
}

nullb_exists() {
	nullb_node "$1" > /dev/null
}

# nullb_make NAME ATTR=VALUE...: make null_blk NAME in configfs with the attributes
# (poll_queues only where the kernel has it), power it on and print its device node;
# fails, saying why, when configfs, an attribute or the node is missing
nullb_make() {
	_nb=/sys/kernel/config/nullb/$1
	shift
	[ -d /sys/kernel/config/nullb ] || { echo "no null_blk configfs" >&2; return 1; }
	mkdir "$_nb" || return 1
	for _kv in "$@"; do
		case $_kv in poll_queues=*) [ -e "$_nb/poll_queues" ] || continue ;; esac
		set_attr "$_nb/${_kv%%=*}" "${_kv#*=}" || return 1
	done
	set_attr "$_nb/power" 1 || return 1
	dl_until 5 nullb_exists "$_nb" || { echo "no device node for $_nb after power=1" >&2; return 1; }
	nullb_node "$_nb"
}

# nullb_remove DIR: power the configfs null_blk DIR off and remove it; nothing to do
# when it is gone already
nullb_remove() {
	[ -d "$1" ] || return 0
	set_attr "$1/power" 0 && rmdir "$1"
}

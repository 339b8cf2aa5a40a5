# shellcheck shell=sh
# Deadlines scaled for the kernel: the debug kernel (KASAN) runs several times slower
# under TCG, so its deadlines are 3x and its big runs smaller.
SLOW=1
if ${BLKPOLL_DMESG:-dmesg} | grep -q 'KernelAddressSanitizer initialized'; then SLOW=3; fi

# s SECS: a deadline of SECS seconds on the normal kernel, scaled for this one
s() { echo $(($1 * SLOW)); }

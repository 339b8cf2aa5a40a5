/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for linux/log2.h: ilog2() of a non-zero value, as
 * fls() - 1 in the kernel (blk-poll.h never passes 0).
 */
#ifndef _MODEL_LINUX_LOG2_H
#define _MODEL_LINUX_LOG2_H

#include <linux/types.h>

#define ilog2(n) (sizeof(n) <= 4 ? 31 - __builtin_clz((u32)(n)) : \
		  63 - __builtin_clzll((u64)(n)))

#endif /* _MODEL_LINUX_LOG2_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for the kernel's linux/types.h: what block/blk-poll.h
 * uses of it, over the C library's fixed-size integers.
 */
#ifndef _MODEL_LINUX_TYPES_H
#define _MODEL_LINUX_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;
typedef int64_t s64;

/* the kernel has it from linux/limits.h, which its types users reach */
#define U32_MAX		((u32)~0U)

#endif /* _MODEL_LINUX_TYPES_H */

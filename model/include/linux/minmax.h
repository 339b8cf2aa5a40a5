/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for linux/minmax.h: each argument evaluated once, the
 * comparison in the usual arithmetic conversions, as the kernel's macros
 * compute it.  The kernel's type checks are left to the kernel build.
 */
#ifndef _MODEL_LINUX_MINMAX_H
#define _MODEL_LINUX_MINMAX_H

#include <linux/compiler.h>
#include <linux/types.h>

#define min(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(type, a, b)	min((type)(a), (type)(b))
#define max_t(type, a, b)	max((type)(a), (type)(b))
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)

#endif /* _MODEL_LINUX_MINMAX_H */

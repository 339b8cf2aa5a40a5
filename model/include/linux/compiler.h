/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for linux/compiler.h, which the kernel's minmax.h includes:
 * READ_ONCE() and WRITE_ONCE() as single volatile accesses.  The model runs
 * one thread, so they only keep the header's code as the kernel has it.
 */
#ifndef _MODEL_LINUX_COMPILER_H
#define _MODEL_LINUX_COMPILER_H

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

#endif /* _MODEL_LINUX_COMPILER_H */

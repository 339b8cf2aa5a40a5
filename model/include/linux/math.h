/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in for linux/math.h: abs_diff() as the kernel defines it. */
#ifndef _MODEL_LINUX_MATH_H
#define _MODEL_LINUX_MATH_H

#define abs_diff(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
			  _a > _b ? _a - _b : _b - _a; })

#endif /* _MODEL_LINUX_MATH_H */

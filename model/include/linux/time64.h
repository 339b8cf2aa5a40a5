/* SPDX-License-Identifier: GPL-2.0 */
/* Host stand-in for linux/time64.h: the unit conversions (vdso/time64.h). */
#ifndef _MODEL_LINUX_TIME64_H
#define _MODEL_LINUX_TIME64_H

#define USEC_PER_MSEC	1000L
#define USEC_PER_SEC	1000000L
#define NSEC_PER_USEC	1000L
#define NSEC_PER_MSEC	1000000L
#define NSEC_PER_SEC	1000000000L

#endif /* _MODEL_LINUX_TIME64_H */

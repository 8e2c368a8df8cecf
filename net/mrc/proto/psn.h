/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Packet sequence numbers: 32 bits that wrap.  Two PSNs are compared by the
 * sign of their 32-bit difference, which is correct as long as they are
 * less than 2^31 apart; every window in MRC (at most MPR x 128 PSNs) is far
 * smaller than that.
 */
#ifndef _MRC_PROTO_PSN_H
#define _MRC_PROTO_PSN_H

#include "os.h"

/* Signed distance from @b to @a: > 0 when @a is after @b. */
static inline s32 mrc_psn_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

static inline bool mrc_psn_before(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) < 0;
}

static inline bool mrc_psn_after(u32 a, u32 b)
{
	return mrc_psn_diff(a, b) > 0;
}

/* @psn in the half-open range [lo, hi), wrap-safe. */
static inline bool mrc_psn_in(u32 psn, u32 lo, u32 hi)
{
	return psn - lo < hi - lo;
}

#endif /* _MRC_PROTO_PSN_H */

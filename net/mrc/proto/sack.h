/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bitmaps indexed by PSN: the receiver's record of what arrived (a ring of
 * MRC_MAX_WINDOW bits addressed by psn modulo its size) and the SACK
 * bitmap an ACK carries (MRC_SACK_BITS bits starting at sack_base).
 */
#ifndef _MRC_PROTO_SACK_H
#define _MRC_PROTO_SACK_H

#include "engine.h"

#define MRC_RING_WORDS		(MRC_MAX_WINDOW / 64)

static inline bool mrc_ring_test(const u64 *ring, u32 psn)
{
	u32 i = psn & (MRC_MAX_WINDOW - 1);

	return ring[i / 64] >> (i % 64) & 1;
}

static inline void mrc_ring_set(u64 *ring, u32 psn)
{
	u32 i = psn & (MRC_MAX_WINDOW - 1);

	ring[i / 64] |= (u64)1 << (i % 64);
}

static inline void mrc_ring_clear(u64 *ring, u32 psn)
{
	u32 i = psn & (MRC_MAX_WINDOW - 1);

	ring[i / 64] &= ~((u64)1 << (i % 64));
}

/* 64 ring bits starting at ring index @idx (any alignment, wrapping). */
u64 mrc_ring_word(const u64 *ring, u32 idx);

/* First PSN in [psn, end) whose ring bit is clear, or @end. */
u32 mrc_ring_next_zero(const u64 *ring, u32 psn, u32 end);

/* Copy the ring bits of PSNs [base, base + MRC_SACK_BITS) into @sack,
 * keeping only the @valid first ones (PSNs beyond the window alias other
 * ring slots and must read as 0).
 */
void mrc_sack_extract(const u64 *ring, u32 base, u32 valid,
		      u64 sack[MRC_SACK_WORDS]);

/* Number of PSNs acknowledged by @sack. */
u32 mrc_sack_count(const u64 sack[MRC_SACK_WORDS]);

#endif /* _MRC_PROTO_SACK_H */

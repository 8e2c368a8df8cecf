// SPDX-License-Identifier: GPL-2.0-only
/*
 * SACK bitmap extraction: the receiver copies a window of its PSN ring into
 * an ACK.  Word at a time, since ACKs are built on every few packets.
 */
#include "sack.h"

u64 mrc_ring_word(const u64 *ring, u32 idx)
{
	u32 w = (idx / 64) % MRC_RING_WORDS;
	u32 sh = idx % 64;
	u64 lo = ring[w] >> sh;

	if (!sh)
		return lo;
	return lo | ring[(w + 1) % MRC_RING_WORDS] << (64 - sh);
}

void mrc_sack_extract(const u64 *ring, u32 base, u32 valid,
		      u64 sack[MRC_SACK_WORDS])
{
	u32 idx = base & (MRC_MAX_WINDOW - 1);
	u32 w;

	for (w = 0; w < MRC_SACK_WORDS; w++) {
		u64 v = mrc_ring_word(ring, idx + w * 64);

		if (valid < 64) {
			/* Only the first @valid bits are inside the window. */
			v &= valid ? ~(u64)0 >> (64 - valid) : 0;
			valid = 0;
		} else {
			valid -= 64;
		}
		sack[w] = v;
	}
}

u32 mrc_ring_next_zero(const u64 *ring, u32 psn, u32 end)
{
	while (psn != end) {
		u32 i = psn & (MRC_MAX_WINDOW - 1);
		u64 w = ~ring[i / 64] >> (i % 64);
		u32 n;

		if (w) {
			n = mrc_ffs64(w);
			/* Never step past @end: bits beyond it are stale. */
			return end - psn <= n ? end : psn + n;
		}
		n = 64 - i % 64;
		psn = end - psn <= n ? end : psn + n;
	}
	return end;
}

u32 mrc_sack_count(const u64 sack[MRC_SACK_WORDS])
{
	u32 n = 0, w;

	for (w = 0; w < MRC_SACK_WORDS; w++)
		n += mrc_popcount64(sack[w]);
	return n;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * ICRC: CRC-32 (IEEE 802.3, reflected) over MRC headers and payload.
 *
 * In the kernel this is crc32_le() (optimised per architecture).  In
 * userspace a nibble-at-a-time table: 16 entries are small enough to be
 * written out (entry n is n run through four rounds of the bitwise
 * reflected CRC with polynomial 0xEDB88320) and no run-time table
 * construction, hence no initialisation race, is needed.  Speed matters
 * little there; the unit tests pin it to the standard check values.
 */
#include "icrc.h"

#ifdef __KERNEL__

u32 mrc_icrc_update(u32 state, const u8 *buf, u32 len)
{
	return crc32_le(state, buf, len);
}

#else

static const u32 mrc_crc32_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

u32 mrc_icrc_update(u32 state, const u8 *buf, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++) {
		state ^= buf[i];
		state = (state >> 4) ^ mrc_crc32_nibble[state & 0xf];
		state = (state >> 4) ^ mrc_crc32_nibble[state & 0xf];
	}
	return state;
}

#endif

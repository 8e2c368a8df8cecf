/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MRC invariant CRC: the IEEE 802.3 CRC-32 (reflected, polynomial
 * 0xEDB88320, initial value ~0, final complement) over the MRC headers and
 * the payload, carried big endian in the 4-byte trailer.
 *
 * Incremental so that the kernel can run it over headers and payload
 * pages separately:
 *	s = mrc_icrc_init();
 *	s = mrc_icrc_update(s, hdr, hdr_len);
 *	s = mrc_icrc_update(s, payload, payload_len);
 *	icrc = mrc_icrc_final(s);
 */
#ifndef _MRC_PROTO_ICRC_H
#define _MRC_PROTO_ICRC_H

#include "os.h"

static inline u32 mrc_icrc_init(void)
{
	return 0xffffffffu;
}

u32 mrc_icrc_update(u32 state, const u8 *buf, u32 len);

static inline u32 mrc_icrc_final(u32 state)
{
	return ~state;
}

/* One-shot CRC-32 of @len bytes. */
static inline u32 mrc_icrc(const u8 *buf, u32 len)
{
	return mrc_icrc_final(mrc_icrc_update(mrc_icrc_init(), buf, len));
}

#endif /* _MRC_PROTO_ICRC_H */

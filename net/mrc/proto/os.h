/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Portability shim of the MRC protocol engine.
 *
 * The files in net/mrc/proto/ are compiled three times: into mrc.ko
 * (__KERNEL__), into the userspace tests/fuzzers and into the fabric
 * simulator (MRC_USERSPACE).  This header is the only place that knows the
 * difference.  It stays tiny on purpose: the engine never allocates, never
 * locks and never reads a clock (the caller passes the time in), so all it
 * needs are fixed-size types, byte-order helpers and a few bit operations.
 */
#ifndef _MRC_PROTO_OS_H
#define _MRC_PROTO_OS_H

#ifdef __KERNEL__

#include <linux/types.h>
#include <linux/string.h>
#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/crc32.h>

#define MRC_ARRAY_SIZE(a)	ARRAY_SIZE(a)

static inline unsigned int mrc_popcount64(u64 v)
{
	return hweight64(v);
}

/* Index of the least significant set bit; v must not be 0. */
static inline unsigned int mrc_ffs64(u64 v)
{
	return __ffs64(v);
}

static inline u64 mrc_div64_u64(u64 a, u64 b)
{
	return div64_u64(a, b);
}

#else /* MRC_USERSPACE */

#include <stddef.h>
#include <string.h>
#include <stdbool.h>

/* The compiler's own fixed-size types (GCC and clang), as <stdint.h> has. */
typedef __UINT8_TYPE__ u8;
typedef __UINT16_TYPE__ u16;
typedef __UINT32_TYPE__ u32;
typedef __UINT64_TYPE__ u64;
typedef __INT8_TYPE__ s8;
typedef __INT16_TYPE__ s16;
typedef __INT32_TYPE__ s32;
typedef __INT64_TYPE__ s64;

#ifndef BIT
#define BIT(n)		(1UL << (n))
#endif

#define MRC_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

static inline unsigned int mrc_popcount64(u64 v)
{
	return (unsigned int)__builtin_popcountll(v);
}

/* Index of the least significant set bit; v must not be 0. */
static inline unsigned int mrc_ffs64(u64 v)
{
	return (unsigned int)__builtin_ctzll(v);
}

static inline u64 mrc_div64_u64(u64 a, u64 b)
{
	return a / b;
}

#endif /* __KERNEL__ */

/* Big endian field access, byte by byte: correct on any host byte order
 * and alignment, in both worlds, with no dependency on where a kernel
 * version keeps its unaligned helpers.  Compilers turn these into single
 * (byte-swapping) loads and stores.
 */
static inline u16 mrc_get_be16(const u8 *p)
{
	return (u16)((u16)p[0] << 8 | p[1]);
}

static inline u32 mrc_get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline u64 mrc_get_be64(const u8 *p)
{
	return (u64)mrc_get_be32(p) << 32 | mrc_get_be32(p + 4);
}

static inline void mrc_put_be16(u8 *p, u16 v)
{
	p[0] = (u8)(v >> 8);
	p[1] = (u8)v;
}

static inline void mrc_put_be32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static inline void mrc_put_be64(u8 *p, u64 v)
{
	mrc_put_be32(p, (u32)(v >> 32));
	mrc_put_be32(p + 4, (u32)v);
}

#define mrc_memcpy(d, s, n)	memcpy((d), (s), (n))
#define mrc_memset(d, c, n)	memset((d), (c), (n))

#endif /* _MRC_PROTO_OS_H */

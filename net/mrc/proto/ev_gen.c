// SPDX-License-Identifier: GPL-2.0-only
/*
 * EV generation: GEN mode (bit fields) and AUTO mode (derived from the
 * QPN).  Both write into caller storage and are bounded by its size.
 *
 * GEN rule (Documentation/networking/mrc.rst has a worked example):
 *  - field i takes the values v, min <= v <= max, with no bit outside its
 *    mask, in increasing order starting at init and wrapping to min;
 *  - the fields form an odometer: the last (least significant) field
 *    steps on every EV, a field that comes back to its init carries one
 *    step into the field before it, and expansion ends when field 0 comes
 *    back to its init: every combination exactly once;
 *  - the EV number G concatenates the fields, field 0 in the top bits;
 *    the value is base | (G << shift), a big endian number of the
 *    format's length;
 *  - each value is instantiated on every plane of plane_mask, ascending,
 *    before the next value.
 */
#include "ev_profile.h"

static u64 mrc_width_mask(u8 width)
{
	return ((u64)1 << width) - 1;
}

/* Next value of field @f after @v in its cycle (see the rule above). */
static u32 mrc_gen_next(const struct mrc_ev_gen_field *f, u32 v)
{
	u64 free_bits = ~(u64)f->mask & mrc_width_mask(f->width);
	u64 n;

	if (v >= f->max)
		return f->min;
	/* Smallest value above v whose bits all lie inside the mask. */
	n = ((v | free_bits) + 1) & f->mask;
	if (n <= v || n > f->max)
		return f->min;
	return (u32)n;
}

static int mrc_gen_field_check(const struct mrc_ev_gen_field *f)
{
	u64 wm;

	if (f->width < 1 || f->width > 32)
		return -MRC_EV_EGEN_WIDTH;
	wm = mrc_width_mask(f->width);
	if (f->min > f->init || f->init > f->max || f->max > wm)
		return -MRC_EV_EGEN_RANGE;
	if (f->mask > wm || (f->init & ~f->mask) || (f->min & ~f->mask) ||
	    (f->max & ~f->mask))
		return -MRC_EV_EGEN_MASK;
	return 0;
}

/* Byte holding bit @bit (0 = least significant) of a big endian v[len]. */
static unsigned int mrc_bit_idx(u8 len, unsigned int bit)
{
	return len - 1 - bit / 8;
}

/* OR @g (@bits wide) into big endian @v[len] at bit @shift. */
static void mrc_or_bits(u8 *v, u8 len, u64 g, unsigned int bits,
			unsigned int shift)
{
	unsigned int b, pos;

	for (b = 0; b < bits; b++) {
		pos = shift + b;
		if (g >> b & 1)
			v[mrc_bit_idx(len, pos)] |= 1u << (pos % 8);
	}
}

static bool mrc_bits_clear(const u8 *v, u8 len, unsigned int bits,
			   unsigned int shift)
{
	unsigned int b;

	for (b = shift; b < shift + bits; b++)
		if (v[mrc_bit_idx(len, b)] & (1u << (b % 8)))
			return false;
	return true;
}

int mrc_ev_gen_check(const struct mrc_ev_gen *gen, u8 format)
{
	u8 len = mrc_ev_format_len(format);
	unsigned int i, bits = 0;
	int err;

	if (!len)
		return -MRC_EV_EFORMAT;
	if (gen->n_fields < 1 || gen->n_fields > MRC_EV_GEN_MAX_FIELDS)
		return -MRC_EV_EGEN_NFIELDS;
	for (i = 0; i < gen->n_fields; i++) {
		err = mrc_gen_field_check(&gen->fields[i]);
		if (err)
			return err;
		bits += gen->fields[i].width;
	}
	if (bits > MRC_EV_GEN_MAX_BITS || gen->shift + bits > len * 8u)
		return -MRC_EV_EGEN_FIT;
	/* The base must leave the generated bits to the fields. */
	if (!mrc_bits_clear(gen->base, len, bits, gen->shift))
		return -MRC_EV_EGEN_BASE;
	if (!gen->plane_mask ||
	    (gen->plane_mask & ~(u16)((1u << MRC_MAX_PLANES) - 1)))
		return -MRC_EV_EPLANEMASK;
	return 0;
}

int mrc_ev_gen_expand(const struct mrc_ev_gen *gen, u8 format,
		      struct mrc_ev *out, u16 cap)
{
	u32 cur[MRC_EV_GEN_MAX_FIELDS];
	u8 len = mrc_ev_format_len(format);
	unsigned int i, bits = 0, plane;
	int n = 0, k, err;
	u64 g;

	err = mrc_ev_gen_check(gen, format);
	if (err)
		return err;
	if (cap > MRC_EV_PROFILE_MAX_EVS)
		cap = MRC_EV_PROFILE_MAX_EVS;
	for (i = 0; i < gen->n_fields; i++) {
		cur[i] = gen->fields[i].init;
		bits += gen->fields[i].width;
	}
	for (;;) {
		g = 0;
		for (i = 0; i < gen->n_fields; i++)
			g = g << gen->fields[i].width | cur[i];
		for (plane = 1; plane <= MRC_MAX_PLANES; plane++) {
			if (!(gen->plane_mask & (1u << (plane - 1))))
				continue;
			if (n >= cap)
				return -MRC_EV_ETOOMANY;
			out[n].plane = (u8)plane;
			out[n].state = MRC_EV_UNKNOWN;
			out[n].len = len;
			mrc_memset(out[n].value, 0, sizeof(out[n].value));
			mrc_memcpy(out[n].value, gen->base, len);
			mrc_or_bits(out[n].value, len, g, bits, gen->shift);
			err = mrc_ev_check(format, &out[n]);
			if (err)
				return err;
			n++;
		}
		/* Odometer step, least significant field first. */
		for (k = gen->n_fields - 1; k >= 0; k--) {
			cur[k] = mrc_gen_next(&gen->fields[k], cur[k]);
			if (cur[k] != gen->fields[k].init)
				break;
		}
		if (k < 0)
			return n;
	}
}

/* Top @bits bits of a multiplicative (Fibonacci) hash of @x. */
static u32 mrc_hash_top(u32 x, unsigned int bits)
{
	return (u32)(x * 2654435761u) >> (32 - bits);
}

int mrc_ev_auto_expand(u8 format, u16 count, u16 plane_mask, u32 qpn,
		       struct mrc_ev *out, u16 cap)
{
	u8 planes[MRC_MAX_PLANES];
	unsigned int np = 0, p;
	u32 i, v;

	if (format != MRC_EV_FMT_UDP && format != MRC_EV_FMT_STEV)
		return format == MRC_EV_FMT_SRV6 ? -MRC_EV_EAUTO :
						   -MRC_EV_EFORMAT;
	if (!count || count > MRC_EV_PROFILE_MAX_EVS)
		return -MRC_EV_EAUTO;
	if (!plane_mask ||
	    (plane_mask & ~(u16)((1u << MRC_MAX_PLANES) - 1)))
		return -MRC_EV_EPLANEMASK;
	if (count > cap)
		return -MRC_EV_ETOOMANY;
	for (p = 1; p <= MRC_MAX_PLANES; p++)
		if (plane_mask & (1u << (p - 1)))
			planes[np++] = (u8)p;
	for (i = 0; i < count; i++) {
		mrc_memset(&out[i], 0, sizeof(out[i]));
		out[i].plane = planes[i % np];
		out[i].state = MRC_EV_UNKNOWN;
		out[i].len = mrc_ev_format_len(format);
		if (format == MRC_EV_FMT_UDP) {
			v = MRC_EV_AUTO_SPORT_BASE |
			    ((mrc_hash_top(qpn, 14) + i) & 0x3fff);
			mrc_put_be16(out[i].value, (u16)v);
		} else {
			v = ((mrc_hash_top(qpn, 20) + i) & 0xfffff) << 12 |
			    (qpn & 0xfff);
			mrc_put_be32(out[i].value, v);
		}
	}
	return count;
}

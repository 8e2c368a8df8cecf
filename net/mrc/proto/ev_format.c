// SPDX-License-Identifier: GPL-2.0-only
/*
 * EV formats: which values are valid and how an EV maps onto the outer
 * headers (UDP source port, IPv6 flow label, IPv6 destination and SRH).
 */
#include "ev_profile.h"

#define MRC_SRV6_SID_LEN	16

u8 mrc_ev_format_len(u8 format)
{
	switch (format) {
	case MRC_EV_FMT_UDP:
		return 2;
	case MRC_EV_FMT_STEV:
		return 4;
	case MRC_EV_FMT_SRV6:
		return MRC_SRV6_SID_LEN;
	default:
		return 0;
	}
}

/* An IPv6 address usable as a unicast destination: not ::, not ::1 (would
 * loop back) and not multicast (ff00::/8, SIDs are unicast).
 */
static bool mrc_sid_ok(const u8 *a)
{
	u8 hi = 0;
	int i;

	if (a[0] == 0xff)
		return false;
	for (i = 0; i < MRC_SRV6_SID_LEN - 1; i++)
		hi |= a[i];
	return hi || a[MRC_SRV6_SID_LEN - 1] > 1;
}

int mrc_ev_check(u8 format, const struct mrc_ev *ev)
{
	u8 len = mrc_ev_format_len(format);

	if (!len)
		return -MRC_EV_EFORMAT;
	if (ev->plane < 1 || ev->plane > MRC_MAX_PLANES)
		return -MRC_EV_EPLANE;
	if (ev->state > MRC_EV_DENIED)
		return -MRC_EV_EEVSTATE;
	if (format == MRC_EV_FMT_SRV6) {
		if (ev->len != MRC_SRV6_SID_LEN &&
		    ev->len != 2 * MRC_SRV6_SID_LEN)
			return -MRC_EV_ELEN;
		if (!mrc_sid_ok(ev->value))
			return -MRC_EV_EVALUE;
		if (ev->len == 2 * MRC_SRV6_SID_LEN &&
		    !mrc_sid_ok(ev->value + MRC_SRV6_SID_LEN))
			return -MRC_EV_EVALUE;
		return 0;
	}
	if (ev->len != len)
		return -MRC_EV_ELEN;
	/* UDP source port 0 means "no port" and is not sent. */
	if (format == MRC_EV_FMT_UDP && !mrc_get_be16(ev->value))
		return -MRC_EV_EVALUE;
	return 0;
}

int mrc_ev_to_outer(u8 format, const struct mrc_ev *ev,
		    struct mrc_ev_outer *out)
{
	u32 s;
	int err = mrc_ev_check(format, ev);

	if (err)
		return err;
	mrc_memset(out, 0, sizeof(*out));
	switch (format) {
	case MRC_EV_FMT_UDP:
		out->udp_sport = mrc_get_be16(ev->value);
		break;
	case MRC_EV_FMT_STEV:
		s = mrc_get_be32(ev->value);
		out->flow_label = s >> 12;
		out->udp_sport = (u16)(MRC_EV_STEV_SPORT_BASE | (s & 0xfff));
		break;
	case MRC_EV_FMT_SRV6:
		out->sid = ev->value;
		if (ev->len == 2 * MRC_SRV6_SID_LEN)
			out->segment = ev->value + MRC_SRV6_SID_LEN;
		break;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Texts of EV profile errors (for netlink extack) and of the enums (for
 * mrcctl-facing dumps and test diagnostics).
 */
#include "ev_profile.h"

static const char *const mrc_ev_errs[MRC_EV_NR_ERR] = {
	[MRC_EV_OK]		= "ok",
	[MRC_EV_EMODE]		= "unknown mode, or not valid in this mode",
	[MRC_EV_EFORMAT]	= "unknown EV format",
	[MRC_EV_ESTATE]		= "EV profile state transition not allowed",
	[MRC_EV_EBUSY]		= "profile is ONLINE: take it OFFLINE first",
	[MRC_EV_EEMPTY]		= "EV profile has no EVs",
	[MRC_EV_ETOOMANY]	= "too many EVs",
	[MRC_EV_EPLANE]		= "EV plane out of range",
	[MRC_EV_ELEN]		= "EV value length does not match the format",
	[MRC_EV_EVALUE]		= "EV value not usable (port 0, SID ::, ::1, multicast)",
	[MRC_EV_EDUP]		= "duplicate EV (same plane and value)",
	[MRC_EV_EMINACTIVE]	= "ev_min_active exceeds the number of EVs",
	[MRC_EV_ENOENT]		= "no EV with that index",
	[MRC_EV_EEVSTATE]	= "invalid EV state",
	[MRC_EV_EEVMASK]	= "unknown EV event mask bit",
	[MRC_EV_EPLANEMASK]	= "plane mask empty or beyond the last plane",
	[MRC_EV_EAUTO]		= "AUTO: EV count out of range, or SRV6 format",
	[MRC_EV_EGEN_NFIELDS]	= "GEN: number of fields out of range",
	[MRC_EV_EGEN_WIDTH]	= "GEN: field width must be 1..32 bits",
	[MRC_EV_EGEN_RANGE]	= "GEN: need min <= init <= max < 2^width",
	[MRC_EV_EGEN_MASK]	= "GEN: mask too wide, or init/min/max outside it",
	[MRC_EV_EGEN_FIT]	= "GEN: fields and shift exceed the EV format",
	[MRC_EV_EGEN_BASE]	= "GEN: base sets bits reserved for the fields",
};

const char *mrc_ev_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= MRC_EV_NR_ERR)
		return "unknown EV profile error";
	return mrc_ev_errs[err];
}

const char *mrc_ev_format_name(u8 format)
{
	switch (format) {
	case MRC_EV_FMT_UDP:
		return "udp";
	case MRC_EV_FMT_STEV:
		return "stev";
	case MRC_EV_FMT_SRV6:
		return "srv6";
	default:
		return "unknown";
	}
}

const char *mrc_ev_mode_name(u8 mode)
{
	switch (mode) {
	case MRC_EV_MODE_AUTO:
		return "auto";
	case MRC_EV_MODE_EXP:
		return "exp";
	case MRC_EV_MODE_GEN:
		return "gen";
	default:
		return "unknown";
	}
}

const char *mrc_ev_prof_state_name(u8 state)
{
	switch (state) {
	case MRC_EV_PROF_INIT:
		return "init";
	case MRC_EV_PROF_OFFLINE:
		return "offline";
	case MRC_EV_PROF_ONLINE:
		return "online";
	default:
		return "unknown";
	}
}

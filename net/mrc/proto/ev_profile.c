// SPDX-License-Identifier: GPL-2.0-only
/*
 * EV profile state machine and validation.
 *
 *   INIT --> OFFLINE <--> ONLINE
 *
 * The definition (mode-specific: AUTO count and planes, GEN fields, EXP
 * list) may change only in INIT and OFFLINE, so that connections using an
 * ONLINE profile never see it change under them except through the few
 * operations a controller needs while traffic flows: replacing one EV,
 * denying or allowing one EV, ev_min_active (never above the EV count)
 * and the event mask.  Going ONLINE validates everything; a GEN profile
 * is expanded into the storage then (once per definition: replacements
 * and denials survive a later OFFLINE/ONLINE cycle).
 */
#include "ev_profile.h"

static bool mrc_ev_same(const struct mrc_ev *a, const struct mrc_ev *b)
{
	return a->plane == b->plane && a->len == b->len &&
	       !memcmp(a->value, b->value, a->len);
}

/* Index of an EV equal to @ev other than @skip, or -1. */
static int mrc_ev_find(const struct mrc_ev_profile *p, const struct mrc_ev *ev,
		       int skip)
{
	int i;

	for (i = 0; i < p->n_evs; i++)
		if (i != skip && mrc_ev_same(&p->evs[i], ev))
			return i;
	return -1;
}

static int mrc_ev_make(const struct mrc_ev_profile *p, struct mrc_ev *ev,
		       u8 plane, const u8 *value, u8 len)
{
	mrc_memset(ev, 0, sizeof(*ev));
	if (len > MRC_EV_MAX_LEN)
		return -MRC_EV_ELEN;
	ev->plane = plane;
	ev->state = MRC_EV_UNKNOWN;
	ev->len = len;
	if (len)
		mrc_memcpy(ev->value, value, len);
	return mrc_ev_check(p->format, ev);
}

static int mrc_auto_check(u8 format, u16 count, u16 plane_mask)
{
	if (format == MRC_EV_FMT_SRV6)
		return -MRC_EV_EAUTO;
	if (!count || count > MRC_EV_PROFILE_MAX_EVS)
		return -MRC_EV_EAUTO;
	if (!plane_mask ||
	    (plane_mask & ~(u16)((1u << MRC_MAX_PLANES) - 1)))
		return -MRC_EV_EPLANEMASK;
	return 0;
}

int mrc_ev_profile_init(struct mrc_ev_profile *p, u8 mode, u8 format,
			struct mrc_ev *evs, u16 cap)
{
	mrc_memset(p, 0, sizeof(*p));
	if (mode < MRC_EV_MODE_AUTO || mode > MRC_EV_MODE_GEN)
		return -MRC_EV_EMODE;
	if (!mrc_ev_format_len(format))
		return -MRC_EV_EFORMAT;
	p->state = MRC_EV_PROF_INIT;
	p->mode = mode;
	p->format = format;
	p->event_mask = MRC_EV_EVT_ALL;
	p->evs = evs;
	p->cap = evs ? cap : 0;
	return 0;
}

static int mrc_ev_profile_editable(const struct mrc_ev_profile *p, u8 mode)
{
	if (p->mode != mode)
		return -MRC_EV_EMODE;
	if (p->state == MRC_EV_PROF_ONLINE)
		return -MRC_EV_EBUSY;
	return 0;
}

int mrc_ev_profile_set_auto(struct mrc_ev_profile *p, u16 count,
			    u16 plane_mask)
{
	int err = mrc_ev_profile_editable(p, MRC_EV_MODE_AUTO);

	if (!err)
		err = mrc_auto_check(p->format, count, plane_mask);
	if (err)
		return err;
	p->auto_count = count;
	p->auto_plane_mask = plane_mask;
	return 0;
}

int mrc_ev_profile_set_gen(struct mrc_ev_profile *p,
			   const struct mrc_ev_gen *gen)
{
	int err = mrc_ev_profile_editable(p, MRC_EV_MODE_GEN);

	if (!err)
		err = mrc_ev_gen_check(gen, p->format);
	if (err)
		return err;
	p->gen = *gen;
	p->n_evs = 0;	/* expanded again when going ONLINE */
	return 0;
}

int mrc_ev_profile_add(struct mrc_ev_profile *p, u8 plane, const u8 *value,
		       u8 len, bool denied)
{
	struct mrc_ev ev;
	int err = mrc_ev_profile_editable(p, MRC_EV_MODE_EXP);

	if (err)
		return err;
	err = mrc_ev_make(p, &ev, plane, value, len);
	if (err)
		return err;
	if (p->n_evs >= p->cap || p->n_evs >= MRC_EV_PROFILE_MAX_EVS)
		return -MRC_EV_ETOOMANY;
	if (mrc_ev_find(p, &ev, -1) >= 0)
		return -MRC_EV_EDUP;
	if (denied)
		ev.state = MRC_EV_DENIED;
	p->evs[p->n_evs++] = ev;
	return 0;
}

int mrc_ev_profile_clear(struct mrc_ev_profile *p)
{
	if (p->state == MRC_EV_PROF_ONLINE)
		return -MRC_EV_EBUSY;
	p->n_evs = 0;
	return 0;
}

static u32 mrc_ev_profile_count(const struct mrc_ev_profile *p)
{
	return p->mode == MRC_EV_MODE_AUTO ? p->auto_count : p->n_evs;
}

int mrc_ev_profile_set_min_active(struct mrc_ev_profile *p, u16 n)
{
	if (p->state == MRC_EV_PROF_ONLINE && n > mrc_ev_profile_count(p))
		return -MRC_EV_EMINACTIVE;
	p->ev_min_active = n;
	return 0;
}

int mrc_ev_profile_set_event_mask(struct mrc_ev_profile *p, u32 mask)
{
	if (mask & ~MRC_EV_EVT_ALL)
		return -MRC_EV_EEVMASK;
	p->event_mask = mask;
	return 0;
}

int mrc_ev_profile_check_replace(const struct mrc_ev_profile *p, u16 idx,
				 u8 plane, const u8 *value, u8 len,
				 struct mrc_ev *out)
{
	int err;

	if (p->mode == MRC_EV_MODE_AUTO)
		return -MRC_EV_EMODE;
	if (idx >= p->n_evs)
		return -MRC_EV_ENOENT;
	err = mrc_ev_make(p, out, plane, value, len);
	if (err)
		return err;
	if (mrc_ev_find(p, out, idx) >= 0)
		return -MRC_EV_EDUP;
	return 0;
}

int mrc_ev_profile_replace(struct mrc_ev_profile *p, u16 idx, u8 plane,
			   const u8 *value, u8 len)
{
	struct mrc_ev ev;
	int err;

	err = mrc_ev_profile_check_replace(p, idx, plane, value, len, &ev);
	if (err)
		return err;
	p->evs[idx] = ev;
	return 0;
}

int mrc_ev_profile_deny(struct mrc_ev_profile *p, u16 idx, bool deny)
{
	if (p->mode == MRC_EV_MODE_AUTO)
		return -MRC_EV_EMODE;
	if (idx >= p->n_evs)
		return -MRC_EV_ENOENT;
	p->evs[idx].state = deny ? MRC_EV_DENIED : MRC_EV_UNKNOWN;
	return 0;
}

static int mrc_ev_list_validate(const struct mrc_ev_profile *p)
{
	int i, err;

	if (!p->n_evs)
		return -MRC_EV_EEMPTY;
	if (p->n_evs > p->cap || p->n_evs > MRC_EV_PROFILE_MAX_EVS)
		return -MRC_EV_ETOOMANY;
	for (i = 0; i < p->n_evs; i++) {
		err = mrc_ev_check(p->format, &p->evs[i]);
		if (err)
			return err;
	}
	/* Quadratic, bounded by MRC_EV_PROFILE_MAX_EVS; control path only. */
	for (i = 1; i < p->n_evs; i++)
		if (mrc_ev_find(p, &p->evs[i], i) >= 0)
			return -MRC_EV_EDUP;
	return 0;
}

int mrc_ev_profile_validate(const struct mrc_ev_profile *p)
{
	int err;

	if (!mrc_ev_format_len(p->format))
		return -MRC_EV_EFORMAT;
	if (p->event_mask & ~MRC_EV_EVT_ALL)
		return -MRC_EV_EEVMASK;
	switch (p->mode) {
	case MRC_EV_MODE_AUTO:
		err = mrc_auto_check(p->format, p->auto_count,
				     p->auto_plane_mask);
		break;
	case MRC_EV_MODE_GEN:
		err = mrc_ev_gen_check(&p->gen, p->format);
		if (!err)
			err = mrc_ev_list_validate(p);
		break;
	case MRC_EV_MODE_EXP:
		err = mrc_ev_list_validate(p);
		break;
	default:
		return -MRC_EV_EMODE;
	}
	if (err)
		return err;
	if (p->ev_min_active > mrc_ev_profile_count(p))
		return -MRC_EV_EMINACTIVE;
	return 0;
}

static int mrc_ev_profile_go_online(struct mrc_ev_profile *p)
{
	int n, err;

	if (p->mode == MRC_EV_MODE_GEN && !p->n_evs) {
		n = mrc_ev_gen_expand(&p->gen, p->format, p->evs, p->cap);
		if (n < 0)
			return n;
		p->n_evs = (u16)n;
	}
	err = mrc_ev_profile_validate(p);
	if (err)
		return err;
	p->state = MRC_EV_PROF_ONLINE;
	return 0;
}

int mrc_ev_profile_set_state(struct mrc_ev_profile *p, u8 state)
{
	if (state == p->state)
		return 0;
	switch (state) {
	case MRC_EV_PROF_OFFLINE:
		/* From INIT (definition done) or ONLINE (taken out of use). */
		p->state = MRC_EV_PROF_OFFLINE;
		return 0;
	case MRC_EV_PROF_ONLINE:
		if (p->state != MRC_EV_PROF_OFFLINE)
			return -MRC_EV_ESTATE;
		return mrc_ev_profile_go_online(p);
	default:
		/* Nothing goes back to INIT. */
		return -MRC_EV_ESTATE;
	}
}

bool mrc_ev_profile_wants(const struct mrc_ev_profile *p, u8 ev_state)
{
	return ev_state <= MRC_EV_DENIED &&
	       (p->event_mask & MRC_EV_EVT_STATE(ev_state));
}

int mrc_ev_profile_conn_evs(const struct mrc_ev_profile *p, u32 qpn,
			    struct mrc_ev *evs, struct mrc_ev_cfg *cfg,
			    u16 cap)
{
	int i, n;

	if (p->state != MRC_EV_PROF_ONLINE)
		return -MRC_EV_ESTATE;
	if (p->mode == MRC_EV_MODE_AUTO) {
		n = mrc_ev_auto_expand(p->format, p->auto_count,
				       p->auto_plane_mask, qpn, evs, cap);
		if (n < 0)
			return n;
	} else {
		n = p->n_evs;
		if (n > cap)
			return -MRC_EV_ETOOMANY;
		for (i = 0; i < n; i++)
			evs[i] = p->evs[i];
	}
	for (i = 0; i < n; i++) {
		cfg[i].plane = evs[i].plane;
		cfg[i].denied = evs[i].state == MRC_EV_DENIED;
	}
	return n;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * EV profiles of an instance: the objects around the portable engine's
 * struct mrc_ev_profile (proto/ev_profile.h), which holds every rule of
 * the state machine and of validation.  This file adds what an instance
 * needs: ids, storage, limits, the references routes hold, events, and
 * errno + extack for each engine error.
 *
 * Rules kept here, under mrc_cfg_lock:
 *   - at most MRC_MAX_EV_PROFILES per instance, ids 1..MRC_MAX_PROFILE;
 *   - the EV storage is allocated when the profile is added, as large as
 *     its EXP list or GEN expansion, and never grows;
 *   - a profile a route names cannot be deleted nor taken OFFLINE (routes
 *     only name ONLINE profiles, the route op checks that): the route is
 *     returned (@busy) and the op names it in the extack;
 *   - every change is announced (MRC_EVENT_EV_PROFILE, _DEL).
 */

#include <linux/slab.h>
#include <linux/xarray.h>

#include "nl_event.h"
#include "profile.h"

/* Same numbers on both sides of the uapi (include/uapi/linux/mrc.h). */
#define MRC_SAME(a, b)	static_assert((int)(a) == (int)(b))
MRC_SAME(MRC_EV_PROFILE_MODE_AUTO, MRC_EV_MODE_AUTO);
MRC_SAME(MRC_EV_PROFILE_MODE_EXP, MRC_EV_MODE_EXP);
MRC_SAME(MRC_EV_PROFILE_MODE_GEN, MRC_EV_MODE_GEN);
MRC_SAME(MRC_EV_PROFILE_FORMAT_UDP, MRC_EV_FMT_UDP);
MRC_SAME(MRC_EV_PROFILE_FORMAT_STEV, MRC_EV_FMT_STEV);
MRC_SAME(MRC_EV_PROFILE_FORMAT_SRV6, MRC_EV_FMT_SRV6);
MRC_SAME(MRC_EV_PROFILE_STATE_INIT, MRC_EV_PROF_INIT);
MRC_SAME(MRC_EV_PROFILE_STATE_OFFLINE, MRC_EV_PROF_OFFLINE);
MRC_SAME(MRC_EV_PROFILE_STATE_ONLINE, MRC_EV_PROF_ONLINE);
MRC_SAME(MRC_EV_STATE_UNKNOWN, MRC_EV_UNKNOWN);
MRC_SAME(MRC_EV_STATE_GOOD, MRC_EV_GOOD);
MRC_SAME(MRC_EV_STATE_ASSUMED_BAD, MRC_EV_ASSUMED_BAD);
MRC_SAME(MRC_EV_STATE_DENIED, MRC_EV_DENIED);
MRC_SAME(MRC_EV_EVENT_PROFILE, MRC_EV_EVT_PROFILE);
MRC_SAME(MRC_EV_EVENT_STATE(MRC_EV_DENIED), MRC_EV_EVT_STATE(MRC_EV_DENIED));

/* The errno of an engine error (enum mrc_ev_err, negative or not). */
int mrc_ev_errno(int ev_err)
{
	switch (abs(ev_err)) {
	case MRC_EV_OK:
		return 0;
	case MRC_EV_EBUSY:
		return -EBUSY;
	case MRC_EV_ETOOMANY:
		return -E2BIG;
	case MRC_EV_EPLANE:
	case MRC_EV_EPLANEMASK:
	case MRC_EV_EMINACTIVE:
		return -ERANGE;
	case MRC_EV_EDUP:
		return -EEXIST;
	case MRC_EV_ENOENT:
		return -ENOENT;
	default:
		/* Mode, format, state machine, lengths, values, GEN. */
		return -EINVAL;
	}
}

/* Report engine error @ev_err, blaming @nla if given; returns the errno. */
int mrc_ev_err(struct netlink_ext_ack *extack, const struct nlattr *nla,
	       int ev_err)
{
	/* The engine's texts are static: no copy needed. */
	mrc_nl_set_msg_attr(extack, nla, mrc_ev_strerror(ev_err));
	return mrc_ev_errno(ev_err);
}

/* A new profile in state INIT with room for @cap EVs. */
struct mrc_ev_prof *mrc_ev_prof_alloc(u32 id, u8 mode, u8 format, u16 cap,
				      struct netlink_ext_ack *extack)
{
	struct mrc_ev_prof *prof;
	int err;

	prof = kzalloc(struct_size(prof, evs, cap), GFP_KERNEL);
	if (!prof)
		return ERR_PTR(-ENOMEM);
	prof->id = id;
	err = mrc_ev_profile_init(&prof->p, mode, format,
				  cap ? prof->evs : NULL, cap);
	if (err) {
		kfree(prof);
		return ERR_PTR(mrc_ev_err(extack, NULL, err));
	}
	return prof;
}

void mrc_ev_prof_free(struct mrc_ev_prof *prof)
{
	kfree(prof);
}

struct mrc_ev_prof *mrc_ev_prof_find(struct mrc_dev *mdev, u32 id)
{
	lockdep_assert_held(&mrc_cfg_lock);
	return xa_load(&mdev->ev_profiles, id);
}

/* The built-in profile 0 as GET shows it: its planes are the route's. */
void mrc_ev_prof_builtin(struct mrc_ev_profile *p)
{
	mrc_ev_profile_init(p, MRC_EV_MODE_AUTO, MRC_EV_FMT_UDP, NULL, 0);
	p->state = MRC_EV_PROF_ONLINE;
	p->auto_count = MRC_EV_DEFAULT_PER_PLANE;
	p->ev_min_active = 1;
}

/* Take ownership of @prof (built and checked by the caller). */
int mrc_ev_prof_insert(struct mrc_dev *mdev, struct mrc_ev_prof *prof,
		       struct netlink_ext_ack *extack)
{
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	/* A taken id is refused before a full table, as it always was. */
	if (mdev->nr_ev_profiles >= MRC_MAX_EV_PROFILES &&
	    !xa_load(&mdev->ev_profiles, prof->id)) {
		NL_SET_ERR_MSG(extack,
			       "too many EV profiles (256 per device)");
		return -ENOSPC;
	}
	err = xa_insert(&mdev->ev_profiles, prof->id, prof, GFP_KERNEL);
	if (err == -EBUSY) {
		NL_SET_ERR_MSG(extack, "an EV profile with this id exists");
		return -EEXIST;
	}
	if (err)
		return err;
	mdev->nr_ev_profiles++;
	mrc_genl_event_ev_profile(mdev, prof, MRC_EVENT_EV_PROFILE);
	return 0;
}

/* The profile @id, or NULL with -ENOENT/-EPERM explained in @extack. */
static struct mrc_ev_prof *mrc_ev_prof_lookup(struct mrc_dev *mdev, u32 id,
					      struct netlink_ext_ack *extack,
					      int *err)
{
	struct mrc_ev_prof *prof;

	if (!id) {
		NL_SET_ERR_MSG(extack,
			       "EV profile 0 is the built-in default and cannot be changed");
		*err = -EPERM;
		return NULL;
	}
	prof = mrc_ev_prof_find(mdev, id);
	if (!prof) {
		NL_SET_ERR_MSG(extack, "no EV profile with this id");
		*err = -ENOENT;
	}
	return prof;
}

/* -EBUSY if a route names EV profile @id, with that route in *@busy. */
static int mrc_ev_prof_unused(struct mrc_dev *mdev, u32 id,
			      const struct mrc_route **busy)
{
	*busy = mrc_route_using_profile(mdev, false, id);
	return *busy ? -EBUSY : 0;
}

/* Delete EV profile @id.  -EBUSY with *@busy the route that names it;
 * any other error explained in @extack.
 */
int mrc_ev_prof_del(struct mrc_dev *mdev, u32 id,
		    const struct mrc_route **busy,
		    struct netlink_ext_ack *extack)
{
	struct mrc_ev_prof *prof;
	int err = 0;

	lockdep_assert_held(&mrc_cfg_lock);

	prof = mrc_ev_prof_lookup(mdev, id, extack, &err);
	if (!prof)
		return err;
	err = mrc_ev_prof_unused(mdev, id, busy);
	if (err)
		return err;
	xa_erase(&mdev->ev_profiles, id);
	mdev->nr_ev_profiles--;
	mrc_genl_event_ev_profile(mdev, prof, MRC_EVENT_EV_PROFILE_DEL);
	mrc_ev_prof_free(prof);
	return 0;
}

/* State, ev_min_active and event mask, all or nothing: the EVs are not
 * touched by these operations, so a copy of the profile header restores
 * it when a later step fails.  Taking it OFFLINE while a route names it:
 * -EBUSY with *@busy that route; other errors are explained in @extack.
 */
int mrc_ev_prof_set(struct mrc_dev *mdev, u32 id,
		    const struct mrc_ev_prof_change *chg,
		    const struct mrc_route **busy,
		    struct netlink_ext_ack *extack)
{
	struct mrc_ev_profile saved;
	struct mrc_ev_prof *prof;
	int err = 0;

	lockdep_assert_held(&mrc_cfg_lock);

	prof = mrc_ev_prof_lookup(mdev, id, extack, &err);
	if (!prof)
		return err;
	if (chg->has_state && chg->state == MRC_EV_PROF_OFFLINE &&
	    prof->p.state == MRC_EV_PROF_ONLINE) {
		err = mrc_ev_prof_unused(mdev, id, busy);
		if (err)
			return err;
	}
	saved = prof->p;
	if (chg->has_event_mask) {
		err = mrc_ev_profile_set_event_mask(&prof->p, chg->event_mask);
		if (err)
			goto undo;
	}
	if (chg->has_min_active) {
		err = mrc_ev_profile_set_min_active(&prof->p, chg->min_active);
		if (err)
			goto undo;
	}
	if (chg->has_state) {
		err = mrc_ev_profile_set_state(&prof->p, chg->state);
		if (err)
			goto undo;
	}
	/* The live QPs whose EVs came from the profile follow. */
	if (chg->has_min_active || chg->has_event_mask)
		mrc_qp_ev_params_changed(mdev, id, prof->p.ev_min_active,
					 prof->p.event_mask);
	mrc_genl_event_ev_profile(mdev, prof, MRC_EVENT_EV_PROFILE);
	return 0;

undo:
	prof->p = saved;
	return mrc_ev_err(extack, NULL, err);
}

/**
 * mrc_ev_prof_ev_change - replace, deny or allow one EV of a profile
 * @mdev: the instance
 * @id: the profile
 * @idx: the EV's index in the profile
 * @ev: the new plane and value (replace), or NULL
 * @deny: without @ev: 1 deny the EV, 0 allow it again
 * @extack: why not
 *
 * Changes what connections set up from now on get.  Caller holds
 * mrc_cfg_lock.  Return: 0 or a negative errno explained in @extack.
 */
int mrc_ev_prof_ev_change(struct mrc_dev *mdev, u32 id, u16 idx,
			  const struct mrc_ev *ev, int deny,
			  struct netlink_ext_ack *extack)
{
	struct mrc_ev_prof *prof;
	int err = 0;

	lockdep_assert_held(&mrc_cfg_lock);

	prof = mrc_ev_prof_lookup(mdev, id, extack, &err);
	if (!prof)
		return err;
	if (ev)
		err = mrc_ev_profile_replace(&prof->p, idx, ev->plane,
					     ev->value, ev->len);
	else
		err = mrc_ev_profile_deny(&prof->p, idx, deny);
	if (err)
		return mrc_ev_err(extack, NULL, err);
	mrc_genl_event_ev_profile(mdev, prof, MRC_EVENT_EV_PROFILE);
	return 0;
}

/**
 * mrc_ev_prof_ev_check - may one connection's EV @idx become @ev?
 * @mdev: the instance
 * @id: the EV profile the connection's EVs came from
 * @idx: the EV's index
 * @ev: the replacement
 * @extack: why not
 *
 * A connection's copy is replaced under the rules of the profile's own
 * replace (mode, index, format and value, no duplicate of another EV):
 * a value the profile would refuse must not reach the headers of a live
 * QP either.  Caller holds mrc_cfg_lock.  Return: 0 or -errno.
 */
int mrc_ev_prof_ev_check(struct mrc_dev *mdev, u32 id, u16 idx,
			 const struct mrc_ev *ev,
			 struct netlink_ext_ack *extack)
{
	struct mrc_ev_prof *prof;
	struct mrc_ev out;
	int err = 0;

	lockdep_assert_held(&mrc_cfg_lock);

	prof = mrc_ev_prof_lookup(mdev, id, extack, &err);
	if (!prof)
		return err;
	err = mrc_ev_profile_check_replace(&prof->p, idx, ev->plane,
					   ev->value, ev->len, &out);
	if (err)
		return mrc_ev_err(extack, NULL, err);
	return 0;
}

/* Free every EV profile of an instance going away (routes are gone). */
void mrc_ev_prof_flush(struct mrc_dev *mdev, bool announce)
{
	struct mrc_ev_prof *prof;
	unsigned long id;

	lockdep_assert_held(&mrc_cfg_lock);

	xa_for_each(&mdev->ev_profiles, id, prof) {
		xa_erase(&mdev->ev_profiles, id);
		if (announce)
			mrc_genl_event_ev_profile(mdev, prof,
						  MRC_EVENT_EV_PROFILE_DEL);
		mrc_ev_prof_free(prof);
	}
	mdev->nr_ev_profiles = 0;
}

/**
 * __mrc_ev_profile_conn_get - the EV set of a new (or moving) connection
 * @mdev: the instance
 * @id: the EV profile its route names (>= 1)
 * @qpn: the connection's QP number (AUTO derives the EVs from it)
 * @evs: @cap entries: the EVs
 * @cfg: @cap entries: the engine's view of them (plane, denied)
 * @cap: room in @evs and @cfg
 * @format: the profile's format (enum mrc_ev_format)
 * @min_active: the profile's ev_min_active
 * @event_mask: the profile's event mask (MRC_EV_EVT_*)
 *
 * Caller holds mrc_cfg_lock (mrc_ev_profile_conn_get() takes it).
 *
 * Return: the number of EVs, -ENOENT if there is no such profile, -EINVAL
 * if it is not ONLINE, -E2BIG if @cap is too small.
 */
int __mrc_ev_profile_conn_get(struct mrc_dev *mdev, u32 id, u32 qpn,
			      struct mrc_ev *evs, struct mrc_ev_cfg *cfg,
			      u16 cap, u8 *format, u16 *min_active,
			      u32 *event_mask)
{
	struct mrc_ev_prof *prof;
	int n;

	lockdep_assert_held(&mrc_cfg_lock);

	prof = id ? mrc_ev_prof_find(mdev, id) : NULL;
	if (!prof)
		return -ENOENT;
	n = mrc_ev_profile_conn_evs(&prof->p, qpn, evs, cfg, cap);
	if (n < 0)
		return n == -MRC_EV_ESTATE ? -EINVAL : mrc_ev_errno(n);
	*format = prof->p.format;
	*min_active = prof->p.ev_min_active;
	*event_mask = prof->p.event_mask;
	return n;
}

int mrc_ev_profile_conn_get(struct mrc_dev *mdev, u32 id, u32 qpn,
			    struct mrc_ev *evs, struct mrc_ev_cfg *cfg,
			    u16 cap, u8 *format, u16 *min_active,
			    u32 *event_mask)
{
	int n;

	mutex_lock(&mrc_cfg_lock);
	n = __mrc_ev_profile_conn_get(mdev, id, qpn, evs, cfg, cap, format,
				      min_active, event_mask);
	mutex_unlock(&mrc_cfg_lock);
	return n;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * CC profiles of an instance: named sets of NSCC parameters (struct
 * mrc_nscc_params, proto/engine.h) that routes select by id.  Id 0 is
 * the built-in default, mrc_cc_profile_default(), which every QP used
 * before profiles existed.
 *
 * Rules kept here, under mrc_cfg_lock: at most MRC_MAX_CC_PROFILES per
 * instance; a profile a route names cannot be deleted; every change is
 * announced (MRC_EVENT_CC_PROFILE, _DEL).  A change applies to the
 * connections set up after it and to the live ones that run the profile
 * (mrc_qp_cc_changed(): the window keeps its size within the new
 * bounds).
 */

#include <linux/slab.h>
#include <linux/xarray.h>

#include "nl_event.h"
#include "profile.h"
#include "nscc.h"

/**
 * mrc_cc_profile_default - the built-in CC profile 0
 * @out: filled with its parameters
 *
 * The engine's fabric defaults, with the timing of a software path (veth,
 * a VM, a kernel UDP stack): RTTs of 50 us to a few ms with scheduling
 * noise that is not queueing.  The fabric defaults (10 us base RTT) would
 * read every ACK as a deep queue, and quick adapt would hold the window
 * at a few packets.
 */
void mrc_cc_profile_default(struct mrc_nscc_params *out)
{
	mrc_nscc_params_default(out);
	out->base_rtt = 100000;
	out->target_delay = 200000;
	out->qa_threshold = 4000000;
	out->adjust_period = 100000;
}

struct mrc_cc_prof *mrc_cc_prof_find(struct mrc_dev *mdev, u32 id)
{
	lockdep_assert_held(&mrc_cfg_lock);
	return xa_load(&mdev->cc_profiles, id);
}

/* Take ownership of @prof (checked by the caller). */
int mrc_cc_prof_insert(struct mrc_dev *mdev, struct mrc_cc_prof *prof,
		       struct netlink_ext_ack *extack)
{
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	/* A taken id is refused before a full table, as it always was. */
	if (mdev->nr_cc_profiles >= MRC_MAX_CC_PROFILES &&
	    !xa_load(&mdev->cc_profiles, prof->id)) {
		NL_SET_ERR_MSG(extack,
			       "too many CC profiles (256 per device)");
		return -ENOSPC;
	}
	err = xa_insert(&mdev->cc_profiles, prof->id, prof, GFP_KERNEL);
	if (err == -EBUSY) {
		NL_SET_ERR_MSG(extack, "a CC profile with this id exists");
		return -EEXIST;
	}
	if (err)
		return err;
	mdev->nr_cc_profiles++;
	mrc_genl_event_cc_profile(mdev, prof, MRC_EVENT_CC_PROFILE);
	return 0;
}

/* New (checked) parameters for an existing profile. */
int mrc_cc_prof_update(struct mrc_dev *mdev, struct mrc_cc_prof *prof,
		       const struct mrc_nscc_params *params)
{
	lockdep_assert_held(&mrc_cfg_lock);

	prof->params = *params;
	mrc_qp_cc_changed(mdev, prof->id, &prof->params);
	mrc_genl_event_cc_profile(mdev, prof, MRC_EVENT_CC_PROFILE);
	return 0;
}

/* Delete CC profile @id.  -EBUSY with *@busy the route that names it;
 * any other error explained in @extack.
 */
int mrc_cc_prof_del(struct mrc_dev *mdev, u32 id,
		    const struct mrc_route **busy,
		    struct netlink_ext_ack *extack)
{
	struct mrc_cc_prof *prof;

	lockdep_assert_held(&mrc_cfg_lock);

	if (!id) {
		NL_SET_ERR_MSG(extack,
			       "CC profile 0 is the built-in default and cannot be changed");
		return -EPERM;
	}
	prof = mrc_cc_prof_find(mdev, id);
	if (!prof) {
		NL_SET_ERR_MSG(extack, "no CC profile with this id");
		return -ENOENT;
	}
	*busy = mrc_route_using_profile(mdev, true, id);
	if (*busy)
		return -EBUSY;
	xa_erase(&mdev->cc_profiles, id);
	mdev->nr_cc_profiles--;
	mrc_genl_event_cc_profile(mdev, prof, MRC_EVENT_CC_PROFILE_DEL);
	kfree(prof);
	return 0;
}

/* Free every CC profile of an instance going away (routes are gone). */
void mrc_cc_prof_flush(struct mrc_dev *mdev, bool announce)
{
	struct mrc_cc_prof *prof;
	unsigned long id;

	lockdep_assert_held(&mrc_cfg_lock);

	xa_for_each(&mdev->cc_profiles, id, prof) {
		xa_erase(&mdev->cc_profiles, id);
		if (announce)
			mrc_genl_event_cc_profile(mdev, prof,
						  MRC_EVENT_CC_PROFILE_DEL);
		kfree(prof);
	}
	mdev->nr_cc_profiles = 0;
}

/**
 * __mrc_cc_profile_get - the NSCC parameters of a CC profile
 * @mdev: the instance
 * @id: the CC profile a route names; 0 is the built-in default
 * @out: filled with the parameters
 *
 * Caller holds mrc_cfg_lock (mrc_cc_profile_get() takes it).
 * Return: 0 or -ENOENT.
 */
int __mrc_cc_profile_get(struct mrc_dev *mdev, u32 id,
			 struct mrc_nscc_params *out)
{
	struct mrc_cc_prof *prof;

	lockdep_assert_held(&mrc_cfg_lock);

	if (!id) {
		mrc_cc_profile_default(out);
		return 0;
	}
	prof = mrc_cc_prof_find(mdev, id);
	if (!prof)
		return -ENOENT;
	*out = prof->params;
	return 0;
}

int mrc_cc_profile_get(struct mrc_dev *mdev, u32 id,
		       struct mrc_nscc_params *out)
{
	int err;

	mutex_lock(&mrc_cfg_lock);
	err = __mrc_cc_profile_get(mdev, id, out);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

/* Every profile of an instance going away, after its routes. */
void mrc_profiles_flush(struct mrc_dev *mdev, bool announce)
{
	mrc_ev_prof_flush(mdev, announce);
	mrc_cc_prof_flush(mdev, announce);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * EV and CC profiles of an instance (ev_profile_cfg.c, cc_profile_cfg.c,
 * netlink_profile.c, netlink_cc_profile.c).  Every function that looks at
 * or changes an instance's profiles runs under mrc_cfg_lock (asserted);
 * building a profile (mrc_ev_prof_alloc()) and the errno helpers need no
 * lock.
 *
 * A profile is referenced by id (1..MRC_MAX_PROFILE) from routes; id 0 is
 * the built-in default of each kind, which is not stored: it cannot be
 * added, changed or deleted.  The objects live in two xarrays of struct
 * mrc_dev indexed by id, so that dumps resume at an id.
 */
#ifndef _NET_MRC_PROFILE_H
#define _NET_MRC_PROFILE_H

#include <net/netlink.h>

#include "mrc.h"
#include "ev_profile.h"

#define MRC_MAX_EV_PROFILES	256	/* per instance */
#define MRC_MAX_CC_PROFILES	256	/* per instance */

/* The built-in EV profile 0: AUTO, UDP, this many EVs per route plane. */
#define MRC_EV_DEFAULT_PER_PLANE	16

struct mrc_ev_prof {
	u32 id;				/* const, 1..MRC_MAX_PROFILE */
	/* The engine's profile; p.evs points at evs[], p.cap entries
	 * allocated when the profile was added (0 for AUTO).
	 */
	struct mrc_ev_profile p;
	struct mrc_ev evs[];
};

struct mrc_cc_prof {
	u32 id;				/* const, 1..MRC_MAX_PROFILE */
	struct mrc_nscc_params params;
};

/* What an EV_PROFILE_SET changes besides single EVs; absent: has_*. */
struct mrc_ev_prof_change {
	bool has_state, has_min_active, has_event_mask;
	u8 state;
	u16 min_active;
	u32 event_mask;
};

/* ev_profile_cfg.c */
int mrc_ev_errno(int ev_err);
int mrc_ev_err(struct netlink_ext_ack *extack, const struct nlattr *nla,
	       int ev_err);
struct mrc_ev_prof *mrc_ev_prof_alloc(u32 id, u8 mode, u8 format, u16 cap,
				      struct netlink_ext_ack *extack);
void mrc_ev_prof_free(struct mrc_ev_prof *prof);
struct mrc_ev_prof *mrc_ev_prof_find(struct mrc_dev *mdev, u32 id);
void mrc_ev_prof_builtin(struct mrc_ev_profile *p);
int mrc_ev_prof_insert(struct mrc_dev *mdev, struct mrc_ev_prof *prof,
		       struct netlink_ext_ack *extack);
int mrc_ev_prof_del(struct mrc_dev *mdev, u32 id,
		    const struct mrc_route **busy,
		    struct netlink_ext_ack *extack);
int mrc_ev_prof_set(struct mrc_dev *mdev, u32 id,
		    const struct mrc_ev_prof_change *chg,
		    const struct mrc_route **busy,
		    struct netlink_ext_ack *extack);
int mrc_ev_prof_ev_change(struct mrc_dev *mdev, u32 id, u16 idx,
			  const struct mrc_ev *ev, int deny,
			  struct netlink_ext_ack *extack);
int mrc_ev_prof_ev_check(struct mrc_dev *mdev, u32 id, u16 idx,
			 const struct mrc_ev *ev,
			 struct netlink_ext_ack *extack);
void mrc_ev_prof_flush(struct mrc_dev *mdev, bool announce);

/* cc_profile_cfg.c */
struct mrc_cc_prof *mrc_cc_prof_find(struct mrc_dev *mdev, u32 id);
int mrc_cc_prof_insert(struct mrc_dev *mdev, struct mrc_cc_prof *prof,
		       struct netlink_ext_ack *extack);
int mrc_cc_prof_update(struct mrc_dev *mdev, struct mrc_cc_prof *prof,
		       const struct mrc_nscc_params *params);
int mrc_cc_prof_del(struct mrc_dev *mdev, u32 id,
		    const struct mrc_route **busy,
		    struct netlink_ext_ack *extack);
void mrc_cc_prof_flush(struct mrc_dev *mdev, bool announce);

#endif /* _NET_MRC_PROFILE_H */

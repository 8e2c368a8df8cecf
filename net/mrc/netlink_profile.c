// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic netlink ops of EV profiles (MRC_CMD_EV_PROFILE_*;
 * Documentation/admin-guide/mrc.rst, "Profiles"); netlink_cc_profile.c has
 * the CC ops, netlink_prof_common.c what both share (the id of a request,
 * GET and its dump).  netlink.c owns the ops table, its top-level policy
 * and the instance lookup; nl_event.c the family, the profile events and
 * the fill of a profile nest that events and replies share.
 *
 * Message layout:
 *   EV_PROFILE_ADD:  DEV, EV_PROFILE_ID, _MODE, _FORMAT [, _MIN_ACTIVE]
 *                    [, _EVENT_MASK]; AUTO: _COUNT, _PLANE_MASK; EXP: _EVS
 *                    { EV { EV_PLANE, EV_VALUE [, EV_STATE] } ... }; GEN:
 *                    _GEN_FIELDS { GEN_FIELD { GEN_WIDTH, _INIT, _MIN, _MAX
 *                    [, _MASK] } ... }, _PLANE_MASK [, _GEN_SHIFT]
 *                    [, _GEN_BASE]
 *   EV_PROFILE_SET:  DEV, EV_PROFILE_ID and either [_STATE] [, _MIN_ACTIVE]
 *                    [, _EVENT_MASK], or one EV: EV_INDEX and EV_PLANE +
 *                    EV_VALUE (replace) or EV_DENY (deny 1 / allow 0)
 *   EV_PROFILE_GET reply, EV profile events: DEV_INDEX, DEV_NAME,
 *                    EV_PROFILE { the ADD attributes, _STATE, and _EVS
 *                    with EV_INDEX and EV_STATE in each EV }
 *
 * A profile is built and checked by the engine's functions before the
 * instance is even looked up, so that no lock is held while parsing.
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "netlink.h"
#include "nl_policy.h"
#include "profile.h"

static const struct mrc_nl_prof_kind mrc_nl_ev_kind;

/* Refuse attribute @type if present: it does not belong to this request. */
static int mrc_nl_refuse(struct genl_info *info, int type, const char *why)
{
	if (!info->attrs[type])
		return 0;
	mrc_nl_set_msg_attr(info->extack, info->attrs[type], why);
	return -EINVAL;
}

/* ---- EV profiles: building one from an ADD request ---- */

/* An EV's plane and value attributes into @ev (the engine checks them). */
static int mrc_nl_get_ev(struct nlattr *plane, struct nlattr *value,
			 const struct nlattr *where, struct mrc_ev *ev,
			 struct netlink_ext_ack *extack)
{
	memset(ev, 0, sizeof(*ev));
	if (!plane) {
		NL_SET_ERR_MSG_ATTR(extack, where,
				    "missing EV plane (MRC_A_EV_PLANE)");
		return -EINVAL;
	}
	if (!value) {
		NL_SET_ERR_MSG_ATTR(extack, where,
				    "missing EV value (MRC_A_EV_VALUE)");
		return -EINVAL;
	}
	ev->plane = nla_get_u8(plane);
	ev->len = nla_len(value);
	memcpy(ev->value, nla_data(value), ev->len);
	return 0;
}

/* Blame the attribute an engine error is about: plane, value or @nest. */
static int mrc_nl_ev_err(struct netlink_ext_ack *extack, struct nlattr **tb,
			 struct nlattr *nest, int err)
{
	struct nlattr *nla = nest;

	if (-err == MRC_EV_EPLANE && tb[MRC_A_EV_PLANE])
		nla = tb[MRC_A_EV_PLANE];
	else if ((-err == MRC_EV_ELEN || -err == MRC_EV_EVALUE ||
		  -err == MRC_EV_EDUP) && tb[MRC_A_EV_VALUE])
		nla = tb[MRC_A_EV_VALUE];
	return mrc_ev_err(extack, nla, err);
}

static int mrc_nl_ev_build_exp(struct genl_info *info,
			       struct mrc_ev_prof **out, u32 id, u8 format)
{
	struct nlattr *evs = info->attrs[MRC_A_EV_PROFILE_EVS];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[MRC_A_EV_MAX + 1];
	struct mrc_ev_prof *prof;
	unsigned int n = 0;
	struct nlattr *nla;
	struct mrc_ev ev;
	int rem, err;
	u8 state;

	if (!evs) {
		NL_SET_ERR_MSG(extack,
			       "EXP profile needs its EVs (MRC_A_EV_PROFILE_EVS)");
		return -EINVAL;
	}
	nla_for_each_nested(nla, evs, rem) {
		if (nla_type(nla) != MRC_A_EV) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "MRC_A_EV_PROFILE_EVS holds only MRC_A_EV entries");
			return -EINVAL;
		}
		n++;
	}
	if (!n)
		return mrc_ev_err(extack, evs, -MRC_EV_EEMPTY);
	if (n > MRC_MAX_EVS)
		return mrc_ev_err(extack, evs, -MRC_EV_ETOOMANY);

	prof = mrc_ev_prof_alloc(id, MRC_EV_MODE_EXP, format, n, extack);
	if (IS_ERR(prof))
		return PTR_ERR(prof);
	nla_for_each_nested(nla, evs, rem) {
		err = nla_parse_nested(tb, MRC_A_EV_MAX, nla, mrc_ev_nl_policy,
				       extack);
		if (err)
			goto fail;
		err = mrc_nl_get_ev(tb[MRC_A_EV_PLANE], tb[MRC_A_EV_VALUE],
				    nla, &ev, extack);
		if (err)
			goto fail;
		/* A controller may only start an EV out as denied. */
		state = tb[MRC_A_EV_STATE] ? nla_get_u8(tb[MRC_A_EV_STATE]) :
					     MRC_EV_UNKNOWN;
		if (state != MRC_EV_UNKNOWN && state != MRC_EV_DENIED) {
			err = mrc_ev_err(extack, tb[MRC_A_EV_STATE],
					 -MRC_EV_EEVSTATE);
			goto fail;
		}
		err = mrc_ev_profile_add(&prof->p, ev.plane, ev.value, ev.len,
					 state == MRC_EV_DENIED);
		if (err) {
			err = mrc_nl_ev_err(extack, tb, nla, err);
			goto fail;
		}
	}
	*out = prof;
	return 0;

fail:
	mrc_ev_prof_free(prof);
	return err;
}

/* One MRC_A_EV_GEN_FIELD nest into @f. */
static int mrc_nl_get_gen_field(struct nlattr *nest,
				struct mrc_ev_gen_field *f,
				struct netlink_ext_ack *extack)
{
	static const int need[] = {
		MRC_A_EV_GEN_WIDTH, MRC_A_EV_GEN_INIT, MRC_A_EV_GEN_MIN,
		MRC_A_EV_GEN_MAX,
	};
	struct nlattr *tb[MRC_A_EV_GEN_FIELD_MAX + 1];
	unsigned int i;
	int err;

	if (nla_type(nest) != MRC_A_EV_GEN_FIELD) {
		NL_SET_ERR_MSG_ATTR(extack, nest,
				    "MRC_A_EV_PROFILE_GEN_FIELDS holds only MRC_A_EV_GEN_FIELD entries");
		return -EINVAL;
	}
	err = nla_parse_nested(tb, MRC_A_EV_GEN_FIELD_MAX, nest,
			       mrc_ev_gen_field_nl_policy, extack);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(need); i++) {
		if (!tb[need[i]]) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "GEN field needs width, init, min and max");
			return -EINVAL;
		}
	}
	f->width = nla_get_u8(tb[MRC_A_EV_GEN_WIDTH]);
	f->init = nla_get_u32(tb[MRC_A_EV_GEN_INIT]);
	f->min = nla_get_u32(tb[MRC_A_EV_GEN_MIN]);
	f->max = nla_get_u32(tb[MRC_A_EV_GEN_MAX]);
	/* Without a mask every bit of the field may be set. */
	if (tb[MRC_A_EV_GEN_MASK])
		f->mask = nla_get_u32(tb[MRC_A_EV_GEN_MASK]);
	else
		f->mask = f->width >= 32 ? U32_MAX : (u32)BIT_ULL(f->width) - 1;
	return 0;
}

/* The GEN definition of a request into @gen (checked by the engine). */
static int mrc_nl_get_gen(struct genl_info *info, u8 format,
			  struct mrc_ev_gen *gen)
{
	struct nlattr *fields = info->attrs[MRC_A_EV_PROFILE_GEN_FIELDS];
	struct nlattr *base = info->attrs[MRC_A_EV_PROFILE_GEN_BASE];
	struct nlattr *mask = info->attrs[MRC_A_EV_PROFILE_PLANE_MASK];
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *nla;
	int rem, err, n = 0;

	memset(gen, 0, sizeof(*gen));
	if (!fields) {
		NL_SET_ERR_MSG(extack,
			       "GEN profile needs its fields (MRC_A_EV_PROFILE_GEN_FIELDS)");
		return -EINVAL;
	}
	if (!mask) {
		NL_SET_ERR_MSG(extack,
			       "GEN profile needs its planes (MRC_A_EV_PROFILE_PLANE_MASK)");
		return -EINVAL;
	}
	nla_for_each_nested(nla, fields, rem) {
		if (n >= MRC_EV_GEN_MAX_FIELDS)
			return mrc_ev_err(extack, fields,
					  -MRC_EV_EGEN_NFIELDS);
		err = mrc_nl_get_gen_field(nla, &gen->fields[n], extack);
		if (err)
			return err;
		n++;
	}
	gen->n_fields = n;
	gen->plane_mask = nla_get_u16(mask);
	if (info->attrs[MRC_A_EV_PROFILE_GEN_SHIFT])
		gen->shift = nla_get_u8(info->attrs[MRC_A_EV_PROFILE_GEN_SHIFT]);
	if (base) {
		if (nla_len(base) != mrc_ev_format_len(format)) {
			NL_SET_ERR_MSG_ATTR(extack, base,
					    "GEN base must be as long as the format's value (UDP 2, STEV 4, SRV6 16 bytes)");
			return -EINVAL;
		}
		memcpy(gen->base, nla_data(base), nla_len(base));
	}
	err = mrc_ev_gen_check(gen, format);
	if (err) {
		nla = fields;
		if (-err == MRC_EV_EPLANEMASK)
			nla = mask;
		else if (-err == MRC_EV_EGEN_BASE && base)
			nla = base;
		return mrc_ev_err(extack, nla, err);
	}
	return 0;
}

/* GEN: the storage is as large as the expansion, which is made now so
 * that the EVs can be shown, replaced and denied before going ONLINE.
 */
static int mrc_nl_ev_build_gen(struct genl_info *info,
			       struct mrc_ev_prof **out, u32 id, u8 format)
{
	struct mrc_ev_prof *prof;
	struct mrc_ev_gen gen;
	struct mrc_ev *tmp;
	int n, err;

	err = mrc_nl_get_gen(info, format, &gen);
	if (err)
		return err;
	tmp = kcalloc(MRC_MAX_EVS, sizeof(*tmp), GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	n = mrc_ev_gen_expand(&gen, format, tmp, MRC_MAX_EVS);
	if (n < 0) {
		err = mrc_ev_err(info->extack,
				 info->attrs[MRC_A_EV_PROFILE_GEN_FIELDS], n);
		goto out;
	}
	prof = mrc_ev_prof_alloc(id, MRC_EV_MODE_GEN, format, n, info->extack);
	if (IS_ERR(prof)) {
		err = PTR_ERR(prof);
		goto out;
	}
	err = mrc_ev_profile_set_gen(&prof->p, &gen);
	if (err) {
		mrc_ev_prof_free(prof);
		err = mrc_ev_err(info->extack, NULL, err);
		goto out;
	}
	memcpy(prof->evs, tmp, n * sizeof(*tmp));
	prof->p.n_evs = n;
	*out = prof;
out:
	kfree(tmp);
	return err;
}

static int mrc_nl_ev_build_auto(struct genl_info *info,
				struct mrc_ev_prof **out, u32 id, u8 format)
{
	struct nlattr *count = info->attrs[MRC_A_EV_PROFILE_COUNT];
	struct nlattr *mask = info->attrs[MRC_A_EV_PROFILE_PLANE_MASK];
	struct mrc_ev_prof *prof;
	int err;

	if (!count || !mask) {
		NL_SET_ERR_MSG(info->extack,
			       "AUTO profile needs an EV count (MRC_A_EV_PROFILE_COUNT) and planes (MRC_A_EV_PROFILE_PLANE_MASK)");
		return -EINVAL;
	}
	prof = mrc_ev_prof_alloc(id, MRC_EV_MODE_AUTO, format, 0, info->extack);
	if (IS_ERR(prof))
		return PTR_ERR(prof);
	err = mrc_ev_profile_set_auto(&prof->p, nla_get_u16(count),
				      nla_get_u16(mask));
	if (err) {
		mrc_ev_prof_free(prof);
		return mrc_ev_err(info->extack,
				  -err == MRC_EV_EPLANEMASK ? mask : count,
				  err);
	}
	*out = prof;
	return 0;
}

/* Attributes that only some modes take. */
static int mrc_nl_ev_mode_attrs(struct genl_info *info, u8 mode)
{
	static const char auto_only[] = "only AUTO profiles take an EV count";
	static const char exp_only[] = "only EXP profiles take a list of EVs";
	static const char gen_only[] = "only GEN profiles take GEN fields, shift and base";
	static const char no_planes[] = "EXP profiles take no plane mask: each EV names its plane";
	int err = 0;

	if (mode != MRC_EV_MODE_AUTO)
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_COUNT,
					   auto_only);
	if (mode != MRC_EV_MODE_EXP)
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_EVS, exp_only);
	if (mode == MRC_EV_MODE_EXP)
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_PLANE_MASK,
					   no_planes);
	if (mode != MRC_EV_MODE_GEN) {
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_GEN_FIELDS,
					   gen_only);
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_GEN_SHIFT,
					   gen_only);
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_GEN_BASE,
					   gen_only);
	}
	return err;
}

/* The whole profile an ADD request describes, in state INIT. */
static int mrc_nl_ev_build(struct genl_info *info, u32 id,
			   struct mrc_ev_prof **out)
{
	struct nlattr *nla_mode = info->attrs[MRC_A_EV_PROFILE_MODE];
	struct nlattr *nla_fmt = info->attrs[MRC_A_EV_PROFILE_FORMAT];
	struct nlattr *min_active = info->attrs[MRC_A_EV_PROFILE_MIN_ACTIVE];
	struct nlattr *event_mask = info->attrs[MRC_A_EV_PROFILE_EVENT_MASK];
	struct netlink_ext_ack *extack = info->extack;
	struct mrc_ev_profile check;
	struct mrc_ev_prof *prof;
	u8 mode, format;
	int err;

	if (!nla_mode || !nla_fmt) {
		NL_SET_ERR_MSG(extack,
			       "missing mode (MRC_A_EV_PROFILE_MODE) or format (MRC_A_EV_PROFILE_FORMAT)");
		return -EINVAL;
	}
	mode = nla_get_u8(nla_mode);
	format = nla_get_u8(nla_fmt);
	err = mrc_ev_profile_init(&check, mode, format, NULL, 0);
	if (err)
		return mrc_ev_err(extack, -err == MRC_EV_EMODE ? nla_mode :
				  nla_fmt, err);
	err = mrc_nl_ev_mode_attrs(info, mode);
	if (err)
		return err;

	switch (mode) {
	case MRC_EV_MODE_AUTO:
		err = mrc_nl_ev_build_auto(info, &prof, id, format);
		break;
	case MRC_EV_MODE_EXP:
		err = mrc_nl_ev_build_exp(info, &prof, id, format);
		break;
	default:
		err = mrc_nl_ev_build_gen(info, &prof, id, format);
		break;
	}
	if (err)
		return err;

	if (min_active) {
		err = mrc_ev_profile_set_min_active(&prof->p,
						    nla_get_u16(min_active));
		if (err)
			err = mrc_ev_err(extack, min_active, err);
	}
	if (!err && event_mask) {
		err = mrc_ev_profile_set_event_mask(&prof->p,
						    nla_get_u32(event_mask));
		if (err)
			err = mrc_ev_err(extack, event_mask, err);
	}
	if (err) {
		mrc_ev_prof_free(prof);
		return err;
	}
	*out = prof;
	return 0;
}

int mrc_nl_ev_profile_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_ev_prof *prof;
	struct mrc_dev *mdev;
	int err;
	u32 id;

	err = mrc_nl_profile_id(info, &mrc_nl_ev_kind, false, &id);
	if (err)
		return err;
	err = mrc_nl_refuse(info, MRC_A_EV_PROFILE_STATE,
			    "a new profile starts in state INIT: set its state with EV_PROFILE_SET");
	if (err)
		return err;
	err = mrc_nl_ev_build(info, id, &prof);
	if (err)
		return err;

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev)) {
		err = PTR_ERR(mdev);
	} else {
		err = mrc_ev_prof_insert(mdev, prof, info->extack);
		mutex_unlock(&mrc_cfg_lock);
	}
	if (err)
		mrc_ev_prof_free(prof);
	return err;
}

int mrc_nl_ev_profile_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_route *busy = NULL;
	struct mrc_dev *mdev;
	int err;
	u32 id;

	err = mrc_nl_profile_id(info, &mrc_nl_ev_kind, false, &id);
	if (err)
		return err;
	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_ev_prof_del(mdev, id, &busy, info->extack);
	if (err == -EBUSY && busy)
		err = mrc_nl_route_busy(busy, "EV profile", info->extack);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

/* SET of one EV: EV_INDEX with EV_PLANE + EV_VALUE, or with EV_DENY. */
static int mrc_nl_ev_profile_set_ev(struct genl_info *info,
				    struct mrc_dev *mdev, u32 id)
{
	struct nlattr **attrs = info->attrs;
	struct mrc_ev ev, *evp = NULL;
	int deny = 0, err;
	u16 idx;

	idx = nla_get_u16(attrs[MRC_A_EV_PROFILE_EV_INDEX]);
	if (attrs[MRC_A_EV_PROFILE_EV_DENY]) {
		if (attrs[MRC_A_EV_PROFILE_EV_PLANE] || attrs[MRC_A_EV_PROFILE_EV_VALUE]) {
			NL_SET_ERR_MSG_ATTR(info->extack, attrs[MRC_A_EV_PROFILE_EV_DENY],
					    "replace an EV or deny/allow it, not both");
			return -EINVAL;
		}
		deny = nla_get_u8(attrs[MRC_A_EV_PROFILE_EV_DENY]);
	} else {
		err = mrc_nl_get_ev(attrs[MRC_A_EV_PROFILE_EV_PLANE],
				    attrs[MRC_A_EV_PROFILE_EV_VALUE],
				    attrs[MRC_A_EV_PROFILE_EV_INDEX], &ev,
				    info->extack);
		if (err)
			return err;
		evp = &ev;
	}
	/* One connection's copy: the profile stays as it is. */
	if (attrs[MRC_A_EV_PROFILE_QPN]) {
		if (evp) {
			err = mrc_ev_prof_ev_check(mdev, id, idx, evp,
						   info->extack);
			if (err)
				return err;
		}
		if (!mrc_qp_ev_changed(mdev, id, nla_get_u32(attrs[MRC_A_EV_PROFILE_QPN]),
				       idx, evp, deny)) {
			NL_SET_ERR_MSG_ATTR(info->extack, attrs[MRC_A_EV_PROFILE_QPN],
					    "no live QP with that number uses this profile and EV (a replacement must stay on the EV's plane)");
			return -ENOENT;
		}
		return 0;
	}
	err = mrc_ev_prof_ev_change(mdev, id, idx, evp, deny, info->extack);
	if (!err)
		mrc_qp_ev_changed(mdev, id, 0, idx, evp, deny);
	return err;
}

int mrc_nl_ev_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	struct mrc_ev_prof_change chg = {};
	static const char alone[] =
		"an EV change (MRC_A_EV_INDEX) goes in a request of its own";
	static const char no_index[] = "missing EV index (MRC_A_EV_INDEX)";
	const struct mrc_route *busy = NULL;
	struct mrc_dev *mdev;
	bool one_ev;
	int err;
	u32 id;

	err = mrc_nl_profile_id(info, &mrc_nl_ev_kind, false, &id);
	if (err)
		return err;
	one_ev = attrs[MRC_A_EV_PROFILE_EV_INDEX];
	if (one_ev) {
		err = mrc_nl_refuse(info, MRC_A_EV_PROFILE_STATE, alone);
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_MIN_ACTIVE,
					   alone);
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_EVENT_MASK,
					   alone);
	} else {
		err = mrc_nl_refuse(info, MRC_A_EV_PROFILE_EV_PLANE, no_index);
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_EV_VALUE, no_index);
		err = err ?: mrc_nl_refuse(info, MRC_A_EV_PROFILE_EV_DENY, no_index);
		chg.has_state = attrs[MRC_A_EV_PROFILE_STATE];
		chg.has_min_active = attrs[MRC_A_EV_PROFILE_MIN_ACTIVE];
		chg.has_event_mask = attrs[MRC_A_EV_PROFILE_EVENT_MASK];
		if (!err && !chg.has_state && !chg.has_min_active &&
		    !chg.has_event_mask) {
			NL_SET_ERR_MSG(info->extack,
				       "nothing to change: give a state, min active, event mask or one EV");
			err = -EINVAL;
		}
	}
	if (err)
		return err;
	if (chg.has_state)
		chg.state = nla_get_u8(attrs[MRC_A_EV_PROFILE_STATE]);
	if (chg.has_min_active)
		chg.min_active = nla_get_u16(attrs[MRC_A_EV_PROFILE_MIN_ACTIVE]);
	if (chg.has_event_mask)
		chg.event_mask = nla_get_u32(attrs[MRC_A_EV_PROFILE_EVENT_MASK]);

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	if (one_ev)
		err = mrc_nl_ev_profile_set_ev(info, mdev, id);
	else
		err = mrc_ev_prof_set(mdev, id, &chg, &busy, info->extack);
	if (err == -EBUSY && busy)
		err = mrc_nl_route_busy(busy, "EV profile", info->extack);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

/* The fill of mrc_nl_ev_kind: profile @id (@prof: a struct mrc_ev_prof,
 * NULL: the built-in) as one EV_PROFILE_GET message.
 */
static int mrc_nl_fill_ev_profile(struct sk_buff *skb, struct mrc_dev *mdev,
				  u32 id, const void *prof, u32 portid,
				  u32 seq, int flags)
{
	const struct mrc_ev_prof *evp = prof;
	struct mrc_ev_profile builtin;
	void *hdr;

	lockdep_assert_held(&mrc_cfg_lock);

	if (!evp)
		mrc_ev_prof_builtin(&builtin);
	hdr = mrc_nl_put_hdr(skb, mdev, portid, seq, flags,
			     MRC_CMD_EV_PROFILE_GET);
	if (!hdr)
		return -EMSGSIZE;
	return mrc_nl_end_hdr(skb, hdr,
			      mrc_nl_put_ev_profile(skb, 0, id,
						    evp ? &evp->p : &builtin));
}

static struct xarray *mrc_nl_ev_profiles(struct mrc_dev *mdev)
{
	return &mdev->ev_profiles;
}

static const struct mrc_nl_prof_kind mrc_nl_ev_kind = {
	.id_attr = MRC_A_EV_PROFILE_ID,
	.no_id = "missing EV profile id (MRC_A_EV_PROFILE_ID)",
	.builtin = "EV profile 0 is the built-in default and cannot be changed",
	.unknown = "no EV profile with this id",
	.msg_size = MRC_NL_EV_PROFILE_MAX,
	.profiles = mrc_nl_ev_profiles,
	.fill = mrc_nl_fill_ev_profile,
};

int mrc_nl_ev_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_get(info, &mrc_nl_ev_kind);
}

/* Every dump skb must hold the largest profile. */
int mrc_nl_ev_profile_get_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = MRC_NL_EV_PROFILE_MAX;
	return 0;
}

int mrc_nl_ev_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return mrc_nl_profile_dumpit(skb, cb, &mrc_nl_ev_kind);
}

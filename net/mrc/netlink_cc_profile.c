// SPDX-License-Identifier: GPL-2.0-only
/*
 * Generic netlink ops of CC profiles (MRC_CMD_CC_PROFILE_*;
 * Documentation/admin-guide/mrc.rst, "Profiles").  What they share with
 * EV profiles (the id of a request, GET and its dump) is in
 * netlink_prof_common.c.
 *
 * Message layout:
 *   CC_PROFILE_ADD/SET: DEV, CC_PROFILE_ID, CC_ALGO (ADD; SET: optional),
 *                    CC_* values (ADD: the others are profile 0's)
 *   CC_PROFILE_GET reply, CC profile events: DEV_INDEX, DEV_NAME,
 *                    CC_PROFILE { CC_PROFILE_ID, CC_ALGO, every CC_* value }
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/netlink.h>

#include "netlink.h"
#include "profile.h"

/* Apply the CC_* attributes of a request to @p; false if there were none. */
static bool mrc_nl_get_cc(struct nlattr **attrs, struct mrc_nscc_params *p)
{
	bool any = false;
	unsigned int i;
	void *dst;

	for (i = 0; i < mrc_nl_cc_nr_fields; i++) {
		if (!attrs[mrc_nl_cc_fields[i].attr])
			continue;
		dst = (u8 *)p + mrc_nl_cc_fields[i].off;
		if (mrc_nl_cc_fields[i].size == 4)
			*(u32 *)dst = nla_get_u32(attrs[mrc_nl_cc_fields[i].attr]);
		else
			*(u8 *)dst = nla_get_u8(attrs[mrc_nl_cc_fields[i].attr]);
		any = true;
	}
	return any;
}

/* Values NSCC (proto/nscc.c) cannot run with: it divides by fi_scale and
 * target_delay, shifts by qa_gate, and scales decreases by gamma and
 * max_md_jump / 1024 of the window.
 */
static int mrc_nl_check_cc(struct nlattr **attrs,
			   const struct mrc_nscc_params *p,
			   struct netlink_ext_ack *extack)
{
	const char *why = NULL;
	int attr = 0, other = 0;

	if (!p->base_rtt) {
		attr = MRC_A_CC_BASE_RTT;
		why = "base RTT must be at least 1 ns";
	} else if (!p->target_delay) {
		attr = MRC_A_CC_TARGET_DELAY;
		why = "target delay must be at least 1 ns";
	} else if (!p->adjust_bytes) {
		attr = MRC_A_CC_ADJUST_BYTES;
		why = "adjust bytes must be at least 1";
	} else if (!p->fi_scale) {
		attr = MRC_A_CC_FI_SCALE;
		why = "fi scale must be at least 1";
	} else if (!p->gamma || p->gamma > 1024) {
		attr = MRC_A_CC_GAMMA;
		why = "gamma out of range (1..1024)";
	} else if (!p->max_md_jump || p->max_md_jump > 1024) {
		attr = MRC_A_CC_MAX_MD_JUMP;
		why = "max MD jump out of range (1..1024)";
	} else if (!p->max_cwnd) {
		attr = MRC_A_CC_MAX_CWND;
		why = "max cwnd must be at least 1 byte";
	} else if (p->init_cwnd > p->max_cwnd) {
		attr = MRC_A_CC_INIT_CWND;
		other = MRC_A_CC_MAX_CWND;
		why = "init cwnd exceeds max cwnd";
	} else if (p->min_cwnd > p->init_cwnd) {
		attr = MRC_A_CC_MIN_CWND;
		other = MRC_A_CC_INIT_CWND;
		why = "min cwnd exceeds init cwnd";
	} else if (p->qa_gate > 31) {
		attr = MRC_A_CC_QA_GATE;
		why = "qa gate out of range (0..31)";
	} else if (p->disable_qa > 1) {
		attr = MRC_A_CC_DISABLE_QA;
		why = "disable qa must be 0 or 1";
	}
	if (!why)
		return 0;
	if (!attrs[attr] && other)
		attr = other;
	mrc_nl_set_msg_attr(extack, attrs[attr], why);
	return -EINVAL;
}

static const struct mrc_nl_prof_kind mrc_nl_cc_kind;

/* The request's algorithm into @p (no_cc); *@given: it named one. */
static int mrc_nl_get_algo(struct genl_info *info, bool required,
			   struct mrc_nscc_params *p, bool *given)
{
	struct nlattr *nla = info->attrs[MRC_A_CC_ALGO];

	*given = nla;
	if (!nla) {
		if (!required)
			return 0;
		NL_SET_ERR_MSG(info->extack,
			       "missing CC algorithm (MRC_A_CC_ALGO)");
		return -EINVAL;
	}
	if (!nla_strcmp(nla, MRC_CC_ALGO_NSCC)) {
		p->no_cc = 0;
	} else if (!nla_strcmp(nla, MRC_CC_ALGO_NONE)) {
		p->no_cc = 1;
	} else {
		NL_SET_ERR_MSG_ATTR(info->extack, nla,
				    "unknown CC algorithm (uet-1.0-nscc or none)");
		return -EOPNOTSUPP;
	}
	return 0;
}

int mrc_nl_cc_profile_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_cc_prof *prof;
	struct mrc_dev *mdev;
	bool algo;
	int err;
	u32 id;

	err = mrc_nl_profile_id(info, &mrc_nl_cc_kind, false, &id);
	if (err)
		return err;
	prof = kzalloc(sizeof(*prof), GFP_KERNEL);
	if (!prof)
		return -ENOMEM;
	prof->id = id;
	/* What is not given is the built-in default's. */
	mrc_cc_profile_default(&prof->params);
	err = mrc_nl_get_algo(info, true, &prof->params, &algo);
	if (err)
		goto out;
	mrc_nl_get_cc(info->attrs, &prof->params);
	err = mrc_nl_check_cc(info->attrs, &prof->params, info->extack);
	if (err)
		goto out;

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev)) {
		err = PTR_ERR(mdev);
	} else {
		err = mrc_cc_prof_insert(mdev, prof, info->extack);
		mutex_unlock(&mrc_cfg_lock);
	}
out:
	if (err)
		kfree(prof);
	return err;
}

int mrc_nl_cc_profile_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct mrc_nscc_params params;
	struct mrc_cc_prof *prof;
	struct mrc_dev *mdev;
	bool algo;
	int err;
	u32 id;

	err = mrc_nl_profile_id(info, &mrc_nl_cc_kind, false, &id);
	if (err)
		return err;

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	prof = mrc_nl_profile_find(info, &mrc_nl_cc_kind, mdev, id);
	if (!prof) {
		err = -ENOENT;
		goto out;
	}
	params = prof->params;
	err = mrc_nl_get_algo(info, false, &params, &algo);
	if (err)
		goto out;
	if (!mrc_nl_get_cc(info->attrs, &params) && !algo) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to change: give an algorithm or at least one CC value");
		err = -EINVAL;
		goto out;
	}
	err = mrc_nl_check_cc(info->attrs, &params, info->extack);
	if (!err)
		err = mrc_cc_prof_update(mdev, prof, &params);
out:
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

int mrc_nl_cc_profile_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct mrc_route *busy = NULL;
	struct mrc_dev *mdev;
	int err;
	u32 id;

	err = mrc_nl_profile_id(info, &mrc_nl_cc_kind, false, &id);
	if (err)
		return err;
	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return PTR_ERR(mdev);
	err = mrc_cc_prof_del(mdev, id, &busy, info->extack);
	if (err == -EBUSY && busy)
		err = mrc_nl_route_busy(busy, "CC profile", info->extack);
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

/* The fill of mrc_nl_cc_kind: profile @id (@prof: a struct mrc_cc_prof,
 * NULL: the built-in) as one CC_PROFILE_GET message.
 */
static int mrc_nl_fill_cc_profile(struct sk_buff *skb, struct mrc_dev *mdev,
				  u32 id, const void *prof, u32 portid,
				  u32 seq, int flags)
{
	const struct mrc_cc_prof *ccp = prof;
	struct mrc_nscc_params builtin;
	void *hdr;

	lockdep_assert_held(&mrc_cfg_lock);

	if (!ccp)
		mrc_cc_profile_default(&builtin);
	hdr = mrc_nl_put_hdr(skb, mdev, portid, seq, flags,
			     MRC_CMD_CC_PROFILE_GET);
	if (!hdr)
		return -EMSGSIZE;
	return mrc_nl_end_hdr(skb, hdr,
			      mrc_nl_put_cc_profile(skb, 0, id,
						    ccp ? &ccp->params :
							  &builtin));
}

static struct xarray *mrc_nl_cc_profiles(struct mrc_dev *mdev)
{
	return &mdev->cc_profiles;
}

static const struct mrc_nl_prof_kind mrc_nl_cc_kind = {
	.id_attr = MRC_A_CC_PROFILE_ID,
	.no_id = "missing CC profile id (MRC_A_CC_PROFILE_ID)",
	.builtin = "CC profile 0 is the built-in default and cannot be changed",
	.unknown = "no CC profile with this id",
	.msg_size = NLMSG_GOODSIZE,
	.profiles = mrc_nl_cc_profiles,
	.fill = mrc_nl_fill_cc_profile,
};

int mrc_nl_cc_profile_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return mrc_nl_profile_get(info, &mrc_nl_cc_kind);
}

int mrc_nl_cc_profile_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return mrc_nl_profile_dumpit(skb, cb, &mrc_nl_cc_kind);
}

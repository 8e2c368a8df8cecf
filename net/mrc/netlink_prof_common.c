// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the generic netlink ops of EV profiles (netlink_profile.c) and CC
 * profiles (netlink_cc_profile.c) share: the profile id of a request, the
 * lookup of a profile, and GET with its dump.  Each kind describes itself
 * in a struct mrc_nl_prof_kind (netlink.h): its id attribute, its extack
 * texts, where its profiles live and how one is put in a message.
 */

#include <net/genetlink.h>
#include <net/netlink.h>

#include "netlink.h"
#include "profile.h"

/* The profile id of a request: 1..MRC_MAX_PROFILE, or 0 too if @zero_ok. */
int mrc_nl_profile_id(struct genl_info *info,
		      const struct mrc_nl_prof_kind *kind, bool zero_ok,
		      u32 *id)
{
	struct nlattr *nla = info->attrs[kind->id_attr];

	if (!nla) {
		mrc_nl_set_msg(info->extack, kind->no_id);
		return -EINVAL;
	}
	*id = nla_get_u32(nla);
	if (*id > MRC_MAX_PROFILE) {
		NL_SET_ERR_MSG_ATTR(info->extack, nla,
				    "profile id out of range (1..65535)");
		return -ERANGE;
	}
	if (!*id && !zero_ok) {
		mrc_nl_set_msg_attr(info->extack, nla, kind->builtin);
		return -EPERM;
	}
	return 0;
}

/* Profile @id (not 0) of @mdev, or NULL with the refusal in extack (the
 * caller returns -ENOENT).  Caller holds mrc_cfg_lock.
 */
void *mrc_nl_profile_find(struct genl_info *info,
			  const struct mrc_nl_prof_kind *kind,
			  struct mrc_dev *mdev, u32 id)
{
	void *prof;

	lockdep_assert_held(&mrc_cfg_lock);
	prof = xa_load(kind->profiles(mdev), id);
	if (!prof)
		mrc_nl_set_msg_attr(info->extack, info->attrs[kind->id_attr],
				    kind->unknown);
	return prof;
}

int mrc_nl_profile_get(struct genl_info *info,
		       const struct mrc_nl_prof_kind *kind)
{
	struct sk_buff *msg;
	struct mrc_dev *mdev;
	void *prof = NULL;
	int err;
	u32 id;

	err = mrc_nl_profile_id(info, kind, true, &id);
	if (err)
		return err;
	msg = nlmsg_new(kind->msg_size, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	mdev = mrc_nl_lock_dev(info);
	if (IS_ERR(mdev))
		return mrc_nl_reply(info, msg, PTR_ERR(mdev));
	if (id)
		prof = mrc_nl_profile_find(info, kind, mdev, id);
	if (id && !prof)
		err = -ENOENT;
	else
		err = kind->fill(msg, mdev, id, prof, info->snd_portid,
				 info->snd_seq, 0);
	mutex_unlock(&mrc_cfg_lock);
	return mrc_nl_reply(info, msg, err);
}

/* One instance's profiles from id cb->args[1] on (0: the built-in). */
static int mrc_nl_profile_dump_dev(struct sk_buff *skb,
				   struct netlink_callback *cb,
				   struct mrc_dev *mdev, const void *arg)
{
	u32 portid = NETLINK_CB(cb->skb).portid, seq = cb->nlh->nlmsg_seq;
	const struct mrc_nl_prof_kind *kind = arg;
	unsigned long id = cb->args[1];
	void *prof;
	int err;

	lockdep_assert_held(&mrc_cfg_lock);

	if (!id) {
		err = kind->fill(skb, mdev, 0, NULL, portid, seq, NLM_F_MULTI);
		if (err)
			return err;
		id = 1;
	}
	xa_for_each_start(kind->profiles(mdev), id, prof, id) {
		err = kind->fill(skb, mdev, id, prof, portid, seq, NLM_F_MULTI);
		if (err) {
			/* Resume at the profile that did not fit. */
			cb->args[1] = id;
			return err;
		}
	}
	return 0;
}

/* Dump the profiles of @kind of every instance of the namespace, or of
 * the one the request names.
 */
int mrc_nl_profile_dumpit(struct sk_buff *skb, struct netlink_callback *cb,
			  const struct mrc_nl_prof_kind *kind)
{
	return mrc_nl_dump_devs(skb, cb, mrc_nl_profile_dump_dev, kind);
}

/* Refuse a change of a profile (@what) that @route uses (the profile
 * code returns the route): -EBUSY, and an extack naming the route's peer.
 */
int mrc_nl_route_busy(const struct mrc_route *route, const char *what,
		      struct netlink_ext_ack *extack)
{
	const char *text;

	lockdep_assert_held(&mrc_cfg_lock);

	if (route->family == AF_INET)
		text = mrc_nl_msg("%s in use by the route to %pI4", what,
				  route->peer);
	else
		text = mrc_nl_msg("%s in use by the route to %pI6c", what,
				  route->peer);
	if (text)
		mrc_nl_set_msg(extack, text);
	else
		NL_SET_ERR_MSG(extack, "profile in use by a route");
	return -EBUSY;
}

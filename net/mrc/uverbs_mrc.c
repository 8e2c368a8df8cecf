// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device's own uverbs methods (include/uapi/rdma/mrc-abi.h): what the
 * device can do, and the MRC attributes of a QP.  They are reached by the
 * QP's owner through its uverbs context, so no privilege is needed.
 *
 * MODIFY checks every field before it changes anything (all or nothing):
 *   EINVAL      a mask bit we do not know, reserved or QUERY-only fields
 *               not 0, a flag we do not know, F_MRC cleared once set, a
 *               value out of range (max_wimm 1..MRC_KABI_MAX_WIMM,
 *               max_wimm_dest 1..MRC_KABI_MAX_WIMM_DEST, mpr and mpr_dest
 *               1..MRC_MAX_MPR, timeout 0..24, retry_linear 0..7,
 *               retry_exp 0..25), a profile id above U32_MAX, a cap bit we
 *               do not know, or an attribute the QP's state does not allow
 *   EOPNOTSUPP  MRC_IB_QP_CAP_DYNAMIC_MPR (the engine's window is static)
 *   ENOENT      an EV or CC profile id with no such profile (0 is the
 *               built-in one: AUTO EVs, the default CC parameters)
 * States: F_MRC, EV and CC profile in RESET; MAX_WIMM_DEST and MPR_DEST in
 * RESET or INIT; MAX_WIMM, MPR, TIMEOUT, RETRY_CNT and CAP in RESET, INIT
 * or RTR.  The profiles and windows take effect at RTR, timeout, retry and
 * MPR at RTS (Documentation/networking/mrc-verbs.rst).
 */

#define UVERBS_MODULE_NAME mrc_ib
#include <rdma/uverbs_ioctl.h>
#include <rdma/uverbs_named_ioctl.h>
#include <rdma/uverbs_std_types.h>

#include "qp.h"
#include "profile.h"

#define MRC_KABI_MASK	(MRC_IB_QP_MAX_WIMM | MRC_IB_QP_MAX_WIMM_DEST | \
			 MRC_IB_QP_MPR | MRC_IB_QP_MPR_DEST |		\
			 MRC_IB_QP_TIMEOUT | MRC_IB_QP_EV_PROFILE |	\
			 MRC_IB_QP_CC_PROFILE | MRC_IB_QP_RETRY_CNT |	\
			 MRC_IB_QP_CAP | MRC_IB_QP_FLAGS)
#define MRC_KABI_CAPS	(MRC_IB_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED |	\
			 MRC_IB_QP_CAP_DYNAMIC_MPR |			\
			 MRC_IB_QP_CAP_SVC_TIME_DEST_UNSUPPORTED)
/* What each state allows (the OCP API's order of the transitions). */
#define MRC_KABI_RESET_ONLY	(MRC_IB_QP_FLAGS | MRC_IB_QP_EV_PROFILE | \
				 MRC_IB_QP_CC_PROFILE)
#define MRC_KABI_TO_INIT	(MRC_IB_QP_MAX_WIMM_DEST | MRC_IB_QP_MPR_DEST)
#define MRC_KABI_TO_RTR		(MRC_IB_QP_MAX_WIMM | MRC_IB_QP_MPR |	\
				 MRC_IB_QP_TIMEOUT | MRC_IB_QP_RETRY_CNT | \
				 MRC_IB_QP_CAP)

static u32 mrc_kabi_state_allows(enum ib_qp_state state)
{
	switch (state) {
	case IB_QPS_RESET:
		return MRC_KABI_RESET_ONLY | MRC_KABI_TO_INIT | MRC_KABI_TO_RTR;
	case IB_QPS_INIT:
		return MRC_KABI_TO_INIT | MRC_KABI_TO_RTR;
	case IB_QPS_RTR:
		return MRC_KABI_TO_RTR;
	default:
		return 0;
	}
}

static int UVERBS_HANDLER(MRC_IB_METHOD_QUERY_DEVICE)
	(struct uverbs_attr_bundle *attrs)
{
	struct ib_ucontext *uctx = ib_uverbs_get_ucontext(attrs);
	struct mrc_ib_device_attr resp = {};
	struct mrc_plane *plane;
	struct mrc_dev *mdev;
	u32 id;

	if (IS_ERR(uctx))
		return PTR_ERR(uctx);
	mdev = to_mdev(uctx->device);
	resp.protocol_versions = MRC_IB_PROTOCOL_V1;
	/* TRIM_NACK while trimmed packets are recognised (trim_dscp set,
	 * net.c); SVC_TIME: ACKs and probe answers carry the responder's
	 * service time, which RTT samples subtract (per QP unless
	 * SVC_TIME_DEST_UNSUPPORTED); not DYNAMIC_MPR (the window is fixed
	 * per connection).
	 */
	resp.caps = MRC_IB_DEV_CAP_SVC_TIME;
	if (READ_ONCE(mrc_trim_dscp) >= 0)
		resp.caps |= MRC_IB_DEV_CAP_TRIM_NACK;
	resp.max_wimm = MRC_KABI_MAX_WIMM;
	resp.max_wimm_dest = MRC_KABI_MAX_WIMM_DEST;
	resp.max_mpr = MRC_MAX_MPR;
	resp.mpr_resolution = 1;
	resp.max_timeout = MRC_KABI_MAX_TIMEOUT;
	resp.max_retry_linear = MRC_KABI_MAX_LINEAR;
	resp.max_retry_exp = MRC_IB_RETRY_EXP_INFINITE;
	mutex_lock(&mrc_cfg_lock);
	for (id = 1; id <= MRC_MAX_PLANES; id++) {
		plane = mrc_plane_get_locked(mdev, id);
		if (!plane)
			continue;
		resp.n_planes = id;
		if (plane->oper_up)	/* admin up and carrier */
			resp.planes_up |= BIT(id - 1);
	}
	mutex_unlock(&mrc_cfg_lock);
	return uverbs_copy_to(attrs, MRC_IB_ATTR_QUERY_DEVICE_RESP, &resp,
			      sizeof(resp));
}

/* The checks that need no QP state: 0 or -errno. */
static int mrc_kabi_check(const struct mrc_ib_qp_attr *a)
{
	if (a->mask & ~MRC_KABI_MASK)
		return -EINVAL;
	if (memchr_inv(a->reserved, 0, sizeof(a->reserved)) ||
	    a->reserved2 || a->wimm_inflight || a->wimm_inflight_max)
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_FLAGS) && (a->flags & ~MRC_IB_QP_F_MRC))
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_MAX_WIMM) &&
	    (!a->max_wimm || a->max_wimm > MRC_KABI_MAX_WIMM))
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_MAX_WIMM_DEST) &&
	    (!a->max_wimm_dest || a->max_wimm_dest > MRC_KABI_MAX_WIMM_DEST))
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_MPR) && (!a->mpr || a->mpr > MRC_MAX_MPR))
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_MPR_DEST) &&
	    (!a->mpr_dest || a->mpr_dest > MRC_MAX_MPR))
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_TIMEOUT) &&
	    a->timeout > MRC_KABI_MAX_TIMEOUT)
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_RETRY_CNT) &&
	    (a->retry_linear > MRC_KABI_MAX_LINEAR ||
	     a->retry_exp > MRC_IB_RETRY_EXP_INFINITE))
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_EV_PROFILE) && a->ev_profile > U32_MAX)
		return -EINVAL;
	if ((a->mask & MRC_IB_QP_CC_PROFILE) && a->cc_profile > U32_MAX)
		return -EINVAL;
	if (a->mask & MRC_IB_QP_CAP) {
		if (a->cap & ~MRC_KABI_CAPS)
			return -EINVAL;
		if (a->cap & MRC_IB_QP_CAP_DYNAMIC_MPR)
			return -EOPNOTSUPP;
	}
	return 0;
}

/* The profiles named must exist now (process context: mrc_cfg_lock).  A
 * profile deleted before RTR fails that transition with ENOENT instead.
 */
static int mrc_kabi_check_profiles(struct mrc_dev *mdev,
				   const struct mrc_ib_qp_attr *a)
{
	int err = 0;

	mutex_lock(&mrc_cfg_lock);
	if ((a->mask & MRC_IB_QP_EV_PROFILE) && a->ev_profile &&
	    !mrc_ev_prof_find(mdev, a->ev_profile))
		err = -ENOENT;
	if ((a->mask & MRC_IB_QP_CC_PROFILE) && a->cc_profile &&
	    !mrc_cc_prof_find(mdev, a->cc_profile))
		err = -ENOENT;
	mutex_unlock(&mrc_cfg_lock);
	return err;
}

static void mrc_kabi_store(struct mrc_qp *qp, const struct mrc_ib_qp_attr *a)
{
	struct mrc_qp_mrc *m = &qp->mrc;

	lockdep_assert_held(&qp->lock);
	if (a->mask & MRC_IB_QP_FLAGS)
		m->flags = a->flags;
	if (a->mask & MRC_IB_QP_EV_PROFILE)
		WRITE_ONCE(m->ev_profile, (u32)a->ev_profile);
	if (a->mask & MRC_IB_QP_CC_PROFILE)
		WRITE_ONCE(m->cc_profile, (u32)a->cc_profile);
	if (a->mask & MRC_IB_QP_MAX_WIMM)
		m->max_wimm = a->max_wimm;
	if (a->mask & MRC_IB_QP_MAX_WIMM_DEST)
		m->max_wimm_dest = a->max_wimm_dest;
	if (a->mask & MRC_IB_QP_MPR)
		m->mpr = a->mpr;
	if (a->mask & MRC_IB_QP_MPR_DEST)
		m->mpr_dest = a->mpr_dest;
	if (a->mask & MRC_IB_QP_TIMEOUT)
		m->timeout = a->timeout;
	if (a->mask & MRC_IB_QP_RETRY_CNT) {
		m->retry_linear = a->retry_linear;
		m->retry_exp = a->retry_exp;
	}
	if (a->mask & MRC_IB_QP_CAP)
		m->cap = a->cap;
	WRITE_ONCE(m->set, m->set | (a->mask & ~MRC_IB_QP_FLAGS));
}

static int UVERBS_HANDLER(MRC_IB_METHOD_QP_MODIFY)
	(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp = uverbs_attr_get_obj(attrs,
						 MRC_IB_ATTR_QP_MODIFY_HANDLE);
	struct mrc_ib_qp_attr a;
	struct mrc_qp *qp;
	int err;

	if (IS_ERR(ibqp))
		return PTR_ERR(ibqp);
	qp = to_mqp(ibqp);
	/* The MRC attributes are those of an engine connection. */
	if (mrc_qp_is_ud(qp))
		return -EOPNOTSUPP;
	err = uverbs_copy_from_or_zero(&a, attrs, MRC_IB_ATTR_QP_MODIFY_ATTR);
	if (err)
		return err;
	err = mrc_kabi_check(&a);
	if (!err)
		err = mrc_kabi_check_profiles(qp->mdev, &a);
	if (err)
		return err;

	spin_lock_bh(&qp->lock);
	if (a.mask & ~mrc_kabi_state_allows(qp->state))
		err = -EINVAL;
	else if ((a.mask & MRC_IB_QP_FLAGS) && mrc_qp_is_mrc(qp) &&
		 !(a.flags & MRC_IB_QP_F_MRC))
		err = -EINVAL;		/* never cleared */
	else if ((a.mask & MRC_IB_QP_FLAGS) &&
		 (a.flags & MRC_IB_QP_F_MRC) && mrc_qp_is_uc(qp))
		err = -EOPNOTSUPP;	/* an MRC QP is an RC QP */
	else
		mrc_kabi_store(qp, &a);
	spin_unlock_bh(&qp->lock);
	return err;
}

static int UVERBS_HANDLER(MRC_IB_METHOD_QP_QUERY)
	(struct uverbs_attr_bundle *attrs)
{
	struct ib_qp *ibqp = uverbs_attr_get_obj(attrs,
						 MRC_IB_ATTR_QP_QUERY_HANDLE);
	struct mrc_ib_qp_attr a = {};
	const struct mrc_qp_mrc *m;
	struct mrc_qp *qp;

	if (IS_ERR(ibqp))
		return PTR_ERR(ibqp);
	qp = to_mqp(ibqp);
	m = &qp->mrc;

	spin_lock_bh(&qp->lock);
	/* Every field has its value (the default unless set); the mask
	 * names those that govern the QP: the WIMM caps only on an MRC QP,
	 * timeout and retry there or where set (else the verbs' rule).
	 */
	a.mask = MRC_IB_QP_FLAGS | MRC_IB_QP_EV_PROFILE | MRC_IB_QP_CC_PROFILE |
		 MRC_IB_QP_MPR | MRC_IB_QP_MPR_DEST | MRC_IB_QP_CAP;
	if (mrc_qp_is_mrc(qp))
		a.mask |= MRC_IB_QP_MAX_WIMM | MRC_IB_QP_MAX_WIMM_DEST |
			  MRC_IB_QP_TIMEOUT | MRC_IB_QP_RETRY_CNT;
	else
		a.mask |= m->set & (MRC_IB_QP_TIMEOUT | MRC_IB_QP_RETRY_CNT);
	a.flags = m->flags;
	/* Without one set: the route's, shown as 0 when unset. */
	a.ev_profile = (m->set & MRC_IB_QP_EV_PROFILE) ? m->ev_profile : 0;
	a.cc_profile = (m->set & MRC_IB_QP_CC_PROFILE) ? m->cc_profile : 0;
	a.max_wimm = m->max_wimm;
	a.max_wimm_dest = m->max_wimm_dest;
	a.mpr = m->mpr;
	a.mpr_dest = m->mpr_dest;
	a.timeout = m->timeout;
	a.retry_linear = m->retry_linear;
	a.retry_exp = m->retry_exp;
	a.cap = m->cap;
	a.wimm_inflight = min_t(u32, qp->wimm_inflight, U16_MAX);
	a.wimm_inflight_max = min_t(u32, qp->wimm_inflight_max, U16_MAX);
	spin_unlock_bh(&qp->lock);
	return uverbs_copy_to(attrs, MRC_IB_ATTR_QP_QUERY_RESP, &a, sizeof(a));
}

/* Each method's attributes, then the methods it adds to a core object. */
#define MRC_QD_RESP							\
	UVERBS_ATTR_PTR_OUT(MRC_IB_ATTR_QUERY_DEVICE_RESP,		\
			    UVERBS_ATTR_MIN_SIZE(0), UA_MANDATORY)
#define MRC_QPM_HANDLE							\
	UVERBS_ATTR_IDR(MRC_IB_ATTR_QP_MODIFY_HANDLE, UVERBS_OBJECT_QP,	\
			UVERBS_ACCESS_WRITE, UA_MANDATORY)
#define MRC_QPM_ATTR							\
	UVERBS_ATTR_PTR_IN(MRC_IB_ATTR_QP_MODIFY_ATTR,			\
			   UVERBS_ATTR_STRUCT(struct mrc_ib_qp_attr, cap), \
			   UA_MANDATORY)
#define MRC_QPQ_HANDLE							\
	UVERBS_ATTR_IDR(MRC_IB_ATTR_QP_QUERY_HANDLE, UVERBS_OBJECT_QP,	\
			UVERBS_ACCESS_READ, UA_MANDATORY)
#define MRC_QPQ_RESP							\
	UVERBS_ATTR_PTR_OUT(MRC_IB_ATTR_QP_QUERY_RESP,			\
			    UVERBS_ATTR_MIN_SIZE(0), UA_MANDATORY)

DECLARE_UVERBS_NAMED_METHOD(MRC_IB_METHOD_QUERY_DEVICE, MRC_QD_RESP);
ADD_UVERBS_METHODS(mrc_ib_device_methods, UVERBS_OBJECT_DEVICE,
		   &UVERBS_METHOD(MRC_IB_METHOD_QUERY_DEVICE));
DECLARE_UVERBS_NAMED_METHOD(MRC_IB_METHOD_QP_MODIFY, MRC_QPM_HANDLE,
			    MRC_QPM_ATTR);
DECLARE_UVERBS_NAMED_METHOD(MRC_IB_METHOD_QP_QUERY, MRC_QPQ_HANDLE,
			    MRC_QPQ_RESP);
ADD_UVERBS_METHODS(mrc_ib_qp_methods, UVERBS_OBJECT_QP,
		   &UVERBS_METHOD(MRC_IB_METHOD_QP_MODIFY),
		   &UVERBS_METHOD(MRC_IB_METHOD_QP_QUERY));

const struct uapi_definition mrc_uapi_defs[] = {
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_DEVICE, &mrc_ib_device_methods),
	UAPI_DEF_CHAIN_OBJ_TREE(UVERBS_OBJECT_QP, &mrc_ib_qp_methods),
	{}
};

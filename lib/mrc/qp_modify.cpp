// SPDX-License-Identifier: GPL-2.0-only
// mrc_modify_qp: the API's state table for the MRC attributes, the verbs
// attributes MRC replaces supplied by the library, and the order that
// makes the MRC attributes reach the kernel QP before the transition that
// uses them: MRC attributes first (device method), then the verbs
// transition; if that fails, the MRC attributes are put back.
#include "qp.hpp"

#include <algorithm>
#include <cstring>

using namespace mrc::lib;

namespace {

// The verbs attributes the API says an MRC QP does not support: the port
// (the QP's planes come from its EV profile), the timers and retry counts
// (MRC's own replace them), RNR (MRC has none), READ/atomic depths (MRC
// carries neither) and path migration.  Programs written for MRC NICs
// still pass some of them (the OCP benchmark: the port at INIT, timeout
// and retries at RTS), so they are accepted and their values ignored: the
// library supplies what the verbs core needs (complete_verbs()).
constexpr int ibv_replaced = IBV_QP_PORT | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_MIN_RNR_TIMER |
			     IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MAX_DEST_RD_ATOMIC |
			     IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE;

// The state table of mrc.h: the transition each MRC attribute is needed
// by.  An attribute may also come with an earlier transition (OCP's own
// walk-through sets MRC_QP_MAX_WIMM on the way to RTR), never a later one.
// The vendor blob has no state of its own: any of the three.
constexpr int at_init = MRC_QP_HINT | MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID;
constexpr int at_rtr = MRC_QP_MAX_WIMM_DEST | MRC_QP_MPR_DEST | MRC_QP_CAP;
constexpr int at_rts = MRC_QP_MAX_WIMM | MRC_QP_MPR | MRC_QP_RETRY_CNT |
		       MRC_QP_TIMEOUT;

// The ACK timeout exponent limit of the API (17.17 s) and the retry
// limits; the device may allow less (mrc_ib_device_attr).
constexpr uint8_t api_max_timeout = 24;
constexpr uint8_t api_max_linear = 7;
constexpr uint8_t api_max_exp = MRC_IB_RETRY_EXP_INFINITE;

// Verbs values for the RTS attributes the core still requires when the
// program sets no MRC ones (the kernel QP uses its MRC values instead).
constexpr uint8_t default_timeout = 14;
constexpr uint8_t default_retry = 7;

int allowed_mask(ibv_qp_state cur, ibv_qp_state next)
{
	if (next == IBV_QPS_INIT && (cur == IBV_QPS_RESET || cur == IBV_QPS_INIT))
		return at_init | at_rtr | at_rts | MRC_QP_VENDOR_CFG;
	if (next == IBV_QPS_RTR && cur == IBV_QPS_INIT)
		return at_rtr | at_rts | MRC_QP_VENDOR_CFG;
	if (next == IBV_QPS_RTS && cur == IBV_QPS_RTR)
		return at_rts | MRC_QP_VENDOR_CFG;
	return 0;
}

// An MPR value: at least one step, at most the device's, in whole steps.
bool mpr_ok(uint8_t mpr, const mrc_ib_device_attr &d)
{
	if (mpr == 0 || mpr > d.max_mpr)
		return false;
	return d.mpr_resolution <= 1 || mpr % d.mpr_resolution == 0;
}

// The values of @mask within what the API and the device allow.
bool values_ok(const mrc_context &ctx, const mrc_qp_attr &a, int mask)
{
	const mrc_ib_device_attr &d = ctx.dev;
	constexpr uint32_t caps_known = MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED |
					MRC_QP_CAP_DYNAMIC_MPR |
					MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED;

	if ((mask & MRC_QP_MAX_WIMM) &&
	    (!a.wimm.max_wimm || a.wimm.max_wimm > d.max_wimm))
		return false;
	if ((mask & MRC_QP_MAX_WIMM_DEST) &&
	    (!a.wimm.max_wimm_dest || a.wimm.max_wimm_dest > d.max_wimm_dest))
		return false;
	if ((mask & MRC_QP_MPR) && !mpr_ok(a.mpr.mpr, d))
		return false;
	if ((mask & MRC_QP_MPR_DEST) && !mpr_ok(a.mpr.mpr_dest, d))
		return false;
	if ((mask & MRC_QP_TIMEOUT) &&
	    a.timeout > std::min(api_max_timeout, d.max_timeout))
		return false;
	if ((mask & MRC_QP_RETRY_CNT) &&
	    (a.retry.linear_cnt > std::min(api_max_linear, d.max_retry_linear) ||
	     a.retry.exp_cnt > std::min(api_max_exp, d.max_retry_exp)))
		return false;
	if (mask & MRC_QP_CAP) {
		if (a.cap & ~caps_known)
			return false;
		if ((a.cap & MRC_QP_CAP_DYNAMIC_MPR) &&
		    !(d.caps & MRC_IB_DEV_CAP_DYNAMIC_MPR))
			return false;
	}
	return true;
}

// The QP's current state: the program's assertion, else the device's.
int current_state(mrc_qp *qp, const ibv_qp_attr &v, int vmask, ibv_qp_state *cur)
{
	if (vmask & IBV_QP_CUR_STATE) {
		*cur = v.cur_qp_state;
		return 0;
	}
	ibv_qp_attr q{};
	ibv_qp_init_attr qi{};
	int rc = ibv_query_qp(qp->qp.get(), &q, IBV_QP_STATE, &qi);
	if (rc)
		return rc;
	*cur = q.qp_state;
	return 0;
}

// The verbs attributes the core requires for RC transitions and the API
// takes away from the program, with the values an MRC QP needs.
int complete_verbs(mrc_qp *qp, ibv_qp_state cur, const mrc_qp_attr *m,
		   int mmask, ibv_qp_attr *v, int *vmask)
{
	if (*vmask & IBV_QP_AV)
		v->ah_attr.port_num = 1; // the device's one verbs port
	if (!(*vmask & IBV_QP_STATE))
		return 0;
	if (v->qp_state == IBV_QPS_INIT && cur == IBV_QPS_RESET) {
		v->port_num = 1;
		*vmask |= IBV_QP_PORT;
		if (!(*vmask & IBV_QP_PKEY_INDEX)) {
			v->pkey_index = 0;
			*vmask |= IBV_QP_PKEY_INDEX;
		}
		if (!(*vmask & IBV_QP_ACCESS_FLAGS)) {
			// What an MRC QP is for: being written to.
			v->qp_access_flags = IBV_ACCESS_LOCAL_WRITE |
					     IBV_ACCESS_REMOTE_WRITE;
			*vmask |= IBV_QP_ACCESS_FLAGS;
		}
	} else if (v->qp_state == IBV_QPS_RTR && cur == IBV_QPS_INIT) {
		v->max_dest_rd_atomic = 0;
		v->min_rnr_timer = 0;
		*vmask |= IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
		if (!(*vmask & IBV_QP_PATH_MTU)) {
			ibv_port_attr pa{};
			int rc = ibv_query_port(qp->ctx->vctx, 1, &pa);
			if (rc)
				return rc;
			v->path_mtu = pa.active_mtu;
			*vmask |= IBV_QP_PATH_MTU;
		}
	} else if (v->qp_state == IBV_QPS_RTS && cur == IBV_QPS_RTR) {
		v->timeout = (mmask & MRC_QP_TIMEOUT) ? m->timeout :
							default_timeout;
		v->retry_cnt = (mmask & MRC_QP_RETRY_CNT) ?
				       std::min(m->retry.linear_cnt,
						api_max_linear) :
				       default_retry;
		v->rnr_retry = 0;
		v->max_rd_atomic = 0;
		*vmask |= IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			  IBV_QP_MAX_QP_RD_ATOMIC;
	}
	return 0;
}

// Reserve @hint for @qp (counted as used), or false if it is not a hint
// of the QP's context.
bool hint_reserve(mrc_qp *qp, mrc_qp_hint *hint)
{
	mrc_context *ctx = qp->ctx;
	std::lock_guard l(ctx->lock);
	if (!hint)
		return true;
	if (hint->ctx != ctx || !ctx->hints.contains(hint))
		return false;
	hint->qp_users++;
	return true;
}

void hint_unreserve(mrc_qp *qp, mrc_qp_hint *hint)
{
	std::lock_guard l(qp->ctx->lock);
	if (hint)
		hint->qp_users--;
}

// After a successful transition: the library-kept attributes.
void commit_local(mrc_qp *qp, const mrc_qp_attr *m, int mmask)
{
	std::lock_guard l(qp->ctx->lock);
	if (mmask & MRC_QP_HINT) {
		if (qp->hint)
			qp->hint->qp_users--;
		qp->hint = m->qp_hint; // reserved by hint_reserve()
	}
	if (mmask & MRC_QP_VENDOR_CFG)
		std::memcpy(qp->vendor_cfg.data(), m->vendor_cfg,
			    qp->vendor_cfg.size());
}

} // namespace

MRC_API int mrc_modify_qp(mrc_qp *qp, ibv_qp_attr *vattr, int vattr_mask,
			  mrc_qp_attr *mrc_attr, int mrc_attr_mask)
{
	if (!qp || (vattr_mask && !vattr) || (mrc_attr_mask && !mrc_attr))
		return fail_value(EINVAL);
	if (mrc_attr_mask & ~qp_mask_all)
		return fail_value(EINVAL);
	// MRC attributes come with a transition (the state table).
	if (mrc_attr_mask && !(vattr_mask & IBV_QP_STATE))
		return fail_value(EINVAL);

	std::lock_guard ml(qp->modify_lock);
	ibv_qp_attr v{};
	if (vattr)
		v = *vattr;
	int vmask = vattr_mask & ~ibv_replaced;
	ibv_qp_state cur = IBV_QPS_RESET;
	if (vmask & IBV_QP_STATE) {
		int rc = current_state(qp, v, vmask, &cur);
		if (rc)
			return fail_value(rc);
	}
	if (mrc_attr_mask) {
		if (mrc_attr_mask & ~allowed_mask(cur, v.qp_state))
			return fail_value(EINVAL);
		if (!values_ok(*qp->ctx, *mrc_attr, mrc_attr_mask))
			return fail_value(EINVAL);
	}
	int rc = complete_verbs(qp, cur, mrc_attr, mrc_attr_mask, &v, &vmask);
	if (rc)
		return fail_value(rc);

	mrc_qp_hint *hint = (mrc_attr_mask & MRC_QP_HINT) ? mrc_attr->qp_hint :
							    nullptr;
	if (!hint_reserve(qp, hint))
		return fail_value(EINVAL);

	// The MRC attributes first; their old values to put back.
	const int kmask = mrc_attr_mask & qp_mask_kernel;
	mrc_ib_qp_attr old{};
	if (kmask) {
		rc = mrc::kabi::qp_query(qp->qp.get(), &old);
		if (!rc)
			rc = mrc::kabi::qp_modify(qp->qp.get(),
						  qp_attr_to_kabi(*mrc_attr,
								  kmask));
		if (rc) {
			hint_unreserve(qp, hint);
			return fail_value(kabi_err(rc));
		}
	}
	rc = ibv_modify_qp(qp->qp.get(), &v, vmask);
	if (rc) {
		if (kmask) {
			old.mask = static_cast<uint32_t>(kmask);
			(void)mrc::kabi::qp_modify(qp->qp.get(), old);
		}
		hint_unreserve(qp, hint);
		return fail_value(rc);
	}
	commit_local(qp, mrc_attr, mrc_attr_mask);
	return 0;
}

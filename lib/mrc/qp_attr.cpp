// SPDX-License-Identifier: GPL-2.0-only
// struct mrc_qp_attr <-> struct mrc_ib_qp_attr (the device method's).
#include "qp.hpp"

namespace mrc::lib {

mrc_ib_qp_attr qp_attr_to_kabi(const mrc_qp_attr &a, int mask)
{
	mrc_ib_qp_attr k{};

	k.mask = static_cast<uint32_t>(mask & qp_mask_kernel);
	k.max_wimm = a.wimm.max_wimm;
	k.max_wimm_dest = a.wimm.max_wimm_dest;
	k.mpr = a.mpr.mpr;
	k.mpr_dest = a.mpr.mpr_dest;
	k.timeout = a.timeout;
	k.ev_profile = a.profile.ev_profile_id;
	k.cc_profile = a.profile.cc_profile_id;
	k.retry_linear = a.retry.linear_cnt;
	k.retry_exp = a.retry.exp_cnt;
	k.cap = a.cap;
	return k;
}

void qp_attr_from_kabi(const mrc_ib_qp_attr &k, int mask, mrc_qp_attr *a)
{
	if (mask & MRC_QP_MAX_WIMM)
		a->wimm.max_wimm = k.max_wimm;
	if (mask & MRC_QP_MAX_WIMM_DEST)
		a->wimm.max_wimm_dest = k.max_wimm_dest;
	if (mask & MRC_QP_MPR)
		a->mpr.mpr = k.mpr;
	if (mask & MRC_QP_MPR_DEST)
		a->mpr.mpr_dest = k.mpr_dest;
	if (mask & MRC_QP_TIMEOUT)
		a->timeout = k.timeout;
	if (mask & MRC_QP_EV_PROFILE_ID)
		a->profile.ev_profile_id = k.ev_profile;
	if (mask & MRC_QP_CC_PROFILE_ID)
		a->profile.cc_profile_id = k.cc_profile;
	if (mask & MRC_QP_RETRY_CNT) {
		a->retry.linear_cnt = k.retry_linear;
		a->retry.exp_cnt = k.retry_exp;
	}
	if (mask & MRC_QP_CAP)
		a->cap = k.cap;
}

} // namespace mrc::lib

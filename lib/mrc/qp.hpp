// SPDX-License-Identifier: GPL-2.0-only
// What mrc_query_qp and mrc_modify_qp share: the MRC attribute masks and
// the conversion to and from the device method's structure.
#pragma once

#include "objects.hpp"

namespace mrc::lib {

// The mask bits the device keeps (their values are the kabi's bits 0-9).
constexpr int qp_mask_kernel = MRC_QP_MAX_WIMM | MRC_QP_MAX_WIMM_DEST |
			       MRC_QP_MPR | MRC_QP_MPR_DEST | MRC_QP_TIMEOUT |
			       MRC_QP_EV_PROFILE_ID | MRC_QP_CC_PROFILE_ID |
			       MRC_QP_RETRY_CNT | MRC_QP_CAP;
// Every bit of enum mrc_qp_attr_mask (the hint and the vendor blob are
// the library's own).
constexpr int qp_mask_all = qp_mask_kernel | MRC_QP_HINT | MRC_QP_VENDOR_CFG;

static_assert(MRC_QP_MAX_WIMM == MRC_IB_QP_MAX_WIMM &&
	      MRC_QP_MAX_WIMM_DEST == MRC_IB_QP_MAX_WIMM_DEST &&
	      MRC_QP_MPR == MRC_IB_QP_MPR &&
	      MRC_QP_MPR_DEST == MRC_IB_QP_MPR_DEST &&
	      MRC_QP_TIMEOUT == MRC_IB_QP_TIMEOUT &&
	      MRC_QP_EV_PROFILE_ID == MRC_IB_QP_EV_PROFILE &&
	      MRC_QP_CC_PROFILE_ID == MRC_IB_QP_CC_PROFILE &&
	      MRC_QP_RETRY_CNT == MRC_IB_QP_RETRY_CNT &&
	      MRC_QP_CAP == MRC_IB_QP_CAP);

// The kernel-kept fields of @mask from @a into a kabi structure.
mrc_ib_qp_attr qp_attr_to_kabi(const mrc_qp_attr &a, int mask);

// The fields of @mask from @k into @a (the others untouched).
void qp_attr_from_kabi(const mrc_ib_qp_attr &k, int mask, mrc_qp_attr *a);

} // namespace mrc::lib

// SPDX-License-Identifier: GPL-2.0-only
// The mrc device's own uverbs methods (include/uapi/rdma/mrc-abi.h), as
// calls on a libibverbs context or QP.  Each returns 0 or a negative
// errno; EOPNOTSUPP or EPROTONOSUPPORT from query_device() means the
// device is not an mrc device.
#pragma once

#include <infiniband/verbs.h>
#include <rdma/mrc-abi.h>

namespace mrc::kabi {

int query_device(ibv_context *ctx, mrc_ib_device_attr *attr);
int qp_modify(ibv_qp *qp, const mrc_ib_qp_attr &attr);
int qp_query(ibv_qp *qp, mrc_ib_qp_attr *attr);

} // namespace mrc::kabi

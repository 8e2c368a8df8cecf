// SPDX-License-Identifier: GPL-2.0-only
// Posting: an MRC QP carries RDMA WRITE and WRITE_WITH_IMM only.  A list
// is checked before anything reaches the device; the requests before the
// first refused one are posted, as ibv_post_send() posts those before a
// bad one, and none after it.
#include "objects.hpp"

using namespace mrc::lib;

namespace {

bool mrc_opcode(ibv_wr_opcode op)
{
	return op == IBV_WR_RDMA_WRITE || op == IBV_WR_RDMA_WRITE_WITH_IMM;
}

} // namespace

MRC_API int mrc_post_send(mrc_qp *qp, ibv_send_wr *wr, ibv_send_wr **bad_wr)
{
	if (!qp || !bad_wr) {
		if (bad_wr)
			*bad_wr = wr;
		return fail_value(EINVAL);
	}
	ibv_send_wr *prev = nullptr, *bad = wr;
	while (bad && mrc_opcode(bad->opcode)) {
		prev = bad;
		bad = bad->next;
	}
	if (!bad) {
		int rc = ibv_post_send(qp->qp.get(), wr, bad_wr);
		return rc ? fail_value(rc) : 0;
	}
	if (prev) {
		// The list is the caller's and the call is synchronous: cut it
		// before the refused request for the post, then mend it.
		prev->next = nullptr;
		int rc = ibv_post_send(qp->qp.get(), wr, bad_wr);
		prev->next = bad;
		if (rc)
			return fail_value(rc);
	}
	*bad_wr = bad;
	return fail_value(EINVAL);
}

MRC_API int mrc_post_recv(mrc_qp *qp, ibv_recv_wr *wr, ibv_recv_wr **bad_wr)
{
	if (!qp || !bad_wr) {
		if (bad_wr)
			*bad_wr = wr;
		return fail(EINVAL);
	}
	int rc = ibv_post_recv(qp->qp.get(), wr, bad_wr);
	return rc ? fail(rc) : 0;
}

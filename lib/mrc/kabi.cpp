// SPDX-License-Identifier: GPL-2.0-only
// ioctl(RDMA_VERBS_IOCTL) marshalling of the mrc driver methods: a header
// and a fixed array of attributes in one buffer, as the uverbs core reads
// it (drivers/infiniband/core/uverbs_ioctl.c).
#include "kabi.hpp"

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl.h>
#include <sys/ioctl.h>

namespace mrc::kabi {
namespace {

// The header ends in a flexible array: the call is built in a byte buffer.
template <std::size_t N>
int invoke(ibv_context *ctx, uint16_t object, uint16_t method,
	   const std::array<ib_uverbs_attr, N> &attrs)
{
	ib_uverbs_ioctl_hdr hdr{};
	struct alignas(ib_uverbs_attr) {
		unsigned char bytes[sizeof(hdr) + sizeof(attrs)];
	} buf{};

	hdr.length = sizeof(buf.bytes);
	hdr.object_id = object;
	hdr.method_id = method;
	hdr.num_attrs = N;
	hdr.driver_id = RDMA_DRIVER_RXE; // the device's (net/mrc/device.c)
	std::memcpy(buf.bytes, &hdr, sizeof(hdr));
	std::memcpy(buf.bytes + sizeof(hdr), attrs.data(), sizeof(attrs));
	if (ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, buf.bytes) != 0)
		return -errno;
	return 0;
}

ib_uverbs_attr idr_attr(uint16_t id, uint32_t handle)
{
	ib_uverbs_attr a{};
	a.attr_id = id;
	a.flags = UVERBS_ATTR_F_MANDATORY;
	a.data = handle;
	return a;
}

// The core copies inputs of up to 8 bytes inline from data itself; every
// structure here is larger, so data is always a pointer.
static_assert(sizeof(mrc_ib_qp_attr) > sizeof(uint64_t));
static_assert(sizeof(mrc_ib_device_attr) > sizeof(uint64_t));

ib_uverbs_attr ptr_attr(uint16_t id, const void *p, std::size_t len)
{
	ib_uverbs_attr a{};
	a.attr_id = id;
	a.len = static_cast<uint16_t>(len);
	a.flags = UVERBS_ATTR_F_MANDATORY;
	a.data = reinterpret_cast<uintptr_t>(p);
	return a;
}

} // namespace

int query_device(ibv_context *ctx, mrc_ib_device_attr *attr)
{
	std::memset(attr, 0, sizeof(*attr));
	const std::array attrs{
		ptr_attr(MRC_IB_ATTR_QUERY_DEVICE_RESP, attr, sizeof(*attr))};
	return invoke(ctx, UVERBS_OBJECT_DEVICE, MRC_IB_METHOD_QUERY_DEVICE,
		      attrs);
}

int qp_modify(ibv_qp *qp, const mrc_ib_qp_attr &attr)
{
	const std::array attrs{idr_attr(MRC_IB_ATTR_QP_MODIFY_HANDLE, qp->handle),
			       ptr_attr(MRC_IB_ATTR_QP_MODIFY_ATTR, &attr,
					sizeof(attr))};
	return invoke(qp->context, UVERBS_OBJECT_QP, MRC_IB_METHOD_QP_MODIFY,
		      attrs);
}

int qp_query(ibv_qp *qp, mrc_ib_qp_attr *attr)
{
	std::memset(attr, 0, sizeof(*attr));
	const std::array attrs{idr_attr(MRC_IB_ATTR_QP_QUERY_HANDLE, qp->handle),
			       ptr_attr(MRC_IB_ATTR_QP_QUERY_RESP, attr,
					sizeof(*attr))};
	return invoke(qp->context, UVERBS_OBJECT_QP, MRC_IB_METHOD_QP_QUERY,
		      attrs);
}

} // namespace mrc::kabi

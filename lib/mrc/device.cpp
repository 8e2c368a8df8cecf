// SPDX-License-Identifier: GPL-2.0-only
// mrc_query_device(_ex): what the device's own query method reports
// (mrc::kabi::query_device), in the API's structure.  A device without
// the method is simply not an MRC device.
#include "device.hpp"

#include <cstring>

namespace mrc::lib {

int device_query(ibv_context *ctx, mrc_ib_device_attr *dev, bool *supported)
{
	int rc = kabi::query_device(ctx, dev);

	*supported = rc == 0;
	if (rc == -EOPNOTSUPP || rc == -EPROTONOSUPPORT) {
		std::memset(dev, 0, sizeof(*dev));
		return 0;
	}
	return rc;
}

int query_device_start(ibv_context *context, const mrc_context *mcontext,
		       const void *out, int *supported, mrc_ib_device_attr *dev)
{
	if (!context || !out || !supported)
		return fail(EINVAL);
	if (mcontext && mcontext->vctx != context)
		return fail(EINVAL);
	bool ok;
	if (int rc = device_query(context, dev, &ok))
		return fail(kabi_err(rc));
	*supported = ok;
	return 0;
}

void device_attr_fill(const mrc_ib_device_attr &dev, mrc_device_attr *attr)
{
	std::memset(attr, 0, sizeof(*attr));
	attr->mrc_protocol_version = dev.protocol_versions &
				     MRC_PROTOCOL_VERSION_1;
	attr->wimm_attr.max_wimm = dev.max_wimm;
	attr->wimm_attr.max_wimm_dest = dev.max_wimm_dest;
	attr->mpr_attr.max_mpr = dev.max_mpr;
	attr->mpr_attr.mpr_resolution = dev.mpr_resolution;
	attr->qp_attr.max_qp_hint = max_qp_hints;
	attr->cap = dev.caps &
		    (MRC_DEVICE_CAP_TRIM_NACK | MRC_DEVICE_CAP_DYNAMIC_MPR |
		     MRC_DEVICE_CAP_SVC_TIME);
}

} // namespace mrc::lib

using namespace mrc::lib;

MRC_API int mrc_query_device_ex(ibv_context *context, mrc_context *mcontext,
				mrc_device_attr *attr, int *supported)
{
	mrc_ib_device_attr dev;
	if (query_device_start(context, mcontext, attr, supported, &dev))
		return -1;
	if (!*supported) {
		std::memset(attr, 0, sizeof(*attr));
		return 0;
	}
	device_attr_fill(dev, attr);
	return 0;
}

// API 1.0.0 semantics: the structure is the same in 1.0.0 and 1.0.1.
MRC_API int mrc_query_device(ibv_context *context, mrc_device_attr *attr,
			     int *supported)
{
	return mrc_query_device_ex(context, nullptr, attr, supported);
}

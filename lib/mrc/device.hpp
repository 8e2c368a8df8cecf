// SPDX-License-Identifier: GPL-2.0-only
// The device query shared by mrc_query_device, mrc_ctl_query_device and
// mrc_create_context.
#pragma once

#include "objects.hpp"

namespace mrc::lib {

// The MRC device attributes of @ctx in *dev; *supported false (and 0
// returned) when the device has no MRC methods, a negative errno when the
// query itself failed.
int device_query(ibv_context *ctx, mrc_ib_device_attr *dev, bool *supported);

// The start of both device queries (mrc_query_device_ex and
// mrc_ctl_query_device_ex): @out and @supported must be given and
// @mcontext, if any, be @context's (else EINVAL); then the kernel's
// attributes in *dev and whether it is an MRC device in *supported.
// 0, or -1 with errno set.
int query_device_start(ibv_context *context, const mrc_context *mcontext,
		       const void *out, int *supported, mrc_ib_device_attr *dev);

// The API's view of the kernel's attributes.
void device_attr_fill(const mrc_ib_device_attr &dev, mrc_device_attr *attr);

} // namespace mrc::lib

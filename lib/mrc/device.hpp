// SPDX-License-Identifier: GPL-2.0-only
// The device query shared by mrc_query_device and mrc_create_context.
#pragma once

#include "objects.hpp"

namespace mrc::lib {

// The MRC device attributes of @ctx in *dev; *supported false (and 0
// returned) when the device has no MRC methods, a negative errno when the
// query itself failed.
int device_query(ibv_context *ctx, mrc_ib_device_attr *dev, bool *supported);

// The API's view of the kernel's attributes.
void device_attr_fill(const mrc_ib_device_attr &dev, mrc_device_attr *attr);

} // namespace mrc::lib

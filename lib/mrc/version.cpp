// SPDX-License-Identifier: GPL-2.0-only
// mrc_query_version: the numbers of mrc_api_ver.h this library was built
// with.
#include "objects.hpp"

MRC_API void mrc_query_version(uint32_t *current_version,
			       uint32_t *last_supported_version,
			       uint32_t *vendor_version,
			       uint32_t *last_supported_vendor_version)
{
	mrc::lib::put_versions(current_version, last_supported_version,
			       vendor_version, last_supported_vendor_version,
			       {MRC_API_CURRENT_VERSION,
				MRC_API_LAST_SUPPORTED_VERSION,
				MRC_VENDOR_API_CURRENT_VERSION,
				MRC_VENDOR_API_LAST_SUPPORTED_VERSION});
}

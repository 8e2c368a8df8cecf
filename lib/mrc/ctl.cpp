// SPDX-License-Identifier: GPL-2.0-only
// The controller API (mrc_ctl.h): the version query, and the one entry
// point whose kernel semantics are not modelled yet, the endpoint
// operations (mrc_ctl_ep_batch_send_wait).  It checks its arguments like
// the real one will, then refuses with EOPNOTSUPP (ENOTSUP is the same
// value on Linux), so that a controller built against the OCP header
// links, runs and is told plainly; Documentation/networking/lib_mrc.rst
// lists it.  The device query is in ctl_device.cpp, the ports in
// ctl_port.cpp, the CC profiles in ctl_cc_profile.cpp, EV events in
// ctl_ev_event.cpp, EV format and EV profiles in ctl_ev_*.cpp.
#include "objects.hpp"

#include <mrc_ctl.h>

using namespace mrc::lib;

namespace {

// Null arguments first (EINVAL, as the implemented calls answer), then
// the refusal.
int not_modelled(bool args_ok) { return fail(args_ok ? EOPNOTSUPP : EINVAL); }

} // namespace

MRC_API void mrc_ctl_query_version(uint32_t *current_version,
				   uint32_t *last_supported_version,
				   uint32_t *vendor_version,
				   uint32_t *last_supported_vendor_version)
{
	put_versions(current_version, last_supported_version, vendor_version,
		     last_supported_vendor_version,
		     {MRC_CTL_API_CURRENT_VERSION,
		      MRC_CTL_API_LAST_SUPPORTED_VERSION,
		      MRC_CTL_VENDOR_API_CURRENT_VERSION,
		      MRC_CTL_VENDOR_API_LAST_SUPPORTED_VERSION});
}

MRC_API int mrc_ctl_ep_batch_send_wait(mrc_context *mrc_ctx, uint8_t,
				       mrc_ctl_ep_op_type, mrc_ctl_ep_req *req,
				       int num_req, uint32_t,
				       mrc_ctl_ep_rsp *rsp, int *num_rsp)
{
	if (num_rsp)
		*num_rsp = 0;
	return not_modelled(mrc_ctx && req && rsp && num_rsp && num_req > 0);
}

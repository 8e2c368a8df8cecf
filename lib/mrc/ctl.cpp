// SPDX-License-Identifier: GPL-2.0-only
// The controller API (mrc_ctl.h): the version query, and the entry points
// whose kernel semantics are not modelled yet (EV format profiles, the
// API's EV profile operations, EV events, endpoint operations); the
// device query is in ctl_device.cpp, the ports in ctl_port.cpp, the CC
// profiles in ctl_cc_profile.cpp.  Those check their arguments like the
// real ones will, then refuse with EOPNOTSUPP (ENOTSUP is the same value
// on Linux), so that a controller built against the OCP header links,
// runs and is told plainly; Documentation/networking/lib_mrc.rst lists
// them.
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

// The four profile operations not modelled (modify and query of EV
// format and EV profiles; CC profiles are in ctl_cc_profile.cpp) take
// (context, profile id, attribute, flags or mask) and are refused alike;
// one definition stamps out each exported function.
#define NOT_MODELLED_PROFILE_OP(name, attr_type)                               \
	MRC_API int name(mrc_context *mrc_ctx, uint64_t, attr_type *attr, int) \
	{                                                                      \
		return not_modelled(mrc_ctx && attr);                          \
	}


#undef NOT_MODELLED_PROFILE_OP

MRC_API mrc_cq *mrc_ctl_create_ev_event_cq(mrc_context *mrc_ctx, int cqe,
					   void *, mrc_comp_channel *, int)
{
	return fail_null<mrc_cq>(mrc_ctx && cqe > 0 ? EOPNOTSUPP : EINVAL);
}

// Returns a negative errno value, not -1 (the API's contract).
MRC_API int mrc_ctl_poll_ev_event(mrc_cq *ev_cq, int num_entries,
				  mrc_ctl_ev_event *ev_event)
{
	int err = ev_cq && num_entries >= 0 && (ev_event || !num_entries) ?
			  EOPNOTSUPP :
			  EINVAL;

	errno = err;
	return -err;
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

// SPDX-License-Identifier: GPL-2.0-only
// mrc_ctl_query_port / mrc_ctl_modify_port: the API's ports are the
// software MRC's planes (port N = plane id N of the context's device),
// and a port's administrative state is the plane's ("mrcctl plane set
// ... up|down"), read and set through the mrc generic netlink family with
// mrcctl's client (tools/mrcctl/nl.hpp).  The kernel checks CAP_NET_ADMIN
// for a change; its refusal reaches the caller as errno.
#include <mrc_ctl.h>

#include "attrs.hpp"
#include "ctl_nl.hpp"

using namespace mrc::lib;

namespace {

bool port_args_ok(const mrc_context *ctx, uint8_t port,
		  const mrc_ctl_port_attr *attr, int mask)
{
	return ctx && attr && port && mask &&
	       !(mask & ~static_cast<int>(MRC_CTL_PORT_ADMIN_STATE));
}

// Run one plane request for port @port of @ctx's device; fill admin_up
// from the reply when @set is empty.
int plane_request(mrc_context *ctx, uint8_t port, std::optional<bool> set,
		  bool *admin_up)
{
	return ctl_nl_call([&] {
		mrcctl::GenlSocket sk;
		mrcctl::MsgPtr req = sk.request(set ? MRC_CMD_PLANE_SET :
						      MRC_CMD_PLANE_GET,
						false);
		if (nla_put_string(req.get(), MRC_A_DEV_NAME,
				   ibv_get_device_name(ctx->vctx->device)) < 0 ||
		    nla_put_u32(req.get(), MRC_A_PLANE_ID, port) < 0 ||
		    (set && nla_put_u8(req.get(), MRC_A_PLANE_ADMIN_UP, *set) < 0))
			throw mrcctl::Failure("message too large");
		bool got = false;
		sk.transact(req.get(), [&](nl_msg *m) {
			mrcctl::Plane p = mrcctl::decode_plane(m);
			if (p.admin_up && admin_up) {
				*admin_up = *p.admin_up;
				got = true;
			}
		});
		if (!set && !got)
			throw mrcctl::Failure("no admin state in the reply");
	});
}

} // namespace

MRC_API int mrc_ctl_query_port(mrc_context *context, uint8_t port_num,
			       mrc_ctl_port_attr *attr, int attr_mask)
{
	if (!port_args_ok(context, port_num, attr, attr_mask))
		return fail(EINVAL);
	bool up = false;
	if (plane_request(context, port_num, std::nullopt, &up))
		return -1;
	attr->port_admin_state = up ? MRC_CTL_PORT_ADMIN_ENABLED :
				      MRC_CTL_PORT_ADMIN_DISABLED;
	return 0;
}

MRC_API int mrc_ctl_modify_port(mrc_context *context, uint8_t port_num,
				mrc_ctl_port_attr *attr, int attr_mask)
{
	if (!port_args_ok(context, port_num, attr, attr_mask))
		return fail(EINVAL);
	if (attr->port_admin_state != MRC_CTL_PORT_ADMIN_DISABLED &&
	    attr->port_admin_state != MRC_CTL_PORT_ADMIN_ENABLED)
		return fail(EINVAL);
	return plane_request(context, port_num,
			     attr->port_admin_state == MRC_CTL_PORT_ADMIN_ENABLED,
			     nullptr);
}

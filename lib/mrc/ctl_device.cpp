// SPDX-License-Identifier: GPL-2.0-only
// mrc_ctl_query_device(_ex): what the software MRC offers a controller.
// The limits are the kernel's (net/mrc/profile.h, proto/ev_profile.h);
// the ports (planes) and the EVs already used by profiles are read from
// the mrc netlink family.  Optional features (opt_attr) are reported
// only once the calls they qualify work (Documentation/networking/
// lib_mrc.rst).
#include "device.hpp"

#include <mrc_ctl.h>

#include <cstring>

#include "attrs.hpp"
#include "ctl_nl.hpp"
#include "profile_attrs.hpp"

using namespace mrc::lib;

namespace {

// The kernel's bounds, as the API names them.
constexpr uint32_t max_ev_profiles = 256;     // MRC_MAX_EV_PROFILES
constexpr uint32_t max_evs_per_profile = 256; // MRC_EV_PROFILE_MAX_EVS
constexpr uint32_t max_cc_profiles = 256;     // MRC_MAX_CC_PROFILES
constexpr uint32_t ev_value_bits = 256;	      // MRC_EV_MAX_LEN bytes

const char *cc_algorithms[] = {"uet-1.0-nscc", nullptr};

// A request of @cmd for @dev: a dump of its planes or its EV profiles.
mrcctl::MsgPtr dump_request(const mrcctl::GenlSocket &sk, uint8_t cmd,
			    const char *dev)
{
	mrcctl::MsgPtr req = sk.request(cmd, true);
	if (nla_put_string(req.get(), MRC_A_DEV_NAME, dev) < 0)
		throw mrcctl::Failure("message too large");
	return req;
}

// Planes (as the port bitmap) and the EV slots EXP and GEN profiles hold
// (AUTO profiles hold none: the device picks their EVs per route).
void read_fabric(const char *dev, uint32_t *ports, uint32_t *evs_used)
{
	mrcctl::GenlSocket sk;
	mrcctl::MsgPtr req = dump_request(sk, MRC_CMD_PLANE_GET, dev);
	sk.transact(req.get(), [&](nl_msg *m) {
		mrcctl::Plane p = mrcctl::decode_plane(m);
		if ((!p.dev || *p.dev == dev) && p.id && *p.id < 32)
			*ports |= 1u << *p.id;
	});
	req = dump_request(sk, MRC_CMD_EV_PROFILE_GET, dev);
	sk.transact(req.get(), [&](nl_msg *m) {
		mrcctl::EvProfile p = mrcctl::decode_ev_profile(m);
		if ((!p.dev || *p.dev == dev) &&
		    p.mode != MRC_EV_PROFILE_MODE_AUTO && p.evs)
			*evs_used += static_cast<uint32_t>(p.evs->size());
	});
}

} // namespace

MRC_API int mrc_ctl_query_device_ex(ibv_context *context, mrc_context *mcontext,
				    mrc_ctl_device_attr *ctl_attr, int *supported)
{
	mrc_ib_device_attr dev;
	if (query_device_start(context, mcontext, ctl_attr, supported, &dev))
		return -1;
	std::memset(ctl_attr, 0, sizeof(*ctl_attr));
	if (!*supported)
		return 0;

	uint32_t ports = 0, used = 0;
	if (ctl_nl_call([&] {
		    read_fabric(ibv_get_device_name(context->device), &ports,
				&used);
	    }))
		return -1;

	auto &ev = ctl_attr->ev;
	ctl_attr->mrc_ctl_protocol_version = MRC_CTL_PROTOCOL_VERSION_1;
	ev.ev_max_fmt_profiles = 256; // the library's records (ctl_ev_fmt_profile.cpp)
	ev.ev_max_profiles = max_ev_profiles;
	ev.ev_max_count = max_ev_profiles * max_evs_per_profile;
	ev.ev_free_count = used < ev.ev_max_count ? ev.ev_max_count - used : 0;
	ev.ev_max_count_profile = max_evs_per_profile;
	ev.ev_count_align = 1;
	ev.ev_max_width = ev_value_bits;
	ev.ev_fmt_mode_mask = MRC_CTL_EV_FMT_MODE_STEV |
			      MRC_CTL_EV_FMT_MODE_SRV6 | MRC_CTL_EV_FMT_MODE_UDP;
	ev.ev_mode_mask = MRC_CTL_EV_MODE_AUTO | MRC_CTL_EV_MODE_EXP |
			  MRC_CTL_EV_MODE_GEN;
	ev.ev_op_max_entries = 0;
	ctl_attr->cc.cc_max_profiles = max_cc_profiles;
	ctl_attr->cc.algorithms = cc_algorithms;
	ctl_attr->phy_port_mask = ports;
	// A CC profile's values change while it is ONLINE (cc-profile-set).
	// EV events count their drops exactly (ctl_ev_event.cpp).  EV
	// probes: mrc_ctl_ep_batch_send_wait() over MRC_CMD_EP_BATCH
	// (ctl.cpp).
	ctl_attr->opt_attr = MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE |
			     MRC_CTL_OPT_CAP_EV_EVENT |
			     MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT |
			     MRC_CTL_OPT_CAP_EP_OP_EV_PROBE;
	return 0;
}

// API 1.0.0: no "supported" flag; a device that is not an MRC one is
// refused as ibv_query_device() refuses what it cannot answer.
MRC_API int mrc_ctl_query_device(ibv_context *context,
				 mrc_ctl_device_attr *ctl_attr)
{
	int supported = 0;
	if (mrc_ctl_query_device_ex(context, nullptr, ctl_attr, &supported))
		return -1;
	return supported ? 0 : fail(EOPNOTSUPP);
}

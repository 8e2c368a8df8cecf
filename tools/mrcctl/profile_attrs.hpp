// SPDX-License-Identifier: GPL-2.0-only
// EV and CC profiles between the "mrc" family's attributes and the model
// (profile_model.hpp), parsed against the sets' libnl policies like
// attrs.hpp: a GET reply carries the profile's set at the top level, an
// event in its MRC_A_EVENT_EV_PROFILE / MRC_A_EVENT_CC_PROFILE nest.
#pragma once

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "profile_model.hpp"

namespace mrcctl {

EvProfile decode_ev_profile(nl_msg *msg);
CcProfile decode_cc_profile(nl_msg *msg);
// The profile nest of an event.
EvProfile decode_ev_profile_nest(nlattr *nest);
CcProfile decode_cc_profile_nest(nlattr *nest);

// The request attributes of ev-profile add (EV values and the GEN base
// encoded for the profile's format); throws Failure if one does not
// parse in that format.
void put_ev_profile_add(nl_msg *m, const ProfileRequest &r);

} // namespace mrcctl

// SPDX-License-Identifier: GPL-2.0-only
// EV and CC profiles between the "mrc" family's attributes and the model
// (profile_model.hpp). Lenient like attrs.hpp: unknown attributes are
// skipped, and profile attributes are accepted at the top level and inside
// their MRC_A_EV_PROFILE / MRC_A_CC_PROFILE nest.
#pragma once

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "profile_model.hpp"

namespace mrcctl {

// One attribute into the profile; false if it is not a profile attribute.
bool ev_profile_attr(EvProfile &p, nlattr *a);
bool cc_profile_attr(CcProfile &p, nlattr *a);

EvProfile decode_ev_profile(nl_msg *msg);
CcProfile decode_cc_profile(nl_msg *msg);

// The request attributes of ev-profile add (EV values and the GEN base
// encoded for the profile's format); throws Failure if one does not
// parse in that format.
void put_ev_profile_add(nl_msg *m, const ProfileRequest &r);

} // namespace mrcctl

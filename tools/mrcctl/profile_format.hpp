// SPDX-License-Identifier: GPL-2.0-only
// Text and JSON of EV and CC profiles (mrcctl ev-profile show, ev show,
// cc-profile show, monitor). Text lines use the command grammar's words,
// as format.hpp does.
#pragma once

#include <string>

#include "json.hpp"
#include "profile_model.hpp"

namespace mrcctl {

// "dev mrc0 id 5 mode exp format udp state online min-active 1 events
// all" and the mode's definition ("count 16 planes 1,2"; GEN: "planes 1
// shift 0 base 0x0000"), one line.
std::string ev_profile_line(const EvProfile &p);
// The line, then GEN fields ("    field width 8 init 0 min 0 max 255 mask
// 0xff") and EVs ("    index 0 plane 1 value 49152 state unknown").
std::string ev_profile_text(const EvProfile &p);
void ev_profile_json(JsonWriter &w, const EvProfile &p);
// Only the EVs (ev show), one line each.
std::string evs_text(const EvProfile &p);
void evs_json(JsonWriter &w, const EvProfile &p);
// ev show: {"dev", "profile", "evs": [...]}
void ev_show_json(JsonWriter &w, const EvProfile &p);

// "dev mrc0 id 1 algo uet-1.0-nscc base-rtt 100us ... disable-qa off"
std::string cc_profile_text(const CcProfile &p);
void cc_profile_json(JsonWriter &w, const CcProfile &p);

// The fields without dev (events put dev first themselves); EV profile
// events give the EV count instead of every EV.
std::string ev_profile_fields_text(const EvProfile &p, bool count_evs);
void ev_profile_fields_json(JsonWriter &w, const EvProfile &p);
std::string cc_profile_fields_text(const CcProfile &p);
void cc_profile_fields_json(JsonWriter &w, const CcProfile &p);

} // namespace mrcctl

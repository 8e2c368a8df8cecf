// SPDX-License-Identifier: GPL-2.0-only
// Text and JSON of EV and CC profiles (mrcctl ev-profile show, ev show,
// cc-profile show, monitor). Text lines use the command grammar's words,
// as format.hpp does.
#pragma once

#include <string>

#include "printer.hpp"
#include "profile_model.hpp"

namespace mrcctl {

// "dev mrc0 id 5 mode exp format udp state online min-active 1 events
// all" and the mode's definition ("count 16 planes 1,2"; GEN: "planes 1
// shift 0 base 0x0000"), one line; then GEN fields ("    field width 8
// init 0 min 0 max 255 mask 0xff") and EVs ("    index 0 plane 1 value
// 49152 state unknown"), a line each.
void print_ev_profile(Printer &p, const EvProfile &prof);
// ev show: only the EVs, one line each; JSON {"dev", "profile", "evs"}.
void print_ev_show(Printer &p, const EvProfile &prof);

// "dev mrc0 id 1 algo uet-1.0-nscc base-rtt 100us ... disable-qa off"
void print_cc_profile(Printer &p, const CcProfile &c);

// The fields without dev (events put dev first themselves); EV profile
// events give the EV count instead of every EV.
void print_ev_profile_fields(Printer &p, const EvProfile &prof, bool count_evs);
void print_cc_profile_fields(Printer &p, const CcProfile &c);

} // namespace mrcctl

// SPDX-License-Identifier: GPL-2.0-only
// Traffic patterns: permutation, all-to-all, ring all-reduce steps, N:1
// incast, a single flow, or a CSV file of flows.
#pragma once

#include "flows.hpp"

namespace mrcsim {

class Config;
class Topology;

void build_traffic(const Config &cfg, const Topology &topo, FlowTable &flows);

} // namespace mrcsim

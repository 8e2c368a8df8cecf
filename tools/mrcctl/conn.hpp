// SPDX-License-Identifier: GPL-2.0-only
// Live connections (mrcctl conn show, EV_STATE / QP_ERROR events): the
// model, its decoding from set "conn" (conn.cpp) and its text and JSON
// forms (conn_format.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "printer.hpp"

namespace mrcctl {

// The counters the kernel reports for a connection, a plane of it or one
// of its EVs (MRC_A_CONN_TX_PKTS, MRC_A_CONN_EV_TX_PKTS ...), in the
// kernel's order.
struct ConnCounters {
	std::vector<std::pair<std::string, std::uint64_t>> list;
};

struct ConnEv {
	std::optional<std::uint32_t> index;
	std::optional<std::uint32_t> plane;
	std::optional<std::uint32_t> state;	// enum mrc_conn_ev_state
	std::optional<std::uint32_t> old_state; // events
	std::optional<std::uint32_t> reason;	// events
	std::optional<std::uint32_t> rtt;	// ns
	std::optional<std::uint16_t> sport;
	std::optional<std::vector<std::uint8_t>> value; // events
	std::optional<std::uint64_t> seq; // events: the instance's number
	ConnCounters counters;
};

struct ConnPlane {
	std::optional<std::uint32_t> id;
	std::optional<std::uint32_t> evs_usable;
	ConnCounters counters;
};

struct Conn {
	std::optional<std::string> dev;
	std::optional<std::uint32_t> dev_index;
	std::optional<std::uint32_t> qpn;
	std::optional<std::string> peer;
	// Every u32 field the kernel sent, in its order ("dest_qpn", ...).
	std::vector<std::pair<std::string, std::uint32_t>> fields;
	ConnCounters counters;
	std::vector<ConnPlane> planes;
	std::vector<ConnEv> evs;
	std::optional<std::uint32_t> ev_offset; // first EV of a dump chunk
};

// The MRC_A_EVENT_CONN nest of an event.
Conn decode_conn_nest(nlattr *nest);
// A CONN_GET reply message (set "conn" at the top level).
Conn decode_conn(nl_msg *msg);

// "582us", "67ms": a time in ns as people read it.
std::string ns_text(std::uint64_t ns);

const char *conn_ev_state_name(std::uint32_t s);
const char *conn_ev_reason_name(std::uint32_t r);
const char *qp_state_name(std::uint32_t s);
const char *conn_status_name(std::uint32_t s);

// conn show (conn_format.cpp): a line of the connection's fields and
// counters, then a line per plane and per EV; JSON one object with
// "planes" and "evs" arrays.
void print_conn(Printer &p, const Conn &c);
// The fields of a connection event ("qpn 17 ev 3 plane 2 good ->
// assumed_bad reason loss").
void print_conn_event_fields(Printer &p, const Conn &c);

} // namespace mrcctl

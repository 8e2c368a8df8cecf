// SPDX-License-Identifier: GPL-2.0-only
#include "conn.hpp"

#include <linux/mrc.h>
#include <netlink/genl/genl.h>

#include "addr.hpp"
#include "nla_get.hpp"

namespace mrcctl {

namespace {

namespace pol = mrc::policy;
using nla::Attrs;

// The counters a set carries, by name, in the order the kernel puts them.
struct Counter {
	int type;
	const char *name;
};

const Counter kConnCounters[] = {
	{MRC_A_CONN_TX_PKTS, "tx_pkts"},
	{MRC_A_CONN_TX_BYTES, "tx_bytes"},
	{MRC_A_CONN_RETX_PKTS, "retx_pkts"},
	{MRC_A_CONN_LOST_PKTS, "lost_pkts"},
	{MRC_A_CONN_ECN_MARKS, "ecn_marks"},
	{MRC_A_CONN_RX_PKTS, "rx_pkts"},
	{MRC_A_CONN_TIMEOUTS, "timeouts"},
};
const Counter kPlaneCounters[] = {
	{MRC_A_CONN_PLANE_TX_PKTS, "tx_pkts"},
	{MRC_A_CONN_PLANE_TX_BYTES, "tx_bytes"},
	{MRC_A_CONN_PLANE_RETX_PKTS, "retx_pkts"},
	{MRC_A_CONN_PLANE_LOST_PKTS, "lost_pkts"},
	{MRC_A_CONN_PLANE_ECN_MARKS, "ecn_marks"},
};
const Counter kEvCounters[] = {
	{MRC_A_CONN_EV_TX_PKTS, "tx_pkts"},
	{MRC_A_CONN_EV_TX_BYTES, "tx_bytes"},
	{MRC_A_CONN_EV_RETX_PKTS, "retx_pkts"},
	{MRC_A_CONN_EV_LOST_PKTS, "lost_pkts"},
	{MRC_A_CONN_EV_ECN_MARKS, "ecn_marks"},
};

// u32 fields of a connection, in the order the kernel puts them.
const Counter kConnFields[] = {
	{MRC_A_CONN_DEST_QPN, "dest_qpn"},
	{MRC_A_CONN_STATE, "state"},
	{MRC_A_CONN_EV_PROFILE, "ev_profile"},
	{MRC_A_CONN_CC_PROFILE, "cc_profile"},
	{MRC_A_CONN_STATUS, "status"},
	{MRC_A_CONN_SND_UNA, "snd_una"},
	{MRC_A_CONN_SND_NXT, "snd_nxt"},
	{MRC_A_CONN_RCV_NXT, "rcv_nxt"},
	{MRC_A_CONN_INFLIGHT, "inflight"},
	{MRC_A_CONN_CWND, "cwnd"},
	{MRC_A_CONN_SRTT, "srtt"},
	{MRC_A_CONN_RTO, "rto"},
	{MRC_A_CONN_EVS_TOTAL, "evs"},
	{MRC_A_CONN_EVS_USABLE, "evs_usable"},
	{MRC_A_CONN_EVS_BAD, "evs_bad"},
	{MRC_A_CONN_EVS_DENIED, "evs_denied"},
};

template <std::size_t N>
ConnCounters counters_of(const Attrs &tb, const Counter (&list)[N])
{
	ConnCounters c;
	for (const auto &k : list)
		if (auto v = tb.u64(k.type))
			c.list.emplace_back(k.name, *v);
	return c;
}

ConnEv ev_of(const Attrs &tb)
{
	ConnEv e;
	e.index = tb.u32(MRC_A_CONN_EV_INDEX);
	e.plane = tb.u32(MRC_A_CONN_EV_PLANE);
	e.state = tb.u32(MRC_A_CONN_EV_STATE);
	e.old_state = tb.u32(MRC_A_CONN_EV_OLD_STATE);
	e.reason = tb.u32(MRC_A_CONN_EV_REASON);
	e.rtt = tb.u32(MRC_A_CONN_EV_RTT);
	e.sport = tb.u16(MRC_A_CONN_EV_SPORT);
	e.value = tb.bytes(MRC_A_CONN_EV_VALUE);
	e.seq = tb.u64(MRC_A_CONN_EV_SEQ);
	e.counters = counters_of(tb, kEvCounters);
	return e;
}

ConnPlane plane_of(const Attrs &tb)
{
	ConnPlane p;
	p.id = tb.u32(MRC_A_CONN_PLANE_ID);
	p.evs_usable = tb.u32(MRC_A_CONN_PLANE_EVS_USABLE);
	p.counters = counters_of(tb, kPlaneCounters);
	return p;
}

// Set "conn", at the top level of a CONN_GET reply or in an event's nest.
Conn conn_of(const Attrs &tb)
{
	Conn c;
	c.dev = tb.str(MRC_A_CONN_DEV_NAME);
	c.dev_index = tb.u32(MRC_A_CONN_DEV_INDEX);
	c.qpn = tb.u32(MRC_A_CONN_QPN);
	if (nlattr *a = tb[MRC_A_CONN_PEER]) {
		auto len = static_cast<std::size_t>(nla_len(a));
		if (len == 4 || len == 16)
			c.peer = addr_text(static_cast<const std::uint8_t *>(
						   nla_data(a)),
					   len);
	}
	for (const auto &k : kConnFields)
		if (auto v = tb.u32(k.type))
			c.fields.emplace_back(k.name, *v);
	c.counters = counters_of(tb, kConnCounters);
	nla::for_each_entry(tb[MRC_A_CONN_PLANES], MRC_A_CONN_PLANE,
			    pol::conn_plane, [&](const Attrs &p) {
				    c.planes.push_back(plane_of(p));
			    });
	if (nlattr *evs = tb[MRC_A_CONN_EVS]) {
		c.ev_offset = nla::parse_nested(evs, pol::conn_evs)
				      .u32(MRC_A_CONN_EVS_OFFSET);
		nla::for_each_entry(evs, MRC_A_CONN_EVS_EV, pol::conn_ev,
				    [&](const Attrs &e) {
					    c.evs.push_back(ev_of(e));
				    });
	}
	if (nlattr *ev = tb[MRC_A_CONN_EV]) // events
		c.evs.push_back(ev_of(nla::parse_nested(ev, pol::conn_ev)));
	return c;
}

} // namespace

std::string ns_text(std::uint64_t ns)
{
	if (ns >= 10'000'000)
		return std::to_string(ns / 1'000'000) + "ms";
	if (ns >= 10'000)
		return std::to_string(ns / 1'000) + "us";
	return std::to_string(ns) + "ns";
}

Conn decode_conn_nest(nlattr *nest)
{
	return conn_of(nla::parse_nested(nest, pol::conn));
}

Conn decode_conn(nl_msg *msg) { return conn_of(nla::parse(msg, pol::conn)); }

const char *conn_ev_state_name(std::uint32_t s)
{
	switch (s) {
	case MRC_CONN_EV_UNKNOWN: return "unknown";
	case MRC_CONN_EV_GOOD: return "good";
	case MRC_CONN_EV_ASSUMED_BAD: return "assumed_bad";
	case MRC_CONN_EV_DENIED: return "denied";
	default: return "?";
	}
}

const char *conn_ev_reason_name(std::uint32_t r)
{
	switch (r) {
	case MRC_CONN_EVR_CONFIG: return "config";
	case MRC_CONN_EVR_LOSS: return "loss";
	case MRC_CONN_EVR_TIMEOUT: return "timeout";
	case MRC_CONN_EVR_PROBE_OK: return "probe_ok";
	case MRC_CONN_EVR_MIN_ACTIVE: return "min_active";
	case MRC_CONN_EVR_CONTROLLER: return "controller";
	default: return "?";
	}
}

const char *qp_state_name(std::uint32_t s)
{
	static const char *const names[] = {"RESET", "INIT", "RTR", "RTS",
					    "SQD",   "SQE",  "ERR"};
	return s < std::size(names) ? names[s] : "?";
}

const char *conn_status_name(std::uint32_t s)
{
	switch (s) {
	case MRC_CONN_OK: return "ok";
	case MRC_CONN_RETRY_EXCEEDED: return "retry_exceeded";
	case MRC_CONN_RNR_EXCEEDED: return "rnr_exceeded";
	case MRC_CONN_REMOTE_ACCESS: return "remote_access";
	case MRC_CONN_INVALID_REQUEST: return "invalid_request";
	case MRC_CONN_FLUSHED: return "flushed";
	case MRC_CONN_NO_PATH: return "no_path";
	default: return "?";
	}
}

} // namespace mrcctl

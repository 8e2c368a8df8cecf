// SPDX-License-Identifier: GPL-2.0-only
#include "conn.hpp"

#include <linux/mrc.h>
#include <netlink/genl/genl.h>

#include "addr.hpp"
#include "nla_get.hpp"

namespace mrcctl {

namespace {

using nla::for_each_attr;
using nla::for_each_nested;
using nla::get_u16;
using nla::get_u32;
using nla::get_u64;

const char *counter_name(int type)
{
	switch (type) {
	case MRC_A_CONN_TX_PKTS: return "tx_pkts";
	case MRC_A_CONN_TX_BYTES: return "tx_bytes";
	case MRC_A_CONN_RX_PKTS: return "rx_pkts";
	case MRC_A_CONN_RETX_PKTS: return "retx_pkts";
	case MRC_A_CONN_LOST_PKTS: return "lost_pkts";
	case MRC_A_CONN_TIMEOUTS: return "timeouts";
	case MRC_A_CONN_ECN_MARKS: return "ecn_marks";
	default: return nullptr;
	}
}

// u32 fields of a connection, by attribute.
const char *field_name(int type)
{
	switch (type) {
	case MRC_A_CONN_DEST_QPN: return "dest_qpn";
	case MRC_A_CONN_STATE: return "state";
	case MRC_A_CONN_STATUS: return "status";
	case MRC_A_CONN_EV_PROFILE: return "ev_profile";
	case MRC_A_CONN_SND_UNA: return "snd_una";
	case MRC_A_CONN_SND_NXT: return "snd_nxt";
	case MRC_A_CONN_RCV_NXT: return "rcv_nxt";
	case MRC_A_CONN_INFLIGHT: return "inflight";
	case MRC_A_CONN_CWND: return "cwnd";
	case MRC_A_CONN_SRTT: return "srtt";
	case MRC_A_CONN_RTO: return "rto";
	case MRC_A_CONN_EVS_TOTAL: return "evs";
	case MRC_A_CONN_EVS_USABLE: return "evs_usable";
	case MRC_A_CONN_EVS_BAD: return "evs_bad";
	case MRC_A_CONN_EVS_DENIED: return "evs_denied";
	default: return nullptr;
	}
}

bool counter_attr(ConnCounters &c, nlattr *a)
{
	const char *n = counter_name(nla_type(a));
	auto v = get_u64(a);
	if (!n || !v)
		return false;
	c.list.emplace_back(n, *v);
	return true;
}

ConnEv decode_ev(nlattr *nest)
{
	ConnEv e;
	for_each_nested(nest, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_CONN_EV_INDEX: e.index = get_u32(a); break;
		case MRC_A_CONN_EV_PLANE: e.plane = get_u32(a); break;
		case MRC_A_CONN_EV_STATE: e.state = get_u32(a); break;
		case MRC_A_CONN_EV_OLD_STATE: e.old_state = get_u32(a); break;
		case MRC_A_CONN_EV_REASON: e.reason = get_u32(a); break;
		case MRC_A_CONN_EV_RTT: e.rtt = get_u32(a); break;
		case MRC_A_CONN_EV_SPORT: e.sport = get_u16(a); break;
		default: counter_attr(e.counters, a); break;
		}
	});
	return e;
}

ConnPlane decode_plane(nlattr *nest)
{
	ConnPlane p;
	for_each_nested(nest, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_PLANE_ID: p.id = get_u32(a); break;
		case MRC_A_CONN_EVS_USABLE: p.evs_usable = get_u32(a); break;
		default: counter_attr(p.counters, a); break;
		}
	});
	return p;
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
	Conn c;
	for_each_nested(nest, [&](nlattr *a) {
		int t = nla_type(a);
		if (t == MRC_A_QPN) {
			c.qpn = get_u32(a);
		} else if (t == MRC_A_CONN_PEER) {
			auto len = static_cast<std::size_t>(nla_len(a));
			if (len == 4 || len == 16)
				c.peer = addr_text(
					static_cast<const std::uint8_t *>(
						nla_data(a)),
					len);
		} else if (t == MRC_A_CONN_PLANES) {
			for_each_nested(a, [&](nlattr *p) {
				c.planes.push_back(decode_plane(p));
			});
		} else if (t == MRC_A_CONN_EVS) {
			for_each_nested(a, [&](nlattr *e) {
				if (nla_type(e) == MRC_A_CONN_EV_OFFSET)
					c.ev_offset = get_u32(e);
				else if (nla_type(e) == MRC_A_CONN_EV)
					c.evs.push_back(decode_ev(e));
			});
		} else if (t == MRC_A_CONN_EV) {
			c.evs.push_back(decode_ev(a));	// events
		} else if (const char *n = field_name(t)) {
			if (auto v = get_u32(a))
				c.fields.emplace_back(n, *v);
		} else {
			counter_attr(c.counters, a);
		}
	});
	return c;
}

Conn decode_conn(nl_msg *msg)
{
	Conn c;
	nlmsghdr *h = nlmsg_hdr(msg);
	nlattr *head = genlmsg_attrdata(static_cast<genlmsghdr *>(
						nlmsg_data(h)),
					0);
	int len = genlmsg_attrlen(static_cast<genlmsghdr *>(nlmsg_data(h)), 0);
	std::optional<std::string> dev;
	std::optional<std::uint32_t> dev_index;
	for_each_attr(head, len, [&](nlattr *a) {
		switch (nla_type(a)) {
		case MRC_A_DEV_NAME: dev = nla::get_string(a); break;
		case MRC_A_DEV_INDEX: dev_index = get_u32(a); break;
		case MRC_A_CONN: c = decode_conn_nest(a); break;
		default: break;
		}
	});
	c.dev = dev;
	c.dev_index = dev_index;
	return c;
}

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

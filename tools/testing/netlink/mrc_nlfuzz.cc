// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_nlfuzz: throw random and mutated requests at the "mrc" generic
// netlink family and check that every one is answered.
//
//   mrc_nlfuzz [--count N] [--seed S] [--dev NAME] [--netdev IF,...]
//              [--peer ADDR] [--verbose]
//
// Sends N requests (default 10000), one at a time, each asking for an ACK,
// a deterministic (given --seed) mix of
//   random    any command number (unknown ones included), do or dump, a
//             random tree of attributes of any type (beyond the last
//             one too), with integer, string, binary or nested payloads
//             of right and wrong sizes;
//   template  a well-formed request of a real command naming the instance
//             --dev, its plane netdevs --netdev and the peer --peer, then
//             mutated: a value replaced by an edge value, an attribute
//             dropped or repeated, bytes flipped, the message truncated or
//             an attribute length falsified.
// Every request must get its final answer (an ACK, an error, or the end of
// a dump) within a few seconds: one that does not is "unanswered", the
// kernel's fault.  The last lines count the answers by errno; the exit
// status is 0 only if nothing went unanswered.  Oopses, warnings and leaks
// are the selftest's to find (test_66_nlfuzz.sh reads dmesg).
//
// Run it only in a throw-away VM or namespace: it adds and deletes the
// instance's planes, routes and profiles at random.
#include <linux/genetlink.h>
#include <linux/mrc.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <cerrno>
#include <cinttypes>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Options {
	uint64_t count = 10000;
	uint64_t seed = 1;
	std::string dev = "mrc0";
	std::vector<std::string> netdevs;
	std::string peer = "10.0.0.2";
	bool verbose = false;
};

[[noreturn]] void die(const std::string &what)
{
	std::fprintf(stderr, "mrc_nlfuzz: %s\n", what.c_str());
	std::exit(2);
}

// One generic netlink request being built: attributes appended in place,
// nests closed by patching their length.
class Msg {
public:
	Msg(uint16_t family, uint8_t cmd, uint16_t flags, uint8_t version)
	{
		nlmsghdr h{};
		h.nlmsg_type = family;
		h.nlmsg_flags = flags;
		genlmsghdr g{};
		g.cmd = cmd;
		g.version = version;
		put(&h, sizeof(h));
		put(&g, sizeof(g));
	}

	void attr(uint16_t type, const void *data, size_t len)
	{
		nlattr a{};
		a.nla_type = type;
		a.nla_len = static_cast<uint16_t>(NLA_HDRLEN + len);
		put(&a, sizeof(a));
		put(data, len);
		pad();
	}
	template <typename T> void attr_int(uint16_t type, T v)
	{
		attr(type, &v, sizeof(v));
	}
	void attr_str(uint16_t type, const std::string &s)
	{
		attr(type, s.c_str(), s.size() + 1);
	}

	size_t begin_nest(uint16_t type)
	{
		size_t at = b_.size();
		nlattr a{};
		a.nla_type = type | NLA_F_NESTED;
		put(&a, sizeof(a));
		return at;
	}
	void end_nest(size_t at)
	{
		auto *a = reinterpret_cast<nlattr *>(b_.data() + at);
		a->nla_len = static_cast<uint16_t>(b_.size() - at);
	}

	std::vector<uint8_t> &bytes() { return b_; }
	// The attribute area: what mutations may touch.
	static constexpr size_t kHdr = NLMSG_HDRLEN + GENL_HDRLEN;

	void finish(uint32_t seq)
	{
		auto *h = reinterpret_cast<nlmsghdr *>(b_.data());
		h->nlmsg_len = static_cast<uint32_t>(b_.size());
		h->nlmsg_seq = seq;
	}

private:
	void put(const void *p, size_t n)
	{
		auto *c = static_cast<const uint8_t *>(p);
		b_.insert(b_.end(), c, c + n);
	}
	void pad()
	{
		while (b_.size() % NLA_ALIGNTO)
			b_.push_back(0);
	}
	std::vector<uint8_t> b_;
};

class Rng {
public:
	explicit Rng(uint64_t seed) : g_(seed) {}
	uint64_t below(uint64_t n) { return n ? g_() % n : 0; }
	bool chance(unsigned pct) { return below(100) < pct; }
	uint64_t u64() { return g_(); }

	// Values at and around every bound the family checks.
	uint64_t edge()
	{
		static const uint64_t v[] = {0,
					     1,
					     2,
					     3,
					     7,
					     8,
					     15,
					     16,
					     17,
					     31,
					     32,
					     33,
					     64,
					     100,
					     127,
					     128,
					     255,
					     256,
					     1023,
					     1024,
					     1025,
					     4791,
					     49152,
					     65535,
					     65536,
					     60000,
					     60001,
					     0x7fffffff,
					     0x80000000,
					     0xffffffff,
					     0x100000000ull,
					     ~0ull};
		return chance(70) ? v[below(std::size(v))] : u64();
	}

private:
	std::mt19937_64 g_;
};

// --- random requests ---------------------------------------------------

// The highest attribute number of any set: random types go a little
// beyond it (every op has its own set and policy, see mrc.yaml).
constexpr int kMaxAttr = std::max<int>(
	{MRC_A_DEV_MAX, MRC_A_PLANE_MAX, MRC_A_ROUTE_MAX, MRC_A_ROUTE_HOP_MAX,
	 MRC_A_EV_PROFILE_MAX, MRC_A_EV_MAX, MRC_A_EV_GEN_FIELD_MAX,
	 MRC_A_CC_PROFILE_MAX, MRC_A_CONN_MAX, MRC_A_PROBE_MAX, MRC_A_EP_MAX,
	 MRC_A_EP_REQ_MAX});

void random_payload(Rng &r, Msg &m, uint16_t type, int depth);

void random_attrs(Rng &r, Msg &m, int depth)
{
	uint64_t n = r.below(depth ? 5 : 9);
	for (uint64_t i = 0; i < n; i++) {
		uint16_t type = static_cast<uint16_t>(r.below(kMaxAttr + 4));
		random_payload(r, m, type, depth);
	}
}

void random_payload(Rng &r, Msg &m, uint16_t type, int depth)
{
	switch (r.below(8)) {
	case 0:
		m.attr_int<uint8_t>(type, static_cast<uint8_t>(r.edge()));
		break;
	case 1:
		m.attr_int<uint16_t>(type, static_cast<uint16_t>(r.edge()));
		break;
	case 2:
		m.attr_int<uint32_t>(type, static_cast<uint32_t>(r.edge()));
		break;
	case 3: m.attr_int<uint64_t>(type, r.edge()); break;
	case 4: {
		// A string: a plausible name, unterminated bytes, or a long one.
		std::string s = r.chance(50) ?
					"mrc" + std::to_string(r.below(4)) :
					std::string(r.below(300),
						    'a' + static_cast<char>(
								  r.below(26)));
		if (r.chance(20))
			m.attr(type, s.data(), s.size()); // no NUL
		else
			m.attr_str(type, s);
		break;
	}
	case 5:
	case 6: {
		static const size_t lens[] = {0,  1,  2,  3,  4,  5,  15,
					      16, 17, 31, 32, 33, 64, 200};
		std::vector<uint8_t> b(lens[r.below(std::size(lens))]);
		for (auto &c : b)
			c = static_cast<uint8_t>(r.u64());
		m.attr(type, b.data(), b.size());
		break;
	}
	default:
		if (depth >= 3) {
			m.attr(type, nullptr, 0);
			break;
		}
		size_t at = m.begin_nest(type);
		random_attrs(r, m, depth + 1);
		m.end_nest(at);
	}
}

// --- templates: well-formed requests of every command ------------------

struct Env {
	std::string dev;
	std::vector<std::string> netdevs;
	in_addr peer{};
};

void put_addr(Msg &m, uint16_t type, const in_addr &a, Rng &r)
{
	if (r.chance(10)) {
		in6_addr v6{};
		v6.s6_addr[0] = 0xfd;
		v6.s6_addr[15] = static_cast<uint8_t>(r.below(4));
		m.attr(type, &v6, sizeof(v6));
		return;
	}
	in_addr x = a;
	if (r.chance(20))
		x.s_addr = htonl(ntohl(x.s_addr) +
				 static_cast<uint32_t>(r.below(3)));
	m.attr(type, &x, sizeof(x));
}

uint32_t small_id(Rng &r)
{
	return static_cast<uint32_t>(r.chance(80) ? r.below(5) : r.edge());
}

void tmpl_plane(Rng &r, Msg &m, const Env &e, uint8_t cmd)
{
	m.attr_int<uint32_t>(MRC_A_PLANE_ID,
			     static_cast<uint32_t>(
				     1 + r.below(MRC_MAX_PLANES + 1)));
	if (cmd == MRC_CMD_PLANE_ADD && !e.netdevs.empty())
		m.attr_str(MRC_A_PLANE_IFNAME,
			   e.netdevs[r.below(e.netdevs.size())]);
	if (cmd == MRC_CMD_PLANE_ADD && r.chance(20))
		m.attr_int<uint32_t>(MRC_A_PLANE_IFINDEX,
				     static_cast<uint32_t>(r.below(8)));
	if (cmd == MRC_CMD_PLANE_SET)
		m.attr_int<uint8_t>(MRC_A_PLANE_ADMIN_UP,
				    static_cast<uint8_t>(r.below(3)));
}

void tmpl_route(Rng &r, Msg &m, const Env &e, uint8_t cmd)
{
	put_addr(m, MRC_A_ROUTE_PEER, e.peer, r);
	if (cmd == MRC_CMD_ROUTE_DEL || cmd == MRC_CMD_ROUTE_GET)
		return;
	size_t hops = m.begin_nest(MRC_A_ROUTE_HOPS);
	for (uint64_t i = 0, n = 1 + r.below(4); i < n; i++) {
		size_t h = m.begin_nest(MRC_A_ROUTE_HOP);
		m.attr_int<uint32_t>(MRC_A_ROUTE_HOP_PLANE,
				     static_cast<uint32_t>(1 + r.below(4)));
		put_addr(m, MRC_A_ROUTE_HOP_VIA, e.peer, r);
		m.end_nest(h);
	}
	m.end_nest(hops);
	if (r.chance(30))
		m.attr_int<uint32_t>(MRC_A_ROUTE_EV_PROFILE, small_id(r));
	if (r.chance(30))
		m.attr_int<uint32_t>(MRC_A_ROUTE_CC_PROFILE, small_id(r));
}

void ev_value(Rng &r, Msg &m, uint16_t type, uint8_t format)
{
	static const size_t len[] = {2, 4, 16, 32};
	size_t n = format >= 1 && format <= 3 ?
			   len[format - 1 + (format == 3 && r.chance(50))] :
			   2;
	if (r.chance(10))
		n = r.below(40);
	std::vector<uint8_t> v(n);
	for (auto &c : v)
		c = static_cast<uint8_t>(r.u64());
	m.attr(type, v.data(), v.size());
}

void tmpl_ev_profile(Rng &r, Msg &m, uint8_t cmd)
{
	m.attr_int<uint32_t>(MRC_A_EV_PROFILE_ID, small_id(r));
	if (cmd == MRC_CMD_EV_PROFILE_DEL || cmd == MRC_CMD_EV_PROFILE_GET)
		return;
	uint8_t format = static_cast<uint8_t>(r.below(5));
	if (cmd == MRC_CMD_EV_PROFILE_ADD) {
		m.attr_int<uint8_t>(MRC_A_EV_PROFILE_MODE,
				    static_cast<uint8_t>(r.below(4)));
		m.attr_int<uint8_t>(MRC_A_EV_PROFILE_FORMAT, format);
		if (r.chance(50))
			m.attr_int<uint16_t>(MRC_A_EV_PROFILE_COUNT,
					     static_cast<uint16_t>(r.edge()));
		if (r.chance(50))
			m.attr_int<uint16_t>(MRC_A_EV_PROFILE_PLANE_MASK,
					     static_cast<uint16_t>(r.edge()));
		if (r.chance(30)) {
			size_t f = m.begin_nest(MRC_A_EV_PROFILE_GEN_FIELDS);
			for (uint64_t i = 0, n = r.below(4); i < n; i++) {
				size_t g = m.begin_nest(MRC_A_EV_GEN_FIELD);
				m.attr_int<uint8_t>(MRC_A_EV_GEN_WIDTH,
						    static_cast<uint8_t>(
							    r.edge()));
				m.attr_int<uint32_t>(MRC_A_EV_GEN_MIN,
						     static_cast<uint32_t>(
							     r.edge()));
				m.attr_int<uint32_t>(MRC_A_EV_GEN_MAX,
						     static_cast<uint32_t>(
							     r.edge()));
				if (r.chance(50))
					m.attr_int<uint32_t>(MRC_A_EV_GEN_MASK,
							     static_cast<uint32_t>(
								     r.edge()));
				m.end_nest(g);
			}
			m.end_nest(f);
			m.attr_int<uint8_t>(MRC_A_EV_PROFILE_GEN_SHIFT,
					    static_cast<uint8_t>(r.edge()));
		}
	} else {
		if (r.chance(40))
			m.attr_int<uint8_t>(MRC_A_EV_PROFILE_STATE,
					    static_cast<uint8_t>(r.below(5)));
		if (r.chance(30))
			m.attr_int<uint16_t>(MRC_A_EV_PROFILE_MIN_ACTIVE,
					     static_cast<uint16_t>(r.edge()));
		if (r.chance(30))
			m.attr_int<uint32_t>(MRC_A_EV_PROFILE_EVENT_MASK,
					     static_cast<uint32_t>(r.edge()));
		// One EV of the profile, in a request of its own or not.
		if (r.chance(40))
			m.attr_int<uint16_t>(MRC_A_EV_PROFILE_EV_INDEX,
					     static_cast<uint16_t>(
						     r.chance(70) ? r.below(8) :
								    r.edge()));
		if (r.chance(30))
			m.attr_int<uint8_t>(MRC_A_EV_PROFILE_EV_PLANE,
					    static_cast<uint8_t>(
						    r.chance(80) ? 1 + r.below(4) :
								   r.edge()));
		if (r.chance(30))
			ev_value(r, m, MRC_A_EV_PROFILE_EV_VALUE, format);
		if (r.chance(30))
			m.attr_int<uint8_t>(MRC_A_EV_PROFILE_EV_DENY,
					    static_cast<uint8_t>(r.below(3)));
		if (r.chance(30))
			m.attr_int<uint32_t>(MRC_A_EV_PROFILE_QPN,
					     static_cast<uint32_t>(
						     r.chance(50) ? r.below(64) :
								    r.edge()));
		if (r.chance(80))
			return; // an EV list is add's (set refuses it)
	}
	size_t evs = m.begin_nest(MRC_A_EV_PROFILE_EVS);
	for (uint64_t i = 0, n = r.below(6); i < n; i++) {
		size_t ev = m.begin_nest(MRC_A_EV);
		if (r.chance(50))
			m.attr_int<uint16_t>(MRC_A_EV_INDEX,
					     static_cast<uint16_t>(
						     r.chance(70) ? r.below(8) :
								    r.edge()));
		m.attr_int<uint8_t>(MRC_A_EV_PLANE,
				    static_cast<uint8_t>(r.chance(80) ?
								 1 + r.below(4) :
								 r.edge()));
		if (r.chance(20))
			m.attr_int<uint8_t>(MRC_A_EV_STATE,
					    static_cast<uint8_t>(r.below(5)));
		ev_value(r, m, MRC_A_EV_VALUE, format);
		m.end_nest(ev);
	}
	m.end_nest(evs);
}

void tmpl_cc_profile(Rng &r, Msg &m, uint8_t cmd)
{
	m.attr_int<uint32_t>(MRC_A_CC_PROFILE_ID, small_id(r));
	if (cmd == MRC_CMD_CC_PROFILE_DEL || cmd == MRC_CMD_CC_PROFILE_GET)
		return;
	if (cmd == MRC_CMD_CC_PROFILE_ADD && r.chance(80))
		m.attr_str(MRC_A_CC_ALGO,
			   r.chance(90) ? MRC_CC_ALGO_NSCC : "cubic");
	for (uint16_t t = MRC_A_CC_BASE_RTT; t <= MRC_A_CC_INIT_CWND; t++)
		if (r.chance(25))
			m.attr_int<uint32_t>(t, static_cast<uint32_t>(r.edge()));
	if (r.chance(25))
		m.attr_int<uint8_t>(MRC_A_CC_QA_GATE,
				    static_cast<uint8_t>(r.edge()));
	if (r.chance(25))
		m.attr_int<uint8_t>(MRC_A_CC_DISABLE_QA,
				    static_cast<uint8_t>(r.below(3)));
}

void tmpl_probe(Rng &r, Msg &m, const Env &e)
{
	put_addr(m, MRC_A_PROBE_TO, e.peer, r);
	if (r.chance(40))
		m.attr_int<uint32_t>(MRC_A_PROBE_EV_PROFILE, small_id(r));
	if (r.chance(30)) {
		m.attr_int<uint32_t>(MRC_A_PROBE_EV_PLANE,
				     static_cast<uint32_t>(r.below(5)));
		m.attr_int<uint16_t>(MRC_A_PROBE_EV_SPORT,
				     static_cast<uint16_t>(r.edge()));
	}
}

// A controller's batch (MRC_CMD_EP_BATCH): an op (sometimes none or an
// unknown one), requests toward the peer with random ids (duplicates
// too), formats, planes and EV values of every length, port bitmaps.
void tmpl_ep_batch(Rng &r, Msg &m, const Env &e)
{
	if (r.chance(90))
		m.attr_int<uint8_t>(MRC_A_EP_OP,
				    static_cast<uint8_t>(r.below(4)));
	size_t reqs = m.begin_nest(MRC_A_EP_REQS);
	uint64_t n = r.chance(90) ? r.below(6) : r.below(300);
	for (uint64_t i = 0; i < n; i++) {
		size_t q = m.begin_nest(MRC_A_EP_REQ);
		if (r.chance(95))
			m.attr_int<uint16_t>(MRC_A_EP_REQ_ID,
					     static_cast<uint16_t>(
						     r.chance(80) ? i : r.edge()));
		if (r.chance(90))
			put_addr(m, MRC_A_EP_REQ_DADDR, e.peer, r);
		if (r.chance(20))
			put_addr(m, MRC_A_EP_REQ_SADDR, e.peer, r);
		m.attr_int<uint8_t>(MRC_A_EP_REQ_FORMAT,
				    static_cast<uint8_t>(r.below(5)));
		m.attr_int<uint8_t>(MRC_A_EP_REQ_PLANE,
				    static_cast<uint8_t>(r.chance(80) ?
								 r.below(5) :
								 r.edge()));
		static const size_t kLens[] = {0, 1, 2, 4, 16, 32, 33};
		uint8_t val[33];
		for (auto &b : val)
			b = static_cast<uint8_t>(r.u64());
		m.attr(MRC_A_EP_REQ_VALUE, val, kLens[r.below(std::size(kLens))]);
		if (r.chance(40))
			m.attr_int<uint16_t>(MRC_A_EP_REQ_PORT_STATUS,
					     static_cast<uint16_t>(r.edge()));
		m.end_nest(q);
	}
	m.end_nest(reqs);
}

// A batch or a probe waits for its timeout: keep it short (the last copy
// of an attribute is the one the kernel reads).
void short_timeout(Rng &r, Msg &m, uint8_t cmd)
{
	if (cmd == MRC_CMD_PROBE)
		m.attr_int<uint32_t>(MRC_A_PROBE_TIMEOUT,
				     static_cast<uint32_t>(1 + r.below(20)));
	else if (cmd == MRC_CMD_EP_BATCH)
		m.attr_int<uint64_t>(MRC_A_EP_TIMEOUT,
				     1 + r.below(20 * 1000 * 1000));
}

// The commands a template exists for; dumps for the GETs.
const uint8_t kCmds[] = {MRC_CMD_DEV_GET,	 MRC_CMD_PLANE_ADD,
			 MRC_CMD_PLANE_DEL,	 MRC_CMD_PLANE_SET,
			 MRC_CMD_PLANE_GET,	 MRC_CMD_ROUTE_ADD,
			 MRC_CMD_ROUTE_DEL,	 MRC_CMD_ROUTE_SET,
			 MRC_CMD_ROUTE_GET,	 MRC_CMD_EV_PROFILE_ADD,
			 MRC_CMD_EV_PROFILE_DEL, MRC_CMD_EV_PROFILE_SET,
			 MRC_CMD_EV_PROFILE_GET, MRC_CMD_CC_PROFILE_ADD,
			 MRC_CMD_CC_PROFILE_DEL, MRC_CMD_CC_PROFILE_SET,
			 MRC_CMD_CC_PROFILE_GET, MRC_CMD_CONN_GET,
			 MRC_CMD_PROBE,		 MRC_CMD_EP_BATCH};

bool is_get(uint8_t cmd)
{
	return cmd == MRC_CMD_DEV_GET || cmd == MRC_CMD_PLANE_GET ||
	       cmd == MRC_CMD_ROUTE_GET || cmd == MRC_CMD_EV_PROFILE_GET ||
	       cmd == MRC_CMD_CC_PROFILE_GET || cmd == MRC_CMD_CONN_GET;
}

void template_body(Rng &r, Msg &m, const Env &e, uint8_t cmd)
{
	if (r.chance(90))
		m.attr_str(MRC_A_DEV_NAME, r.chance(95) ? e.dev : "nosuch");
	else
		m.attr_int<uint32_t>(MRC_A_DEV_INDEX,
				     static_cast<uint32_t>(r.below(8)));
	// The request flag of the GETs that have one.
	if (r.chance(20)) {
		if (cmd == MRC_CMD_DEV_GET)
			m.attr(MRC_A_DEV_WANT_STATS, nullptr, 0);
		else if (cmd == MRC_CMD_PLANE_GET)
			m.attr(MRC_A_PLANE_WANT_STATS, nullptr, 0);
		else if (cmd == MRC_CMD_CONN_GET)
			m.attr(MRC_A_CONN_WANT_STATS, nullptr, 0);
	}
	switch (cmd) {
	case MRC_CMD_PLANE_ADD:
	case MRC_CMD_PLANE_DEL:
	case MRC_CMD_PLANE_SET:
	case MRC_CMD_PLANE_GET: tmpl_plane(r, m, e, cmd); break;
	case MRC_CMD_ROUTE_ADD:
	case MRC_CMD_ROUTE_DEL:
	case MRC_CMD_ROUTE_SET:
	case MRC_CMD_ROUTE_GET: tmpl_route(r, m, e, cmd); break;
	case MRC_CMD_EV_PROFILE_ADD:
	case MRC_CMD_EV_PROFILE_DEL:
	case MRC_CMD_EV_PROFILE_SET:
	case MRC_CMD_EV_PROFILE_GET: tmpl_ev_profile(r, m, cmd); break;
	case MRC_CMD_CC_PROFILE_ADD:
	case MRC_CMD_CC_PROFILE_DEL:
	case MRC_CMD_CC_PROFILE_SET:
	case MRC_CMD_CC_PROFILE_GET: tmpl_cc_profile(r, m, cmd); break;
	case MRC_CMD_CONN_GET:
		if (r.chance(50))
			m.attr_int<uint32_t>(MRC_A_CONN_QPN,
					     static_cast<uint32_t>(
						     r.chance(50) ? r.below(64) :
								    r.edge()));
		break;
	case MRC_CMD_PROBE: tmpl_probe(r, m, e); break;
	case MRC_CMD_EP_BATCH: tmpl_ep_batch(r, m, e); break;
	}
}

// Mutations keep the netlink and genl headers (the message must reach the
// family) and spoil the attributes.
void mutate(Rng &r, std::vector<uint8_t> &b)
{
	const size_t h = Msg::kHdr;
	if (b.size() <= h)
		return;
	switch (r.below(4)) {
	case 0: // flip bytes
		for (uint64_t i = 0, n = 1 + r.below(4); i < n; i++)
			b[h + r.below(b.size() - h)] ^= static_cast<uint8_t>(
				1u << r.below(8));
		break;
	case 1: // truncate (the outer length is fixed up, inner ones are not)
		b.resize(h + r.below(b.size() - h));
		break;
	case 2: { // an attribute length that lies
		size_t off = h;
		std::vector<size_t> at;
		while (off + NLA_HDRLEN <= b.size()) {
			at.push_back(off);
			auto *a = reinterpret_cast<nlattr *>(b.data() + off);
			if (a->nla_len < NLA_HDRLEN)
				break;
			off += NLA_ALIGN(a->nla_len);
		}
		if (at.empty())
			break;
		auto *a = reinterpret_cast<nlattr *>(b.data() +
						     at[r.below(at.size())]);
		a->nla_len = static_cast<uint16_t>(r.edge());
		break;
	}
	default: { // garbage appended
		for (uint64_t i = 0, n = r.below(24); i < n; i++)
			b.push_back(static_cast<uint8_t>(r.u64()));
	}
	}
}

// --- the socket --------------------------------------------------------

int resolve_family()
{
	std::unique_ptr<nl_sock, void (*)(nl_sock *)> sk(nl_socket_alloc(),
							 nl_socket_free);
	if (!sk || genl_connect(sk.get()) < 0)
		die("cannot open a generic netlink socket");
	int id = genl_ctrl_resolve(sk.get(), MRC_GENL_NAME);
	if (id < 0)
		die("generic netlink family \"" MRC_GENL_NAME
		    "\" not found (is mrc loaded?)");
	return id;
}

class Sock {
public:
	Sock()
		: fd_(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC))
	{
		if (fd_ < 0)
			die(std::string("socket: ") + std::strerror(errno));
		int one = 1;
		setsockopt(fd_, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
		setsockopt(fd_, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
		sockaddr_nl a{};
		a.nl_family = AF_NETLINK;
		if (bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof(a)))
			die(std::string("bind: ") + std::strerror(errno));
	}
	~Sock() { close(fd_); }
	Sock(const Sock &) = delete;
	Sock &operator=(const Sock &) = delete;

	// Send b; return the final answer's error (0 = success), or 1 if none
	// came within timeout_ms.  *extack: the error carried a message.
	int transact(const std::vector<uint8_t> &b, uint32_t seq,
		     int timeout_ms, bool *extack)
	{
		sockaddr_nl k{};
		k.nl_family = AF_NETLINK;
		if (sendto(fd_, b.data(), b.size(), 0,
			   reinterpret_cast<sockaddr *>(&k), sizeof(k)) < 0)
			return -errno; // refused by the socket layer (e.g. a short message)
		auto deadline = std::chrono::steady_clock::now() +
				std::chrono::milliseconds(timeout_ms);
		for (;;) {
			auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
					    deadline -
					    std::chrono::steady_clock::now())
					    .count();
			if (left <= 0)
				return 1;
			pollfd p{fd_, POLLIN, 0};
			int n = poll(&p, 1, static_cast<int>(left));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return 1;
			ssize_t len = recv(fd_, buf_.data(), buf_.size(), 0);
			if (len < 0) {
				if (errno == EINTR || errno == ENOBUFS)
					continue;
				die(std::string("recv: ") + std::strerror(errno));
			}
			int rc;
			if (answer(static_cast<size_t>(len), seq, extack, &rc))
				return rc;
		}
	}

private:
	// Walk one datagram; true with *rc once the answer to seq is complete.
	bool answer(size_t len, uint32_t seq, bool *extack, int *rc)
	{
		auto *h = reinterpret_cast<nlmsghdr *>(buf_.data());
		int left = static_cast<int>(len);
		for (; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_seq != seq)
				continue; // a late answer to an earlier request
			if (h->nlmsg_type == NLMSG_DONE) {
				*rc = 0;
				return true;
			}
			if (h->nlmsg_type != NLMSG_ERROR)
				continue; // a reply or dump part
			auto *e = static_cast<nlmsgerr *>(NLMSG_DATA(h));
			*rc = e->error;
			*extack = (h->nlmsg_flags & NLM_F_ACK_TLVS) != 0;
			return true;
		}
		return false;
	}

	int fd_;
	std::vector<uint8_t> buf_ = std::vector<uint8_t>(1 << 20);
};

std::vector<std::string> split(const std::string &s)
{
	std::vector<std::string> v;
	std::stringstream ss(s);
	std::string t;
	while (std::getline(ss, t, ','))
		if (!t.empty())
			v.push_back(t);
	return v;
}

Options parse(int argc, char **argv)
{
	Options o;
	for (int i = 1; i < argc; i++) {
		std::string a = argv[i];
		auto val = [&]() -> std::string {
			if (i + 1 >= argc)
				die("option " + a + " needs a value");
			return argv[++i];
		};
		if (a == "--count")
			o.count = std::stoull(val());
		else if (a == "--seed")
			o.seed = std::stoull(val(), nullptr, 0);
		else if (a == "--dev")
			o.dev = val();
		else if (a == "--netdev")
			o.netdevs = split(val());
		else if (a == "--peer")
			o.peer = val();
		else if (a == "--verbose")
			o.verbose = true;
		else
			die("usage: mrc_nlfuzz [--count N] [--seed S] [--dev NAME] [--netdev IF,...] [--peer ADDR] [--verbose]");
	}
	return o;
}

std::string errname(int rc)
{
	if (rc == 0)
		return "ok";
	if (rc == 1)
		return "unanswered";
	const char *n = strerrorname_np(-rc);
	return n ? n : "errno " + std::to_string(-rc);
}

} // namespace

int main(int argc, char **argv)
{
	Options o = parse(argc, argv);
	Env env{o.dev, o.netdevs, {}};
	if (inet_pton(AF_INET, o.peer.c_str(), &env.peer) != 1)
		die("--peer wants an IPv4 address");
	const auto family = static_cast<uint16_t>(resolve_family());
	Sock sk;
	Rng r(o.seed);
	std::map<std::string, uint64_t> by_errno;
	std::map<int, uint64_t> no_extack; // refusals with no message, by errno
	uint64_t templ = 0, unanswered = 0;

	for (uint64_t i = 0; i < o.count; i++) {
		bool use_template = r.chance(70);
		uint8_t cmd;
		uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
		uint8_t version = r.chance(97) ? MRC_GENL_VERSION :
						 static_cast<uint8_t>(r.u64());
		std::vector<uint8_t> bytes;
		if (use_template) {
			templ++;
			cmd = kCmds[r.below(std::size(kCmds))];
			if (is_get(cmd) && r.chance(50))
				flags |= NLM_F_DUMP;
			Msg m(family, cmd, flags, version);
			template_body(r, m, env, cmd);
			short_timeout(r, m, cmd);
			bytes = m.bytes();
			if (r.chance(60))
				mutate(r, bytes);
		} else {
			cmd = static_cast<uint8_t>(r.below(MRC_CMD_MAX + 3));
			if (r.chance(30))
				flags |= NLM_F_DUMP;
			Msg m(family, cmd, flags, version);
			random_attrs(r, m, 0);
			short_timeout(r, m, cmd);
			bytes = m.bytes();
		}
		auto *h = reinterpret_cast<nlmsghdr *>(bytes.data());
		h->nlmsg_len = static_cast<uint32_t>(bytes.size());
		h->nlmsg_seq = static_cast<uint32_t>(i + 1);
		bool extack = false;
		// A probe with a falsified timeout may legitimately wait for it.
		int rc = sk.transact(bytes, static_cast<uint32_t>(i + 1),
				     cmd == MRC_CMD_PROBE ||
						     cmd == MRC_CMD_EP_BATCH ?
					     65000 :
					     10000,
				     &extack);
		by_errno[errname(rc)]++;
		if (rc == 1) {
			unanswered++;
			std::printf("mrc_nlfuzz: request %" PRIu64
				    " (cmd %u, %s, %zu bytes) unanswered\n",
				    i, cmd, use_template ? "template" : "random",
				    bytes.size());
		} else if (rc < 0 && !extack) {
			no_extack[-rc]++;
		}
		if (o.verbose)
			std::printf("%" PRIu64
				    " cmd %u flags %#x len %zu -> %s%s\n",
				    i, cmd, flags, bytes.size(),
				    errname(rc).c_str(),
				    rc < 0 && extack ? " (extack)" : "");
	}

	std::printf("mrc_nlfuzz: answers:");
	for (const auto &[name, n] : by_errno)
		std::printf(" %s %" PRIu64, name.c_str(), n);
	std::printf("\nmrc_nlfuzz: refusals without an extack message:");
	for (const auto &[e, n] : no_extack)
		std::printf(" %s %" PRIu64, errname(-e).c_str(), n);
	std::printf("%s\n", no_extack.empty() ? " none" : "");
	std::printf("mrc_nlfuzz: %" PRIu64 " requests (%" PRIu64
		    " from templates), %" PRIu64 " accepted, %" PRIu64
		    " unanswered\n",
		    o.count, templ, by_errno["ok"], unanswered);
	return unanswered ? 1 : 0;
}

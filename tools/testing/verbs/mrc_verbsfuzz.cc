// SPDX-License-Identifier: GPL-2.0-only
//
// mrc_verbsfuzz: a seeded, bounded random sequence of verbs calls against
// two mrc devices (PDs, MRs, CQs, RC, UC and UD QPs, random and correct state
// changes, posts with random opcodes, flags, keys and ranges, raw WQEs
// written into the send ring, SRQs shared by some of the QPs (created,
// resized, limits set, destroyed with QPs attached, receives with random
// SGEs posted to them), polls, destroys with work outstanding).
// Every call must return (a watchdog ends the run with status 3 if one
// takes more than 30 s) and every signaled work request posted must
// complete exactly once: by wr_id, no duplicate, no unknown one, and none
// missing on the QPs still alive at the end once they are moved to ERR
// and drained (IBA: a QP in ERR flushes what it holds; after RESET or a
// destroy nothing is promised, so those WRs may complete but need not).
// A receive posted to an SRQ belongs to no QP until one takes it: it may
// stay in the SRQ, but completes at most once, on a QP of that SRQ.
#include "raw_sq.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <random>
#include <unordered_map>

using namespace verbs;

namespace {

// The Q_Key of the UD QPs connect_pair() brings up.
constexpr uint32_t kUdQkey = 0x2222;

// --- the watchdog: which verb is running, since when -------------------
std::atomic<const char *> g_op{nullptr};
std::atomic<int64_t> g_op_start{0};

int64_t now_ms()
{
	return std::chrono::duration_cast<std::chrono::milliseconds>(
		       Clock::now().time_since_epoch())
		.count();
}

struct OpGuard {
	explicit OpGuard(const char *name)
	{
		g_op_start.store(now_ms());
		g_op.store(name);
	}
	~OpGuard() { g_op.store(nullptr); }
};

void watchdog_loop(std::stop_token st, int limit_s)
{
	while (!st.stop_requested()) {
		std::this_thread::sleep_for(std::chrono::milliseconds(250));
		const char *op = g_op.load();
		if (op && now_ms() - g_op_start.load() > limit_s * 1000LL) {
			std::fprintf(stderr,
				     "mrc_verbsfuzz: %s has not returned for %d s: hang\n",
				     op, limit_s);
			std::fflush(stdout);
			std::_Exit(3);
		}
	}
}

// --- accounting ---------------------------------------------------------
uint64_t g_ops, g_errnos, g_completions, g_dup, g_unknown, g_missing;
uint64_t g_bugs; // calls that succeeded where they must not
std::map<std::string, std::map<int, uint64_t>> g_err_by_verb;
std::map<int, uint64_t> g_status;

// Count the result of a verb: 0 or an errno (either sign).
int account(const char *verb, int rc)
{
	g_ops++;
	if (rc < 0)
		rc = -rc;
	if (rc) {
		g_errnos++;
		g_err_by_verb[verb][rc]++;
	}
	return rc;
}

struct Wr {
	uint32_t qpn;
	int dev;
	bool required; // a completion must come (signaled, or a receive)
	bool done;
	bool recv;
	const void *srq = nullptr; // posted to this SRQ (SrqObj), no QP yet
};
std::unordered_map<uint64_t, Wr> g_wrs;
uint64_t g_next_id = 0x1000;

// --- the objects ----------------------------------------------------------
struct MrObj {
	ibv_mr *mr = nullptr;
	uint8_t *map = nullptr; // the mapping (buffer and guard page)
	size_t map_len = 0;
	size_t len = 0;
	int pd = 0;
	int access = 0;
};

struct CqObj {
	ibv_cq *cq = nullptr;
	int users = 0;
	bool overrun = false;
	bool dead = false; // destroyed while in use (a bug): never touched again
};

struct SrqObj {
	ibv_srq *srq = nullptr;
	int pd = 0;
	int users = 0;	   // QPs created on it
	bool dead = false; // destroyed while in use (a bug): never touched again
};

struct QpObj {
	ibv_qp *qp = nullptr;
	int pd = 0;
	SrqObj *srq = nullptr;
	CqObj *scq = nullptr, *rcq = nullptr;
	ibv_qp_cap cap{};
	std::vector<uint64_t> out;    // posted, not yet completed
	unsigned unretired_sends = 0; // ring slots possibly in use
	std::optional<RawSq> ring;
	struct QpObj *peer = nullptr;
	bool connected = false;
	bool sig_all = false;
	ibv_qp_state state = IBV_QPS_RESET; // as of our last successful modify
};

struct Dev {
	int idx;
	Context ctx;
	ibv_gid gid{};
	std::vector<ibv_pd *> pds; // [0] is never freed
	std::vector<std::unique_ptr<MrObj>> mrs;
	std::vector<std::unique_ptr<CqObj>> cqs;
	std::vector<std::unique_ptr<QpObj>> qps;
	std::vector<std::unique_ptr<SrqObj>> srqs;
};

class Fuzzer {
public:
	Fuzzer(uint64_t seed, std::vector<std::string> names) : rng_(seed)
	{
		int i = 0;
		for (auto &n : names) {
			auto d = std::make_unique<Dev>();
			d->idx = i++;
			d->ctx = open_device(n);
			d->gid = query_gid(d->ctx.get(), 1, 1);
			int fl = ::fcntl(d->ctx->async_fd, F_GETFL);
			::fcntl(d->ctx->async_fd, F_SETFL, fl | O_NONBLOCK);
			ibv_pd *pd = ibv_alloc_pd(d->ctx.get());
			if (!pd)
				fail_errno("ibv_alloc_pd " + n);
			d->pds.push_back(pd);
			devs_.push_back(std::move(d));
		}
	}

	void step()
	{
		Dev &d = *devs_[pick(devs_.size())];
		unsigned r = pick(1000);
		if (r < 30)
			alloc_pd(d);
		else if (r < 45)
			dealloc_pd(d);
		else if (r < 100)
			reg_mr(d);
		else if (r < 130)
			dereg_mr(d);
		else if (r < 170)
			create_cq(d);
		else if (r < 190)
			destroy_cq(d);
		else if (r < 200)
			resize_cq(d);
		else if (r < 250)
			create_qp(d);
		else if (r < 275)
			destroy_qp(d);
		else if (r < 335)
			modify_qp(d);
		else if (r < 415)
			connect_pair();
		else if (r < 640)
			post_send(d);
		else if (r < 720)
			post_recv(d);
		else if (r < 800)
			raw_send(d);
		else if (r < 960)
			poll(d);
		else if (r < 980)
			notify(d);
		else
			query(d);
		if (pick(16) == 0)
			async_events();
		if (pick(12) == 0)
			srq_op(d);
	}

	// Move every live QP to ERR, then drain the CQs until each one's
	// outstanding required WRs have completed (or 20 s passed).
	void finish()
	{
		for (auto &d : devs_)
			for (auto &q : d->qps) {
				// The core's state table has no RESET -> ERR; a QP
				// in RESET holds nothing (RESET discards, and a post
				// to it is refused).
				if (q->state == IBV_QPS_RESET)
					continue;
				ibv_qp_attr a{};
				a.qp_state = IBV_QPS_ERR;
				OpGuard g("ibv_modify_qp(ERR) at the end");
				if (int rc = account("modify_qp_end",
						     ibv_modify_qp(q->qp, &a,
								   IBV_QP_STATE))) {
					// IBA 10.3.1: every state may go to ERR.
					ibv_qp_attr qa{};
					ibv_qp_init_attr ia{};
					int qrc = ibv_query_qp(q->qp, &qa,
							       IBV_QP_STATE, &ia);
					std::printf("mrc_verbsfuzz: QP %u in state %d (query %d, ours %d): moving to ERR failed: %s\n",
						    q->qp->qp_num, qa.qp_state,
						    qrc, q->state,
						    std::strerror(rc));
					g_bugs++;
				}
			}
		auto deadline = Clock::now() + std::chrono::seconds(20);
		while (Clock::now() < deadline && outstanding_required() > 0) {
			for (auto &d : devs_)
				for (auto &c : d->cqs)
					drain_cq(*c);
			async_events();
			std::this_thread::sleep_for(std::chrono::milliseconds(10));
		}
		for (auto &d : devs_)
			for (auto &q : d->qps)
				for (uint64_t id : q->out) {
					const Wr &w = g_wrs.at(id);
					if (!w.required || w.done)
						continue;
					if ((w.recv ? q->rcq : q->scq)->overrun)
						continue;
					g_missing++;
					if (g_missing <= 10)
						std::printf("mrc_verbsfuzz: missing: wr_id %#llx (%s) of QP %u on dev %d\n",
							    (unsigned long long)id,
							    w.recv ? "recv" :
								     "send",
							    w.qpn, w.dev);
				}
	}

	// Destroy everything, in dependency order.
	void teardown()
	{
		for (auto &d : devs_) {
			for (auto &q : d->qps) {
				OpGuard g("ibv_destroy_qp at the end");
				account("destroy_qp_end", ibv_destroy_qp(q->qp));
			}
			d->qps.clear();
			for (auto &q : d->srqs) {
				if (q->dead)
					continue;
				OpGuard g("ibv_destroy_srq at the end");
				account("destroy_srq_end",
					ibv_destroy_srq(q->srq));
			}
			d->srqs.clear();
			for (auto &m : d->mrs)
				free_mr(*m);
			d->mrs.clear();
			for (auto &c : d->cqs) {
				drain_cq(*c);
				if (c->dead)
					continue;
				OpGuard g("ibv_destroy_cq at the end");
				account("destroy_cq_end", ibv_destroy_cq(c->cq));
			}
			d->cqs.clear();
			for (auto *pd : d->pds) {
				OpGuard g("ibv_dealloc_pd at the end");
				account("dealloc_pd_end", ibv_dealloc_pd(pd));
			}
			d->pds.clear();
		}
	}

private:
	unsigned pick(size_t n)
	{
		return n ? static_cast<unsigned>(rng_() % n) : 0;
	}
	bool chance(unsigned pct) { return pick(100) < pct; }
	uint64_t rnd64()
	{
		return (static_cast<uint64_t>(rng_()) << 32) ^ rng_();
	}

	// An edge value or a small one or anything.
	uint32_t edgy32()
	{
		static const uint32_t edges[] =
			{0,	     1,		 2,	      3,
			 4,	     7,		 8,	      15,
			 16,	     31,	 32,	      63,
			 64,	     255,	 256,	      1023,
			 1024,	     4096,	 65535,	      65536,
			 1u << 20,   0x7fffffff, 0x80000000u, 0xfffffffeu,
			 0xffffffffu};
		switch (pick(3)) {
		case 0: return edges[pick(std::size(edges))];
		case 1: return pick(64);
		default: return static_cast<uint32_t>(rng_());
		}
	}

	size_t outstanding_required() const
	{
		size_t n = 0;
		for (auto &d : devs_)
			for (auto &q : d->qps)
				for (uint64_t id : q->out) {
					const Wr &w = g_wrs.at(id);
					if (w.required && !w.done &&
					    !(w.recv ? q->rcq : q->scq)->overrun)
						n++;
				}
		return n;
	}

	// --- PDs ---
	void alloc_pd(Dev &d)
	{
		if (d.pds.size() >= 8)
			return;
		OpGuard g("ibv_alloc_pd");
		ibv_pd *pd = ibv_alloc_pd(d.ctx.get());
		if (!account("alloc_pd", pd ? 0 : errno))
			d.pds.push_back(pd);
	}

	void dealloc_pd(Dev &d)
	{
		if (d.pds.size() < 2)
			return;
		size_t i = 1 + pick(d.pds.size() - 1);
		int rc;
		{
			OpGuard g("ibv_dealloc_pd");
			rc = account("dealloc_pd", ibv_dealloc_pd(d.pds[i]));
		}
		if (rc)
			return;
		// Our objects keep PD indexes; renumber the last one into i.
		size_t last = d.pds.size() - 1;
		d.pds[i] = d.pds[last];
		d.pds.pop_back();
		for (auto &m : d.mrs)
			if (m->pd == static_cast<int>(last))
				m->pd = static_cast<int>(i);
		for (auto &q : d.qps)
			if (q->pd == static_cast<int>(last))
				q->pd = static_cast<int>(i);
		for (auto &q : d.srqs)
			if (q->pd == static_cast<int>(last))
				q->pd = static_cast<int>(i);
	}

	// --- MRs ---
	void reg_mr(Dev &d)
	{
		if (d.mrs.size() >= 24)
			return;
		static const size_t sizes[] = {1,    7,	    64,	    4096,
					       4097, 65536, 1 << 20};
		size_t len = chance(50) ? sizes[pick(std::size(sizes))] :
					  1 + pick(256 * 1024);
		// A guard page after the buffer: a length past it cannot pin.
		size_t map_len = ((len + 4095) & ~size_t{4095}) + 4096;
		void *p = ::mmap(nullptr, map_len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			fail_errno("mmap");
		::mprotect(static_cast<uint8_t *>(p) + map_len - 4096, 4096,
			   PROT_NONE);
		auto m = std::make_unique<MrObj>();
		m->map = static_cast<uint8_t *>(p);
		m->map_len = map_len;
		// Mostly the first PD, the connected pairs' one.
		m->pd = chance(60) ? 0 : static_cast<int>(pick(d.pds.size()));
		int access = chance(70) ? kAllAccess :
					  static_cast<int>(rng_() & 0x1ffff);
		if (chance(20))
			access = static_cast<int>(rng_());
		uint8_t *addr = m->map;
		size_t rlen = len;
		switch (pick(12)) {
		case 0: rlen = 0; break;
		case 1: rlen = map_len; break; // into the guard page
		case 2: rlen = ~size_t{0} - pick(4096); break; // wraps
		case 3:
			addr += 1 + pick(64);
			rlen = len > 64 ? len - 64 : len;
			break;
		default: break;
		}
		ibv_mr *mr;
		{
			OpGuard g("ibv_reg_mr");
			mr = ibv_reg_mr(d.pds[m->pd], addr, rlen, access);
		}
		if (account("reg_mr", mr ? 0 : errno)) {
			::munmap(m->map, m->map_len);
			return;
		}
		m->mr = mr;
		m->access = access;
		m->len = rlen;
		d.mrs.push_back(std::move(m));
	}

	void free_mr(MrObj &m)
	{
		int rc;
		{
			OpGuard g("ibv_dereg_mr");
			rc = account("dereg_mr", ibv_dereg_mr(m.mr));
		}
		// After a successful dereg the kernel holds no pages of ours.
		if (!rc)
			::munmap(m.map, m.map_len);
	}

	void dereg_mr(Dev &d)
	{
		if (d.mrs.empty())
			return;
		size_t i = pick(d.mrs.size());
		int rc;
		{
			OpGuard g("ibv_dereg_mr");
			rc = account("dereg_mr", ibv_dereg_mr(d.mrs[i]->mr));
		}
		if (rc)
			return;
		::munmap(d.mrs[i]->map, d.mrs[i]->map_len);
		d.mrs.erase(d.mrs.begin() + static_cast<long>(i));
	}

	// --- CQs ---
	void create_cq(Dev &d)
	{
		if (d.cqs.size() >= 10)
			return;
		int cqe;
		switch (pick(6)) {
		case 0: cqe = 0; break;
		case 1: cqe = 1 + static_cast<int>(pick(8)); break;
		case 2: cqe = static_cast<int>(edgy32()); break;
		default: cqe = 64 + static_cast<int>(pick(1024)); break;
		}
		ibv_cq *cq;
		{
			OpGuard g("ibv_create_cq");
			cq = ibv_create_cq(d.ctx.get(), cqe, nullptr, nullptr,
					   static_cast<int>(pick(2)));
		}
		if (account("create_cq", cq ? 0 : errno))
			return;
		auto c = std::make_unique<CqObj>();
		c->cq = cq;
		d.cqs.push_back(std::move(c));
	}

	void destroy_cq(Dev &d)
	{
		if (d.cqs.empty())
			return;
		size_t i = pick(d.cqs.size());
		CqObj &c = *d.cqs[i];
		if (c.dead)
			return;
		int rc;
		{
			OpGuard g("ibv_destroy_cq");
			rc = account("destroy_cq", ibv_destroy_cq(c.cq));
		}
		if (rc)
			return;
		if (c.users) {
			std::printf("mrc_verbsfuzz: destroy_cq succeeded with %d QPs on it\n",
				    c.users);
			g_bugs++;
			c.dead = true;
			return;
		}
		d.cqs.erase(d.cqs.begin() + static_cast<long>(i));
	}

	void resize_cq(Dev &d)
	{
		if (d.cqs.empty())
			return;
		CqObj &c = *d.cqs[pick(d.cqs.size())];
		if (c.dead)
			return;
		int cqe = chance(50) ? static_cast<int>(edgy32()) :
				       1 + static_cast<int>(pick(512));
		OpGuard g("ibv_resize_cq");
		account("resize_cq", ibv_resize_cq(c.cq, cqe));
	}

	// --- QPs ---
	void create_qp(Dev &d)
	{
		if (d.qps.size() >= 12 || d.cqs.empty())
			return;
		ibv_qp_init_attr a{};
		auto *scq = d.cqs[pick(d.cqs.size())].get();
		auto *rcq = d.cqs[pick(d.cqs.size())].get();
		if (scq->dead || rcq->dead)
			return;
		a.send_cq = scq->cq;
		a.recv_cq = rcq->cq;
		// A quarter of the good ones UC: connected like RC, with
		// UC's attributes (connect_pair()); some UD, paired too (a
		// UD pair sends each other datagrams).
		a.qp_type = chance(90) ? (chance(25) ? IBV_QPT_UC :
					  chance(15) ? IBV_QPT_UD :
						       IBV_QPT_RC) :
					 static_cast<ibv_qp_type>(pick(12));
		a.sq_sig_all = chance(10);
		auto cap = [this](uint32_t sane) {
			return chance(70) ? sane : edgy32();
		};
		a.cap.max_send_wr = cap(1 + pick(64));
		a.cap.max_recv_wr = cap(1 + pick(64));
		a.cap.max_send_sge = cap(1 + pick(4));
		a.cap.max_recv_sge = cap(1 + pick(4));
		a.cap.max_inline_data = cap(pick(128));
		int pd = static_cast<int>(pick(d.pds.size()));
		SrqObj *srq = nullptr;
		if (!d.srqs.empty() && chance(30)) {
			srq = d.srqs[pick(d.srqs.size())].get();
			if (srq->dead)
				return;
			a.srq = srq->srq;
		}
		ibv_qp *qp;
		{
			OpGuard g("ibv_create_qp");
			qp = ibv_create_qp(d.pds[pd], &a);
		}
		if (account("create_qp", qp ? 0 : errno))
			return;
		auto q = std::make_unique<QpObj>();
		q->qp = qp;
		q->pd = pd;
		q->srq = srq;
		if (srq)
			srq->users++;
		q->scq = scq;
		q->rcq = rcq;
		q->cap = a.cap;
		q->sig_all = a.sq_sig_all;
		scq->users++;
		rcq->users++;
		d.qps.push_back(std::move(q));
	}

	void forget_peer(QpObj &q)
	{
		for (auto &d : devs_)
			for (auto &o : d->qps)
				if (o->peer == &q)
					o->peer = nullptr;
	}

	void destroy_qp(Dev &d)
	{
		if (d.qps.empty())
			return;
		size_t i = pick(d.qps.size());
		QpObj &q = *d.qps[i];
		int rc;
		{
			OpGuard g("ibv_destroy_qp");
			rc = account("destroy_qp", ibv_destroy_qp(q.qp));
		}
		if (rc)
			return;
		// Its WRs may still complete on the CQs (known wr_ids), or not.
		q.scq->users--;
		q.rcq->users--;
		if (q.srq)
			q.srq->users--;
		forget_peer(q);
		d.qps.erase(d.qps.begin() + static_cast<long>(i));
	}

	// RESET discards the queues without completions (IBA 10.3.1).
	void reset_done(QpObj &q)
	{
		q.out.clear();
		q.unretired_sends = 0;
		q.connected = false;
	}

	void random_ah(ibv_ah_attr &ah, Dev &d)
	{
		ah.is_global = chance(90);
		ah.port_num = chance(90) ? 1 : static_cast<uint8_t>(rng_());
		ah.grh.sgid_index = chance(80) ? 1 :
						 static_cast<uint8_t>(pick(4));
		ah.grh.hop_limit = static_cast<uint8_t>(rng_());
		ah.grh.traffic_class = static_cast<uint8_t>(rng_());
		ah.grh.flow_label = static_cast<uint32_t>(rng_());
		ah.sl = static_cast<uint8_t>(pick(16));
		ah.static_rate = static_cast<uint8_t>(pick(20));
		ah.dlid = static_cast<uint16_t>(rng_());
		if (chance(60)) {
			ah.grh.dgid = devs_[pick(devs_.size())]->gid;
		} else {
			for (auto &b : ah.grh.dgid.raw)
				b = static_cast<uint8_t>(rng_());
			(void)d;
		}
	}

	// The GID of the device that holds @q's peer.
	const ibv_gid *peer_gid(const QpObj &q) const
	{
		for (auto &dd : devs_)
			for (auto &o : dd->qps)
				if (o.get() == q.peer)
					return &dd->gid;
		return nullptr;
	}

	// An AH of PD @pd of @d toward @gid (port 1, GID index 1), or a
	// random one (random_ah()) without; null if the device refused it.
	Ah ud_ah(Dev &d, int pd, const ibv_gid *gid)
	{
		ibv_ah_attr a{};
		random_ah(a, d);
		if (gid) {
			a.is_global = 1;
			a.port_num = 1;
			a.grh.sgid_index = 1;
			a.grh.hop_limit = 64;
			a.grh.dgid = *gid;
		}
		OpGuard g("ibv_create_ah (UD post)");
		ibv_ah *ah = ibv_create_ah(d.pds[pd], &a);
		account("create_ah", ah ? 0 : errno);
		return Ah(ah);
	}

	// A UD destination: mostly a QP of either device, else any number.
	uint32_t ud_qpn()
	{
		Dev &o = *devs_[pick(devs_.size())];
		if (chance(80) && !o.qps.empty())
			return o.qps[pick(o.qps.size())]->qp->qp_num;
		return edgy32();
	}

	void modify_qp(Dev &d)
	{
		if (d.qps.empty())
			return;
		QpObj &q = *d.qps[pick(d.qps.size())];
		if (q.connected &&
		    chance(75)) // let connected pairs carry data a while
			return;
		ibv_qp_attr a{};
		a.qp_state = static_cast<ibv_qp_state>(pick(8));
		a.cur_qp_state = static_cast<ibv_qp_state>(pick(8));
		a.path_mtu = static_cast<ibv_mtu>(pick(8));
		a.path_mig_state = static_cast<ibv_mig_state>(pick(4));
		a.qkey = static_cast<uint32_t>(rng_());
		a.rq_psn = static_cast<uint32_t>(rng_());
		a.sq_psn = static_cast<uint32_t>(rng_());
		a.dest_qp_num = chance(50) && !devs_[0]->qps.empty() ?
					devs_[0]->qps[pick(devs_[0]->qps.size())]
						->qp->qp_num :
					edgy32();
		a.qp_access_flags = chance(50) ? kAllAccess :
						 static_cast<unsigned>(rng_());
		a.pkey_index = chance(80) ? 0 : static_cast<uint16_t>(rng_());
		a.en_sqd_async_notify = static_cast<uint8_t>(pick(2));
		a.max_rd_atomic = static_cast<uint8_t>(chance(70) ? pick(17) :
								    rng_());
		a.max_dest_rd_atomic = static_cast<uint8_t>(
			chance(70) ? pick(17) : rng_());
		a.min_rnr_timer = static_cast<uint8_t>(pick(32));
		a.port_num = chance(85) ? 1 : static_cast<uint8_t>(rng_());
		a.timeout = static_cast<uint8_t>(chance(70) ? 8 + pick(4) :
							      rng_());
		a.retry_cnt = static_cast<uint8_t>(pick(8));
		a.rnr_retry = static_cast<uint8_t>(pick(8));
		a.cap.max_send_wr = edgy32();
		a.cap.max_recv_wr = edgy32();
		random_ah(a.ah_attr, d);
		random_ah(a.alt_ah_attr, d);
		int mask = static_cast<int>(rng_() & 0x3fffff);
		if (chance(70))
			mask |= IBV_QP_STATE;
		if (chance(30))
			mask &= ~(IBV_QP_CAP | IBV_QP_ALT_PATH |
				  IBV_QP_PATH_MIG_STATE);
		int rc;
		{
			OpGuard g("ibv_modify_qp");
			rc = account("modify_qp", ibv_modify_qp(q.qp, &a, mask));
		}
		if (!rc && (mask & IBV_QP_STATE) && a.qp_state == IBV_QPS_RESET)
			reset_done(q);
		if (!rc && (mask & IBV_QP_STATE)) {
			q.connected = false;
			q.state = a.qp_state;
		}
	}

	// RTR and RTS with the attributes UC takes (the IB core's UC masks: no RD
	// atomics, RNR timer, timeout or retry counts).
	static void uc_to_rtr_rts(ibv_qp *qp, const PathParams &pp,
				  const ConnInfo &remote, uint32_t psn)
	{
		ibv_qp_attr a{};
		a.qp_state = IBV_QPS_RTR;
		a.path_mtu = pp.mtu;
		a.dest_qp_num = remote.qpn;
		a.rq_psn = remote.psn;
		a.ah_attr.is_global = 1;
		std::memcpy(a.ah_attr.grh.dgid.raw, remote.gid, 16);
		a.ah_attr.grh.sgid_index = static_cast<uint8_t>(pp.gid_index);
		a.ah_attr.grh.hop_limit = 64;
		a.ah_attr.port_num = pp.port;
		verbs::modify_qp(qp, a,
				 IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
					 IBV_QP_DEST_QPN | IBV_QP_RQ_PSN,
				 "RTR (UC)");
		a = {};
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = psn;
		verbs::modify_qp(qp, a, IBV_QP_STATE | IBV_QP_SQ_PSN, "RTS (UC)");
	}

	// UD's INIT (P_Key index, port, Q_Key), RTR and RTS (SQ_PSN).
	static void ud_to_rts(ibv_qp *qp, uint32_t psn)
	{
		ibv_qp_attr a{};
		a.qp_state = IBV_QPS_INIT;
		a.port_num = 1;
		a.qkey = kUdQkey;
		verbs::modify_qp(qp, a,
				 IBV_QP_STATE | IBV_QP_PKEY_INDEX |
					 IBV_QP_PORT | IBV_QP_QKEY,
				 "INIT (UD)");
		a = {};
		a.qp_state = IBV_QPS_RTR;
		verbs::modify_qp(qp, a, IBV_QP_STATE, "RTR (UD)");
		a = {};
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = psn;
		verbs::modify_qp(qp, a, IBV_QP_STATE | IBV_QP_SQ_PSN, "RTS (UD)");
	}

	// A correct RESET -> INIT -> RTR -> RTS of a QP of devs_[0] with one
	// of devs_[1], both in the device's first PD, so that data flows.
	void connect_pair()
	{
		if (devs_.size() < 2)
			return;
		QpObj *q[2];
		for (int i = 0; i < 2; i++) {
			Dev &d = *devs_[i];
			std::vector<QpObj *> c;
			// Mostly fresh QPs; sometimes a pair's QP again (it may
			// be in ERR by now).
			bool again = chance(30);
			// The second of the pair: the first one's type.
			for (auto &o : d.qps)
				if (o->pd == 0 && (again || !o->connected) &&
				    (i == 0 ||
				     o->qp->qp_type == q[0]->qp->qp_type))
					c.push_back(o.get());
			if (c.empty())
				return;
			q[i] = c[pick(c.size())];
		}
		uint32_t psn[2] = {static_cast<uint32_t>(rng_() & 0xffffff),
				   static_cast<uint32_t>(rng_() & 0xffffff)};
		for (int i = 0; i < 2; i++) {
			ibv_qp_attr a{};
			a.qp_state = IBV_QPS_RESET;
			OpGuard g("ibv_modify_qp(RESET)");
			if (account("modify_qp_connect",
				    ibv_modify_qp(q[i]->qp, &a, IBV_QP_STATE)))
				return;
			reset_done(*q[i]);
			q[i]->state = IBV_QPS_RESET;
		}
		PathParams pp;
		pp.timeout = 10;
		pp.retry = 3;
		pp.rnr_retry = 3;
		pp.max_rd_atomic = 4;
		pp.max_dest_rd_atomic = 4;
		for (int i = 0; i < 2; i++) {
			ConnInfo remote{};
			remote.qpn = q[1 - i]->qp->qp_num;
			remote.psn = psn[1 - i];
			std::memcpy(remote.gid, devs_[1 - i]->gid.raw, 16);
			try {
				OpGuard g("connect: ibv_modify_qp(INIT/RTR/RTS)");
				if (q[i]->qp->qp_type == IBV_QPT_UD) {
					ud_to_rts(q[i]->qp, psn[i]);
				} else if (q[i]->qp->qp_type == IBV_QPT_UC) {
					qp_to_init(q[i]->qp, 1, kAllAccess);
					uc_to_rtr_rts(q[i]->qp, pp, remote,
						      psn[i]);
				} else {
					qp_to_init(q[i]->qp, 1, kAllAccess);
					qp_to_rtr(q[i]->qp, pp, remote);
					qp_to_rts(q[i]->qp, pp, psn[i]);
				}
				q[i]->state = IBV_QPS_RTS;
				account("modify_qp_connect", 0);
			} catch (const std::exception &e) {
				account("modify_qp_connect", EINVAL);
				std::printf("mrc_verbsfuzz: connect failed: %s\n",
					    e.what());
				return;
			}
		}
		for (auto *x : q)
			for (auto &dd : devs_)
				for (auto &o : dd->qps)
					if (o->peer == x && o.get() != q[0] &&
					    o.get() != q[1]) {
						o->peer = nullptr;
						o->connected = false;
					}
		q[0]->peer = q[1];
		q[1]->peer = q[0];
		q[0]->connected = q[1]->connected = true;
		connects_++;
	}

	// --- posting ---
	// Mostly a connected QP, if there is one: data must flow.
	QpObj &pick_qp(Dev &d)
	{
		std::vector<QpObj *> c;
		if (chance(80))
			for (auto &o : d.qps)
				if (o->connected)
					c.push_back(o.get());
		return c.empty() ? *d.qps[pick(d.qps.size())] :
				   *c[pick(c.size())];
	}

	MrObj *mr_of(Dev &d, int pd)
	{
		std::vector<MrObj *> c;
		for (auto &m : d.mrs)
			if (pd < 0 || m->pd == pd)
				c.push_back(m.get());
		return c.empty() ? nullptr : c[pick(c.size())];
	}

	Dev &dev_of(QpObj &q)
	{
		for (auto &d : devs_)
			for (auto &o : d->qps)
				if (o.get() == &q)
					return *d;
		fail("QP not found");
	}

	// An SGE: mostly inside one of our MRs, else bogus keys or ranges.
	ibv_sge random_sge(Dev &d, int pd, uint32_t *safe_len)
	{
		ibv_sge s{};
		MrObj *m = mr_of(d, chance(80) ? pd : -1);
		if (m && m->len > 0 && m->len < (1u << 30)) {
			uint32_t off = pick(m->len);
			s.addr = reinterpret_cast<uintptr_t>(m->mr->addr) + off;
			s.length = pick(std::min<size_t>(m->len - off, 65536) + 1);
			s.lkey = m->mr->lkey;
			if (safe_len)
				*safe_len = s.length;
		} else {
			s.addr = rnd64();
			s.length = pick(4096);
			s.lkey = static_cast<uint32_t>(rng_());
			if (safe_len)
				*safe_len = 0;
		}
		switch (pick(10)) {
		case 0: s.lkey = static_cast<uint32_t>(rng_()); break;
		case 1: s.lkey ^= 1u << pick(32); break;
		case 2:
			s.length = edgy32();
			if (safe_len)
				*safe_len = 0;
			break;
		case 3:
			s.addr = ~uint64_t{0} - pick(64);
			if (safe_len)
				*safe_len = 0;
			break;
		default: break;
		}
		return s;
	}

	// A remote (addr, rkey): the peer's real MR, in range or wrapping
	// past 2^64, or anything.
	void random_remote(QpObj &q, uint64_t &addr, uint32_t &rkey)
	{
		Dev *pd = q.peer ? &dev_of(*q.peer) :
				   devs_[pick(devs_.size())].get();
		MrObj *m = mr_of(*pd, q.peer ? q.peer->pd : -1);
		if (m && chance(80)) {
			addr = reinterpret_cast<uintptr_t>(m->mr->addr) +
			       pick(m->len + 1);
			rkey = m->mr->rkey;
			if (chance(10))
				addr = ~uint64_t{0} - pick(4096); // the range wraps
		} else {
			addr = rnd64();
			rkey = static_cast<uint32_t>(rng_());
		}
	}

	// A WR that should succeed on a connected QP: WRITE, READ, SEND or
	// an aligned atomic between our MR and the peer's, in bounds.
	void make_valid(Dev &d, QpObj &q, ibv_send_wr &w, ibv_sge *sge)
	{
		MrObj *l = mr_of(d, q.pd);
		MrObj *r = mr_of(dev_of(*q.peer), q.peer->pd);
		if (!l || !r || l->len < 8 || r->len < 8 ||
		    l->len > (1u << 30) || r->len > (1u << 30))
			return;
		static const ibv_wr_opcode ops[] = {IBV_WR_RDMA_WRITE,
						    IBV_WR_RDMA_WRITE_WITH_IMM,
						    IBV_WR_SEND, IBV_WR_RDMA_READ,
						    IBV_WR_ATOMIC_FETCH_AND_ADD};
		w.opcode = ops[pick(std::size(ops))];
		w.send_flags &= ~IBV_SEND_INLINE;
		uint32_t len = pick(std::min<size_t>({l->len, r->len, 16384}) + 1);
		if (w.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD)
			len = 8;
		auto la = reinterpret_cast<uintptr_t>(l->mr->addr);
		auto ra = reinterpret_cast<uintptr_t>(r->mr->addr);
		sge[0] = {la + ((pick(l->len - len + 1)) & ~uint64_t{7}), len,
			  l->mr->lkey};
		w.num_sge = 1;
		w.sg_list = sge;
		uint64_t raddr = ra + ((pick(r->len - len + 1)) & ~uint64_t{7});
		if (w.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
			raddr = (ra + 7) & ~uint64_t{7};
			if (raddr + 8 > ra + r->len)
				raddr = ra;
			w.wr.atomic.remote_addr = raddr;
			w.wr.atomic.rkey = r->mr->rkey;
			w.wr.atomic.compare_add = 1;
		} else {
			w.wr.rdma.remote_addr = raddr;
			w.wr.rdma.rkey = r->mr->rkey;
		}
		// A SEND needs a receive at the peer: post one there.
		if (w.opcode == IBV_WR_SEND) {
			ibv_recv_wr rw{};
			ibv_sge rs{ra, static_cast<uint32_t>(r->len),
				   r->mr->lkey};
			rw.wr_id = new_wr(*q.peer, dev_of(*q.peer), true);
			rw.sg_list = &rs;
			rw.num_sge = 1;
			ibv_recv_wr *bad = nullptr;
			int rc;
			{
				OpGuard g("ibv_post_recv");
				rc = account("post_recv",
					     ibv_post_recv(q.peer->qp, &rw, &bad));
			}
			if (!rc)
				posted(*q.peer, rw.wr_id,
				       q.peer->state != IBV_QPS_RESET);
		}
	}

	uint64_t new_wr(QpObj &q, Dev &d, bool recv)
	{
		uint64_t id = g_next_id++;
		g_wrs[id] = Wr{q.qp->qp_num, d.idx, false, false, recv};
		return id;
	}

	// A post to a QP in RESET, INIT or RTR is refused by the doorbell
	// (IBA 10.8.3.1), which discards what the provider wrote into the
	// ring; the provider reports its own refusal of a later WR of the
	// chain instead, so WRs it calls posted may be gone.  Only our
	// modifies bring a QP into these states, so our record is exact.
	static bool sq_accepts(const QpObj &q)
	{
		return q.state != IBV_QPS_RESET && q.state != IBV_QPS_INIT &&
		       q.state != IBV_QPS_RTR;
	}

	void posted(QpObj &q, uint64_t id, bool required)
	{
		if (!g_wrs[id].recv && !sq_accepts(q))
			required = false;
		g_wrs[id].required = required;
		q.out.push_back(id);
	}

	void post_send(Dev &d)
	{
		if (d.qps.empty())
			return;
		QpObj &q = pick_qp(d);
		const int n = 1 + static_cast<int>(pick(3));
		ibv_send_wr wr[3]{};
		ibv_sge sge[3][4]{};
		bool sig[3];
		static const ibv_wr_opcode ops[] = {IBV_WR_RDMA_WRITE,
						    IBV_WR_RDMA_WRITE_WITH_IMM,
						    IBV_WR_SEND,
						    IBV_WR_SEND_WITH_IMM,
						    IBV_WR_RDMA_READ,
						    IBV_WR_ATOMIC_CMP_AND_SWP,
						    IBV_WR_ATOMIC_FETCH_AND_ADD,
						    IBV_WR_LOCAL_INV,
						    IBV_WR_SEND_WITH_INV};
		for (int i = 0; i < n; i++) {
			ibv_send_wr &w = wr[i];
			w.wr_id = new_wr(q, d, false);
			w.next = i + 1 < n ? &wr[i + 1] : nullptr;
			w.opcode = chance(95) ?
					   ops[pick(std::size(ops))] :
					   static_cast<ibv_wr_opcode>(pick(16));
			if (w.opcode ==
			    IBV_WR_BIND_MW) // the provider dereferences the MW
				w.opcode = IBV_WR_SEND;
			w.send_flags = chance(90) ? IBV_SEND_SIGNALED : 0;
			if (chance(10))
				w.send_flags |= IBV_SEND_FENCE;
			if (chance(10))
				w.send_flags |= IBV_SEND_SOLICITED;
			w.num_sge = static_cast<int>(chance(90) ? pick(3) :
								  pick(5));
			bool inl_ok = true;
			for (int s = 0; s < w.num_sge; s++) {
				uint32_t safe = 0;
				sge[i][s] = random_sge(d, q.pd, &safe);
				if (safe != sge[i][s].length || !safe)
					inl_ok = false;
			}
			w.sg_list = sge[i];
			// The provider copies inline data itself: only from our memory.
			if (inl_ok && chance(15))
				w.send_flags |= IBV_SEND_INLINE;
			w.imm_data = static_cast<uint32_t>(rng_());
			uint64_t ra;
			uint32_t rk;
			random_remote(q, ra, rk);
			if (w.opcode == IBV_WR_ATOMIC_CMP_AND_SWP ||
			    w.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
				w.wr.atomic.remote_addr =
					chance(80) ? ra & ~uint64_t{7} : ra;
				w.wr.atomic.rkey = rk;
				w.wr.atomic.compare_add = rnd64();
				w.wr.atomic.swap = rnd64();
				if (chance(80) && w.num_sge)
					sge[i][0].length = 8;
			} else {
				w.wr.rdma.remote_addr = ra;
				w.wr.rdma.rkey = rk;
			}
			w.invalidate_rkey = rk;
			// One bad WR moves a QP to ERR: mostly good ones on a pair.
			if (q.peer && chance(90))
				make_valid(d, q, w, sge[i]);
			sig[i] = (w.send_flags & IBV_SEND_SIGNALED) || q.sig_all;
		}
		// A UD QP's WRs name an address handle, which the provider
		// dereferences: a real one, made for this post (the provider
		// copies its number into the WQE, the doorbell inside
		// ibv_post_send() resolves it), mostly of the QP's PD, toward
		// any QP number with any Q_Key.
		// A UD pair mostly sends its peer datagrams it can take.
		Ah ah;
		if (q.qp->qp_type == IBV_QPT_UD) {
			bool good = q.peer && chance(90);
			int pd = good || chance(90) ?
					 q.pd :
					 static_cast<int>(pick(d.pds.size()));
			ah = ud_ah(d, pd, good ? peer_gid(q) : nullptr);
			if (!ah)
				return;
			for (int i = 0; i < n; i++) {
				wr[i].wr.ud.ah = ah.get();
				wr[i].wr.ud.remote_qpn = good ? q.peer->qp->qp_num :
								ud_qpn();
				wr[i].wr.ud.remote_qkey =
					good ? kUdQkey :
					       static_cast<uint32_t>(rng_());
			}
		}
		ibv_send_wr *bad = nullptr;
		int rc;
		{
			OpGuard g("ibv_post_send");
			rc = account("post_send", ibv_post_send(q.qp, wr, &bad));
		}
		for (int i = 0; i < n; i++) {
			if (rc && (!bad || bad <= &wr[i]))
				break;
			posted(q, wr[i].wr_id, sig[i]);
			q.unretired_sends++;
		}
		if (!rc && !q.ring)
			q.ring = RawSq::find(wr[n - 1].wr_id);
		posts_ += rc ? 0 : 1;
	}

	void post_recv(Dev &d)
	{
		if (d.qps.empty())
			return;
		QpObj &q = pick_qp(d);
		// The provider has no receive ring for a QP on an SRQ.
		if (q.srq)
			return;
		ibv_recv_wr wr{};
		ibv_sge sge[4]{};
		wr.wr_id = new_wr(q, d, true);
		wr.num_sge = static_cast<int>(chance(90) ? pick(3) : pick(5));
		for (int s = 0; s < wr.num_sge; s++)
			sge[s] = random_sge(d, q.pd, nullptr);
		wr.sg_list = sge;
		ibv_recv_wr *bad = nullptr;
		int rc;
		{
			OpGuard g("ibv_post_recv");
			rc = account("post_recv", ibv_post_recv(q.qp, &wr, &bad));
		}
		// The provider writes receive WQEs without asking the kernel, so
		// one "posted" to a QP in RESET (an error in IBA terms) may go.
		if (!rc)
			posted(q, wr.wr_id, q.state != IBV_QPS_RESET);
	}

	// A WQE the provider would refuse, written into the ring, then the
	// doorbell: a valid post after it.
	void raw_send(Dev &d)
	{
		std::vector<QpObj *> c;
		for (auto &o : d.qps)
			if (o->ring && o->unretired_sends + 3 < o->cap.max_send_wr)
				c.push_back(o.get());
		if (c.empty())
			return;
		QpObj &q = *c[pick(c.size())];
		RawSq &sq = *q.ring;
		rxe_send_wqe *w = sq.next();
		auto *bytes = reinterpret_cast<uint8_t *>(w);
		if (chance(40))
			for (uint32_t i = 0; i < sq.slot_bytes(); i++)
				bytes[i] = static_cast<uint8_t>(rng_());
		uint64_t ra;
		uint32_t rk;
		random_remote(q, ra, rk);
		switch (pick(6)) {
		case 0: // a misaligned atomic
			w->wr.opcode = chance(50) ? IBV_WR_ATOMIC_CMP_AND_SWP :
						    IBV_WR_ATOMIC_FETCH_AND_ADD;
			w->wr.wr.atomic.remote_addr = ra | (1 + pick(7));
			w->wr.wr.atomic.rkey = rk;
			break;
		case 1: // a range wrapping past 2^64
			w->wr.opcode = chance(50) ? IBV_WR_RDMA_WRITE :
						    IBV_WR_RDMA_READ;
			w->wr.wr.rdma.remote_addr = ~uint64_t{0} - pick(4096);
			w->wr.wr.rdma.rkey = rk;
			w->dma.length = 4096 + pick(65536);
			break;
		case 2: // bad num_sge
			w->wr.opcode = pick(5);
			w->dma.num_sge = chance(50) ?
						 edgy32() :
						 sq.slot_room() / sizeof(rxe_sge) +
							 pick(4);
			break;
		case 3: // bad inline length
			w->wr.opcode = pick(4);
			w->wr.send_flags |= IBV_SEND_INLINE;
			w->dma.length = chance(50) ? edgy32() :
						     sq.slot_room() + pick(64);
			break;
		case 4: // opcode anything
			w->wr.opcode = static_cast<uint32_t>(rng_());
			break;
		default: // keep the garbage (or zeros)
			break;
		}
		if (chance(50))
			w->dma.resid = static_cast<uint32_t>(rng_());
		uint64_t id = new_wr(q, d, false);
		w->wr.wr_id = id;
		bool sig = (w->wr.send_flags & IBV_SEND_SIGNALED) || q.sig_all;
		sq.publish();
		raws_++;
		// The doorbell: an ordinary (zero-length) post.
		ibv_send_wr dw{};
		dw.wr_id = new_wr(q, d, false);
		dw.opcode = IBV_WR_RDMA_WRITE;
		dw.send_flags = IBV_SEND_SIGNALED;
		random_remote(q, dw.wr.rdma.remote_addr, dw.wr.rdma.rkey);
		ibv_send_wr *bad = nullptr;
		int rc;
		{
			OpGuard g("ibv_post_send (raw WQE doorbell)");
			rc = account("post_send_raw",
				     ibv_post_send(q.qp, &dw, &bad));
		}
		// Refused at post time: the kernel discards the ring's WQEs.
		q.unretired_sends += 2;
		posted(q, id, !rc && sig);
		posted(q, dw.wr_id, !rc);
	}

	// --- completions ---
	void take(ibv_wc &wc, CqObj &c)
	{
		g_completions++;
		g_status[wc.status]++;
		auto it = g_wrs.find(wc.wr_id);
		if (it == g_wrs.end() ||
		    (it->second.srq ? !on_srq(it->second, wc.qp_num) :
				      it->second.qpn != wc.qp_num)) {
			g_unknown++;
			if (g_unknown <= 10)
				std::printf("mrc_verbsfuzz: unknown completion wr_id %#llx qp %u status %s\n",
					    (unsigned long long)wc.wr_id,
					    wc.qp_num,
					    ibv_wc_status_str(wc.status));
			return;
		}
		Wr &w = it->second;
		if (w.done) {
			g_dup++;
			if (g_dup <= 10)
				std::printf("mrc_verbsfuzz: duplicate completion wr_id %#llx qp %u status %s\n",
					    (unsigned long long)wc.wr_id,
					    wc.qp_num,
					    ibv_wc_status_str(wc.status));
			return;
		}
		w.done = true;
		(void)c;
		for (auto &d : devs_)
			for (auto &q : d->qps)
				if (q->qp->qp_num == wc.qp_num &&
				    d->idx == w.dev) {
					auto &o = q->out;
					auto f = std::find(o.begin(), o.end(),
							   wc.wr_id);
					if (f != o.end()) {
						o.erase(f);
						if (!w.recv && q->unretired_sends)
							q->unretired_sends--;
					}
					// A completion retires every unsignaled send before it.
					if (!w.recv && o.empty())
						q->unretired_sends = 0;
				}
	}

	void drain_cq(CqObj &c)
	{
		if (c.dead)
			return;
		ibv_wc wc[16];
		for (;;) {
			int n;
			{
				OpGuard g("ibv_poll_cq");
				n = ibv_poll_cq(c.cq, 16, wc);
			}
			if (n < 0) {
				account("poll_cq", EINVAL);
				return;
			}
			for (int i = 0; i < n; i++)
				take(wc[i], c);
			if (n < 16)
				return;
		}
	}

	void poll(Dev &d)
	{
		if (d.cqs.empty())
			return;
		CqObj &c = *d.cqs[pick(d.cqs.size())];
		if (c.dead)
			return;
		ibv_wc wc[16];
		int max = 1 + static_cast<int>(pick(16));
		int n;
		{
			OpGuard g("ibv_poll_cq");
			n = ibv_poll_cq(c.cq, max, wc);
		}
		account("poll_cq", n < 0 ? EINVAL : 0);
		for (int i = 0; i < n; i++)
			take(wc[i], c);
	}

	void notify(Dev &d)
	{
		if (d.cqs.empty())
			return;
		CqObj &c = *d.cqs[pick(d.cqs.size())];
		if (c.dead)
			return;
		OpGuard g("ibv_req_notify_cq");
		account("req_notify_cq",
			ibv_req_notify_cq(c.cq, static_cast<int>(pick(2))));
	}

	void query(Dev &d)
	{
		if (d.qps.empty() || chance(30)) {
			ibv_port_attr pa{};
			OpGuard g("ibv_query_port");
			account("query_port",
				ibv_query_port(d.ctx.get(),
					       static_cast<uint8_t>(pick(3)),
					       &pa));
			return;
		}
		QpObj &q = *d.qps[pick(d.qps.size())];
		ibv_qp_attr a{};
		ibv_qp_init_attr ia{};
		OpGuard g("ibv_query_qp");
		account("query_qp",
			ibv_query_qp(q.qp, &a,
				     static_cast<int>(rng_() & 0x3fffff), &ia));
	}

	// Async events: a CQ overrun loses completions by definition, so the
	// WRs of an overrun CQ are not counted missing.
	// Is QP @qpn (of @w's device) one created on @w's SRQ?  The QP may
	// have been destroyed since: then it is no longer in our lists, and
	// a completion it left in the CQ cannot be told apart; accept it.
	bool on_srq(const Wr &w, uint32_t qpn)
	{
		for (auto &q : devs_[w.dev]->qps)
			if (q->qp->qp_num == qpn)
				return q->srq == w.srq;
		return true;
	}

	// --- SRQs: create, destroy, resize, limit, query, post receives ---
	void srq_op(Dev &d)
	{
		unsigned r = pick(10);
		for (auto &q : d.srqs)
			if (q->dead)
				return; // after a bug: leave SRQs alone
		if (r < 2)
			create_srq(d);
		else if (r < 3)
			destroy_srq(d);
		else if (r < 4)
			modify_srq(d);
		else if (r < 5)
			query_srq(d);
		else
			post_srq_recv(d);
	}

	void create_srq(Dev &d)
	{
		if (d.srqs.size() >= 4)
			return;
		ibv_srq_init_attr a{};
		a.attr.max_wr = chance(80) ? 1 + pick(64) : edgy32();
		a.attr.max_sge = chance(80) ? 1 + pick(4) : edgy32();
		a.attr.srq_limit = chance(70) ? 0 : pick(8);
		int pd = static_cast<int>(pick(d.pds.size()));
		ibv_srq *srq;
		{
			OpGuard g("ibv_create_srq");
			srq = ibv_create_srq(d.pds[pd], &a);
		}
		if (account("create_srq", srq ? 0 : errno))
			return;
		auto o = std::make_unique<SrqObj>();
		o->srq = srq;
		o->pd = pd;
		d.srqs.push_back(std::move(o));
	}

	void destroy_srq(Dev &d)
	{
		if (d.srqs.empty())
			return;
		size_t i = pick(d.srqs.size());
		SrqObj &q = *d.srqs[i];
		int rc;
		{
			OpGuard g("ibv_destroy_srq");
			rc = account("destroy_srq", ibv_destroy_srq(q.srq));
		}
		if (rc)
			return;
		if (q.users) {
			// The core refuses it (EBUSY) while QPs use it.
			std::printf("mrc_verbsfuzz: ibv_destroy_srq with %d QPs attached succeeded\n",
				    q.users);
			g_bugs++;
			q.dead = true; // its QPs still point here
			return;
		}
		// Its receives not taken are gone.
		d.srqs.erase(d.srqs.begin() + static_cast<long>(i));
	}

	void modify_srq(Dev &d)
	{
		if (d.srqs.empty())
			return;
		SrqObj &q = *d.srqs[pick(d.srqs.size())];
		ibv_srq_attr a{};
		a.max_wr = chance(70) ? 1 + pick(128) : edgy32();
		a.srq_limit = chance(70) ? pick(16) : edgy32();
		static const int masks[] = {IBV_SRQ_MAX_WR, IBV_SRQ_LIMIT,
					    IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT};
		int mask = chance(90) ? masks[pick(3)] : static_cast<int>(rng_());
		OpGuard g("ibv_modify_srq");
		account("modify_srq", ibv_modify_srq(q.srq, &a, mask));
	}

	void query_srq(Dev &d)
	{
		if (d.srqs.empty())
			return;
		SrqObj &q = *d.srqs[pick(d.srqs.size())];
		ibv_srq_attr a{};
		OpGuard g("ibv_query_srq");
		account("query_srq", ibv_query_srq(q.srq, &a));
	}

	void post_srq_recv(Dev &d)
	{
		if (d.srqs.empty())
			return;
		SrqObj &q = *d.srqs[pick(d.srqs.size())];
		ibv_recv_wr wr{};
		ibv_sge sge[4]{};
		uint64_t id = g_next_id++;
		g_wrs[id] = Wr{0, d.idx, false, false, true, &q};
		wr.wr_id = id;
		wr.num_sge = static_cast<int>(chance(90) ? pick(3) : pick(5));
		for (int s = 0; s < wr.num_sge; s++)
			sge[s] = random_sge(d, q.pd, nullptr);
		wr.sg_list = sge;
		ibv_recv_wr *bad = nullptr;
		OpGuard g("ibv_post_srq_recv");
		account("post_srq_recv", ibv_post_srq_recv(q.srq, &wr, &bad));
	}

	void async_events()
	{
		for (auto &d : devs_) {
			ibv_async_event ev;
			while (ibv_get_async_event(d->ctx.get(), &ev) == 0) {
				async_[ev.event_type]++;
				if (ev.event_type == IBV_EVENT_CQ_ERR)
					for (auto &c : d->cqs)
						if (c->cq == ev.element.cq)
							c->overrun = true;
				ibv_ack_async_event(&ev);
			}
		}
	}

	std::mt19937 rng_;
	std::vector<std::unique_ptr<Dev>> devs_;

public:
	uint64_t connects_ = 0, posts_ = 0, raws_ = 0;
	std::map<int, uint64_t> async_;
};

const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case EFAULT: return "EFAULT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case ENODEV: return "ENODEV";
	case EIO: return "EIO";
	case ERANGE: return "ERANGE";
	case EOVERFLOW: return "EOVERFLOW";
	case ENOSYS: return "ENOSYS";
	default: return nullptr;
	}
}

void usage()
{
	std::printf(
		"usage: mrc_verbsfuzz [-d DEV]... [--seed S] [--ops N] [--time SECONDS]\n"
		"  two devices (default mrc1 and mrc2) of the same host or two hosts\n"
		"  whose GID 1 reach each other; a seeded random run of verbs calls.\n");
}

} // namespace

int main(int argc, char **argv)
{
	std::vector<std::string> devs;
	uint64_t seed = 1, ops = 20000;
	int time_s = 50;
	static const option longopts[] =
		{{"ib-dev", required_argument, nullptr, 'd'},
		 {"seed", required_argument, nullptr, 's'},
		 {"ops", required_argument, nullptr, 'n'},
		 {"time", required_argument, nullptr, 't'},
		 {"help", no_argument, nullptr, 'h'},
		 {nullptr, 0, nullptr, 0}};
	try {
		int c;
		while ((c = getopt_long(argc, argv, "d:s:n:t:h", longopts,
					nullptr)) != -1) {
			switch (c) {
			case 'd': devs.push_back(optarg); break;
			case 's': seed = std::stoull(optarg); break;
			case 'n': ops = std::stoull(optarg); break;
			case 't': time_s = std::stoi(optarg); break;
			case 'h': usage(); return 0;
			default: usage(); return 2;
			}
		}
		if (devs.empty())
			devs = {"mrc1", "mrc2"};
		std::jthread wd(watchdog_loop, 30);
		Fuzzer f(seed, devs);
		auto end = Clock::now() + std::chrono::seconds(time_s);
		uint64_t steps = 0;
		while (g_ops < ops && Clock::now() < end) {
			f.step();
			steps++;
		}
		f.finish();
		f.teardown();
		std::printf("mrc_verbsfuzz: seed %llu, %llu steps, %llu connects, %llu posts, %llu raw WQEs\n",
			    (unsigned long long)seed, (unsigned long long)steps,
			    (unsigned long long)f.connects_,
			    (unsigned long long)f.posts_,
			    (unsigned long long)f.raws_);
		for (auto &[verb, m] : g_err_by_verb) {
			std::string line = "  " + verb + ":";
			for (auto &[e, n] : m) {
				const char *nm = errname(e);
				line += " " +
					(nm ? std::string(nm) :
					      "errno " + std::to_string(e)) +
					" " + std::to_string(n);
			}
			std::printf("%s\n", line.c_str());
		}
		std::string st = "  completions by status:";
		for (auto &[s, n] : g_status)
			st += std::string(" ") +
			      ibv_wc_status_str(static_cast<ibv_wc_status>(s)) +
			      " " + std::to_string(n);
		std::printf("%s\n", st.c_str());
		std::string ae = "  async events:";
		for (auto &[e, n] : f.async_)
			ae += std::string(" ") +
			      ibv_event_type_str(static_cast<ibv_event_type>(e)) +
			      " " + std::to_string(n);
		std::printf("%s\n", ae.c_str());
		std::printf("mrc_verbsfuzz: %llu ops, %llu errnos, %llu completions, %llu duplicate, "
			    "%llu unknown, %llu missing\n",
			    (unsigned long long)g_ops,
			    (unsigned long long)g_errnos,
			    (unsigned long long)g_completions,
			    (unsigned long long)g_dup,
			    (unsigned long long)g_unknown,
			    (unsigned long long)g_missing);
		std::fflush(stdout);
		if (g_bugs)
			std::printf("mrc_verbsfuzz: %llu calls succeeded that must fail\n",
				    (unsigned long long)g_bugs);
		return g_dup || g_unknown || g_missing || g_bugs ? 1 : 0;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrc_verbsfuzz: %s\n", e.what());
		return 1;
	}
}

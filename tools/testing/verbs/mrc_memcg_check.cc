// SPDX-License-Identifier: GPL-2.0-only
// mrc_memcg_check: is the kernel memory of mrc's verbs objects charged to
// the memory cgroup of the process that creates them?
//
//   mrc_memcg_check -d DEV grow  [--cqe N] [--count K]
//   mrc_memcg_check -d DEV limit [--cqe N] [--count K] [--qp]
//
// Run it inside a cgroup v2 memory cgroup (selftests/mrc/test_52_memcg.sh
// puts it there); it reads its own memory.current through /proc/self/cgroup.
//
//   grow   creates K CQs of N entries and checks that memory.current grew
//          by at least 90% of their rings' size (the ring is the bulk of a
//          CQ: N + 1 slots rounded up to a power of two, 64 bytes each);
//          exit 0 if so, 1 if not (the rings are not charged).
//   limit  creates K CQs of N entries (with --qp: K RC QPs of 4096 send and
//          receive WRs of 16 SGEs) until one fails; exit 0 if one failed
//          with ENOMEM (the cgroup's memory.max stopped it) and the memory
//          comes back: after freeing what it held, a CQ of N entries is
//          created again; 1 if all K were created, a create failed with
//          another errno, or the last CQ could not be created.
//
// The last line is the summary scripts parse:
//   mrc_memcg_check: grow: K CQs of N: rings B bytes, memory.current +D
//   mrc_memcg_check: limit: created I of K CQs|QPs, then ENOMEM|<errno>|none
#include <fstream>

#include "cli.h"
#include "verbs_common.h"

namespace {

using namespace verbs;

constexpr uint64_t kCqeSlot = 64; // sizeof(ib_uverbs_wc) rounded up

struct Options {
	std::string dev = "mrc0";
	std::string mode;
	uint32_t cqe = 32767;
	uint32_t count = 8;
	bool qp = false;
};

[[noreturn]] void usage(const char *why)
{
	refuse_usage("mrc_memcg_check", why,
		     "usage: mrc_memcg_check [-d DEV] grow|limit [--cqe N] [--count K] [--qp]\n");
}

Options parse(int argc, char **argv)
{
	Options o;
	ArgWalker args(argc, argv, 1, usage);
	while (args.next()) {
		const std::string &a = args.word();
		if (a == "-d")
			o.dev = args.value();
		else if (a == "--cqe")
			o.cqe = static_cast<uint32_t>(std::stoul(args.value()));
		else if (a == "--count")
			o.count = static_cast<uint32_t>(std::stoul(args.value()));
		else if (a == "--qp")
			o.qp = true;
		else if ((a == "grow" || a == "limit") && o.mode.empty())
			o.mode = a;
		else
			args.unknown();
	}
	if (o.mode.empty())
		usage("grow or limit?");
	if (!o.count || !o.cqe)
		usage("--cqe and --count must be positive");
	return o;
}

// memory.current of the cgroup v2 this process is in.
std::string memory_current_path()
{
	std::ifstream f("/proc/self/cgroup");
	std::string line;
	while (std::getline(f, line)) {
		if (line.rfind("0::", 0) == 0)
			return "/sys/fs/cgroup" + line.substr(3) +
			       "/memory.current";
	}
	fail("not in a cgroup v2 hierarchy (/proc/self/cgroup has no 0:: line)");
}

uint64_t read_u64(const std::string &path)
{
	std::ifstream f(path);
	uint64_t v = 0;
	if (!(f >> v))
		fail("cannot read " + path);
	return v;
}

uint64_t pow2_at_least(uint64_t v)
{
	uint64_t p = 1;
	while (p < v)
		p <<= 1;
	return p;
}

int grow(const Options &o, ibv_context *ctx)
{
	const std::string cur = memory_current_path();
	const uint64_t ring = pow2_at_least(uint64_t{o.cqe} + 1) * kCqeSlot;
	std::vector<Cq> cqs;
	cqs.reserve(o.count); // nothing of ours allocated between the reads
	const uint64_t before = read_u64(cur);
	for (uint32_t i = 0; i < o.count; i++) {
		cqs.emplace_back(ibv_create_cq(ctx, static_cast<int>(o.cqe),
					       nullptr, nullptr, 0));
		if (!cqs.back())
			fail_errno("ibv_create_cq " + std::to_string(i));
	}
	const uint64_t after = read_u64(cur);
	const uint64_t rings = ring * o.count;
	const int64_t delta = static_cast<int64_t>(after) -
			      static_cast<int64_t>(before);
	std::printf("mrc_memcg_check: grow: %u CQs of %u: rings %llu bytes, memory.current %+lld\n",
		    o.count, o.cqe, static_cast<unsigned long long>(rings),
		    static_cast<long long>(delta));
	if (delta < static_cast<int64_t>(rings / 10 * 9)) {
		std::printf(
			"mrc_memcg_check: FAIL: the cgroup was charged less than 90%% of the rings\n");
		return 1;
	}
	return 0;
}

int limit(const Options &o, ibv_context *ctx)
{
	Pd pd(ibv_alloc_pd(ctx));
	if (!pd)
		fail_errno("ibv_alloc_pd");
	Cq qcq(ibv_create_cq(ctx, 16, nullptr, nullptr, 0));
	if (!qcq)
		fail_errno("ibv_create_cq (the QPs' CQ)");
	std::vector<Cq> cqs;
	std::vector<Qp> qps;
	uint32_t made = 0;
	int err = 0;
	for (; made < o.count; made++) {
		errno = 0;
		if (o.qp) {
			ibv_qp_init_attr a{};
			a.send_cq = qcq.get();
			a.recv_cq = qcq.get();
			a.qp_type = IBV_QPT_RC;
			a.cap.max_send_wr = 4096;
			a.cap.max_recv_wr = 4096;
			a.cap.max_send_sge = 16;
			a.cap.max_recv_sge = 16;
			Qp qp(ibv_create_qp(pd.get(), &a));
			if (!qp) {
				err = errno ? errno : EIO;
				break;
			}
			qps.push_back(std::move(qp));
		} else {
			Cq cq(ibv_create_cq(ctx, static_cast<int>(o.cqe),
					    nullptr, nullptr, 0));
			if (!cq) {
				err = errno ? errno : EIO;
				break;
			}
			cqs.push_back(std::move(cq));
		}
	}
	const char *what = o.qp ? "QPs" : "CQs";
	std::printf("mrc_memcg_check: limit: created %u of %u %s, then %s\n",
		    made, o.count, what,
		    !err	  ? "none" :
		    err == ENOMEM ? "ENOMEM" :
				    std::strerror(err));
	if (!err) {
		std::printf("mrc_memcg_check: FAIL: memory.max did not stop the %s\n",
			    what);
		return 1;
	}
	if (err != ENOMEM) {
		std::printf("mrc_memcg_check: FAIL: expected ENOMEM\n");
		return 1;
	}
	// Freed, the memory is usable again: the failure left nothing behind.
	qps.clear();
	cqs.clear();
	Cq again(ibv_create_cq(ctx, static_cast<int>(o.cqe), nullptr, nullptr, 0));
	if (!again) {
		std::printf("mrc_memcg_check: FAIL: no CQ after freeing the others: %s\n",
			    std::strerror(errno));
		return 1;
	}
	std::printf("mrc_memcg_check: a CQ of %u again after freeing the %s\n",
		    o.cqe, what);
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	try {
		const Options o = parse(argc, argv);
		Context ctx = open_device(o.dev);
		return o.mode == "grow" ? grow(o, ctx.get()) :
					  limit(o, ctx.get());
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrc_memcg_check: %s\n", e.what());
		return 1;
	}
}

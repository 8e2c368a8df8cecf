// SPDX-License-Identifier: GPL-2.0-only
//
// Memory regions and address handles of an MRC instance, through the
// stock rxe provider: registration of various sizes and alignments, the
// access flag rules, key uniqueness, reuse and leaks, and a RoCE v2 AH.
//
//   mrc_mr_check [-d DEV] [-g SGID_INDEX] [-r PEER_IPV4]
//   mrc_mr_check [-d DEV] -H COUNT
//
// Defaults: mrc0, GID index 1, peer 10.0.0.2 (the mrc_two_hosts topology
// of selftests/mrc/lib.sh, run in h1).  Prints TAP; exits 1 if a check
// failed, 2 on a setup error.
//
// -H COUNT registers COUNT MRs of 4 KiB, prints "# holding COUNT MRs" and
// waits to be killed (at most 60 s): the kernel must then release them
// (rdma res show mr, selftests/mrc/test_51_mr.sh).

#include "tap.h"
#include "verbs_common.h"

#include <arpa/inet.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace {

using verbs::Ah;
using verbs::Context;
using verbs::DeviceList;
using verbs::Mr;
using verbs::Pd;

struct MunmapDeleter {
	size_t length;
	void operator()(void *addr) const { munmap(addr, length); }
};
using Mapping = std::unique_ptr<void, MunmapDeleter>;

constexpr int kRemoteAccess = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			      IBV_ACCESS_REMOTE_ATOMIC;

using verbs::Tap;

Mr reg(ibv_pd *pd, void *addr, size_t length, int access)
{
	return Mr(ibv_reg_mr(pd, addr, length, access));
}

// Register and expect a failure with @want_errno (0: any errno).
bool reg_fails(ibv_pd *pd, void *addr, size_t length, int access,
	       int want_errno, int *got_errno)
{
	errno = 0;
	Mr mr = reg(pd, addr, length, access);
	*got_errno = errno;
	if (mr)
		return false;
	return !want_errno || *got_errno == want_errno;
}

std::string access_name(int access)
{
	std::string s;
	if (access & IBV_ACCESS_LOCAL_WRITE)
		s += "LW|";
	if (access & IBV_ACCESS_REMOTE_WRITE)
		s += "RW|";
	if (access & IBV_ACCESS_REMOTE_READ)
		s += "RR|";
	if (access & IBV_ACCESS_REMOTE_ATOMIC)
		s += "RA|";
	if (s.empty())
		return "0";
	s.pop_back();
	return s;
}

// Pages pinned by this process (kB), as the kernel accounts ib_umem.
long vm_pinned_kb()
{
	std::ifstream status("/proc/self/status");
	std::string line;
	while (std::getline(status, line)) {
		if (line.rfind("VmPin:", 0) == 0)
			return std::strtol(line.c_str() + 6, nullptr, 10);
	}
	return -1;
}

void test_sizes(Tap &t, ibv_pd *pd)
{
	// 8 MiB + 123 bytes starting 7 bytes into a page: first and last
	// pages partial, several thousand pages in between.
	constexpr size_t kBig = (8u << 20) + 123;
	const long page = sysconf(_SC_PAGESIZE);
	std::vector<unsigned char> small(1), page_buf(2 * page);
	std::vector<unsigned char> big(kBig + 2 * page);
	auto *aligned = reinterpret_cast<unsigned char *>(
		(reinterpret_cast<uintptr_t>(page_buf.data()) + page - 1) &
		~static_cast<uintptr_t>(page - 1));
	auto *unaligned = reinterpret_cast<unsigned char *>(
		((reinterpret_cast<uintptr_t>(big.data()) + page - 1) &
		 ~static_cast<uintptr_t>(page - 1)) +
		7);
	const int rw = IBV_ACCESS_LOCAL_WRITE | kRemoteAccess;

	Mr m1 = reg(pd, small.data(), 1, rw);
	Mr m2 = reg(pd, aligned, page, rw);
	Mr m3 = reg(pd, unaligned, kBig, rw);
	t.check(m1 != nullptr, "reg_mr of 1 byte");
	t.check(m2 != nullptr, "reg_mr of 4 KiB, page aligned");
	t.check(m3 != nullptr, "reg_mr of 8 MiB + 123 bytes at page offset 7");
	if (!m1 || !m2 || !m3)
		return;
	t.check(m1->lkey == m1->rkey && m2->lkey == m2->rkey &&
			m3->lkey == m3->rkey,
		"lkey == rkey");
	t.check(m1->lkey != m2->lkey && m2->lkey != m3->lkey &&
			m1->lkey != m3->lkey,
		"keys of live MRs are distinct");
	t.check(m3->addr == unaligned && m3->length == kBig,
		"MR reports its address and length");
}

void test_access(Tap &t, ibv_pd *pd)
{
	std::vector<unsigned char> buf(4096);
	std::vector<Mr> held;
	std::set<uint32_t> keys;
	bool ok_valid = true, ok_invalid = true, ok_keys = true;
	int err = 0;

	for (int bits = 0; bits < 16; bits++) {
		const int access = bits; // LW, RW, RR, RA are bits 0..3
		const bool valid = !(access & (IBV_ACCESS_REMOTE_WRITE |
					       IBV_ACCESS_REMOTE_ATOMIC)) ||
				   (access & IBV_ACCESS_LOCAL_WRITE);
		if (!valid) {
			if (!reg_fails(pd, buf.data(), buf.size(), access,
				       EINVAL, &err)) {
				ok_invalid = false;
				t.diag("access " + access_name(access) +
				       " did not fail with EINVAL (errno " +
				       std::to_string(err) + ")");
			}
			continue;
		}
		Mr mr = reg(pd, buf.data(), buf.size(), access);
		if (!mr) {
			ok_valid = false;
			t.diag("access " + access_name(access) +
			       " failed: " + std::strerror(errno));
			continue;
		}
		if (mr->lkey != mr->rkey || !keys.insert(mr->lkey).second)
			ok_keys = false;
		held.push_back(std::move(mr));
	}
	t.check(ok_valid, "every valid access combination registers");
	t.check(ok_keys, "... each with lkey == rkey and a distinct key");
	t.check(ok_invalid,
		"REMOTE_WRITE or REMOTE_ATOMIC without LOCAL_WRITE: EINVAL");
	// The errno goes into the description: call first (the order of
	// evaluation of arguments is unspecified).
	bool failed = reg_fails(pd, buf.data(), 0, IBV_ACCESS_LOCAL_WRITE, 0,
				&err);
	t.check(failed,
		"length 0 is refused (errno " + std::to_string(err) + ")");
	failed = reg_fails(pd, buf.data(), buf.size(),
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND, 0,
			   &err);
	t.check(failed,
		"ON_DEMAND is refused (errno " + std::to_string(err) + ")");
	// Memory windows exist (mrc_verbs_ext binds them): an MR that
	// allows binding registers.
	failed = reg_fails(pd, buf.data(), buf.size(),
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND, 0, &err);
	t.check(!failed, "MW_BIND registers (errno " + std::to_string(err) + ")");
}

void test_too_big(Tap &t, ibv_pd *pd)
{
	// Address space only: the size check comes before any pinning.
	const size_t length = (size_t{1} << 32) + 4096;
	void *addr = mmap(nullptr, length, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int err = 0;

	if (addr == MAP_FAILED) {
		t.check(false, "mmap of 4 GiB + 4 KiB for the size limit");
		return;
	}
	Mapping map(addr, MunmapDeleter{length});
	const bool failed = reg_fails(pd, map.get(), length,
				      IBV_ACCESS_LOCAL_WRITE, EINVAL, &err);
	t.check(failed,
		"more than max_mr_size (4 GiB) is refused with EINVAL (errno " +
			std::to_string(err) + ")");
}

void test_reuse(Tap &t, ibv_pd *pd)
{
	constexpr int kCycles = 1000;
	std::vector<unsigned char> buf(64 * 1024);
	const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ;
	const long pinned_before = vm_pinned_kb();
	bool all_ok = true;
	uint32_t key;

	Mr mr = reg(pd, buf.data(), buf.size(), access);
	if (!t.check(mr != nullptr, "reg_mr of 64 KiB"))
		return;
	key = mr->lkey;
	const long pinned_held = vm_pinned_kb();
	t.check(pinned_held >= pinned_before + 64,
		"VmPin counts the pinned pages (" +
			std::to_string(pinned_held) + " kB while held)");
	t.check(ibv_dereg_mr(mr.release()) == 0, "dereg_mr");
	mr = reg(pd, buf.data(), buf.size(), access);
	if (!t.check(mr != nullptr, "re-registering the same buffer"))
		return;
	t.check(mr->lkey != key, "... gives a different key");
	mr.reset();

	const auto start = std::chrono::steady_clock::now();
	for (int i = 0; i < kCycles && all_ok; i++) {
		mr = reg(pd, buf.data(), buf.size(), access);
		if (!mr) {
			t.diag("cycle " + std::to_string(i) +
			       ": reg_mr: " + std::strerror(errno));
			all_ok = false;
		} else if (ibv_dereg_mr(mr.release())) {
			t.diag("cycle " + std::to_string(i) +
			       ": dereg_mr: " + std::strerror(errno));
			all_ok = false;
		}
	}
	const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
				std::chrono::steady_clock::now() - start)
				.count();
	t.check(all_ok, std::to_string(kCycles) + " reg/dereg cycles (" +
				std::to_string(ms) + " ms)");
	const long pinned_after = vm_pinned_kb();
	t.check(pinned_before >= 0 && pinned_after == pinned_before,
		"no pinned pages left behind (VmPin " +
			std::to_string(pinned_before) + " -> " +
			std::to_string(pinned_after) + " kB)");
}

void test_ah(Tap &t, ibv_pd *pd, int sgid_index, const char *peer)
{
	ibv_ah_attr attr = {};
	in_addr v4 = {};

	if (inet_pton(AF_INET, peer, &v4) != 1) {
		t.check(false, std::string("peer address ") + peer);
		return;
	}
	// ::ffff:a.b.c.d, the IPv4-mapped GID of a RoCE v2 peer.
	attr.is_global = 1;
	attr.port_num = 1;
	attr.grh.sgid_index = sgid_index;
	attr.grh.hop_limit = 64;
	attr.grh.dgid.raw[10] = 0xff;
	attr.grh.dgid.raw[11] = 0xff;
	std::memcpy(&attr.grh.dgid.raw[12], &v4, sizeof(v4));

	Ah ah1(ibv_create_ah(pd, &attr));
	if (!t.check(ah1 != nullptr,
		     std::string("create_ah, GRH to ::ffff:") + peer + " (" +
			     (ah1 ? "ok" : std::strerror(errno)) + ")"))
		return;
	Ah ah2(ibv_create_ah(pd, &attr));
	t.check(ah2 != nullptr, "a second AH to the same peer");
	t.check(ibv_destroy_ah(ah2.release()) == 0, "destroy_ah");
	t.check(ibv_destroy_ah(ah1.release()) == 0, "destroy_ah of the first");

	attr.is_global = 0;
	Ah no_grh(ibv_create_ah(pd, &attr));
	t.check(no_grh == nullptr, "an AH without a GRH is refused on RoCE");
}

Context open_device(const char *name)
{
	DeviceList list(ibv_get_device_list(nullptr));
	if (!list)
		return nullptr;
	for (ibv_device **dev = list.get(); *dev; dev++) {
		if (!std::strcmp(ibv_get_device_name(*dev), name))
			return Context(ibv_open_device(*dev));
	}
	errno = ENODEV;
	return nullptr;
}

int hold(ibv_pd *pd, int count)
{
	const long page = sysconf(_SC_PAGESIZE);
	std::vector<unsigned char> buf((count + 1) * page);
	std::vector<Mr> held;

	for (int i = 0; i < count; i++) {
		Mr mr = reg(pd, buf.data() + i * page, page,
			    IBV_ACCESS_LOCAL_WRITE);
		if (!mr) {
			std::printf("# reg_mr %d: %s\nBail out!\n", i,
				    std::strerror(errno));
			return 2;
		}
		held.push_back(std::move(mr));
	}
	std::printf("# holding %d MRs\n", count);
	std::fflush(stdout);
	// Until a signal ends the process; the kernel cleans up after it.
	alarm(60);
	for (;;)
		pause();
}

void usage(const char *prog)
{
	std::fprintf(stderr,
		     "usage: %s [-d DEV] [-g SGID_INDEX] [-r PEER_IPV4] [-H COUNT]\n",
		     prog);
}

} // namespace

int main(int argc, char **argv)
{
	const char *dev_name = "mrc0";
	const char *peer = "10.0.0.2";
	int sgid_index = 1;
	int hold_count = 0;
	int opt;

	while ((opt = getopt(argc, argv, "d:g:r:H:h")) != -1) {
		switch (opt) {
		case 'd': dev_name = optarg; break;
		case 'g': sgid_index = std::atoi(optarg); break;
		case 'r': peer = optarg; break;
		case 'H':
			hold_count = std::atoi(optarg);
			if (hold_count <= 0) {
				usage(argv[0]);
				return 2;
			}
			break;
		default: usage(argv[0]); return 2;
		}
	}

	std::printf("TAP version 13\n");
	Context ctx = open_device(dev_name);
	if (!ctx) {
		std::printf("# cannot open %s: %s\nBail out!\n", dev_name,
			    std::strerror(errno));
		return 2;
	}
	Pd pd(ibv_alloc_pd(ctx.get()));
	if (!pd) {
		std::printf("# alloc_pd: %s\nBail out!\n", std::strerror(errno));
		return 2;
	}

	if (hold_count)
		return hold(pd.get(), hold_count);

	Tap t;
	test_sizes(t, pd.get());
	test_access(t, pd.get());
	test_too_big(t, pd.get());
	test_reuse(t, pd.get());
	test_ah(t, pd.get(), sgid_index, peer);
	return t.finish();
}

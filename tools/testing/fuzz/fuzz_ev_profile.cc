// SPDX-License-Identifier: GPL-2.0-only
// libFuzzer target for EV profiles: random GEN definitions and AUTO
// parameters are expanded into exactly-sized storage (ASan catches any
// overflow), and random sequences of profile operations are applied.
//
// Properties checked:
//  - a successful GEN expansion fits the storage, every EV passes
//    mrc_ev_check(), no two EVs are equal, and (for narrow fields, where a
//    brute-force count is cheap) the count is the product of the fields'
//    value counts times the number of planes;
//  - AUTO expansion succeeds exactly when its inputs are in range;
//  - whatever the operations, an ONLINE profile always validates and
//    never holds more EVs than its storage.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "ev_profile.h"
}

namespace {

[[noreturn]] void fail(const char *what)
{
	std::fprintf(stderr, "fuzz_ev_profile: %s\n", what);
	std::abort();
}

// Raw fields exercise every check; "shaped" fields (sorted min <= init <=
// max inside the mask and the width) make most definitions valid, so that
// expansion itself is explored too.
mrc_ev_gen_field random_field(FuzzedDataProvider &fdp)
{
	mrc_ev_gen_field f{};
	if (fdp.ConsumeBool()) {
		f.width = fdp.ConsumeIntegralInRange<u8>(0, 33);
		f.min = fdp.ConsumeIntegral<u32>();
		f.init = fdp.ConsumeIntegral<u32>();
		f.max = fdp.ConsumeIntegral<u32>();
		f.mask = fdp.ConsumeIntegral<u32>();
		return f;
	}
	f.width = fdp.ConsumeIntegralInRange<u8>(1, 32);
	u32 wm = (u32)(((u64)1 << f.width) - 1);
	u32 v[3];
	for (auto &x : v)
		x = fdp.ConsumeIntegral<u32>() & wm &
		    (fdp.ConsumeBool() ? 0xf : ~0u);
	std::sort(v, v + 3);
	f.min = v[0];
	f.init = v[1];
	f.max = v[2];
	f.mask = (fdp.ConsumeBool() ? wm : fdp.ConsumeIntegral<u32>() & wm) |
		 f.min | f.init | f.max;
	return f;
}

mrc_ev_gen random_gen(FuzzedDataProvider &fdp)
{
	mrc_ev_gen g{};
	g.n_fields = fdp.ConsumeIntegralInRange<u8>(0, MRC_EV_GEN_MAX_FIELDS + 1);
	for (int i = 0; i < MRC_EV_GEN_MAX_FIELDS; i++)
		g.fields[i] = random_field(fdp);
	g.shift = fdp.ConsumeIntegralInRange<u8>(0, 140);
	if (fdp.ConsumeBool()) {
		auto base = fdp.ConsumeBytes<u8>(MRC_EV_MAX_LEN);
		if (!base.empty())
			std::memcpy(g.base, base.data(), base.size());
	} else {
		g.base[0] = 0xfc; /* a valid SID or a high UDP port */
	}
	g.plane_mask = fdp.ConsumeIntegral<u16>();
	return g;
}

std::string key(const mrc_ev &e)
{
	return std::string(1, (char)e.plane) +
	       std::string((const char *)e.value, e.len);
}

u64 field_count(const mrc_ev_gen_field &f)
{
	u64 n = 0;
	for (u64 v = f.min; v <= f.max; v++)
		if (!(v & ~(u64)f.mask))
			n++;
	return n;
}

void fuzz_gen(FuzzedDataProvider &fdp)
{
	u8 fmt = fdp.ConsumeIntegralInRange<u8>(0, 4);
	mrc_ev_gen g = random_gen(fdp);
	u16 cap = fdp.ConsumeIntegralInRange<u16>(0, MRC_EV_PROFILE_MAX_EVS + 8);
	std::vector<mrc_ev> out(cap);
	int n = mrc_ev_gen_expand(&g, fmt, out.data(), cap);
	int chk = mrc_ev_gen_check(&g, fmt);
	if (n < 0) {
		if (n <= -MRC_EV_NR_ERR)
			fail("unknown error code");
		if (chk && chk != n)
			fail("expand and check disagree");
		return;
	}
	if (chk)
		fail("expansion succeeded on an invalid definition");
	if (n == 0 || n > cap || n > MRC_EV_PROFILE_MAX_EVS)
		fail("expansion count out of range");
	std::set<std::string> seen;
	for (int i = 0; i < n; i++) {
		if (mrc_ev_check(fmt, &out[i]))
			fail("expanded EV fails the format");
		if (!seen.insert(key(out[i])).second)
			fail("duplicate EV in a GEN expansion");
	}
	bool narrow = true;
	for (int i = 0; i < g.n_fields; i++)
		narrow &= g.fields[i].width <= 12;
	if (narrow) {
		u64 want = (u64)__builtin_popcount(g.plane_mask);
		for (int i = 0; i < g.n_fields; i++)
			want *= field_count(g.fields[i]);
		if (want != (u64)n)
			fail("GEN count differs from the product rule");
	}
}

void fuzz_auto(FuzzedDataProvider &fdp)
{
	u8 fmt = fdp.ConsumeIntegralInRange<u8>(0, 4);
	u16 count = fdp.ConsumeIntegralInRange<u16>(0,
						    MRC_EV_PROFILE_MAX_EVS + 4);
	u16 planes = fdp.ConsumeIntegral<u16>();
	u32 qpn = fdp.ConsumeIntegral<u32>();
	u16 cap = fdp.ConsumeIntegralInRange<u16>(0, MRC_EV_PROFILE_MAX_EVS + 4);
	std::vector<mrc_ev> out(cap);
	int n = mrc_ev_auto_expand(fmt, count, planes, qpn, out.data(), cap);
	bool ok = (fmt == MRC_EV_FMT_UDP || fmt == MRC_EV_FMT_STEV) &&
		  count >= 1 && count <= MRC_EV_PROFILE_MAX_EVS && planes &&
		  count <= cap;
	if (ok != (n > 0) || (ok && n != count))
		fail("AUTO expansion result unexpected");
	std::set<std::string> seen;
	for (int i = 0; i < n; i++) {
		if (mrc_ev_check(fmt, &out[i]))
			fail("AUTO EV fails the format");
		if (!seen.insert(key(out[i])).second)
			fail("duplicate AUTO EV");
	}
}

void fuzz_ops(FuzzedDataProvider &fdp)
{
	u16 cap = fdp.ConsumeIntegralInRange<u16>(0, 64);
	std::vector<mrc_ev> store(cap);
	mrc_ev_profile p;
	u8 mode = fdp.ConsumeIntegralInRange<u8>(0, 4);
	u8 fmt = fdp.ConsumeIntegralInRange<u8>(0, 4);
	if (mrc_ev_profile_init(&p, mode, fmt, store.data(), cap))
		return;
	for (int step = 0; step < 64 && fdp.remaining_bytes(); step++) {
		u8 op = fdp.ConsumeIntegralInRange<u8>(0, 9);
		u8 plane = fdp.ConsumeIntegralInRange<u8>(0, 18);
		u8 len = fdp.ConsumeIntegralInRange<u8>(0, MRC_EV_MAX_LEN + 2);
		std::vector<u8> v = fdp.ConsumeBytes<u8>(len);
		v.resize(len);
		u16 idx = fdp.ConsumeIntegralInRange<u16>(0, 70);
		int r = 0;
		switch (op) {
		case 0:
			r = mrc_ev_profile_add(&p, plane, v.data(), len,
					       fdp.ConsumeBool());
			break;
		case 1:
			r = mrc_ev_profile_replace(&p, idx, plane, v.data(), len);
			break;
		case 2:
			r = mrc_ev_profile_deny(&p, idx, fdp.ConsumeBool());
			break;
		case 3:
			r = mrc_ev_profile_set_state(&p,
						     fdp.ConsumeIntegralInRange<
							     u8>(0, 3));
			break;
		case 4: r = mrc_ev_profile_set_min_active(&p, idx); break;
		case 5:
			r = mrc_ev_profile_set_event_mask(&p,
							  fdp.ConsumeIntegral<u32>());
			break;
		case 6:
			r = mrc_ev_profile_set_auto(&p, idx,
						    fdp.ConsumeIntegral<u16>());
			break;
		case 7: {
			mrc_ev_gen g = random_gen(fdp);
			r = mrc_ev_profile_set_gen(&p, &g);
			break;
		}
		case 8: r = mrc_ev_profile_clear(&p); break;
		default: r = mrc_ev_profile_validate(&p); break;
		}
		if (r > 0 || r <= -MRC_EV_NR_ERR)
			fail("unknown error code");
		if (p.n_evs > cap)
			fail("more EVs than storage");
		if (p.state == MRC_EV_PROF_ONLINE &&
		    mrc_ev_profile_validate(&p) != 0)
			fail("ONLINE profile does not validate");
		if (std::strlen(mrc_ev_strerror(r)) == 0)
			fail("empty error text");
	}
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzedDataProvider fdp(data, size);
	switch (fdp.ConsumeIntegralInRange<int>(0, 2)) {
	case 0: fuzz_gen(fdp); break;
	case 1: fuzz_auto(fdp); break;
	default: fuzz_ops(fdp); break;
	}
	return 0;
}

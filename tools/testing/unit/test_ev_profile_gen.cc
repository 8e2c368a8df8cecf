// SPDX-License-Identifier: GPL-2.0-only
// GEN and AUTO expansion against hand-computed examples (the worked
// examples of Documentation/networking/mrc.rst), and every GEN rule.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "ev_profile.h"
}

namespace {

mrc_ev_gen_field field(u8 width, u32 init, u32 min, u32 max, u32 mask)
{
	return mrc_ev_gen_field{width, init, min, max, mask};
}

mrc_ev_gen make_gen(std::vector<mrc_ev_gen_field> f, u8 shift,
		    std::vector<u8> base, u16 planes)
{
	mrc_ev_gen g{};
	g.n_fields = (u8)f.size();
	for (size_t i = 0; i < f.size(); i++)
		g.fields[i] = f[i];
	g.shift = shift;
	for (size_t i = 0; i < base.size(); i++)
		g.base[i] = base[i];
	g.plane_mask = planes;
	return g;
}

std::vector<mrc_ev> expand(const mrc_ev_gen &g, u8 fmt, int *ret,
			   u16 cap = MRC_EV_PROFILE_MAX_EVS)
{
	std::vector<mrc_ev> out(cap);
	*ret = mrc_ev_gen_expand(&g, fmt, out.data(), cap);
	out.resize(*ret > 0 ? (size_t)*ret : 0);
	return out;
}

u32 be_value(const mrc_ev &ev)
{
	u32 v = 0;
	for (int i = 0; i < ev.len && i < 4; i++)
		v = v << 8 | ev.value[i];
	return v;
}

// (plane, value) pairs of an expansion, values as 16/32-bit numbers.
std::vector<std::pair<int, u32>> pairs(const std::vector<mrc_ev> &evs)
{
	std::vector<std::pair<int, u32>> r;
	for (const auto &e : evs)
		r.emplace_back(e.plane, be_value(e));
	return r;
}

TEST(EvGen, OneFieldStartsAtInitAndWrapsFromMaxToMin)
{
	// Ports 0xc000..0xc003 starting at 0xc002: c002 c003 c000 c001.
	auto g = make_gen({field(16, 0xc002, 0xc000, 0xc003, 0xffff)}, 0,
			  {0, 0}, 0x1);
	int n;
	auto evs = expand(g, MRC_EV_FMT_UDP, &n);
	ASSERT_EQ(n, 4);
	std::vector<std::pair<int, u32>> want = {{1, 0xc002},
						 {1, 0xc003},
						 {1, 0xc000},
						 {1, 0xc001}};
	EXPECT_EQ(pairs(evs), want);
	for (const auto &e : evs) {
		EXPECT_EQ(e.len, 2);
		EXPECT_EQ(e.state, MRC_EV_UNKNOWN);
	}
}

TEST(EvGen, TwoFieldOdometerLeastSignificantFieldFirst)
{
	// f0 (high nibble of the low byte): 1,2,0; f1 (low nibble): 3,4,5;
	// base 0xab00 keeps the top byte.
	auto g = make_gen({field(4, 1, 0, 2, 0xf), field(4, 3, 3, 5, 0xf)}, 0,
			  {0xab, 0x00}, 0x1);
	int n;
	auto evs = expand(g, MRC_EV_FMT_UDP, &n);
	ASSERT_EQ(n, 9);
	std::vector<u32> want = {0xab13, 0xab14, 0xab15, 0xab23, 0xab24,
				 0xab25, 0xab03, 0xab04, 0xab05};
	for (int i = 0; i < n; i++)
		EXPECT_EQ(be_value(evs[i]), want[i]) << i;
}

TEST(EvGen, MaskSkipsValuesAndPlanesInstantiateEachValue)
{
	// mask 0x0a: allowed values in [0, 0x0a] are 0, 2, 8, 10; from init 2:
	// 2, 8, 10, 0.  Shifted by 4 into base 0xc000, on planes 1 and 3.
	auto g = make_gen({field(8, 2, 0, 0x0a, 0x0a)}, 4, {0xc0, 0x00}, 0x5);
	int n;
	auto evs = expand(g, MRC_EV_FMT_UDP, &n);
	ASSERT_EQ(n, 8);
	std::vector<std::pair<int, u32>> want = {
		{1, 0xc020}, {3, 0xc020}, {1, 0xc080}, {3, 0xc080},
		{1, 0xc0a0}, {3, 0xc0a0}, {1, 0xc000}, {3, 0xc000},
	};
	EXPECT_EQ(pairs(evs), want);
}

TEST(EvGen, MaskWithMinAndMaxInside)
{
	// width 4, mask 0xc: allowed 0,4,8,12; restricted to [4,8]; init 8:
	// 8 then wrap to 4.
	auto g = make_gen({field(4, 8, 4, 8, 0xc)}, 8, {0x10, 0x00}, 0x2);
	int n;
	auto evs = expand(g, MRC_EV_FMT_UDP, &n);
	ASSERT_EQ(n, 2);
	std::vector<std::pair<int, u32>> want = {{2, 0x1800}, {2, 0x1400}};
	EXPECT_EQ(pairs(evs), want);
}

TEST(EvGen, StevFlowLabelAndPortFields)
{
	// S = label << 12 | port12; label 5..6, port12 starting at 0xfff and
	// wrapping to 0xffe.
	auto g = make_gen({field(20, 5, 5, 6, 0xfffff),
			   field(12, 0xfff, 0xffe, 0xfff, 0xfff)},
			  0, {0, 0, 0, 0}, 0x1);
	int n;
	auto evs = expand(g, MRC_EV_FMT_STEV, &n);
	ASSERT_EQ(n, 4);
	std::vector<u32> want = {0x5fff, 0x5ffe, 0x6fff, 0x6ffe};
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(be_value(evs[i]), want[i]);
		mrc_ev_outer o;
		ASSERT_EQ(mrc_ev_to_outer(MRC_EV_FMT_STEV, &evs[i], &o), 0);
		EXPECT_EQ(o.flow_label, want[i] >> 12);
		EXPECT_EQ(o.udp_sport, 0xf000 | (want[i] & 0xfff));
	}
}

TEST(EvGen, Srv6MicroSidField)
{
	// base fc00:100::/32 ; a 16-bit uSID at bits 80..95 = bytes 4 and 5.
	std::vector<u8> base(16, 0);
	base[0] = 0xfc;
	base[2] = 0x01;
	auto g = make_gen({field(16, 0xe001, 0xe001, 0xe003, 0xffff)}, 80, base,
			  0x1);
	int n;
	auto evs = expand(g, MRC_EV_FMT_SRV6, &n);
	ASSERT_EQ(n, 3);
	for (int i = 0; i < n; i++) {
		std::array<u8, 16> want{};
		want[0] = 0xfc;
		want[2] = 0x01;
		want[4] = 0xe0;
		want[5] = (u8)(1 + i);
		EXPECT_EQ(evs[i].len, 16);
		EXPECT_EQ(0, std::memcmp(evs[i].value, want.data(), 16)) << i;
		mrc_ev_outer o;
		ASSERT_EQ(mrc_ev_to_outer(MRC_EV_FMT_SRV6, &evs[i], &o), 0);
		EXPECT_EQ(o.sid, evs[i].value);
		EXPECT_EQ(o.segment, nullptr);
	}
}

TEST(EvGen, FullWidth32BitFieldAtTopOfStev)
{
	auto g = make_gen({field(32, 0xfffffffe, 0xfffffffd, 0xffffffff,
				 0xffffffff)},
			  0, {0, 0, 0, 0}, 0x8000);
	int n;
	auto evs = expand(g, MRC_EV_FMT_STEV, &n);
	ASSERT_EQ(n, 3);
	std::vector<std::pair<int, u32>> want = {{16, 0xfffffffe},
						 {16, 0xffffffff},
						 {16, 0xfffffffd}};
	EXPECT_EQ(pairs(evs), want);
}

TEST(EvGen, CountIsProductOfFieldCountsTimesPlanes)
{
	auto g = make_gen({field(3, 0, 0, 7, 7), field(2, 1, 0, 3, 3),
			   field(4, 0, 0, 8, 0xa)},
			  4, {0x80, 0}, 0x0101);
	int n;
	auto evs = expand(g, MRC_EV_FMT_UDP, &n);
	// 8 x 4 x |{0,2,8}| = 96 values, x 2 planes.
	ASSERT_EQ(n, 8 * 4 * 3 * 2);
	std::set<std::pair<int, u32>> uniq;
	for (auto &p : pairs(evs))
		uniq.insert(p);
	EXPECT_EQ(uniq.size(), (size_t)n);
}

TEST(EvGen, TooManyForStorage)
{
	auto g = make_gen({field(8, 1, 1, 200, 0xff)}, 0, {0xc0, 0}, 0x3);
	int n;
	expand(g, MRC_EV_FMT_UDP, &n, 399);
	EXPECT_EQ(n, -MRC_EV_ETOOMANY);
	expand(g, MRC_EV_FMT_UDP, &n, 400);
	EXPECT_EQ(n, MRC_EV_PROFILE_MAX_EVS >= 400 ? 400 : -MRC_EV_ETOOMANY);
	// Never beyond the global limit, whatever the storage.
	auto big = make_gen({field(12, 1, 1, 0xfff, 0xfff)}, 0, {0xc0, 0}, 0x1);
	std::vector<mrc_ev> out(5000);
	EXPECT_EQ(mrc_ev_gen_expand(&big, MRC_EV_FMT_UDP, out.data(), 5000),
		  -MRC_EV_ETOOMANY);
}

TEST(EvGen, GeneratedUdpPortZeroIsInvalid)
{
	auto g = make_gen({field(4, 0, 0, 3, 0xf)}, 0, {0, 0}, 0x1);
	int n;
	expand(g, MRC_EV_FMT_UDP, &n);
	EXPECT_EQ(n, -MRC_EV_EVALUE);
}

struct BadGen {
	const char *name;
	mrc_ev_gen gen;
	u8 format;
	int err;
};

TEST(EvGen, DefinitionErrors)
{
	const std::vector<u8> b2 = {0xc0, 0};
	const std::vector<BadGen> cases = {
		{"no fields", make_gen({}, 0, b2, 1), MRC_EV_FMT_UDP,
		 -MRC_EV_EGEN_NFIELDS},
		{"width 0", make_gen({field(0, 0, 0, 0, 0)}, 0, b2, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_WIDTH},
		{"width 33", make_gen({field(33, 0, 0, 0, 0)}, 0, {0, 0, 0, 0}, 1),
		 MRC_EV_FMT_STEV, -MRC_EV_EGEN_WIDTH},
		{"min > init", make_gen({field(4, 1, 2, 3, 0xf)}, 0, b2, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_RANGE},
		{"init > max", make_gen({field(4, 4, 2, 3, 0xf)}, 0, b2, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_RANGE},
		{"max beyond width", make_gen({field(4, 1, 0, 16, 0xf)}, 0, b2, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_RANGE},
		{"mask beyond width",
		 make_gen({field(4, 1, 0, 3, 0x1f)}, 0, b2, 1), MRC_EV_FMT_UDP,
		 -MRC_EV_EGEN_MASK},
		{"init outside mask", make_gen({field(4, 1, 0, 8, 0xa)}, 0, b2, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_MASK},
		{"max outside mask", make_gen({field(4, 2, 0, 9, 0xa)}, 0, b2, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_MASK},
		{"17 bits in UDP",
		 make_gen({field(9, 1, 1, 2, 0x1ff), field(8, 1, 1, 2, 0xff)},
			  0, {0, 0}, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_FIT},
		{"shift pushes out of UDP",
		 make_gen({field(8, 1, 1, 2, 0xff)}, 9, {0, 0}, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_FIT},
		{"more than 64 bits",
		 make_gen({field(32, 1, 1, 2, ~0u), field(32, 1, 1, 2, ~0u),
			   field(1, 0, 0, 1, 1)},
			  0, std::vector<u8>(16, 0x20), 1),
		 MRC_EV_FMT_SRV6, -MRC_EV_EGEN_FIT},
		{"base overlaps fields",
		 make_gen({field(8, 1, 1, 2, 0xff)}, 0, {0xc0, 0x01}, 1),
		 MRC_EV_FMT_UDP, -MRC_EV_EGEN_BASE},
		{"no planes", make_gen({field(8, 1, 1, 2, 0xff)}, 0, b2, 0),
		 MRC_EV_FMT_UDP, -MRC_EV_EPLANEMASK},
		{"unknown format", make_gen({field(8, 1, 1, 2, 0xff)}, 0, b2, 1),
		 9, -MRC_EV_EFORMAT},
	};
	for (const auto &c : cases) {
		EXPECT_EQ(mrc_ev_gen_check(&c.gen, c.format), c.err) << c.name;
		int n;
		expand(c.gen, c.format, &n);
		EXPECT_EQ(n, c.err) << c.name;
	}
	auto g = make_gen({field(8, 1, 1, 2, 0xff)}, 0, b2, 1);
	g.n_fields = MRC_EV_GEN_MAX_FIELDS + 1;
	EXPECT_EQ(mrc_ev_gen_check(&g, MRC_EV_FMT_UDP), -MRC_EV_EGEN_NFIELDS);
}

u32 hash_top(u32 x, int bits) { return (u32)(x * 2654435761u) >> (32 - bits); }

TEST(EvAuto, UdpPortsFollowTheDocumentedRule)
{
	for (u32 qpn : {1u, 17u, 0xabcdefu}) {
		std::vector<mrc_ev> out(16);
		ASSERT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_UDP, 16, 0x0c, qpn,
					     out.data(), 16),
			  16);
		for (u32 i = 0; i < 16; i++) {
			EXPECT_EQ(out[i].plane, i % 2 ? 4 : 3);
			u32 port = 0xc000 | ((hash_top(qpn, 14) + i) & 0x3fff);
			EXPECT_EQ(be_value(out[i]), port) << qpn << " " << i;
			EXPECT_EQ(mrc_ev_check(MRC_EV_FMT_UDP, &out[i]), 0);
		}
	}
}

TEST(EvAuto, StevValuesAndDistinctQpnsDiffer)
{
	std::vector<mrc_ev> a(8), b(8);
	ASSERT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_STEV, 8, 1, 100, a.data(), 8), 8);
	ASSERT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_STEV, 8, 1, 101, b.data(), 8), 8);
	for (u32 i = 0; i < 8; i++) {
		u32 want = ((hash_top(100, 20) + i) & 0xfffff) << 12 | 100;
		EXPECT_EQ(be_value(a[i]), want);
		EXPECT_NE(be_value(a[i]), be_value(b[i]));
	}
}

TEST(EvAuto, Errors)
{
	std::vector<mrc_ev> out(8);
	EXPECT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_SRV6, 8, 1, 1, out.data(), 8),
		  -MRC_EV_EAUTO);
	EXPECT_EQ(mrc_ev_auto_expand(0, 8, 1, 1, out.data(), 8), -MRC_EV_EFORMAT);
	EXPECT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_UDP, 0, 1, 1, out.data(), 8),
		  -MRC_EV_EAUTO);
	EXPECT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_UDP, 8, 0, 1, out.data(), 8),
		  -MRC_EV_EPLANEMASK);
	EXPECT_EQ(mrc_ev_auto_expand(MRC_EV_FMT_UDP, 9, 1, 1, out.data(), 8),
		  -MRC_EV_ETOOMANY);
}

} // namespace

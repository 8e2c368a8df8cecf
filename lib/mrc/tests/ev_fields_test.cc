// SPDX-License-Identifier: GPL-2.0-only
// The controller API's EV fields onto the kernel's GEN definition
// (lib/mrc/ctl_ev_fields.cpp), expanded by the engine's own
// mrc_ev_gen_expand(): mrc.rst's worked examples written as the API's
// fields give the documented EVs, and every refusal of the mapping.
#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

#include "ctl_ev_fields.hpp"

extern "C" {
#include "ev_profile.h"
}

using mrc::lib::ev_exp_fields_check;
using mrc::lib::ev_gen_from_kernel;
using mrc::lib::ev_gen_to_kernel;

namespace {

using Fields = std::vector<mrc_ctl_ev_field>;

// The kernel's expansion of @api on format widths @fmt over @planes: the
// (plane, value) pairs, values as numbers (UDP/STEV).
std::vector<std::pair<int, uint32_t>>
expand(const Fields &api, const std::vector<uint8_t> &fmt, uint8_t format,
       u16 planes, int *err, uint32_t *values = nullptr)
{
	std::vector<mrcctl::GenField> k;
	uint32_t shift = 0, n = 0;
	*err = ev_gen_to_kernel(api, fmt, format, &k, &shift, &n);
	if (*err)
		return {};
	if (values)
		*values = n;
	mrc_ev_gen g{};
	g.n_fields = static_cast<u8>(k.size());
	for (size_t i = 0; i < k.size(); i++)
		g.fields[i] = {static_cast<u8>(k[i].width), k[i].init, k[i].min,
			       k[i].max, k[i].mask.value_or(0)};
	g.shift = static_cast<u8>(shift);
	g.plane_mask = planes;
	std::vector<mrc_ev> out(MRC_EV_PROFILE_MAX_EVS);
	int r = mrc_ev_gen_expand(&g, format, out.data(),
				  static_cast<u16>(out.size()));
	EXPECT_GE(r, 0) << mrc_ev_strerror(r);
	std::vector<std::pair<int, uint32_t>> evs;
	for (int i = 0; i < r; i++) {
		uint32_t v = 0;
		for (int b = 0; b < out[i].len && b < 4; b++)
			v = v << 8 | out[i].value[b];
		evs.push_back({out[i].plane, v});
	}
	return evs;
}

} // namespace

TEST(LibMrcEvFields, WorkedExampleOne)
{
	// mrc.rst: UDP, base 0xAB00, field 0 (4 bits) 1, 2, 0 and field 1
	// (4 bits) 3, 4, 5: the base is a fixed field of its own here.
	Fields api{{8, 0xab, 0, 0, 0}, {4, 1, 0, 2, 0xf}, {4, 3, 3, 5, 0xf}};
	int err = -1;
	uint32_t n = 0;
	auto evs = expand(api, {8, 4, 4}, MRC_EV_FMT_UDP, 1, &err, &n);
	ASSERT_EQ(err, 0);
	EXPECT_EQ(n, 9u);
	std::vector<std::pair<int, uint32_t>> want;
	for (uint32_t v : {0xab13, 0xab14, 0xab15, 0xab23, 0xab24, 0xab25,
			   0xab03, 0xab04, 0xab05})
		want.push_back({1, v});
	EXPECT_EQ(evs, want);
}

TEST(LibMrcEvFields, WorkedExampleTwo)
{
	// mrc.rst: UDP, shift 4, base 0xC000, one field of width 8, init
	// 2, min 0, max 0x0A, mask 0x0A, planes {1, 3}.  As the API's: a
	// fixed 0xC in the top 4 bits, the generated part 1 (init_val 2
	// under mask 0x0A), 0..3, and the last 4 bits of the format free.
	Fields api{{4, 0xc, 0, 0, 0}, {8, 2, 0, 3, 0x0a}};
	int err = -1;
	auto evs = expand(api, {4, 8, 4}, MRC_EV_FMT_UDP, 0x5, &err);
	ASSERT_EQ(err, 0);
	std::vector<std::pair<int, uint32_t>> want;
	for (uint32_t v : {0xc020, 0xc080, 0xc0a0, 0xc000})
		for (int p : {1, 3})
			want.push_back({p, v});
	EXPECT_EQ(evs, want);
}

TEST(LibMrcEvFields, NarrowFieldsAndGaps)
{
	// STEV {20, 12}: a 4-bit field in the flow label's low bits, a
	// 2-bit one in the port's: 16 + 2 bits of zeros between.
	Fields api{{4, 0, 0, 1, 0xf}, {2, 0, 0, 1, 0x3}};
	int err = -1;
	auto evs = expand(api, {20, 12}, MRC_EV_FMT_STEV, 1, &err);
	ASSERT_EQ(err, 0);
	std::vector<std::pair<int, uint32_t>> want = {{1, 0x0000},
						      {1, 0x0001},
						      {1, 0x1000},
						      {1, 0x1001}};
	EXPECT_EQ(evs, want);
	// Fixed bits above the mask are a prefix the kernel's range keeps.
	Fields prefix{{8, 0x80, 0, 3, 0x03}};
	evs = expand(prefix, {16}, MRC_EV_FMT_UDP, 1, &err);
	ASSERT_EQ(err, 0);
	want = {{1, 0x80}, {1, 0x81}, {1, 0x82}, {1, 0x83}};
	EXPECT_EQ(evs, want);
	// init_val's masked bits outside min_val..max_val: start at min_val.
	Fields low{{16, 0, 0xc001, 0xc002, 0xffff}};
	evs = expand(low, {16}, MRC_EV_FMT_UDP, 1, &err);
	ASSERT_EQ(err, 0);
	want = {{1, 0xc001}, {1, 0xc002}};
	EXPECT_EQ(evs, want);
	// ... inside: start there, wrap to min_val.
	low[0].init_val = 0xc002;
	evs = expand(low, {16}, MRC_EV_FMT_UDP, 1, &err);
	ASSERT_EQ(err, 0);
	want = {{1, 0xc002}, {1, 0xc001}};
	EXPECT_EQ(evs, want);
}

TEST(LibMrcEvFields, Refusals)
{
	std::vector<mrcctl::GenField> k;
	uint32_t shift = 0, n = 0;
	auto to_k = [&](const Fields &api, std::vector<uint8_t> fmt,
			uint8_t format) {
		return ev_gen_to_kernel(api, fmt, format, &k, &shift, &n);
	};
	// A fixed bit below a mask bit: the kernel's range would vary it.
	EXPECT_EQ(to_k({{8, 0x01, 0, 3, 0x30}}, {16}, MRC_EV_FMT_UDP),
		  EOPNOTSUPP);
	// More fields than the format has, one wider than its format field.
	EXPECT_EQ(to_k({{8, 0, 0, 1, 1}, {8, 0, 0, 1, 1}}, {16}, MRC_EV_FMT_UDP),
		  EINVAL);
	EXPECT_EQ(to_k({{12, 0, 0, 1, 1}}, {8, 8}, MRC_EV_FMT_UDP), EINVAL);
	EXPECT_EQ(to_k({}, {16}, MRC_EV_FMT_UDP), EINVAL);
	// Beyond the kernel: 9 fields; a field of the SRH segment.
	Fields nine(9, mrc_ctl_ev_field{1, 0, 0, 1, 1});
	EXPECT_EQ(to_k(nine, std::vector<uint8_t>(9, 1), MRC_EV_FMT_UDP), E2BIG);
	std::vector<uint8_t> srh(16, 16);
	Fields deep(9, mrc_ctl_ev_field{1, 0, 0, 0, 0});
	deep.back() = {4, 0, 0, 15, 0xf};
	EXPECT_EQ(to_k(deep, srh, MRC_EV_FMT_SRV6), E2BIG);
	// A bad field alone.
	EXPECT_EQ(to_k({{0, 0, 0, 0, 0}}, {16}, MRC_EV_FMT_UDP), EINVAL);
	EXPECT_EQ(to_k({{40, 0, 0, 0, 0}}, {16}, MRC_EV_FMT_UDP), E2BIG);
}

TEST(LibMrcEvFields, FromKernel)
{
	// mrcctl's field of mrc.rst's second example reads as the API's.
	std::vector<mrcctl::GenField> k(1);
	k[0].width = 8;
	k[0].init = 2;
	k[0].min = 0;
	k[0].max = 0x0a;
	k[0].mask = 0x0a;
	auto api = ev_gen_from_kernel(k);
	ASSERT_EQ(api.size(), 1u);
	EXPECT_EQ(api[0].width, 8u);
	EXPECT_EQ(api[0].init_val, 2u);
	EXPECT_EQ(api[0].min_val, 0u);
	EXPECT_EQ(api[0].max_val, 3u);
	EXPECT_EQ(api[0].mask, 0x0au);
	// A fixed field, and fixed bits above the varying ones.
	k[0] = {};
	k[0].width = 8;
	k[0].init = k[0].min = k[0].max = 0xab;
	k[0].mask = 0xab;
	api = ev_gen_from_kernel(k);
	EXPECT_EQ(api[0].init_val, 0xabu);
	EXPECT_EQ(api[0].mask, 0u);
	k[0].init = 0x81;
	k[0].min = 0x80;
	k[0].max = 0x83;
	k[0].mask = 0x83;
	api = ev_gen_from_kernel(k);
	EXPECT_EQ(api[0].init_val, 0x81u);
	EXPECT_EQ(api[0].mask, 0x03u);
	EXPECT_EQ(api[0].min_val, 0u);
	EXPECT_EQ(api[0].max_val, 3u);
	// ... and back: the same kernel field.
	std::vector<mrcctl::GenField> back;
	uint32_t shift = 0, n = 0;
	ASSERT_EQ(ev_gen_to_kernel(api, {8, 8}, MRC_EV_FMT_UDP, &back, &shift, &n),
		  0);
	ASSERT_EQ(back.size(), 1u);
	EXPECT_EQ(back[0].init, 0x81u);
	EXPECT_EQ(back[0].min, 0x80u);
	EXPECT_EQ(back[0].max, 0x83u);
	EXPECT_EQ(back[0].mask.value_or(0), 0x83u);
	EXPECT_EQ(shift, 8u);
}

TEST(LibMrcEvFields, ExpIdentityOnly)
{
	EXPECT_EQ(ev_exp_fields_check({{16, 0, 0, 0xffff, 0xffff}}, {16}), 0);
	EXPECT_EQ(ev_exp_fields_check({{20, 0, 0, 0, 0xfffff},
				       {12, 0, 0, 0, 0xfff}},
				      {20, 12}),
		  0);
	EXPECT_EQ(ev_exp_fields_check({{8, 0, 0, 0xff, 0xff}}, {16}), EOPNOTSUPP);
	EXPECT_EQ(ev_exp_fields_check({{16, 0, 0, 0xff, 0xff}}, {16}),
		  EOPNOTSUPP);
	EXPECT_EQ(ev_exp_fields_check({{0, 0, 0, 0, 0}}, {16}), EINVAL);
}

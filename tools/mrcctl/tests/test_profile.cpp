// SPDX-License-Identifier: GPL-2.0-only
// The profile commands' value parsers, printers and grammar: each printer's
// output is accepted by its parser, and what the kernel cannot see (a
// number wider than its attribute) is refused here.
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <linux/mrc.h>

#include "cli.hpp"
#include "profile_format.hpp"
#include "parse_words.hpp"
#include "profile_parse.hpp"
#include "render_one.hpp"

using namespace mrcctl;
using mrcctl::test::parse;
using mrcctl::test::usage_error;

namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(ProfileParse, Times)
{
	EXPECT_EQ(parse_time_ns("100"), 100u);
	EXPECT_EQ(parse_time_ns("100ns"), 100u);
	EXPECT_EQ(parse_time_ns("100us"), 100000u);
	EXPECT_EQ(parse_time_ns("4ms"), 4000000u);
	EXPECT_EQ(parse_time_ns("4294ms"), 4294000000u);
	EXPECT_FALSE(parse_time_ns("4295ms"));
	EXPECT_FALSE(parse_time_ns("1s"));
	EXPECT_FALSE(parse_time_ns("us"));
	EXPECT_FALSE(parse_time_ns("1.5us"));
	for (std::uint32_t t : {0u, 1u, 1500u, 100000u, 4000000u, 4294967295u})
		EXPECT_EQ(parse_time_ns(time_text(t)), t) << time_text(t);
	EXPECT_EQ(time_text(100000), "100us");
	EXPECT_EQ(time_text(4000000), "4ms");
	EXPECT_EQ(time_text(1500), "1500ns");
}

TEST(ProfileParse, PlaneLists)
{
	EXPECT_EQ(parse_plane_list("1"), 0x1);
	EXPECT_EQ(parse_plane_list("1,2,5-8"), 0xf3);
	EXPECT_EQ(parse_plane_list("16"), 0x8000);
	EXPECT_EQ(parse_plane_list("1-16"), 0xffff);
	EXPECT_FALSE(parse_plane_list("0"));
	EXPECT_FALSE(parse_plane_list("17"));
	EXPECT_FALSE(parse_plane_list("3-2"));
	EXPECT_FALSE(parse_plane_list("1,"));
	EXPECT_FALSE(parse_plane_list(""));
	EXPECT_EQ(plane_list_text(0xf3), "1,2,5-8");
	EXPECT_EQ(plane_list_text(0x5), "1,3");
	EXPECT_EQ(plane_list_text(0xffff), "1-16");
	EXPECT_EQ(plane_list_text(0), "none");
	for (unsigned m = 1; m < 0x10000; m += 97)
		EXPECT_EQ(parse_plane_list(plane_list_text(
				  static_cast<std::uint16_t>(m))),
			  m);
}

TEST(ProfileParse, EventMasks)
{
	EXPECT_EQ(parse_event_mask("all"), 0x10fu);
	EXPECT_EQ(parse_event_mask("none"), 0u);
	EXPECT_EQ(parse_event_mask("good,denied"),
		  MRC_EV_EVENT_STATE(MRC_EV_STATE_GOOD) |
			  MRC_EV_EVENT_STATE(MRC_EV_STATE_DENIED));
	EXPECT_EQ(parse_event_mask("profile"), MRC_EV_EVENT_PROFILE);
	EXPECT_FALSE(parse_event_mask("bad"));
	EXPECT_FALSE(parse_event_mask("good,"));
	EXPECT_EQ(event_mask_text(0x10f), "all");
	EXPECT_EQ(event_mask_text(0), "none");
	EXPECT_EQ(event_mask_text(0x104), "assumed-bad,profile");
	EXPECT_EQ(event_mask_text(0x200), "bit9");
	for (std::uint32_t m : {0x1u, 0x2u, 0x6u, 0x108u, 0x10fu})
		EXPECT_EQ(parse_event_mask(event_mask_text(m)), m);
}

TEST(ProfileParse, Enums)
{
	EXPECT_EQ(parse_ev_mode("gen"), MRC_EV_PROFILE_MODE_GEN);
	EXPECT_EQ(parse_ev_format("srv6"), MRC_EV_PROFILE_FORMAT_SRV6);
	EXPECT_EQ(parse_ev_profile_state("online"), MRC_EV_PROFILE_STATE_ONLINE);
	EXPECT_FALSE(parse_ev_mode("AUTO"));
	EXPECT_EQ(ev_state_text(MRC_EV_STATE_ASSUMED_BAD), "assumed-bad");
	EXPECT_EQ(ev_format_text(9), "unknown-9");
}

TEST(ProfileParse, EvValues)
{
	EXPECT_EQ(parse_ev_value(MRC_EV_PROFILE_FORMAT_UDP, "49152"),
		  (Bytes{0xc0, 0x00}));
	EXPECT_EQ(parse_ev_value(MRC_EV_PROFILE_FORMAT_UDP, "0"), (Bytes{0, 0}));
	EXPECT_FALSE(parse_ev_value(MRC_EV_PROFILE_FORMAT_UDP, "65536"));
	EXPECT_EQ(parse_ev_value(MRC_EV_PROFILE_FORMAT_STEV, "0x12345678"),
		  (Bytes{0x12, 0x34, 0x56, 0x78}));
	EXPECT_FALSE(parse_ev_value(MRC_EV_PROFILE_FORMAT_STEV, "fd00::1"));
	auto sid = parse_ev_value(MRC_EV_PROFILE_FORMAT_SRV6, "fd00::1");
	ASSERT_TRUE(sid);
	EXPECT_EQ(sid->size(), 16u);
	EXPECT_EQ(sid->back(), 1);
	auto two = parse_ev_value(MRC_EV_PROFILE_FORMAT_SRV6, "fd00::1,fd01::2");
	ASSERT_TRUE(two);
	EXPECT_EQ(two->size(), 32u);
	EXPECT_FALSE(parse_ev_value(MRC_EV_PROFILE_FORMAT_SRV6, "10.0.0.1"));
	EXPECT_FALSE(parse_ev_value(MRC_EV_PROFILE_FORMAT_SRV6, "fd00::1,"));
	EXPECT_FALSE(parse_ev_value(9, "1"));
	for (auto [f, text] :
	     std::vector<std::pair<std::uint8_t,
				   std::string>>{{MRC_EV_PROFILE_FORMAT_UDP,
						  "49152"},
						 {MRC_EV_PROFILE_FORMAT_STEV,
						  "0x00001000"},
						 {MRC_EV_PROFILE_FORMAT_SRV6,
						  "fd00::1"},
						 {MRC_EV_PROFILE_FORMAT_SRV6,
						  "fd00::1,fd01::2"}}) {
		auto v = parse_ev_value(f, text);
		ASSERT_TRUE(v) << text;
		EXPECT_EQ(ev_value_text(f, *v), text);
	}
	// A length the format cannot have is shown as bytes.
	EXPECT_EQ(ev_value_text(MRC_EV_PROFILE_FORMAT_UDP, {1, 2, 3}),
		  "0x010203");
}

TEST(ProfileParse, GenBase)
{
	EXPECT_EQ(parse_gen_base(MRC_EV_PROFILE_FORMAT_UDP, "0xc000"),
		  (Bytes{0xc0, 0}));
	EXPECT_EQ(parse_gen_base(MRC_EV_PROFILE_FORMAT_UDP, "0x1"),
		  (Bytes{0, 1}));
	EXPECT_EQ(parse_gen_base(MRC_EV_PROFILE_FORMAT_STEV, "0xabc"),
		  (Bytes{0, 0, 0x0a, 0xbc}));
	EXPECT_FALSE(parse_gen_base(MRC_EV_PROFILE_FORMAT_UDP, "0x10000"));
	EXPECT_FALSE(parse_gen_base(MRC_EV_PROFILE_FORMAT_UDP, "c000"));
	EXPECT_FALSE(parse_gen_base(MRC_EV_PROFILE_FORMAT_UDP, "0xg0"));
	auto b = parse_gen_base(MRC_EV_PROFILE_FORMAT_SRV6, "fd00::");
	ASSERT_TRUE(b);
	EXPECT_EQ(gen_base_text(MRC_EV_PROFILE_FORMAT_SRV6, *b), "fd00::");
	EXPECT_EQ(gen_base_text(MRC_EV_PROFILE_FORMAT_UDP, {0xc0, 0}), "0xc000");
}

TEST(ProfileCli, EvProfileAdd)
{
	auto inv = parse({"ev-profile", "add",	 "dev",	   "mrc0",   "id",
			  "5",		"mode",	 "exp",	   "format", "udp",
			  "ev",		"plane", "1",	   "value",  "49152",
			  "ev",		"plane", "2",	   "value",  "0xc001",
			  "min-active", "2",	 "events", "good"});
	EXPECT_EQ(inv.req.cmd, Cmd::EvProfileAdd);
	EXPECT_EQ(inv.req.dev, "mrc0");
	EXPECT_EQ(inv.req.prof.id, 5u);
	EXPECT_EQ(inv.req.prof.mode, MRC_EV_PROFILE_MODE_EXP);
	ASSERT_EQ(inv.req.prof.evs.size(), 2u);
	EXPECT_EQ(inv.req.prof.evs[1].first, 2u);
	EXPECT_EQ(inv.req.prof.evs[1].second, "0xc001");
	EXPECT_EQ(inv.req.prof.min_active, 2u);
}

TEST(ProfileCli, GenFields)
{
	auto inv = parse({"ev-profile", "add",	 "dev",	   "mrc0",   "id",
			  "5",		"mode",	 "gen",	   "format", "stev",
			  "field",	"width", "4",	   "init",   "1",
			  "min",	"1",	 "max",	   "2",	     "field",
			  "max",	"4",	 "min",	   "0",	     "init",
			  "0",		"width", "4",	   "mask",   "0x4",
			  "shift",	"12",	 "planes", "3"});
	ASSERT_EQ(inv.req.prof.fields.size(), 2u);
	EXPECT_EQ(inv.req.prof.fields[0].width, 4u);
	EXPECT_FALSE(inv.req.prof.fields[0].mask);
	EXPECT_EQ(inv.req.prof.fields[1].max, 4u);
	EXPECT_EQ(inv.req.prof.fields[1].mask, 4u);
	EXPECT_EQ(inv.req.prof.shift, 12u);
	EXPECT_EQ(inv.req.prof.plane_mask, 0x4);
}

TEST(ProfileCli, Refusals)
{
	EXPECT_EQ(usage_error({"ev-profile", "add", "dev", "m", "id", "1",
			       "mode", "exp", "format", "udp", "ev", "plane",
			       "1", "value", "65536"})
			  .find("invalid EV value '65536' for format udp"),
		  0u);
	EXPECT_EQ(usage_error({"ev-profile", "add", "dev", "m", "id", "1",
			       "format", "udp"}),
		  "missing 'mode MODE'");
	EXPECT_EQ(usage_error({"ev-profile", "set", "dev", "m", "id", "1",
			       "min-active", "65536"}),
		  "min-active 65536 is larger than 65535");
	EXPECT_EQ(usage_error({"ev-profile", "set", "dev", "m", "id", "1"}),
		  "missing state, min-active or events");
	EXPECT_EQ(usage_error({"ev-profile", "add", "dev", "m", "id", "1", "mode",
			       "gen", "format", "udp", "field", "width", "4"}),
		  "'field' needs width, init, min and max");
	EXPECT_EQ(usage_error({"ev-profile", "add", "dev", "m", "id", "1", "mode",
			       "exp", "format", "udp", "ev", "value", "1"}),
		  "'ev' needs 'plane'");
	EXPECT_EQ(usage_error({"ev-profile", "ev", "deny", "dev", "m",
			       "profile", "1"}),
		  "missing 'index I'");
	EXPECT_EQ(usage_error({"ev", "show", "dev", "m"}),
		  "missing 'profile ID'");
	EXPECT_EQ(usage_error({"cc-profile", "add", "dev", "m", "id", "1"}),
		  "missing 'algo uet-1.0-nscc' or 'algo none'");
	EXPECT_EQ(usage_error({"cc-profile", "set", "dev", "m", "id", "1",
			       "eta", "1", "eta", "2"}),
		  "eta given twice");
	EXPECT_EQ(usage_error({"cc-profile", "set", "dev", "m", "id", "1",
			       "qa-gate", "256"}),
		  "qa-gate 256 is larger than 255");
	EXPECT_EQ(usage_error({"cc-profile", "set", "dev", "m", "id", "1",
			       "disable-qa", "yes"}),
		  "disable-qa takes on or off");
}

TEST(ProfileCli, CcValuesAndAbbreviations)
{
	EXPECT_EQ(usage_error({"cc-profile", "set", "d", "mrc0"}),
		  "'d' is ambiguous (dev, disable-qa)");
	auto inv = parse({"cc", "se", "dev", "mrc0", "id", "1", "base-rtt",
			  "20us", "disable-qa", "on", "max-cwnd", "0x100000"});
	EXPECT_EQ(inv.req.cmd, Cmd::CcProfileSet);
	ASSERT_EQ(inv.req.prof.cc.size(), 3u);
	EXPECT_EQ(inv.req.prof.cc[0],
		  (std::pair<std::uint16_t, std::uint32_t>{MRC_A_CC_BASE_RTT,
							   20000}));
	EXPECT_EQ(inv.req.prof.cc[1].second, 1u);
	EXPECT_EQ(inv.req.prof.cc[2].second, 0x100000u);
	auto ev = parse({"ev", "show", "dev", "mrc0", "profile", "3"});
	EXPECT_EQ(ev.req.cmd, Cmd::EvShow);
	auto rep = parse({"ev-profile", "ev", "rep", "dev", "m", "profile", "2",
			  "index", "1", "plane", "2", "value", "fd00::1"});
	EXPECT_EQ(rep.req.cmd, Cmd::EvReplace);
	EXPECT_EQ(rep.req.prof.ev_value, "fd00::1");
	auto h = parse({"help", "cc-profile", "add"});
	EXPECT_EQ(h.req.cmd, Cmd::Help);
	EXPECT_NE(help_text(h.req.topic).find("uet-1.0-nscc"), std::string::npos);
}

TEST(ProfileFormat, EvProfileText)
{
	EvProfile p;
	p.dev = "mrc0";
	p.id = 3;
	p.mode = MRC_EV_PROFILE_MODE_GEN;
	p.format = MRC_EV_PROFILE_FORMAT_UDP;
	p.state = MRC_EV_PROFILE_STATE_ONLINE;
	p.min_active = 0;
	p.event_mask = 0x10f;
	p.plane_mask = 0x3;
	p.shift = 0;
	p.base = Bytes{0xc0, 0};
	p.fields.push_back({2, 0, 0, 3, 3});
	p.evs = std::vector<Ev>{{0, 1, {0xc0, 0}, MRC_EV_STATE_UNKNOWN},
				{1, 2, {0xc0, 0}, MRC_EV_STATE_DENIED}};
	EXPECT_EQ(mrcctl::test::text_of(print_ev_profile, p),
		  "dev mrc0 id 3 mode gen format udp state online min-active 0 "
		  "events all planes 1,2 shift 0 base 0xc000\n"
		  "    field width 2 init 0 min 0 max 3 mask 0x3\n"
		  "    index 0 plane 1 value 49152 state unknown\n"
		  "    index 1 plane 2 value 49152 state denied\n");
	EXPECT_EQ(mrcctl::test::text_of(
			  [](Printer &q, const EvProfile &x) {
				  print_ev_profile_fields(q, x, true);
			  },
			  p)
			  .substr(0, 9),
		  "id 3 mode");
	EXPECT_NE(mrcctl::test::text_of(
			  [](Printer &q, const EvProfile &x) {
				  print_ev_profile_fields(q, x, true);
			  },
			  p)
			  .find(" evs 2"),
		  std::string::npos);
}

TEST(ProfileFormat, CcProfile)
{
	CcProfile p;
	p.dev = "mrc0";
	p.id = 1;
	p.algo = "uet-1.0-nscc";
	p.values = {{MRC_A_CC_BASE_RTT, 100000},
		    {MRC_A_CC_GAMMA, 512},
		    {MRC_A_CC_DISABLE_QA, 1}};
	EXPECT_EQ(mrcctl::test::text_of(print_cc_profile, p),
		  "dev mrc0 id 1 algo uet-1.0-nscc base-rtt 100us gamma 512 "
		  "disable-qa on\n");
	EXPECT_EQ(mrcctl::test::json_of(print_cc_profile, p),
		  "{\"dev\":\"mrc0\",\"id\":1,\"algo\":\"uet-1.0-nscc\","
		  "\"base_rtt\":100000,\"gamma\":512,\"disable_qa\":true}");
}

} // namespace

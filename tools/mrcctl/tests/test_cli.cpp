// SPDX-License-Identifier: GPL-2.0-only
#include <initializer_list>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <linux/mrc.h>

#include "cli.hpp"
#include "parse_words.hpp"

using namespace mrcctl;
using mrcctl::test::parse;
using mrcctl::test::usage_error;

namespace {

TEST(Cli, PlaneAddFull)
{
	auto inv = parse(
		{"plane", "add", "dev", "mrc0", "netdev", "veth1", "id", "2"});
	EXPECT_EQ(inv.req.cmd, Cmd::PlaneAdd);
	EXPECT_EQ(inv.req.dev, "mrc0");
	EXPECT_EQ(inv.req.netdev, "veth1");
	EXPECT_EQ(inv.req.id, 2u);
	EXPECT_FALSE(inv.opts.json);
}

TEST(Cli, PlaneAddWithoutIdAnyOrder)
{
	auto inv = parse({"plane", "add", "netdev", "veth1", "dev", "mrc0"});
	EXPECT_EQ(inv.req.cmd, Cmd::PlaneAdd);
	EXPECT_EQ(inv.req.netdev, "veth1");
	EXPECT_FALSE(inv.req.id.has_value());
}

TEST(Cli, UniquePrefixes)
{
	auto inv = parse({"pl", "a", "de", "mrc0", "n", "veth1", "i", "3"});
	EXPECT_EQ(inv.req.cmd, Cmd::PlaneAdd);
	EXPECT_EQ(inv.req.dev, "mrc0");
	EXPECT_EQ(inv.req.netdev, "veth1");
	EXPECT_EQ(inv.req.id, 3u);

	inv = parse({"pl", "se", "dev", "mrc0", "id", "2", "do"});
	EXPECT_EQ(inv.req.cmd, Cmd::PlaneSet);
	EXPECT_EQ(inv.req.up, false);

	// "p" names plane and probe, "c" conn and cc-profile: ambiguous.
	EXPECT_THROW(parse({"p", "show"}), UsageError);
	EXPECT_THROW(parse({"c", "show"}), UsageError);
	EXPECT_EQ(parse({"co", "show"}).req.cmd, Cmd::ConnShow);
	EXPECT_EQ(parse({"pr", "dev", "m", "to", "10.0.0.2"}).req.cmd,
		  Cmd::Probe);

	inv = parse({"m"});
	EXPECT_EQ(inv.req.cmd, Cmd::Monitor);

	inv = parse({"d"});
	EXPECT_EQ(inv.req.cmd, Cmd::DevShow);
}

TEST(Cli, AliasesAreNotAmbiguous)
{
	// "de" is a prefix of both "del" and "delete": the same action.
	EXPECT_EQ(parse({"plane", "de", "dev", "m", "id", "2"}).req.cmd,
		  Cmd::PlaneDel);
	EXPECT_EQ(parse({"plane", "delete", "dev", "m", "id", "2"}).req.cmd,
		  Cmd::PlaneDel);
	EXPECT_EQ(parse({"plane", "list"}).req.cmd, Cmd::PlaneShow);
}

TEST(Cli, AmbiguousPrefix)
{
	std::string topic;
	// "s" is both "show" and "set".
	EXPECT_NE(usage_error({"plane", "s"}, &topic).find("ambiguous"),
		  std::string::npos);
	// In plane set, "d" is both "dev" and "down".
	std::string msg = usage_error({"plane", "set", "d", "mrc0", "id", "2",
				       "up"},
				      &topic);
	EXPECT_NE(msg.find("'d' is ambiguous (dev, down)"), std::string::npos);
	EXPECT_EQ(topic, "plane set");
}

TEST(Cli, DefaultActionIsShow)
{
	EXPECT_EQ(parse({"plane"}).req.cmd, Cmd::PlaneShow);
	EXPECT_EQ(parse({"dev"}).req.cmd, Cmd::DevShow);
	auto inv = parse({"plane", "show", "dev", "mrc1", "id", "4"});
	EXPECT_EQ(inv.req.dev, "mrc1");
	EXPECT_EQ(inv.req.id, 4u);
}

TEST(Cli, Options)
{
	auto inv = parse({"-j", "plane", "show"});
	EXPECT_TRUE(inv.opts.json);
	EXPECT_FALSE(inv.opts.pretty);
	inv = parse({"-p", "dev", "show"});
	EXPECT_TRUE(inv.opts.json) << "-p implies -j";
	EXPECT_TRUE(inv.opts.pretty);
	inv = parse({"-jps", "plane"});
	EXPECT_TRUE(inv.opts.json && inv.opts.pretty && inv.opts.stats);
	inv = parse({"-s", "dev", "show", "dev", "mrc1"});
	EXPECT_TRUE(inv.opts.stats);
	EXPECT_FALSE(inv.opts.json);
	EXPECT_EQ(inv.req.cmd, Cmd::DevShow);
	EXPECT_EQ(inv.req.dev, "mrc1");
	inv = parse({"--stats", "-j", "plane", "show"});
	EXPECT_TRUE(inv.opts.stats && inv.opts.json);
	EXPECT_EQ(inv.req.cmd, Cmd::PlaneShow);
	EXPECT_FALSE(parse({"dev", "show"}).opts.stats);
	inv = parse({"--json", "--pretty", "monitor"});
	EXPECT_TRUE(inv.opts.pretty);
	EXPECT_EQ(parse({"-V"}).req.cmd, Cmd::Version);
	EXPECT_EQ(parse({"--version"}).req.cmd, Cmd::Version);
	EXPECT_EQ(parse({"-h"}).req.cmd, Cmd::Help);
	EXPECT_EQ(parse({"--help", "plane"}).req.cmd, Cmd::Help);
	EXPECT_NE(usage_error({"-x", "plane"}), "");
	EXPECT_NE(usage_error({"--frobnicate", "plane"}), "");
}

TEST(Cli, NetnsOption)
{
	auto inv = parse({"-n", "ns1", "-j", "plane", "show"});
	EXPECT_EQ(inv.opts.netns, "ns1");
	EXPECT_TRUE(inv.opts.json);
	EXPECT_EQ(inv.req.cmd, Cmd::PlaneShow);
	EXPECT_EQ(parse({"--netns", "/proc/1/ns/net", "dev"}).opts.netns,
		  "/proc/1/ns/net");
	EXPECT_TRUE(parse({"plane"}).opts.netns.empty());
	EXPECT_NE(usage_error({"-n"}).find("needs a network namespace"),
		  std::string::npos);
	EXPECT_NE(usage_error({"-n", "", "plane"}), "");
}

TEST(Cli, HelpAtEveryLevel)
{
	auto inv = parse({"help"});
	EXPECT_EQ(inv.req.cmd, Cmd::Help);
	EXPECT_EQ(inv.req.topic, "");
	EXPECT_EQ(parse({"plane", "help"}).req.topic, "plane");
	EXPECT_EQ(parse({"dev", "help"}).req.topic, "dev");
	EXPECT_EQ(parse({"monitor", "help"}).req.topic, "monitor");
	EXPECT_EQ(parse({"plane", "add", "help"}).req.topic, "plane add");
	EXPECT_EQ(parse({"plane", "set", "dev", "x", "help"}).req.topic,
		  "plane set");
	EXPECT_EQ(parse({"plane", "del", "help"}).req.cmd, Cmd::Help);
	EXPECT_EQ(parse({"help", "pl", "a"}).req.topic, "plane add");
	EXPECT_EQ(parse({"help", "plane"}).req.topic, "plane");
	EXPECT_EQ(parse({"help", "help"}).req.topic, "");
	for (const char *t : {"", "dev", "dev show", "plane", "plane add",
			      "plane del", "plane set", "plane show", "monitor"})
		EXPECT_FALSE(help_text(t).empty()) << t;
	EXPECT_TRUE(help_text("nonsense").empty());
}

TEST(Cli, HelpWordAsAValueIsAValue)
{
	// A device may be called "help"; in value position it is a name.
	auto inv = parse({"plane", "show", "dev", "help"});
	EXPECT_EQ(inv.req.cmd, Cmd::PlaneShow);
	EXPECT_EQ(inv.req.dev, "help");
}

TEST(Cli, MissingArguments)
{
	std::string topic;
	EXPECT_EQ(usage_error({}), "no command given");
	EXPECT_EQ(usage_error({"plane", "add", "dev", "mrc0"}, &topic),
		  "missing 'netdev NAME'");
	EXPECT_EQ(topic, "plane add");
	EXPECT_EQ(usage_error({"plane", "add", "netdev", "v"}),
		  "missing 'dev NAME'");
	EXPECT_EQ(usage_error({"plane", "del", "dev", "mrc0"}),
		  "missing 'id ID'");
	EXPECT_EQ(usage_error({"plane", "set", "dev", "mrc0", "id", "2"}),
		  "missing 'up' or 'down'");
	EXPECT_EQ(usage_error({"plane", "add", "dev"}), "dev needs a name");
	EXPECT_EQ(usage_error({"plane", "del", "dev", "m", "id"}),
		  "id needs a number");
}

TEST(Cli, ExtraAndRepeatedArguments)
{
	std::string topic;
	EXPECT_NE(usage_error({"plane", "del", "dev", "m", "id", "2", "bogus"},
			      &topic)
			  .find("unknown word 'bogus'"),
		  std::string::npos);
	EXPECT_EQ(topic, "plane del");
	// netdev is a word of plane add, not of plane del.
	EXPECT_NE(usage_error({"plane", "del", "dev", "m", "id", "2", "netdev",
			       "v"})
			  .find("unknown word 'netdev'"),
		  std::string::npos);
	EXPECT_EQ(usage_error({"plane", "del", "dev", "a", "dev", "b", "id", "2"}),
		  "dev given twice");
	EXPECT_EQ(usage_error({"plane", "set", "dev", "a", "id", "2", "up",
			       "down"}),
		  "up/down given twice");
	EXPECT_NE(usage_error({"bogus"}), "");
	EXPECT_NE(usage_error({"plane", "frob"}), "");
	EXPECT_NE(usage_error({"dev", "show", "mrc0"}), "");
}

TEST(Cli, BadIds)
{
	for (const char *bad : {"abc", "-1", "1x", "0x", "0xg", "", " 2", "+2",
				"4294967296", "99999999999"}) {
		std::string msg = usage_error(
			{"plane", "del", "dev", "m", "id", bad});
		EXPECT_NE(msg.find("invalid id"), std::string::npos) << bad;
	}
	// Range is the kernel's business: 0 and 17 reach it.
	EXPECT_EQ(parse({"plane", "del", "dev", "m", "id", "0"}).req.id, 0u);
	EXPECT_EQ(parse({"plane", "del", "dev", "m", "id", "17"}).req.id, 17u);
	EXPECT_EQ(parse({"plane", "del", "dev", "m", "id", "4294967295"}).req.id,
		  4294967295u);
}

TEST(Cli, BadNames)
{
	EXPECT_NE(usage_error({"plane", "add", "dev", "m", "netdev",
			       "sixteen-chars-xx"})
			  .find("longer than 15"),
		  std::string::npos);
	EXPECT_EQ(parse({"plane", "add", "dev", "m", "netdev", "fifteen-chars-x"})
			  .req.netdev,
		  "fifteen-chars-x");
	EXPECT_NE(usage_error({"plane", "add", "dev", "", "netdev", "v"})
			  .find("empty"),
		  std::string::npos);
	EXPECT_NE(usage_error({"plane", "show", "dev", std::string(64, 'a')}),
		  "");
}

// One number grammar and one wording for every command: what one accepts
// the others accept ("route add ... plane 0x1" was refused while
// "ev-profile add ... count 0x4" was accepted).
TEST(Cli, OneNumberGrammarEverywhere)
{
	EXPECT_EQ(parse({"plane", "del", "dev", "m", "id", "0x2"}).req.id, 2u);
	auto route = parse({"route", "add", "10.0.0.2", "dev", "m", "plane",
			    "0x1", "via", "10.1.0.2", "ev-profile", "0x10",
			    "cc-profile", "3"});
	ASSERT_EQ(route.req.hops.size(), 1u);
	EXPECT_EQ(route.req.hops[0].first, 1u);
	EXPECT_EQ(route.req.ev_profile, 16u);
	EXPECT_EQ(route.req.cc_profile, 3u);
	EXPECT_EQ(parse({"conn", "show", "qpn", "0x11"}).req.id, 17u);
	auto probe = parse({"probe", "dev", "m", "to", "10.0.0.2", "ev",
			    "0xc000", "plane", "0x1", "timeout", "0x64"});
	EXPECT_EQ(probe.req.ev_sport, 0xc000u);
	EXPECT_EQ(probe.req.timeout_ms, 100u);
	auto prof = parse({"ev-profile", "set", "dev", "m", "id", "0x5",
			   "min-active", "0x2"});
	EXPECT_EQ(prof.req.prof.id, 5u);
	EXPECT_EQ(prof.req.prof.min_active, 2u);
	EXPECT_EQ(parse({"ev", "show", "dev", "m", "profile", "0x7"}).req.prof.id,
		  7u);
	auto cc = parse(
		{"cc-profile", "set", "dev", "m", "id", "010", "eta", "0x20"});
	EXPECT_EQ(cc.req.prof.id, 10u);
	ASSERT_EQ(cc.req.prof.cc.size(), 1u);
	EXPECT_EQ(cc.req.prof.cc[0].second, 32u);

	const std::string bad = "': expected a number (decimal or 0x hex)";
	EXPECT_EQ(usage_error({"plane", "del", "dev", "m", "id", "x"}),
		  "invalid id 'x" + bad);
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "m", "plane",
			       "0xg", "via", "10.1.0.2"}),
		  "invalid plane '0xg" + bad);
	EXPECT_EQ(usage_error({"ev-profile", "del", "dev", "m", "id", "x"}),
		  "invalid id 'x" + bad);
	EXPECT_EQ(usage_error({"ev-profile", "set", "dev", "m", "id", "1",
			       "min-active", "-1"}),
		  "invalid min-active '-1" + bad);
	EXPECT_EQ(usage_error({"cc-profile", "set", "dev", "m", "id", "1",
			       "eta", "x"}),
		  "invalid eta 'x" + bad);
	EXPECT_EQ(usage_error({"probe", "dev", "m", "to", "10.0.0.2", "timeout",
			       "1s"}),
		  "invalid timeout '1s" + bad);
	// A missing value and a dev name: the same words for every object.
	EXPECT_EQ(usage_error({"plane", "del", "dev", "m", "id"}),
		  "id needs a number");
	EXPECT_EQ(usage_error({"ev-profile", "del", "dev", "m", "id"}),
		  "id needs a number");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "m",
			       "ev-profile"}),
		  "ev-profile needs a number");
	EXPECT_EQ(usage_error({"ev-profile", "show", "dev"}), "dev needs a name");
	EXPECT_EQ(usage_error({"cc-profile", "show", "dev", std::string(64, 'a')}),
		  "dev name '" + std::string(64, 'a') +
			  "' is longer than 63 characters");
	EXPECT_EQ(usage_error({"ev-profile", "show", "dev", "m", "dev", "n"}),
		  "dev given twice");
}

TEST(Cli, MatchKeyword)
{
	const Keyword t[] = {{"show", 1}, {"set", 2}, {"list", 1}};
	EXPECT_EQ(match_keyword("show", t, ""), 1);
	EXPECT_EQ(match_keyword("sh", t, ""), 1);
	EXPECT_EQ(match_keyword("se", t, ""), 2);
	EXPECT_EQ(match_keyword("l", t, ""), 1);
	EXPECT_THROW(match_keyword("s", t, ""), UsageError);
	EXPECT_THROW(match_keyword("", t, ""), UsageError);
	EXPECT_THROW(match_keyword("shows", t, ""), UsageError);
	// An exact match wins over being a prefix of a longer word.
	const Keyword u[] = {{"del", 1}, {"delta", 2}};
	EXPECT_EQ(match_keyword("del", u, ""), 1);
}

} // namespace

namespace {

TEST(Cli, RouteAddIssueExample)
{
	auto inv = parse({"route", "add", "10.0.0.2", "dev", "mrc0", "plane",
			  "1", "via", "10.1.0.2", "plane", "2", "via",
			  "10.2.0.2", "ev-profile", "7", "cc-profile", "1"});
	EXPECT_EQ(inv.req.cmd, Cmd::RouteAdd);
	EXPECT_EQ(inv.req.peer, "10.0.0.2");
	EXPECT_EQ(inv.req.dev, "mrc0");
	using Hops = std::vector<std::pair<std::uint32_t, std::string>>;
	EXPECT_EQ(inv.req.hops, (Hops{{1, "10.1.0.2"}, {2, "10.2.0.2"}}));
	EXPECT_EQ(inv.req.ev_profile, 7u);
	EXPECT_EQ(inv.req.cc_profile, 1u);
}

TEST(Cli, RouteSetDelShowIpv6AndPrefixes)
{
	auto inv = parse({"ro", "se", "fd00::2", "d", "mrc0", "pl", "3", "v",
			  "fd03::2"});
	EXPECT_EQ(inv.req.cmd, Cmd::RouteSet);
	EXPECT_EQ(inv.req.peer, "fd00::2");
	ASSERT_EQ(inv.req.hops.size(), 1u);
	EXPECT_EQ(inv.req.hops[0].first, 3u);
	EXPECT_EQ(inv.req.hops[0].second, "fd03::2");
	EXPECT_FALSE(inv.req.ev_profile.has_value());

	inv = parse({"route", "del", "dev", "mrc0", "10.0.0.2"});
	EXPECT_EQ(inv.req.cmd, Cmd::RouteDel);
	EXPECT_EQ(inv.req.peer, "10.0.0.2");

	inv = parse({"-j", "route"});
	EXPECT_EQ(inv.req.cmd, Cmd::RouteShow);
	EXPECT_FALSE(inv.req.dev.has_value());
	EXPECT_FALSE(inv.req.peer.has_value());

	inv = parse({"route", "show", "fd00::2"});
	EXPECT_EQ(inv.req.cmd, Cmd::RouteShow);
	EXPECT_EQ(inv.req.peer, "fd00::2");
}

TEST(Cli, RouteUsageErrors)
{
	std::string topic;
	EXPECT_EQ(usage_error({"route", "add", "dev", "mrc0", "plane", "1",
			       "via", "10.1.0.2"},
			      &topic),
		  "missing peer address");
	EXPECT_EQ(topic, "route add");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "plane", "1", "via",
			       "10.1.0.2"}),
		  "missing 'dev NAME'");
	EXPECT_EQ(usage_error({"route", "set", "10.0.0.2", "dev", "mrc0"}, &topic),
		  "missing 'plane N via ADDR'");
	EXPECT_EQ(topic, "route set");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "mrc0",
			       "plane", "1"}),
		  "'plane 1' needs 'via ADDR'");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "mrc0",
			       "plane", "1", "via"}),
		  "via needs an address");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "mrc0",
			       "plane", "1", "via", "10.1.0.300"}),
		  "invalid via address '10.1.0.300': expected IPv4 or IPv6");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "mrc0",
			       "plane", "x", "via", "10.1.0.2"}),
		  "invalid plane 'x': expected a number (decimal or 0x hex)");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "mrc0",
			       "plane", "1", "to", "10.1.0.2"}),
		  "unknown word 'to' (expected one of: via)");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "mrc0",
			       "plane", "1", "via", "10.1.0.2", "ev-profile",
			       "1", "ev-profile", "2"}),
		  "ev-profile given twice");
	EXPECT_EQ(usage_error({"route", "del", "10.0.0.2", "10.0.0.3", "dev",
			       "mrc0"}),
		  "peer address given twice (10.0.0.2, 10.0.0.3)");
	EXPECT_EQ(usage_error({"route", "del", "10.0.0.2", "dev", "mrc0",
			       "plane", "1"}),
		  "unknown word 'plane' (expected one of: dev, help)");
	EXPECT_EQ(usage_error({"route", "del", "10.0.0.300", "dev", "mrc0"}),
		  "unknown word '10.0.0.300' (expected one of: dev, help)");
	EXPECT_EQ(usage_error({"route", "add", "10.0.0.2", "dev", "mrc0",
			       "plane", "1", "via", "10.1.0.2", "x", "1"}),
		  "unknown word 'x' (expected one of: dev, plane, ev-profile, "
		  "cc-profile, help)");
}

TEST(Cli, RouteHelp)
{
	auto inv = parse({"route", "add", "help"});
	EXPECT_EQ(inv.req.cmd, Cmd::Help);
	EXPECT_EQ(inv.req.topic, "route add");
	EXPECT_NE(help_text("route add").find("ev-profile"), std::string::npos);
	inv = parse({"help", "route"});
	EXPECT_EQ(inv.req.topic, "route");
	EXPECT_NE(help_text("").find("route"), std::string::npos);
}

} // namespace

// probe's explicit EVs (an endpoint batch): one ProbeEv per "ev plane N
// ...", in order, each format's value big endian as the kernel wants it.
TEST(Cli, ProbeExplicitEvs)
{
	auto p = parse({"probe", "dev",	       "mrc0", "to",	  "fd00::2",
			"from",	 "fd00::1",    "ev",   "plane",	  "1",
			"sport", "49152",      "ev",   "plane",	  "2",
			"stev",	 "0x12345678", "ev",   "plane",	  "3",
			"sid",	 "fc00:3::1",  "ev",   "plane",	  "4",
			"sid",	 "fc00:4::1",  "seg",  "fd00::2", "timeout",
			"50"});
	EXPECT_EQ(p.req.cmd, Cmd::Probe);
	EXPECT_EQ(p.req.from, "fd00::1");
	EXPECT_EQ(p.req.timeout_ms, 50u);
	EXPECT_FALSE(p.req.ev_sport);
	ASSERT_EQ(p.req.probe_evs.size(), 4u);
	EXPECT_EQ(p.req.probe_evs[0],
		  (ProbeEv{1, MRC_EV_PROFILE_FORMAT_UDP, {0xc0, 0x00}}));
	EXPECT_EQ(p.req.probe_evs[1], (ProbeEv{2,
					       MRC_EV_PROFILE_FORMAT_STEV,
					       {0x12, 0x34, 0x56, 0x78}}));
	EXPECT_EQ(p.req.probe_evs[2].format, MRC_EV_PROFILE_FORMAT_SRV6);
	ASSERT_EQ(p.req.probe_evs[2].value.size(), 16u);
	EXPECT_EQ(p.req.probe_evs[2].value[0], 0xfc);
	EXPECT_EQ(p.req.probe_evs[2].value[3], 0x03);
	EXPECT_EQ(p.req.probe_evs[2].value[15], 0x01);
	ASSERT_EQ(p.req.probe_evs[3].value.size(), 32u);
	EXPECT_EQ(p.req.probe_evs[3].value[16], 0xfd);
	EXPECT_EQ(p.req.probe_evs[3].value[31], 0x02);
	EXPECT_EQ(p.req.probe_evs[3].plane, 4u);

	// The old one-EV form still parses as before.
	auto old = parse({"probe", "dev", "m", "to", "10.0.0.2", "ev", "49152",
			  "plane", "2"});
	EXPECT_EQ(old.req.ev_sport, 49152u);
	EXPECT_EQ(old.req.ev_plane, 2u);
	EXPECT_TRUE(old.req.probe_evs.empty());

	const std::vector<std::string> to = {"probe", "dev", "m", "to",
					     "10.0.0.2"};
	auto with = [&](std::vector<std::string> w) -> std::string {
		std::vector<std::string> all = to;
		all.insert(all.end(), w.begin(), w.end());
		std::vector<std::string_view> v(all.begin(), all.end());
		try {
			parse_args(v);
		} catch (const UsageError &e) {
			return e.what();
		}
		return "";
	};
	EXPECT_EQ(with({"ev", "plane", "0", "sport", "1"}),
		  "plane must be 1..16");
	EXPECT_EQ(with({"ev", "plane", "17", "sport", "1"}),
		  "plane 17 is larger than 16");
	EXPECT_EQ(with({"ev", "plane", "1", "sport", "0"}),
		  "sport must be 1..65535");
	EXPECT_EQ(with({"ev", "plane", "1", "sport", "65536"}),
		  "sport 65536 is larger than 65535");
	EXPECT_EQ(with({"ev", "plane", "1"}),
		  "'ev plane N' needs 'sport P', 'stev V' or 'sid ADDR'");
	EXPECT_EQ(with({"ev", "plane", "1", "port", "3"}),
		  "'ev plane N' needs 'sport P', 'stev V' or 'sid ADDR', not port");
	EXPECT_EQ(with({"ev", "plane", "1", "sid", "10.0.0.9"}),
		  "sid must be an IPv6 address");
	EXPECT_EQ(with({"ev", "plane", "1", "sport", "1", "ev", "2", "plane",
			"1"}),
		  "'ev plane N ...' goes with neither 'ev PORT plane N' nor "
		  "'ev-profile ID'");
	EXPECT_EQ(with({"from", "10.0.0.1"}),
		  "'from ADDR' needs 'ev plane N ...'");
	std::vector<std::string> many;
	for (int i = 0; i < 257; i++)
		many.insert(many.end(), {"ev", "plane", "1", "sport",
					 std::to_string(i + 1)});
	EXPECT_EQ(with(many), "at most 256 EVs in one probe");
}

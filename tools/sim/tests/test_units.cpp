// SPDX-License-Identifier: GPL-2.0-only
// Scenario parsing and topology construction.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "config.hpp"
#include "fabric.hpp"
#include "metrics.hpp"
#include "topology.hpp"

using namespace mrcsim;

TEST(Config, UnitsAndOverrides)
{
	Config c;
	c.parse_text("a = 1.5us # comment\nb = 2MB\nr = 400G\nf = 1%\nfailure = x\nfailure = y\n",
		     "t");
	EXPECT_EQ(c.time("a", 0), 1500 * kNs);
	EXPECT_EQ(c.bytes("b", 0), 2u * 1024 * 1024);
	EXPECT_DOUBLE_EQ(c.rate("r", 0), 400.0);
	EXPECT_DOUBLE_EQ(c.real("f", 0), 0.01);
	EXPECT_EQ(c.all("failure").size(), 2u);
	c.set("a=3ms");
	EXPECT_EQ(c.time("a", 0), 3 * kMs);
	EXPECT_EQ(c.integer("missing", 7), 7);
	EXPECT_THROW(c.parse_text("no equals sign", "t"), ConfigError);
	EXPECT_THROW(Config::parse_time("3 parsecs"), ConfigError);
	c.parse_text("typo = 1", "t");
	auto u = c.unused();
	EXPECT_NE(std::find(u.begin(), u.end(), "typo"), u.end());
}

TEST(Topology, FatTreeSizedFromHosts)
{
	Config c;
	c.parse_text("topology = fat_tree\nhosts = 128\nplanes = 2\n", "t");
	TopoParams p = TopoParams::from(c);
	EXPECT_EQ(p.k, 8u);
	Topology t(p);
	EXPECT_EQ(t.hosts(), 128u);
	// Per plane: 32 edge + 32 agg + 16 core switches.
	EXPECT_EQ(t.node_count(), 128u + 2 * 80);
	// Per plane: 128 edge-agg + 128 agg-core links.
	EXPECT_EQ(t.fabric_links().size(), 2u * 256);
	EXPECT_EQ(t.hops_between(0, 1), 2u);
	EXPECT_EQ(t.hops_between(0, 4), 4u);
	EXPECT_EQ(t.hops_between(0, 127), 6u);
}

TEST(Topology, LeafSpineOversubscription)
{
	Config c;
	c.parse_text("hosts = 64\nhosts_per_leaf = 16\noversubscription = 2\nplanes = 4\n",
		     "t");
	Topology t(TopoParams::from(c));
	EXPECT_EQ(t.top_count(), 8u);
	EXPECT_EQ(t.fabric_links().size(), 4u * 4 * 8);
	EXPECT_EQ(t.link_name(t.find_link("p4:leaf2-spine7")), "p4:leaf2-spine7");
	EXPECT_THROW(t.find_link("p5:leaf0-spine0"), ConfigError);
	EXPECT_THROW(t.find_link("p0:leaf0-spine0"), ConfigError);
	EXPECT_THROW(t.find_link("p1:leaf0-spine8"), ConfigError);
}

class PathTest : public ::testing::TestWithParam<const char *> {};

// SRV6 EVs are exact: EV k crosses top switch k; hashed EVs spread.
TEST_P(PathTest, Srv6ExactAndEcmpSpread)
{
	Config c;
	c.parse_text(GetParam(), "t");
	TopoParams tp = TopoParams::from(c);
	Topology t(tp);
	SimCore core;
	Fabric f(t, FabricParams::from(c, tp), core);
	const std::uint32_t dst = t.hosts() - 1;
	std::set<std::uint32_t> tops;
	for (std::uint32_t k = 0; k < t.top_count(); ++k) {
		auto p = f.path(0, dst, 1, k, true);
		ASSERT_EQ(p.size(), t.hops_between(0, dst));
		std::uint32_t top = t.port(p[p.size() / 2 - 1]).peer;
		EXPECT_EQ(t.node(top).index, k);
		EXPECT_EQ(t.node(top).plane, 1);
		tops.insert(top);
	}
	EXPECT_EQ(tops.size(), t.top_count());
	std::set<std::uint32_t> hashed;
	for (std::uint32_t ev = 0; ev < 64 * t.top_count(); ++ev) {
		auto p = f.path(0, dst, 0, ev, false);
		hashed.insert(t.port(p[p.size() / 2 - 1]).peer);
	}
	EXPECT_EQ(hashed.size(), t.top_count());
}

INSTANTIATE_TEST_SUITE_P(
	Topologies, PathTest,
	::testing::Values("hosts = 32\nhosts_per_leaf = 8\nplanes = 2\n",
			  "topology = fat_tree\nfat_tree_k = 4\nplanes = 2\n"),
	[](const auto &i) { return i.index ? "fat_tree" : "leaf_spine"; });

TEST(Metrics, PercentilesAndJain)
{
	std::vector<double> v;
	for (int i = 1; i <= 100; ++i)
		v.push_back(i);
	Percentiles p = percentiles(v);
	EXPECT_DOUBLE_EQ(p.p1, 1);
	EXPECT_DOUBLE_EQ(p.p50, 50);
	EXPECT_DOUBLE_EQ(p.p99, 99);
	EXPECT_DOUBLE_EQ(p.mean, 50.5);
	EXPECT_DOUBLE_EQ(jain_index({1, 1, 1, 1}), 1.0);
	EXPECT_DOUBLE_EQ(jain_index({1, 0, 0, 0}), 0.25);
}

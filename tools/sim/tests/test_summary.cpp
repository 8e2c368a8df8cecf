// SPDX-License-Identifier: GPL-2.0-only
// The JSON summary is JSON whatever the scenario's name holds: it was
// once printed through a format string, and a name with a quote made the
// whole file unreadable to every script that loads it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "sim.hpp"

using namespace mrcsim;

TEST(Summary, AnyNameRoundTripsThroughAJsonParser)
{
	const std::string names[] = {
		"a\"b",
		"back\\slash",
		std::string("ctl\x01\x1f\t\n\r", 8),
		"ends with a backslash \\",
		"caf\xc3\xa9",
	};
	for (const std::string &name : names) {
		Config c;
		c.parse_text("hosts = 16\nhosts_per_leaf = 4\nplanes = 2\ntraffic = single\nsrc = 0\ndst = 15\n"
			     "flow_bytes = 1MB\nfailure = link_down at=5us link=flow0:1\n",
			     "test");
		c.set("name", name);
		Simulation s(c);
		s.run({});
		nlohmann::json j;
		ASSERT_NO_THROW(j = nlohmann::json::parse(s.summary()))
			<< s.summary();
		EXPECT_EQ(j.at("scenario").get<std::string>(), name);
		EXPECT_EQ(j.at("transport").get<std::string>(), s.transport());
		EXPECT_EQ(j.at("flows").get<unsigned>(), 1u);
		ASSERT_TRUE(j.at("failures_us").is_array());
		ASSERT_EQ(j.at("failures_us").size(), 1u);
		EXPECT_DOUBLE_EQ(j.at("failures_us")[0].get<double>(), 5.0);
		EXPECT_TRUE(j.at("throughput").at("jain").is_number());
		EXPECT_TRUE(j.at("perf").at("peak_rss_mb").is_number());
	}
}

// SPDX-License-Identifier: GPL-2.0-only
// The exact bytes of every object's text and JSON output. Selftests parse
// both (grep/awk on text, python json on -j), so a change of the printing
// code must not change one byte. The expectations were captured from the
// printers before they were unified into one print path per object; they
// are in print_golden.txt.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "print_cases.hpp"

using namespace mrcctl::pin;

namespace {

// The golden outputs, kept in print_golden.txt (MRCCTL_PRINT_GOLDEN, its
// path in the source tree): after a note, one "=== NAME MODE" line per
// output, then its lines.
struct Golden {
	std::string name;
	Mode mode;
	std::string out;
};

const char *mode_name(Mode m)
{
	return m == Mode::Text ? "text" : m == Mode::Json ? "json" : "pretty";
}

const std::vector<Golden> &golden()
{
	static const std::vector<Golden> g = [] {
		std::vector<Golden> v;
		std::ifstream in(MRCCTL_PRINT_GOLDEN);
		std::string line;
		while (std::getline(in, line)) {
			if (!line.starts_with("=== ")) {
				if (!v.empty())
					v.back().out += line + "\n";
				continue;
			}
			std::istringstream h(line.substr(4));
			std::string name, mode;
			h >> name >> mode;
			Golden n{name, Mode::Text, ""};
			for (Mode m : {Mode::Text, Mode::Json, Mode::Pretty})
				if (mode == mode_name(m))
					n.mode = m;
			EXPECT_EQ(mode_name(n.mode), mode) << line;
			v.push_back(n);
		}
		return v;
	}();
	return g;
}

TEST(Print, EveryObjectInEveryModeIsPinned)
{
	std::set<std::pair<std::string, Mode>> pinned;
	ASSERT_FALSE(golden().empty()) << MRCCTL_PRINT_GOLDEN;
	for (const auto &g : golden())
		pinned.insert({g.name, g.mode});
	for (const auto &c : cases())
		for (Mode m : {Mode::Text, Mode::Json, Mode::Pretty})
			EXPECT_TRUE(pinned.count({c.name, m}))
				<< c.name << " " << mode_name(m);
}

TEST(Print, OutputIsUnchanged)
{
	std::map<std::string, Case> by_name;
	for (auto &c : cases())
		by_name.emplace(c.name, c);
	ASSERT_FALSE(golden().empty()) << MRCCTL_PRINT_GOLDEN;
	for (const auto &g : golden()) {
		auto it = by_name.find(g.name);
		ASSERT_NE(it, by_name.end()) << g.name;
		EXPECT_EQ(it->second.render(g.mode), g.out)
			<< g.name << " " << mode_name(g.mode);
	}
}

} // namespace

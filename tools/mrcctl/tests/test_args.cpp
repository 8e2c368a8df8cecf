// SPDX-License-Identifier: GPL-2.0-only
// The one number grammar of every mrcctl command (args.hpp): decimal or
// 0x hex, 32 bits, nothing else.
#include <cstdint>
#include <utility>

#include <gtest/gtest.h>

#include "args.hpp"

using namespace mrcctl;

namespace {

TEST(Args, ParseNumber)
{
	const std::pair<const char *, std::uint32_t> accepted[] = {
		{"0", 0u},
		// A leading zero is decimal, not octal (unlike strtoul base 0).
		{"007", 7u},
		{"010", 10u},
		{"4294967295", 4294967295u},
		{"0x1", 1u},
		{"0X0000ffffffff", 4294967295u},
		{"0xffffffff", 4294967295u},
		{"0XaB", 0xabu},
	};
	for (const auto &[text, value] : accepted)
		EXPECT_EQ(parse_number(text), value) << text;
	for (const char *text : {"4294967296", "99999999999999999999999",
				 "0x100000000", "0x10000000000000000", "", "0x",
				 "1.5", "0b1", "1e3", "-1", "12a"})
		EXPECT_FALSE(parse_number(text)) << text;
}

} // namespace

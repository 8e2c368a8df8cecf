// SPDX-License-Identifier: GPL-2.0-only
// A command line, given as its words, through mrcctl's parser: what the
// tests of the grammar (test_cli, test_conn, test_profile) call.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"

namespace mrcctl::test {

inline Invocation parse(std::initializer_list<std::string_view> words)
{
	std::vector<std::string_view> v(words);
	return parse_args(v);
}

// The message of the UsageError that parsing throws ("" if none); its
// topic in *@topic if given.
inline std::string usage_error(std::initializer_list<std::string_view> words,
			       std::string *topic = nullptr)
{
	try {
		parse(words);
	} catch (const UsageError &e) {
		if (topic)
			*topic = e.topic();
		return e.what();
	}
	return "";
}

} // namespace mrcctl::test

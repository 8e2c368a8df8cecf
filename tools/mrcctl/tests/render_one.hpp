// SPDX-License-Identifier: GPL-2.0-only
// One object through its print function, as text or as JSON.
#pragma once

#include <sstream>
#include <string>

#include "printer.hpp"

namespace mrcctl::test {

template <typename Print, typename T>
std::string text_of(Print print, const T &v)
{
	std::ostringstream os;
	Printer p(os, false, false);
	print(p, v);
	return os.str();
}

template <typename Print, typename T>
std::string json_of(Print print, const T &v, bool pretty = false)
{
	std::ostringstream os;
	Printer p(os, true, pretty);
	print(p, v);
	return os.str();
}

} // namespace mrcctl::test

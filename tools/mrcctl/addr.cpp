// SPDX-License-Identifier: GPL-2.0-only
#include "addr.hpp"

#include <arpa/inet.h>

namespace mrcctl {

std::optional<std::vector<std::uint8_t>> parse_addr(std::string_view s)
{
	std::string str(s);
	std::uint8_t buf[16];

	if (str.size() != s.size() || str.find('\0') != std::string::npos)
		return std::nullopt;
	if (inet_pton(AF_INET, str.c_str(), buf) == 1)
		return std::vector<std::uint8_t>(buf, buf + 4);
	if (inet_pton(AF_INET6, str.c_str(), buf) == 1)
		return std::vector<std::uint8_t>(buf, buf + 16);
	return std::nullopt;
}

std::optional<std::string> addr_text(const void *data, std::size_t len)
{
	char buf[INET6_ADDRSTRLEN];
	int family = len == 4 ? AF_INET : len == 16 ? AF_INET6 : 0;

	if (!family || !inet_ntop(family, data, buf, sizeof(buf)))
		return std::nullopt;
	return std::string(buf);
}

} // namespace mrcctl

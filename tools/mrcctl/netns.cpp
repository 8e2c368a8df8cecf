// SPDX-License-Identifier: GPL-2.0-only
#include "netns.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include "nl.hpp"

namespace mrcctl {

void enter_netns(const std::string &name)
{
	std::string path = name.find('/') == std::string::npos ?
				   "/run/netns/" + name :
				   name;
	int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		throw Failure("cannot open network namespace \"" + name +
			      "\" (" + path + "): " + std::strerror(errno));
	int r = setns(fd, CLONE_NEWNET);
	int err = errno;
	close(fd);
	if (r < 0)
		throw Failure("cannot enter network namespace \"" + name +
			      "\": " + std::strerror(err));
}

} // namespace mrcctl

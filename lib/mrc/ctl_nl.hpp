// SPDX-License-Identifier: GPL-2.0-only
// The C boundary of the controller calls that talk to the mrc netlink
// family through mrcctl's client (which throws): one place that turns a
// failure into the API's errno.
#pragma once

#include "objects.hpp"

#include <exception>

#include "nl.hpp"

namespace mrc::lib {

// A refusal of the kernel as the API names it: what does not exist (a
// plane that is no port) or is out of range is an invalid argument;
// permission passes through; anything else is the implementation's own
// trouble.
inline int ctl_nl_errno(int err)
{
	switch (err) {
	case ENOENT:
	case ERANGE:
	case EINVAL: return EINVAL;
	case EPERM: return EPERM;
	default: return EIO;
	}
}

// Run @fn: 0, or -1 with errno set: a kernel refusal's errno as
// @map turns it into the API's, EIO for no module, no memory or a bad
// reply.
template <typename F> int ctl_nl_call(F &&fn, int (*map)(int) = ctl_nl_errno)
{
	try {
		fn();
		return 0;
	} catch (const mrcctl::KernelError &e) {
		return fail(map(e.error()));
	} catch (const std::exception &) {
		return fail(EIO);
	}
}

} // namespace mrc::lib

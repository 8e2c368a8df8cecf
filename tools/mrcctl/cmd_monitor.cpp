// SPDX-License-Identifier: GPL-2.0-only
// mrcctl monitor [dev NAME]: print the family's multicast events.
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>
#include <string_view>
#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/mrc.h>
#include <netlink/attr.h>

#include "attrs.hpp"
#include "commands.hpp"
#include "format.hpp"
#include "nl.hpp"

namespace mrcctl {

namespace {

// SIGINT/SIGTERM arrive through a descriptor polled beside the socket, so
// that the exit is an ordinary return (destructors run, stdout flushed)
// and no handler races with libnl.
class SignalFd {
public:
	SignalFd()
	{
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		if (sigprocmask(SIG_BLOCK, &set, nullptr) < 0)
			throw Failure(std::string("sigprocmask: ") +
				      std::strerror(errno));
		fd_ = signalfd(-1, &set, SFD_CLOEXEC);
		if (fd_ < 0)
			throw Failure(std::string("signalfd: ") +
				      std::strerror(errno));
	}
	~SignalFd() { close(fd_); }
	SignalFd(const SignalFd &) = delete;
	SignalFd &operator=(const SignalFd &) = delete;
	int fd() const { return fd_; }

private:
	int fd_;
};

// An nlctrl notification that family `name` was unregistered.
bool family_removed(nl_msg *m, const char *name)
{
	nlattr *tb[CTRL_ATTR_MAX + 1];
	if (genlmsg_hdr(nlmsg_hdr(m))->cmd != CTRL_CMD_DELFAMILY ||
	    genlmsg_parse(nlmsg_hdr(m), 0, tb, CTRL_ATTR_MAX, nullptr) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_NAME])
		return false;
	return std::string_view(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME])) ==
	       name;
}

void print_event(const Options &o, const Event &e)
{
	Printer p(std::cout, o.json, o.pretty);
	print_event(p, e);
	// Scripts tail the output while we run: one flush per event.
	std::cout << '\n' << std::flush;
	if (!std::cout)
		throw Failure("cannot write to standard output");
}

} // namespace

int cmd_monitor(const Invocation &inv)
{
	SignalFd sig;
	GenlSocket sk;
	sk.subscribe(MRC_GENL_MCGRP_EVENTS);
	// Without this a monitor would wait forever, silently, once the
	// module is gone.
	sk.subscribe("nlctrl", "notify");
	sk.prepare_events();

	bool unloaded = false;
	auto on_event = [&](nl_msg *m) {
		nlmsghdr *h = nlmsg_hdr(m);
		if (h->nlmsg_type == GENL_ID_CTRL) {
			unloaded |= family_removed(m, MRC_GENL_NAME);
			return;
		}
		if (h->nlmsg_type != sk.family() ||
		    genlmsg_hdr(h)->cmd != MRC_CMD_EVENT)
			return;
		Event e = decode_event(m);
		if (inv.req.dev && e.dev && *e.dev != *inv.req.dev)
			return;
		print_event(inv.opts, e);
	};

	pollfd fds[2] = {{sk.fd(), POLLIN, 0}, {sig.fd(), POLLIN, 0}};
	for (;;) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			throw Failure(std::string("poll: ") +
				      std::strerror(errno));
		}
		if (fds[1].revents)
			return 0;
		if (fds[0].revents && !sk.read_events(on_event))
			std::cerr << "mrcctl: events were lost (receive "
				     "buffer overflow)\n";
		if (unloaded)
			throw Failure("the mrc module was unloaded");
	}
}

} // namespace mrcctl

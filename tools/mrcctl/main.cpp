// SPDX-License-Identifier: GPL-2.0-only
// mrcctl: configure and inspect the software MRC transport through the
// "mrc" generic netlink family. Exit status: 0 success, 1 the kernel
// refused or an operation failed, 2 a malformed command line.
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "cli.hpp"
#include "commands.hpp"
#include "netns.hpp"
#include "nl.hpp"

#ifndef MRCCTL_VERSION
#define MRCCTL_VERSION "unknown"
#endif

namespace {

int run(int argc, char **argv)
{
	using namespace mrcctl;

	std::vector<std::string_view> args(argv + 1, argv + argc);
	if (args.empty()) {
		std::cerr << help_text("");
		return 2;
	}
	Invocation inv;
	try {
		inv = parse_args(args);
	} catch (const UsageError &e) {
		std::cerr << "mrcctl: " << e.what() << '\n'
			  << "Try 'mrcctl " << e.topic()
			  << (e.topic().empty() ? "" : " ") << "help'.\n";
		return 2;
	}

	// Before any socket exists: sockets belong to the namespace they
	// were created in.
	if (!inv.opts.netns.empty() && inv.req.cmd != Cmd::Help &&
	    inv.req.cmd != Cmd::Version)
		enter_netns(inv.opts.netns);

	switch (inv.req.cmd) {
	case Cmd::Help:
		std::cout << help_text(inv.req.topic);
		return 0;
	case Cmd::Version:
		std::cout << "mrcctl " MRCCTL_VERSION "\n";
		return 0;
	case Cmd::DevShow:
		return cmd_dev(inv);
	case Cmd::Monitor:
		return cmd_monitor(inv);
	default:
		return cmd_plane(inv);
	}
}

} // namespace

int main(int argc, char **argv)
{
	try {
		return run(argc, argv);
	} catch (const mrcctl::Failure &e) {
		std::cerr << "mrcctl: " << e.what() << '\n';
	} catch (const std::exception &e) {
		std::cerr << "mrcctl: internal error: " << e.what() << '\n';
	} catch (...) {
		std::cerr << "mrcctl: internal error\n";
	}
	return 1;
}

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

	int rc;
	switch (inv.req.cmd) {
	case Cmd::Help:
		std::cout << help_text(inv.req.topic);
		rc = 0;
		break;
	case Cmd::Version:
		std::cout << "mrcctl " MRCCTL_VERSION "\n";
		rc = 0;
		break;
	case Cmd::DevShow: rc = cmd_dev(inv); break;
	case Cmd::Monitor: rc = cmd_monitor(inv); break;
	case Cmd::ConnShow: rc = cmd_conn(inv); break;
	case Cmd::Probe: rc = cmd_probe(inv); break;
	case Cmd::RouteAdd:
	case Cmd::RouteSet:
	case Cmd::RouteDel:
	case Cmd::RouteShow: rc = cmd_route(inv); break;
	case Cmd::EvProfileAdd:
	case Cmd::EvProfileSet:
	case Cmd::EvProfileDel:
	case Cmd::EvProfileShow:
	case Cmd::EvReplace:
	case Cmd::EvDeny:
	case Cmd::EvAllow:
	case Cmd::EvShow:
	case Cmd::CcProfileAdd:
	case Cmd::CcProfileSet:
	case Cmd::CcProfileDel:
	case Cmd::CcProfileShow: rc = cmd_profile(inv); break;
	default: rc = cmd_plane(inv); break;
	}
	// A script reading "mrcctl -j ..." must not get a truncated answer
	// with status 0 (full disk, closed pipe).
	std::cout.flush();
	if (!std::cout)
		throw Failure("cannot write to standard output");
	return rc;
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

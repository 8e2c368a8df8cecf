// SPDX-License-Identifier: GPL-2.0-only
//
// The command line of the lib_mrc example programs: the options every
// example takes and each one's own, written once as a table of name,
// short letter, whether it takes a value and what it does with it.  The
// getopt_long tables and the dispatch are made from that table, so an
// option cannot be in one and missing from the other.
#pragma once

// fail(): the verbs test programs' helpers.
#include "verbs_common.h"

#include <getopt.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace example {

using verbs::fail;

// The options of every example; each adds its own.
struct Options {
	std::string dev = "mrc0";
	int gid = 1;
	uint16_t port = 18600;
	size_t size = 4096;
	long iters = 1000;
	uint64_t ev_profile = 0; // 0: none set
	uint64_t cc_profile = 0;
	int timeout = 120;		// seconds for the whole run
	unsigned int max_wimm = 0;	// 0: the device's maximum
	unsigned int max_wimm_dest = 0; // 0: as max_wimm
	uint8_t mrc_timeout = 14;	// MRC_QP_TIMEOUT at RTS
	uint8_t retry_linear = 7;	// MRC_QP_RETRY_CNT at RTS
	uint8_t retry_exp = 7;
	std::string server; // empty: this is the server
};

inline const char *common_usage =
	"  -d, --ib-dev=DEV      RDMA device (default mrc0)\n"
	"  -g, --gid-idx=N       GID index (default 1: the IPv4-mapped address)\n"
	"  -p, --port=N          TCP port of the side channel (default 18600)\n"
	"  -s, --size=N          message size in bytes (default 4096)\n"
	"  -n, --iters=N         messages (default 1000)\n"
	"  -E, --ev-profile=ID   EV profile of the QP (MRC_QP_EV_PROFILE_ID)\n"
	"  -C, --cc-profile=ID   CC profile of the QP (MRC_QP_CC_PROFILE_ID)\n"
	"  -W, --max-wimm=N      MRC_QP_MAX_WIMM / _DEST (default: the device's)\n"
	"  -t, --timeout=S       give up after S seconds (default 120)\n"
	"      --mrc-timeout=E   MRC_QP_TIMEOUT: ACK timeout 1024 ns x 2^E (default 14)\n"
	"      --retry-linear=N  MRC_QP_RETRY_CNT: timeouts at the base value (default 7)\n"
	"      --retry-exp=N     then timeouts doubling each time (default 7)\n";

// A number as the examples take it: decimal, 0x hex or 0 octal, with an
// optional k or m suffix (KiB, MiB).
inline uint64_t parse_num(const std::string &a)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long v = std::strtoull(a.c_str(), &end, 0);
	if (errno || end == a.c_str())
		fail("not a number: " + a);
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	if (*end)
		fail("not a number: " + a);
	return v;
}

// What an option does with its value (nullptr for one without).
using OptionAction = std::function<void(const char *value)>;

// One option: --@name, also -@letter unless @letter is 0, with a value if
// @takes_value; @act applies it.
struct OptionSpec {
	const char *name;
	char letter;
	bool takes_value;
	OptionAction act;
};

// The action that stores the option's number (parse_num) in @v.
template <typename T> OptionAction number_into(T &v)
{
	return [&v](const char *a) { v = static_cast<T>(parse_num(a)); };
}

// The action of a flag: @b becomes true.
inline OptionAction set_true(bool &b)
{
	return [&b](const char *) { b = true; };
}

// The options of every example, acting on @o (-h is parse_options' own).
inline std::vector<OptionSpec> common_options(Options &o)
{
	return {{"ib-dev", 'd', true, [&o](const char *a) { o.dev = a; }},
		{"gid-idx", 'g', true, number_into(o.gid)},
		{"port", 'p', true, number_into(o.port)},
		{"size", 's', true, number_into(o.size)},
		{"iters", 'n', true, number_into(o.iters)},
		{"ev-profile", 'E', true, number_into(o.ev_profile)},
		{"cc-profile", 'C', true, number_into(o.cc_profile)},
		{"timeout", 't', true, number_into(o.timeout)},
		{"max-wimm", 'W', true, number_into(o.max_wimm)},
		{"mrc-timeout", 0, true, number_into(o.mrc_timeout)},
		{"retry-linear", 0, true, number_into(o.retry_linear)},
		{"retry-exp", 0, true, number_into(o.retry_exp)}};
}

// The getopt_long loop of an example: the common options and its own,
// @own (long only unless given a letter).  -h calls @usage(argv[0]) and
// exits 0, anything else unknown calls it and exits 2.  The first
// argument after the options, if any, is the SERVER (o.server).
inline void parse_options(int argc, char **argv, Options &o,
			  std::initializer_list<OptionSpec> own,
			  void (*usage)(const char *prog))
{
	std::vector<OptionSpec> specs = common_options(o);
	specs.insert(specs.end(), own);
	constexpr int kHelp = 'h', kLongOnly = 0x100;
	std::vector<option> table;
	std::string letters;
	for (size_t i = 0; i < specs.size(); i++) {
		const OptionSpec &s = specs[i];
		int val = s.letter ? s.letter : kLongOnly + static_cast<int>(i);
		table.push_back({s.name,
				 s.takes_value ? required_argument : no_argument,
				 nullptr, val});
		if (s.letter)
			letters += std::string(1, s.letter) +
				   (s.takes_value ? ":" : "");
	}
	table.push_back({"help", no_argument, nullptr, kHelp});
	table.push_back({nullptr, 0, nullptr, 0});
	letters += static_cast<char>(kHelp);
	int c;
	while ((c = getopt_long(argc, argv, letters.c_str(), table.data(),
				nullptr)) != -1) {
		const OptionSpec *hit = nullptr;
		for (size_t i = 0; i < specs.size() && !hit; i++)
			if (table[i].val == c)
				hit = &specs[i];
		if (hit) {
			hit->act(optarg);
			continue;
		}
		usage(argv[0]);
		std::exit(c == kHelp ? 0 : 2);
	}
	if (optind < argc)
		o.server = argv[optind];
}

} // namespace example

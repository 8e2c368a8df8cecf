// SPDX-License-Identifier: GPL-2.0-only
// mrcsim: packet-level simulator of multi-plane fabrics running the MRC
// engine (and two baselines).
//   mrcsim SCENARIO.scn [--out DIR] [--set key=value]... [--progress] [-q]
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include "sim.hpp"

namespace {

void usage(FILE *f)
{
	std::fprintf(f,
		     "usage: mrcsim SCENARIO.scn [--out DIR] [--set key=value]... [--progress] [-q]\n"
		     "  --out DIR      write flows.csv, series.csv, summary.json (and links.csv) there\n"
		     "  --set k=v      override a scenario key (repeatable)\n"
		     "  --progress     progress bar on stderr even when it is not a terminal\n"
		     "  -q             do not print the JSON summary on stdout\n"
		     "Scenario keys: see Documentation/sim.rst.\n");
}

} // namespace

int main(int argc, char **argv)
{
	using namespace mrcsim;
	Config cfg;
	RunOptions opt;
	opt.progress = isatty(STDERR_FILENO);
	bool quiet = false;
	std::string scenario;
	std::vector<std::string> sets;
	for (int i = 1; i < argc; ++i) {
		std::string a = argv[i];
		if ((a == "--out" || a == "-o") && i + 1 < argc) {
			opt.out_dir = argv[++i];
		} else if (a == "--set" && i + 1 < argc) {
			sets.push_back(argv[++i]);
		} else if (a == "--progress") {
			opt.progress = true;
		} else if (a == "-q") {
			quiet = true;
		} else if (a == "-h" || a == "--help") {
			usage(stdout);
			return 0;
		} else if (!a.empty() && a[0] != '-' && scenario.empty()) {
			scenario = a;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (scenario.empty()) {
		usage(stderr);
		return 2;
	}
	try {
		cfg.load_file(scenario);
		for (const auto &s : sets)
			cfg.set(s);
		if (!cfg.has("name"))
			cfg.set("name",
				std::filesystem::path(scenario).stem().string());
		if (!opt.out_dir.empty())
			std::filesystem::create_directories(opt.out_dir);
		Simulation sim(cfg);
		sim.run(opt);
		for (const auto &k : sim.config().unused())
			// Other transports' knobs are expected in shared scenarios.
			if (k.rfind("gbn.", 0) && k.rfind("spray.", 0) &&
			    k.rfind("mrc.", 0))
				std::fprintf(stderr,
					     "mrcsim: warning: unknown key '%s' ignored\n",
					     k.c_str());
		if (!opt.out_dir.empty())
			sim.write_outputs(opt.out_dir);
		if (!quiet)
			std::cout << sim.summary();
	} catch (const std::exception &e) {
		std::fprintf(stderr, "mrcsim: %s\n", e.what());
		return 1;
	}
	return 0;
}

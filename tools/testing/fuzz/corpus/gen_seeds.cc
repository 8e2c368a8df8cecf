// SPDX-License-Identifier: GPL-2.0-only
// Writes the seed corpora of the decode and EV profile fuzzers.  Run from
// the repository root after "make userspace":
//   g++ -std=c++20 -DMRC_USERSPACE=1 -Inet/mrc/proto
//       tools/testing/fuzz/corpus/gen_seeds.cc build/libmrcproto.a -o /tmp/gen
// (one command line)
//   /tmp/gen tools/testing/fuzz/corpus
// Seeds: one valid packet per opcode (payload 0..3 bytes, so the files stay
// small), and a few hand-made EV profile inputs.
#include <cstdio>
#include <string>

#include "../../unit/test_wire_util.h"

static void write_file(const std::string &path, const std::vector<u8> &b)
{
	FILE *f = std::fopen(path.c_str(), "wb");
	if (!f || std::fwrite(b.data(), 1, b.size(), f) != b.size()) {
		std::perror(path.c_str());
		std::exit(1);
	}
	std::fclose(f);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	const std::string dir = argv[1];
	const std::vector<u8> pl = {0xde, 0xad, 0x01};
	for (u8 op : mrc_test::all_opcodes()) {
		mrc_pkt p = mrc_test::sample_pkt(op, pl);
		int err;
		auto b = mrc_test::encode(p, &err);
		if (err) {
			std::fprintf(stderr, "%s: %s\n", mrc_opcode_name(op),
				     mrc_wire_strerror(err));
			return 1;
		}
		write_file(dir + "/fuzz_decode/" + mrc_opcode_name(op), b);
	}
	// EV profile inputs are FuzzedDataProvider streams: a selector byte,
	// then parameters; integers are taken from the end of the input.
	for (int sel = 0; sel < 3; sel++) {
		std::vector<u8> b(48);
		for (size_t i = 0; i < b.size(); i++)
			b[i] = (u8)(i * 29 + sel * 7 + 1);
		write_file(dir + "/fuzz_ev_profile/seed" + std::to_string(sel),
			   b);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
// libFuzzer target for the wire decoder.
//
// Any bytes: mrc_pkt_decode() must return (ASan/UBSan watch every access).
// The input is decoded twice: as given, and with its ICRC trailer
// recomputed so that the fuzzer gets past the CRC into the field checks.
// Whenever a decode succeeds, the packet must be canonical: encoding the
// decoded view gives back exactly the input bytes, the header-only encoder
// gives back its prefix, and decoding the re-encoding gives the same view.
// The trimmed-packet decoder runs on every input too (check_trimmed()).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../unit/test_wire_util.h"

using namespace mrc_test;

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail = "")
{
	std::fprintf(stderr, "fuzz_decode: %s %s\n", what, detail.c_str());
	std::abort();
}

void check_one(const std::vector<u8> &in, u32 opts)
{
	mrc_pkt p;
	int r = mrc_pkt_decode_opts(in.data(), (u32)in.size(), &p, opts);
	if (r > 0 || r <= -MRC_WIRE_NR_ERR)
		fail("decode returned an unknown code");
	if (r < 0)
		return;

	const u8 *end = in.data() + in.size();
	if (p.payload_len &&
	    (p.payload < in.data() || p.payload + p.payload_len > end))
		fail("payload outside the input");
	if (mrc_pkt_check(&p) != 0)
		fail("decoded packet fails mrc_pkt_check");

	std::vector<u8> out(in.size());
	int n = mrc_pkt_encode(&p, out.data(), (u32)out.size());
	if (n < 0)
		fail("re-encode failed", mrc_wire_strerror(n));
	// With NO_ICRC the input's trailer may be anything: compare the body.
	size_t cmp = opts & MRC_DECODE_NO_ICRC ? in.size() - MRC_ICRC_LEN :
						 in.size();
	if ((size_t)n != in.size() || std::memcmp(out.data(), in.data(), cmp) != 0)
		fail("re-encoding differs from the input");

	std::vector<u8> hdr(128);
	int hl = mrc_pkt_encode_hdr(&p, hdr.data(), (u32)hdr.size());
	if (hl != mrc_hdr_len(p.hdr.opcode) ||
	    std::memcmp(hdr.data(), in.data(), (size_t)hl) != 0)
		fail("header encoder disagrees");

	mrc_pkt q;
	if (mrc_pkt_decode(out.data(), (u32)n, &q) != 0)
		fail("re-encoded packet does not decode");
	std::string d = pkt_diff(p, q);
	if (!d.empty())
		fail("round trip changed the packet:", d);
}

// The header-only decoder (paged payloads) must agree with the full
// decoder without ICRC check, for the whole buffer and for just the
// headers of it.
void check_hdr_only(const std::vector<u8> &in)
{
	mrc_pkt a, b;
	const u32 n = (u32)in.size();
	int full = mrc_pkt_decode_opts(in.data(), n, &a, MRC_DECODE_NO_ICRC);
	int hdr = mrc_pkt_decode_hdr(in.data(), n, n, &b);
	if (full != hdr)
		fail("decode_hdr and decode disagree");
	if (full)
		return;
	std::vector<u8> part(in.begin(), in.begin() + mrc_hdr_len(a.hdr.opcode));
	if (mrc_pkt_decode_hdr(part.data(), (u32)part.size(), n, &b) != 0)
		fail("decode_hdr fails on the header part alone");
	b.payload = a.payload;
	std::string d = pkt_diff(a, b);
	if (!d.empty())
		fail("decode_hdr view differs:", d);
}

// The trimmed-packet decoder: a known code; on success the headers of a
// packet longer than the input, encoding back to the input's prefix.
void check_trimmed(const std::vector<u8> &in)
{
	mrc_pkt p;
	const u32 n = (u32)in.size();
	int r = mrc_pkt_decode_trimmed(in.data(), n, n, &p);
	if (r > 0 || r <= -MRC_WIRE_NR_ERR)
		fail("decode_trimmed returned an unknown code");
	if (r < 0)
		return;
	int hl = mrc_hdr_len(p.hdr.opcode);
	if (p.payload || !p.payload_len || hl < 0 || (u32)hl > n ||
	    n >= (u32)mrc_pkt_len(p.hdr.opcode, p.payload_len))
		fail("decode_trimmed accepted a packet that is not trimmed");
	if (mrc_pkt_check(&p) != 0)
		fail("trimmed packet fails mrc_pkt_check");
	std::vector<u8> hdr(128);
	if (mrc_pkt_encode_hdr(&p, hdr.data(), (u32)hdr.size()) != hl ||
	    std::memcmp(hdr.data(), in.data(), (size_t)hl) != 0)
		fail("trimmed headers do not re-encode to the input");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 70000)
		return 0;
	// Exact-size copies, so a read past the end is a heap overflow.
	std::vector<u8> in(data, data + size);
	check_one(in, 0);
	check_one(in, MRC_DECODE_NO_ICRC);
	check_hdr_only(in);
	check_trimmed(in);
	if (size >= MRC_ICRC_LEN) {
		mrc_test::fix_icrc(in);
		check_one(in, 0);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
// The overhead bound the kernel derives the RDMA path MTU from must cover
// every opcode that carries payload.
#include <gtest/gtest.h>

#include <algorithm>

extern "C" {
#include "wire.h"
}

TEST(WireLimits, MaxDataExtCoversEveryPayloadOpcode)
{
	const unsigned char data_ops[] = {MRC_OP_SEND, MRC_OP_SEND_IMM,
					  MRC_OP_WRITE, MRC_OP_WRITE_IMM,
					  MRC_OP_READ_RESP};
	int widest = 0;

	for (unsigned char op : data_ops) {
		const int ext = mrc_ext_hdr_len(op);
		ASSERT_GE(ext, 0) << "opcode " << int(op);
		EXPECT_LE(ext, MRC_MAX_DATA_EXT_LEN) << "opcode " << int(op);
		widest = std::max(widest, ext);
		EXPECT_EQ(mrc_hdr_len(op), MRC_COMMON_HDR_LEN + ext);
	}
	// The bound is tight: a smaller constant would waste path MTU.
	EXPECT_EQ(widest, MRC_MAX_DATA_EXT_LEN);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Human-readable names of opcodes, NACK reasons and wire errors, for
 * counters, traces, extack messages and test diagnostics.
 */
#include "wire.h"

static const char *const mrc_opcode_names[] = {
	[MRC_OP_SEND]		= "SEND",
	[MRC_OP_SEND_IMM]	= "SEND_IMM",
	[MRC_OP_SEND_INV]	= "SEND_INV",
	[MRC_OP_WRITE]		= "WRITE",
	[MRC_OP_WRITE_IMM]	= "WRITE_IMM",
	[MRC_OP_READ_REQ]	= "READ_REQ",
	[MRC_OP_READ_RESP]	= "READ_RESP",
	[MRC_OP_ATOMIC_CS]	= "ATOMIC_CS",
	[MRC_OP_ATOMIC_FA]	= "ATOMIC_FA",
	[MRC_OP_ATOMIC_RESP]	= "ATOMIC_RESP",
	[MRC_OP_ACK]		= "ACK",
	[MRC_OP_NACK]		= "NACK",
	[MRC_OP_PROBE_REQ]	= "PROBE_REQ",
	[MRC_OP_PROBE_RESP]	= "PROBE_RESP",
	[MRC_OP_PORT_STATUS]	= "PORT_STATUS",
	[MRC_OP_UD_SEND]	= "UD_SEND",
	[MRC_OP_UD_SEND_IMM]	= "UD_SEND_IMM",
};

static const char *const mrc_nack_reason_names[] = {
	[MRC_NACK_OUT_OF_WINDOW]	= "OUT_OF_WINDOW",
	[MRC_NACK_TRIMMED]		= "TRIMMED",
	[MRC_NACK_REMOTE_ACCESS_ERROR]	= "REMOTE_ACCESS_ERROR",
	[MRC_NACK_INVALID_REQUEST]	= "INVALID_REQUEST",
	[MRC_NACK_RNR]			= "RNR",
};

const char *mrc_opcode_name(u8 opcode)
{
	if (opcode >= MRC_ARRAY_SIZE(mrc_opcode_names) ||
	    !mrc_opcode_names[opcode])
		return "UNKNOWN";
	return mrc_opcode_names[opcode];
}

const char *mrc_nack_reason_name(u8 reason)
{
	if (reason >= MRC_ARRAY_SIZE(mrc_nack_reason_names) ||
	    !mrc_nack_reason_names[reason])
		return "UNKNOWN";
	return mrc_nack_reason_names[reason];
}

static const char *const mrc_wire_errs[MRC_WIRE_NR_ERR] = {
	[MRC_WIRE_OK]		= "ok",
	[MRC_WIRE_ETRUNC]	= "truncated packet",
	[MRC_WIRE_EVERSION]	= "unsupported version",
	[MRC_WIRE_EOPCODE]	= "unknown opcode",
	[MRC_WIRE_EFLAGS]	= "invalid flags",
	[MRC_WIRE_EQPN]		= "QPN exceeds 24 bits",
	[MRC_WIRE_EPLANE]	= "plane out of range",
	[MRC_WIRE_ERESERVED]	= "reserved field not zero",
	[MRC_WIRE_EPAYLOAD_LEN]	= "payload length mismatch",
	[MRC_WIRE_EPAYLOAD]	= "payload not allowed or missing",
	[MRC_WIRE_ERANGE]	= "offset or length out of range",
	[MRC_WIRE_EREASON]	= "unknown NACK reason",
	[MRC_WIRE_EICRC]	= "ICRC mismatch",
	[MRC_WIRE_ENOSPC]	= "buffer too small",
};

const char *mrc_wire_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= MRC_WIRE_NR_ERR)
		return "unknown error";
	return mrc_wire_errs[err];
}

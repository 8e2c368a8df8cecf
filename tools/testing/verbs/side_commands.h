// SPDX-License-Identifier: GPL-2.0-only
// The command protocol of the client/server TAP programs (mrc_negative,
// mrc_qp_compat) over their TCP side channel: the client sends a command,
// the passive server does it and answers with a reply of the same type;
// what the type, arg and value mean is the program's.
#pragma once

#include "verbs_common.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace verbs {

struct Cmd {
	uint32_t type;
	uint32_t arg;
	uint64_t value;
};

// Sends @c and returns the server's reply, which must be of @c's type.
inline Cmd round_trip(Tcp &tcp, const Cmd &c, Clock::time_point deadline)
{
	tcp.send(c);
	Cmd r = tcp.recv<Cmd>(deadline);
	if (r.type != c.type)
		fail("protocol: reply to command " + std::to_string(c.type));
	return r;
}

// The server's loop: each command goes to @handle(c, reply), which fills
// in the reply (type already set, arg and value 0) and returns false for a
// type it does not know (a protocol error, thrown); @quit is answered and
// ends the loop with "# PROG: server: N sessions, 0 errors", N the @open
// commands (each sets up a session) handled.  Returns 0, the exit status.
template <class Handle>
int serve_commands(Tcp &tcp, Clock::time_point deadline, const char *prog,
		   uint32_t open, uint32_t quit, Handle handle)
{
	int sessions = 0;
	for (;;) {
		Cmd c = tcp.recv<Cmd>(deadline);
		Cmd reply{c.type, 0, 0};
		if (c.type != quit && !handle(c, reply))
			fail("protocol: unknown command " +
			     std::to_string(c.type));
		tcp.send(reply);
		if (c.type == open)
			sessions++;
		if (c.type == quit)
			break;
	}
	std::printf("# %s: server: %d sessions, 0 errors\n", prog, sessions);
	return 0;
}

} // namespace verbs

// SPDX-License-Identifier: GPL-2.0-only
#include "nl.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <sys/socket.h>

#include <linux/mrc.h>
#include <linux/netlink.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>

#include "attrs.hpp"
#include "extack.hpp"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

namespace mrcctl {

namespace {

// State shared with libnl's C callbacks. They must not throw through
// libnl's frames, so exceptions are parked here and rethrown afterwards.
struct Transaction {
	const std::function<void(nl_msg *)> *on_reply = nullptr;
	bool done = false;
	int err = 0; // positive errno of the kernel's refusal
	ExtAck ack;
	std::exception_ptr exc;
};

int on_valid(nl_msg *msg, void *arg)
{
	auto *t = static_cast<Transaction *>(arg);
	try {
		(*t->on_reply)(msg);
	} catch (...) {
		t->exc = std::current_exception();
		t->done = true;
		return NL_STOP;
	}
	return NL_OK;
}

int on_ack(nl_msg *, void *arg)
{
	static_cast<Transaction *>(arg)->done = true;
	return NL_STOP;
}

// A dump that fails part-way reports the error in NLMSG_DONE's payload.
int on_finish(nl_msg *msg, void *arg)
{
	auto *t = static_cast<Transaction *>(arg);
	nlmsghdr *h = nlmsg_hdr(msg);
	t->done = true;
	if (h->nlmsg_len >= NLMSG_HDRLEN + sizeof(int)) {
		int code;
		std::memcpy(&code, nlmsg_data(h), sizeof(code));
		if (code < 0) {
			t->err = -code;
			t->ack = parse_done_tlvs(h);
		}
	}
	return NL_STOP;
}

// libnl hands us the nlmsgerr inside the message; its header sits right
// in front of it, and the extack TLVs follow it.
int on_error(sockaddr_nl *, nlmsgerr *e, void *arg)
{
	auto *t = static_cast<Transaction *>(arg);
	auto *h = reinterpret_cast<const nlmsghdr *>(
		reinterpret_cast<const char *>(e) - NLMSG_HDRLEN);
	t->err = e->error < 0 ? -e->error : e->error;
	t->ack = parse_error_tlvs(h);
	t->done = true;
	return NL_STOP;
}

// Events are unsolicited: their sequence numbers are 0, not ours.
int accept_any_seq(nl_msg *, void *) { return NL_OK; }

int sockopt_on(nl_sock *sk, int opt)
{
	int one = 1;
	return setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, opt, &one,
			  sizeof(one));
}

std::string nl_text(int nlerr) { return nl_geterror(nlerr); }

// Callbacks of one exchange: every valid message to @t's on_reply (the
// caller adds what else it waits for).
CbPtr valid_callbacks(Transaction &t)
{
	CbPtr cb(nl_cb_alloc(NL_CB_DEFAULT));
	if (!cb)
		throw Failure("out of memory");
	nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &t);
	return cb;
}

} // namespace

GenlSocket::GenlSocket(const char *family)
	: sk_(nl_socket_alloc()), name_(family)
{
	if (!sk_)
		throw Failure("cannot allocate a netlink socket");
	int r = genl_connect(sk_.get());
	if (r < 0)
		throw Failure("cannot open a generic netlink socket: " +
			      nl_text(r));
	// Older kernels lack these options; their absence only costs the
	// explanation text, so failures are ignored.
	sockopt_on(sk_.get(), NETLINK_EXT_ACK);
	// Do not echo our request back inside error messages.
	sockopt_on(sk_.get(), NETLINK_CAP_ACK);

	family_ = genl_ctrl_resolve(sk_.get(), name_.c_str());
	if (family_ == -NLE_OBJ_NOTFOUND && name_ == MRC_GENL_NAME)
		throw Failure("the mrc module is not loaded (generic netlink "
			      "family \"" MRC_GENL_NAME "\" not found)");
	if (family_ < 0)
		throw Failure("cannot resolve generic netlink family \"" +
			      name_ + "\": " + nl_text(family_));
}

MsgPtr GenlSocket::request(std::uint8_t cmd, bool dump) const
{
	MsgPtr m(nlmsg_alloc());
	if (!m || !genlmsg_put(m.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family_, 0,
			       dump ? NLM_F_DUMP : 0, cmd, MRC_GENL_VERSION))
		throw Failure("out of memory building a netlink message");
	return m;
}

void GenlSocket::transact(nl_msg *req,
			  const std::function<void(nl_msg *)> &on_reply)
{
	Transaction t;
	t.on_reply = &on_reply;
	CbPtr cb = valid_callbacks(t);
	nl_cb_set(cb.get(), NL_CB_ACK, NL_CB_CUSTOM, on_ack, &t);
	nl_cb_set(cb.get(), NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &t);
	nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &t);

	int r = nl_send_auto(sk_.get(), req);
	if (r < 0)
		throw Failure("cannot send to the kernel: " + nl_text(r));
	while (!t.done) {
		r = nl_recvmsgs(sk_.get(), cb.get());
		if (r < 0 && !t.err && !t.exc)
			throw Failure("cannot receive from the kernel: " +
				      nl_text(r));
	}
	if (t.exc)
		std::rethrow_exception(t.exc);
	if (t.err) {
		std::string bad = t.ack.offset ?
					  attr_at_offset(req, *t.ack.offset) :
					  "";
		std::string missing =
			t.ack.miss_type ?
				attr_name(static_cast<genlmsghdr *>(
						  nlmsg_data(nlmsg_hdr(req)))
						  ->cmd,
					  *t.ack.miss_type) :
				"";
		throw KernelError(t.err,
				  describe_error(t.err, t.ack, bad, missing));
	}
}

void GenlSocket::subscribe(const char *family, const char *group)
{
	int grp = genl_ctrl_resolve_grp(sk_.get(), family, group);
	if (grp < 0)
		throw Failure(std::string("cannot find multicast group \"") +
			      group + "\" of family \"" + family +
			      "\": " + nl_text(grp));
	int r = nl_socket_add_membership(sk_.get(), grp);
	if (r < 0)
		throw Failure(std::string("cannot join multicast group \"") +
			      group + "\": " + nl_text(r));
}

void GenlSocket::prepare_events()
{
	nl_socket_set_nonblocking(sk_.get());
	// Bursts (every plane of an instance going away at once, every EV
	// of a cut link) must not overflow the default receive buffer.
	// SO_RCVBUF is capped by net.core.rmem_max (a few hundred KiB by
	// default); with CAP_NET_ADMIN, SO_RCVBUFFORCE is not.
	int size = 8 << 20;
	if (setsockopt(nl_socket_get_fd(sk_.get()), SOL_SOCKET, SO_RCVBUFFORCE,
		       &size, sizeof(size)) < 0)
		nl_socket_set_buffer_size(sk_.get(), 1 << 20, 0);
}

bool GenlSocket::read_events(const std::function<void(nl_msg *)> &on_event)
{
	Transaction t;
	t.on_reply = &on_event;
	CbPtr cb = valid_callbacks(t);
	nl_cb_set(cb.get(), NL_CB_SEQ_CHECK, NL_CB_CUSTOM, accept_any_seq,
		  nullptr);
	for (;;) {
		int r = nl_recvmsgs(sk_.get(), cb.get());
		if (t.exc)
			std::rethrow_exception(t.exc);
		if (r == -NLE_AGAIN)
			return true;
		// ENOBUFS: the socket overflowed and events were lost.
		if (r == -NLE_NOMEM)
			return false;
		if (r < 0)
			throw Failure("cannot receive events: " + nl_text(r));
	}
}

} // namespace mrcctl

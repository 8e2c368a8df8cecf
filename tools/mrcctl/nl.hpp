// SPDX-License-Identifier: GPL-2.0-only
// The generic netlink socket of mrcctl: libnl objects owned by unique_ptr,
// the "mrc" family resolved once, requests sent with extended ACKs enabled
// so that a refusal carries the kernel's own explanation.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include <linux/mrc.h>
#include <netlink/genl/genl.h>
#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

namespace mrcctl {

struct SockDeleter {
	void operator()(nl_sock *s) const { nl_socket_free(s); }
};
struct MsgDeleter {
	void operator()(nl_msg *m) const { nlmsg_free(m); }
};
struct CbDeleter {
	void operator()(nl_cb *c) const { nl_cb_put(c); }
};
using SockPtr = std::unique_ptr<nl_sock, SockDeleter>;
using MsgPtr = std::unique_ptr<nl_msg, MsgDeleter>;
using CbPtr = std::unique_ptr<nl_cb, CbDeleter>;

// A failure that is not the user's fault in the command line: exit 1. The
// message is printed after "mrcctl: ".
class Failure : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// The kernel refused a request; what() is "<extack> (<strerror>)".
class KernelError : public Failure {
public:
	KernelError(int err, const std::string &what) : Failure(what), err_(err)
	{
	}
	int error() const { return err_; }

private:
	int err_;
};

class GenlSocket {
public:
	// Connects and resolves the "mrc" family; throws Failure (with the
	// "module is not loaded" hint when the family does not exist). Tests
	// name another family (nlctrl) to exercise the same code on any
	// kernel.
	explicit GenlSocket(const char *family = MRC_GENL_NAME);

	// A request of the family; add attributes with nla_put_*.
	MsgPtr request(std::uint8_t cmd, bool dump) const;

	// Send `req` and call `on_reply` for every reply message until the
	// kernel's ACK (do) or NLMSG_DONE (dump). Throws KernelError with the
	// extack text on refusal.
	void transact(nl_msg *req, const std::function<void(nl_msg *)> &on_reply);

	int family() const { return family_; }

	// Join a multicast group of our family, or of another (nlctrl's
	// "notify" tells when a family goes away).
	void subscribe(const char *group) { subscribe(name_.c_str(), group); }
	void subscribe(const char *family, const char *group);

	// Monitor mode: non-blocking, no sequence checks, big buffer.
	void prepare_events();

	// Read what is queued and call on_event for each message. Returns
	// false if the kernel dropped events because we were too slow.
	bool read_events(const std::function<void(nl_msg *)> &on_event);

	int fd() const { return nl_socket_get_fd(sk_.get()); }

private:
	SockPtr sk_;
	std::string name_;
	int family_ = -1;
};

} // namespace mrcctl

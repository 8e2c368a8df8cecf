// SPDX-License-Identifier: GPL-2.0-only
// mrc.h and mrc_ctl.h compiled as C11 (-std=c11 -pedantic): the ABI facts
// checked at compile time, and the values handed to abi_test.cc for the
// run-time comparison with C++.
#include <mrc.h>
#include <mrc_ctl.h>
#include <stddef.h>

#include "abi_ctl_facts.h"
#include "abi_facts.h"

#define ABI_FACT(name, expr, expected) \
	_Static_assert((expr) == (expected), #name ": " #expr " != " #expected);
MRC_ABI_FACTS
MRC_CTL_ABI_FACTS
#undef ABI_FACT

#define ABI_FACT(name, expr, expected) \
	{#name, (unsigned long long)(expr), (unsigned long long)(expected)},
const struct abi_fact abi_c_facts[] = {MRC_ABI_FACTS MRC_CTL_ABI_FACTS};
#undef ABI_FACT
const unsigned long abi_c_nfacts = sizeof(abi_c_facts) / sizeof(abi_c_facts[0]);

// Every function of mrc.h and mrc_ctl.h, with its C prototype: a mismatch
// between the header and a call would not compile.
void (*const abi_c_functions[])(void) = {
	(void (*)(void))mrc_query_device_ex,
	(void (*)(void))mrc_query_device,
	(void (*)(void))mrc_query_version,
	(void (*)(void))mrc_create_context,
	(void (*)(void))mrc_destroy_context,
	(void (*)(void))mrc_create_comp_channel,
	(void (*)(void))mrc_get_comp_channel_fd,
	(void (*)(void))mrc_destroy_comp_channel,
	(void (*)(void))mrc_create_cq,
	(void (*)(void))mrc_poll_cq,
	(void (*)(void))mrc_destroy_cq,
	(void (*)(void))mrc_create_qp_hint,
	(void (*)(void))mrc_destroy_qp_hint,
	(void (*)(void))mrc_query_qp_hint,
	(void (*)(void))mrc_modify_qp_hint,
	(void (*)(void))mrc_create_qp,
	(void (*)(void))mrc_destroy_qp,
	(void (*)(void))mrc_query_qp,
	(void (*)(void))mrc_modify_qp,
	(void (*)(void))mrc_get_qpn,
	(void (*)(void))mrc_post_recv,
	(void (*)(void))mrc_post_send,
	(void (*)(void))mrc_get_async_event,
	(void (*)(void))mrc_ack_async_event,
	(void (*)(void))mrc_req_notify_cq,
	(void (*)(void))mrc_get_cq_event,
	(void (*)(void))mrc_ack_cq_events,
	(void (*)(void))mrc_ctl_query_device_ex,
	(void (*)(void))mrc_ctl_query_device,
	(void (*)(void))mrc_ctl_query_version,
	(void (*)(void))mrc_ctl_query_port,
	(void (*)(void))mrc_ctl_modify_port,
	(void (*)(void))mrc_ctl_modify_ev_fmt_profile,
	(void (*)(void))mrc_ctl_query_ev_fmt_profile,
	(void (*)(void))mrc_ctl_modify_ev_profile,
	(void (*)(void))mrc_ctl_query_ev_profile,
	(void (*)(void))mrc_ctl_modify_cc_profile,
	(void (*)(void))mrc_ctl_query_cc_profile,
	(void (*)(void))mrc_ctl_create_ev_event_cq,
	(void (*)(void))mrc_ctl_poll_ev_event,
	(void (*)(void))mrc_ctl_ep_batch_send_wait,
};
const unsigned long abi_c_nfunctions = sizeof(abi_c_functions) /
				       sizeof(abi_c_functions[0]);

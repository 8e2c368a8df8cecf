/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * lib_mrc: the OCP MRC controller API on the software MRC.
 *
 * The interface a fabric controller uses to configure and watch MRC
 * endpoints: ports (the software MRC's planes), EV format profiles, EV
 * profiles, CC profiles, EV events and endpoint operations (probes, port
 * status).  Names, signatures, layouts and constants are those of the
 * published OCP interface (mrc_ctl.h of opencomputeproject/OCP-Multipath-
 * Reliable-Connection); the text is our own.  What is implemented, and
 * what is refused until the kernel models it, is in
 * Documentation/networking/lib_mrc.rst.
 *
 * A controller opens an mrc_context (mrc.h) on the device and needs
 * CAP_NET_ADMIN for every change.  Functions return 0 or -1 with errno
 * set, unless documented otherwise.
 */
#ifndef _MRC_CTL_API_H_
#define _MRC_CTL_API_H_

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc.h>
#include <mrc_ctl_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of the opaque vendor blobs of the profiles. */
#define MRC_CTL_MAX_VENDOR_CFG_SIZE 128

/* An EV slot not filled yet (EXP profiles start with every slot so). */
#define MRC_CTL_EV_UNPOPULATED ((struct mrc_ctl_ev){.val = {0}, .port = 0})

/* Bytes of one EV value (an SRv6 EV: a SID and one segment). */
#define MRC_CTL_EV_MAX_BYTES 32

/* Controller protocol versions, as a bitmap of those spoken. */
enum mrc_ctl_protocol_version {
	MRC_CTL_PROTOCOL_VERSION_0 = 0, /* unspecified */
	MRC_CTL_PROTOCOL_VERSION_1 = 1 << 0,
};

/* The life of every profile: INIT -> OFFLINE -> ONLINE and back. */
enum mrc_ctl_profile_state {
	MRC_CTL_PROFILE_INIT,	 /* exists, nothing configured */
	MRC_CTL_PROFILE_OFFLINE, /* configured, not in use */
	MRC_CTL_PROFILE_ONLINE,	 /* usable by QPs */
};

/* ---------------------------------------------------------------------
 * The device
 */

/* Optional controller features (struct mrc_ctl_device_attr.opt_attr). */
enum mrc_ctl_attr_opt {
	MRC_CTL_OPT_CAP_EV_PROFILE_MODIFY_ONLINE = 1 << 0,
	MRC_CTL_OPT_CAP_CC_PROFILE_MODIFY_ONLINE = 1 << 1,
	MRC_CTL_OPT_CAP_EV_EVENT = 1 << 2,
	/* explicit EVs only as one range: base .. base + ev_count - 1 */
	MRC_CTL_OPT_CAP_EV_EXPLICIT_RANGE = 1 << 3,
	/* EV events count exactly how many were lost */
	MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT = 1 << 4,
	MRC_CTL_OPT_CAP_EP_OP_EV_PROBE = 1 << 5,
};

/* What the device offers a controller. */
struct mrc_ctl_device_attr {
	uint32_t mrc_ctl_protocol_version; /* enum mrc_ctl_protocol_version bits */

	struct {
		uint32_t ev_max_fmt_profiles;  /* EV format profiles */
		uint32_t ev_max_profiles;      /* EV profiles */
		uint32_t ev_max_count;	       /* EVs, all profiles together */
		uint32_t ev_free_count;	       /* of those, not yet used */
		uint32_t ev_max_count_profile; /* EVs in one profile */
		uint32_t ev_count_align;       /* explicit arrays: a multiple */
		uint32_t ev_max_width;	       /* valid bits of an EV value */
		uint32_t ev_fmt_mode_mask;  /* enum mrc_ctl_ev_fmt_mode bits */
		uint32_t ev_mode_mask;	    /* enum mrc_ctl_ev_mode bits */
		uint32_t ev_op_max_entries; /* per EV_OP call; 0: no cap */
	} ev;

	struct {
		uint32_t cc_max_profiles;
		/* Algorithm names, NULL-terminated, owned by the library
		 * ("uet-1.0-nscc": UET 1.0 NSCC).
		 */
		const char **algorithms;
	} cc;

	/* Ports of this function: bit N is port N (1-based). */
	uint32_t phy_port_mask;
	uint32_t opt_attr; /* enum mrc_ctl_attr_opt bits */
};

/* Whether the device is an MRC one (*supported) and what it offers.
 * Controllers of API 1.0.1 and later use the _ex form; the plain one
 * answers with 1.0.0 semantics.
 */
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
int mrc_ctl_query_device_ex(struct ibv_context *context,
			    struct mrc_context *mcontext,
			    struct mrc_ctl_device_attr *ctl_attr, int *supported);
#endif
int mrc_ctl_query_device(struct ibv_context *context,
			 struct mrc_ctl_device_attr *ctl_attr);

/* The controller API versions of the library (any pointer may be NULL);
 * callable before any context exists.
 */
void mrc_ctl_query_version(uint32_t *current_version,
			   uint32_t *last_supported_version,
			   uint32_t *vendor_version,
			   uint32_t *last_supported_vendor_version);

/* ---------------------------------------------------------------------
 * Ports
 */

enum mrc_ctl_port_admin_state {
	MRC_CTL_PORT_ADMIN_DISABLED = 0,
	MRC_CTL_PORT_ADMIN_ENABLED = 1,
};

enum mrc_ctl_port_attr_mask {
	MRC_CTL_PORT_ADMIN_STATE = 1 << 0,
};

struct mrc_ctl_port_attr {
	/* A disabled port reads IBV_PORT_DOWN in ibv_query_port(). */
	enum mrc_ctl_port_admin_state port_admin_state;
};

/* Port numbers are 1-based.  Errors: EINVAL, EIO, EPERM. */
int mrc_ctl_query_port(struct mrc_context *context, uint8_t port_num,
		       struct mrc_ctl_port_attr *attr, int attr_mask);
int mrc_ctl_modify_port(struct mrc_context *context, uint8_t port_num,
			struct mrc_ctl_port_attr *attr, int attr_mask);

/* ---------------------------------------------------------------------
 * EV format profiles: how an EV's bits are laid out in a packet
 */

enum mrc_ctl_ev_fmt_mode {
	MRC_CTL_EV_FMT_MODE_STEV = 1 << 0, /* IPv6 flow label + UDP port */
	MRC_CTL_EV_FMT_MODE_SRV6 = 1 << 1, /* SRv6 uSID (+ one SRH segment) */
	MRC_CTL_EV_FMT_MODE_UDP = 1 << 2,  /* the UDP source port */
};

enum mrc_ctl_ev_fmt_op {
	MRC_CTL_EV_FMT_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FMT_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_fmt_profile_attr_mask {
	MRC_CTL_EV_FMT_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_FMT_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_FMT_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_FMT_PROFILE_OP = 1 << 3,
	/* bit 31 (INT_MIN, valid ISO C for an enumerator) */
	MRC_CTL_EV_FMT_VENDOR_CFG = -0x7fffffff - 1,
};

struct mrc_ctl_ev_fmt_field {
	uint8_t width; /* bits */
};

struct mrc_ctl_ev_fmt_profile_attr {
	enum mrc_ctl_profile_state profile_state;     /* move to */
	enum mrc_ctl_profile_state cur_profile_state; /* now */
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;

	struct {
		enum mrc_ctl_ev_fmt_op op;
		struct mrc_ctl_ev_fmt_field *fmt_fields;
		int fmt_field_count; /* in: the array's length; out: used */
	} ev_fmt_op;

	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

/* Errors: EINVAL, EBUSY (an EV profile using it is ONLINE), E2BIG, EIO,
 * EPERM.  A query with too short a field array fails E2BIG and sets
 * fmt_field_count to the length needed.
 */
int mrc_ctl_modify_ev_fmt_profile(struct mrc_context *mrc_ctx,
				  uint64_t ev_fmt_profile_id,
				  struct mrc_ctl_ev_fmt_profile_attr *attr,
				  int attr_mask);
int mrc_ctl_query_ev_fmt_profile(struct mrc_context *mrc_ctx,
				 uint64_t ev_fmt_profile_id,
				 struct mrc_ctl_ev_fmt_profile_attr *attr,
				 int attr_mask);

/* ---------------------------------------------------------------------
 * EVs
 */

/* An EV value: STEV in the first 4 bytes; SRv6: the SID in bytes 0-15,
 * the SRH segment in 16-31.
 */
typedef uint8_t mrc_ctl_ev_t[MRC_CTL_EV_MAX_BYTES];

struct mrc_ctl_ev {
	mrc_ctl_ev_t val;
	uint8_t port; /* 1-based */
};

enum mrc_ctl_ev_state {
	MRC_CTL_EV_GOOD = 1 << 0,
	MRC_CTL_EV_ASSUMED_BAD = 1 << 1,
	MRC_CTL_EV_DENIED = 1 << 2,
	/* bit 31 (INT_MIN, valid ISO C for an enumerator) */
	MRC_CTL_EV_UNKNOWN = -0x7fffffff - 1,
};

/* ---------------------------------------------------------------------
 * EV profiles: the EVs a QP sprays over
 */

enum mrc_ctl_ev_mode {
	MRC_CTL_EV_MODE_AUTO = 1 << 0, /* the device picks (e.g. ECMP) */
	MRC_CTL_EV_MODE_EXP = 1 << 1,  /* explicit EVs from the controller */
	MRC_CTL_EV_MODE_GEN = 1 << 2,  /* generated from the fields */
};

enum mrc_ctl_ev_op {
	MRC_CTL_EV_OP_REPLACE_EV,
	MRC_CTL_EV_OP_MODIFY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_STATE,
	MRC_CTL_EV_OP_QUERY_EV_ARRAY,
};

enum mrc_ctl_ev_fields_op {
	MRC_CTL_EV_FIELDS_OP_MODIFY_FIELDS,
	MRC_CTL_EV_FIELDS_OP_QUERY_FIELDS,
};

enum mrc_ctl_ev_profile_attr_mask {
	MRC_CTL_EV_PROFILE_STATE = 1 << 0,
	MRC_CTL_EV_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_EV_PROFILE_MODE = 1 << 2,
	MRC_CTL_EV_PROFILE_FMT_ID = 1 << 3,
	MRC_CTL_EV_PROFILE_COUNT = 1 << 4,
	MRC_CTL_EV_PROFILE_MIN_ACTIVE = 1 << 5,
	MRC_CTL_EV_PROFILE_EVENT_MASK = 1 << 6,
	MRC_CTL_EV_PROFILE_EV_OP = 1 << 7,
	MRC_CTL_EV_PROFILE_EV_FIELDS_OP = 1 << 8,
	/* bit 31 (INT_MIN, valid ISO C for an enumerator) */
	MRC_CTL_EV_PROFILE_VENDOR_CFG = -0x7fffffff - 1,
};

/* One field of an EV: init_val, with the EV's next bits written where
 * mask has ones (most significant first); min_val/max_val bound the
 * generated part.  A fixed field has mask, min_val and max_val 0.
 */
struct mrc_ctl_ev_field {
	uint32_t width;
	uint32_t init_val;
	uint32_t min_val;
	uint32_t max_val;
	uint32_t mask;
};

enum mrc_ctl_ev_op_flags {
	/* REPLACE_EV: every slot holding ev, not one of them */
	MRC_CTL_EV_OP_F_ALL_COPIES = 1 << 0,
};

/* One entry of an EV operation.  REPLACE_EV reads ev, ev_new, state and
 * flags; MODIFY_EV_STATE ev, state and flags; QUERY_EV_STATE reads ev and
 * writes state; QUERY_EV_ARRAY writes ev and state.
 */
struct mrc_ctl_ev_op_entry {
	struct mrc_ctl_ev ev;
	struct mrc_ctl_ev ev_new;
	enum mrc_ctl_ev_state state;
	uint32_t flags; /* enum mrc_ctl_ev_op_flags */
};

struct mrc_ctl_ev_profile_attr {
	enum mrc_ctl_profile_state profile_state;     /* move to */
	enum mrc_ctl_profile_state cur_profile_state; /* now */
	enum mrc_ctl_ev_mode ev_mode;
	uint64_t ev_fmt_profile_id;
	uint32_t ev_count;	/* slots; a query returns the aligned count */
	uint32_t ev_min_active; /* <= ev_count */
	int ev_event_mask;	/* MRC_CTL_EV_GOOD | MRC_CTL_EV_ASSUMED_BAD */

	struct {
		enum mrc_ctl_ev_op op;
		struct mrc_ctl_ev_op_entry *entries;
		int entry_count; /* in: the array's length; out: used */
	} ev_op;

	struct {
		enum mrc_ctl_ev_fields_op op;
		struct mrc_ctl_ev_field *fields;
		int field_count; /* in: the array's length; out: used */
	} ev_fields_op;

	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

/* EV_OP and EV_FIELDS_OP exclude each other (EINVAL).  Errors: E2BIG,
 * EINVAL, ENOENT (no such EV), EIO, EPERM, EBUSY (QPs use the profile).
 * Entries are applied in order; the first failing one ends the call.
 */
int mrc_ctl_modify_ev_profile(struct mrc_context *mrc_ctx, uint64_t ev_profile_id,
			      struct mrc_ctl_ev_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_ev_profile(struct mrc_context *mrc_ctx, uint64_t ev_profile_id,
			     struct mrc_ctl_ev_profile_attr *attr, int attr_mask);

/* ---------------------------------------------------------------------
 * CC profiles
 */

enum mrc_ctl_cc_profile_attr_mask {
	MRC_CTL_CC_PROFILE_STATE = 1 << 0,
	MRC_CTL_CC_PROFILE_CUR_STATE = 1 << 1,
	MRC_CTL_CC_PROFILE_ALGORITHM = 1 << 2,
	MRC_CTL_CC_PROFILE_CONFIG = 1 << 3,
	/* bit 31 (INT_MIN, valid ISO C for an enumerator) */
	MRC_CTL_CC_PROFILE_VENDOR_CFG = -0x7fffffff - 1,
};

struct mrc_ctl_cc_profile_attr {
	enum mrc_ctl_profile_state profile_state;     /* move to */
	enum mrc_ctl_profile_state cur_profile_state; /* now */
	const char *algorithm; /* one of the device's; NULL: no CC */
	const void *cc_config; /* e.g. struct mrc_ctl_cc_nscc_cfg */
	uint8_t vendor_cfg[MRC_CTL_MAX_VENDOR_CFG_SIZE];
};

/* The parameters of "uet-1.0-nscc". */
struct mrc_ctl_cc_nscc_cfg {
	uint8_t disable_qa;		  /* quick adapt off if non-zero */
	uint32_t adjust_bytes_threshold;  /* bytes */
	uint32_t adjust_period_threshold; /* ns */
	uint32_t base_rtt;		  /* ns */
	float eta;
	float fi;
	float fi_scale;
	float gamma;
	float max_md_jump;
	uint32_t max_cwnd; /* bytes */
	uint8_t qa_gate;
	uint32_t qa_threshold; /* ns */
	uint32_t target_delay; /* ns */
};

/* Errors: EINVAL, EIO, EPERM, EBUSY (QPs use the profile). */
int mrc_ctl_modify_cc_profile(struct mrc_context *mrc_ctx, uint64_t cc_profile_id,
			      struct mrc_ctl_cc_profile_attr *attr,
			      int attr_mask);
int mrc_ctl_query_cc_profile(struct mrc_context *mrc_ctx, uint64_t cc_profile_id,
			     struct mrc_ctl_cc_profile_attr *attr, int attr_mask);

/* ---------------------------------------------------------------------
 * EV events: an EV of a profile changed state
 */

struct mrc_ctl_ev_event {
	uint64_t profile_id;
	struct mrc_ctl_ev ev;
	/* Events lost before this one: a count with
	 * MRC_CTL_OPT_CAP_EV_EVENT_PRECISE_DROP_CNT, else 0 or 1.
	 */
	uint32_t drop_count;
#if MRC_CTL_API_VER_USED >= MRC_CTL_API_VER(1, 0, 1)
	enum mrc_ctl_ev_state state; /* the new state (API 1.0.1) */
#endif
};

/* A CQ of EV events (it never overruns: a full one counts drops).
 * Returns NULL with errno set on failure, like ibv_create_cq().
 */
struct mrc_cq *mrc_ctl_create_ev_event_cq(struct mrc_context *mrc_ctx, int cqe,
					  void *cq_context,
					  struct mrc_comp_channel *channel,
					  int comp_vector);

/* Up to num_entries events into ev_event; returns how many, or a
 * negative errno value.
 */
int mrc_ctl_poll_ev_event(struct mrc_cq *ev_cq, int num_entries,
			  struct mrc_ctl_ev_event *ev_event);

/* ---------------------------------------------------------------------
 * Endpoint operations
 */

enum mrc_ctl_ep_op_type {
	MRC_CTL_EP_OP_EV_PROBE,
	MRC_CTL_EP_OP_PORT_STATUS_UPDATE,
};

struct mrc_ctl_ep_req {
	uint16_t req_id;    /* unique among the outstanding requests */
	union ibv_gid sgid; /* RoCEv2 GIDs only */
	union ibv_gid dgid;
	enum mrc_ctl_ev_fmt_mode ev_fmt_mode;
	struct mrc_ctl_ev req_ev;
	union {
		struct {
			uint32_t port_status; /* bit N: port N up (1-based) */
		} port_status_update;
	} op;
};

struct mrc_ctl_ep_rsp {
	uint16_t req_id;
	uint8_t port;	      /* where the answer arrived (1-based) */
	unsigned int rtt;     /* ns */
	uint8_t adj_svc_time; /* non-zero: rtt less the responder's time */
};

/* Send num_req operations of one type with traffic class req_tc and wait
 * up to rsp_timeout ns for the answers, which fill rsp in arrival order
 * (*num_rsp of them).  Errors: EAGAIN, EINVAL, EIO, ENOMEM, ENOTSUP,
 * EPERM, ETIMEDOUT (not every answer came).
 */
int mrc_ctl_ep_batch_send_wait(struct mrc_context *mrc_ctx, uint8_t req_tc,
			       enum mrc_ctl_ep_op_type op_type,
			       struct mrc_ctl_ep_req *req, int num_req,
			       uint32_t rsp_timeout, struct mrc_ctl_ep_rsp *rsp,
			       int *num_rsp);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_CTL_API_H_ */

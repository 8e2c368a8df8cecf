/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * lib_mrc: the OCP MRC application API on the software MRC.
 *
 * Every name, signature, structure layout and constant here is the one
 * of the published OCP interface (opencomputeproject/OCP-Multipath-
 * Reliable-Connection, mrc.h), so that a program compiled against the OCP
 * header links against this lib_mrc.so and a program compiled against
 * this header links against a NIC vendor's.  The text is our own; what
 * the software implementation does and where it differs from a NIC is in
 * Documentation/networking/lib_mrc.rst.
 *
 * The objects (context, completion channel, CQ, QP hint, QP) are opaque.
 * A context belongs to one verbs context (struct ibv_context) the program
 * opened; everything else belongs to a context.  Protection domains and
 * memory regions stay plain verbs objects (ibv_alloc_pd, ibv_reg_mr).
 *
 * Errors: functions documented "0 / -1" return -1 and set errno; those
 * documented "like ibv_X()" return what ibv_X() returns (for the int
 * verbs: 0 or a positive errno value) and set errno to the same value.
 */
#ifndef _MRC_API_H_
#define _MRC_API_H_

#include <stdint.h>
#include <infiniband/verbs.h>

#include <mrc_api_ver.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of the opaque vendor blobs of QP hints and QP attributes. */
#define MRC_MAX_VENDOR_CFG_SIZE 128

/*
 * Wire protocol versions.  A device reports the set it speaks as a
 * bitmap; a QP asks for one of them, or 0 for the device's choice.
 */
enum mrc_protocol_version {
	MRC_PROTOCOL_VERSION_0 = 0,
	MRC_PROTOCOL_VERSION_1 = 1 << 0,
};

struct mrc_context;
struct mrc_qp_hint;
struct mrc_qp;
struct mrc_cq;
struct mrc_comp_channel;

/* Optional device features (struct mrc_device_attr.cap). */
enum mrc_device_cap {
	MRC_DEVICE_CAP_TRIM_NACK = 1 << 0,   /* sends TRIM NACKs */
	MRC_DEVICE_CAP_DYNAMIC_MPR = 1 << 1, /* resizes the MPR at run time */
	MRC_DEVICE_CAP_SVC_TIME = 1 << 2, /* reports responder service time */
};

/* What a device can do for MRC QPs; filled by mrc_query_device(_ex). */
struct mrc_device_attr {
	uint32_t mrc_protocol_version; /* bitmap of enum mrc_protocol_version */
	struct {
		uint16_t max_wimm; /* in-flight WRITE_WITH_IMM, requester */
		uint16_t max_wimm_dest; /* the same, responder */
	} wimm_attr;
	struct {
		uint8_t max_mpr;	/* reorder window, units of 128 PSNs */
		uint8_t mpr_resolution; /* its step, units of 128 PSNs */
	} mpr_attr;
	struct {
		uint32_t max_qp_hint; /* QP hints a context may hold */
	} qp_attr;
	uint32_t cap; /* enum mrc_device_cap bits */
};

/*
 * Query the MRC capabilities of a verbs device.  *supported is set to 0
 * (and *attr zeroed) when the device is not an MRC device; that is not an
 * error.  mrc_query_device_ex() takes the program's MRC context, which
 * must belong to @context (or be NULL); programs written for API 1.0.1
 * or later use it.  Both: 0, or -1 with errno set.
 */
#if MRC_API_VER_USED >= MRC_API_VER(1, 0, 1)
int mrc_query_device_ex(struct ibv_context *context, struct mrc_context *mcontext,
			struct mrc_device_attr *attr, int *supported);
#endif
int mrc_query_device(struct ibv_context *context, struct mrc_device_attr *attr,
		     int *supported);

/*
 * The API versions the library implements (MRC_API_VER numbers): the
 * current and the oldest core API, the current and the oldest vendor
 * API.  Needs no context; a NULL pointer skips that value.
 */
void mrc_query_version(uint32_t *current_version,
		       uint32_t *last_supported_version, uint32_t *vendor_version,
		       uint32_t *last_supported_vendor_version);

/* The versions a program is written for; 0 means "the newest". */
struct mrc_context_attr {
	uint32_t mrc_api_version_used;
	uint32_t mrc_vendor_api_version_used;
};

/*
 * Open a library instance on an open verbs context; @context_attr may be
 * NULL.  Returns NULL with errno set on failure (EINVAL: a version newer
 * than the library's).  Works on any verbs device; creating a QP needs an
 * MRC device.
 */
struct mrc_context *mrc_create_context(struct ibv_context *vcontext,
				       struct mrc_context_attr *context_attr);

/*
 * Close an instance.  0, or -1 with errno: EBUSY while a completion
 * channel, CQ, QP hint or QP of it still exists.  The verbs context stays
 * open (it is the program's).
 */
int mrc_destroy_context(struct mrc_context *mrc_ctx);

/* A completion channel (ibv_create_comp_channel); 0 or like it. */
int mrc_create_comp_channel(struct mrc_context *mrc_ctx,
			    struct mrc_comp_channel **channel);

/* The channel's file descriptor, for poll(); 0, or -1 with errno. */
int mrc_get_comp_channel_fd(struct mrc_comp_channel *channel, int *fd);

/* Like ibv_destroy_comp_channel(): EBUSY while a CQ uses the channel. */
int mrc_destroy_comp_channel(struct mrc_comp_channel *channel);

/*
 * A CQ of at least @cqe entries; @cq_context is returned by
 * mrc_get_cq_event(); @channel may be NULL.  NULL with errno on failure,
 * like ibv_create_cq().
 */
struct mrc_cq *mrc_create_cq(struct mrc_context *mrc_ctx, int cqe,
			     void *cq_context, struct mrc_comp_channel *channel,
			     int comp_vector);

/* Like ibv_poll_cq(): the number of completions, or -1. */
int mrc_poll_cq(struct mrc_cq *cq, int num_entries, struct ibv_wc *wc);

/* Like ibv_destroy_cq(): EBUSY while a QP uses the CQ. */
int mrc_destroy_cq(struct mrc_cq *cq);

/*
 * The traffic a group of QPs expects, as a hint to the provider.  Counts
 * are per QP using the hint: QPs to the same peer, peers sent to at the
 * same time, and remote QPs sending to the same peer (its incast).
 */
struct mrc_qp_hint_attr {
	int num_qps_per_peer;
	int num_send_peers;
	int num_remote_recv_peers;
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

/* Which fields of struct mrc_qp_hint_attr a query or modify touches. */
enum mrc_qp_hint_attr_mask {
	MRC_QP_HINT_NUM_QPS_PER_PEER = 1 << 0,
	MRC_QP_HINT_NUM_SEND_PEERS = 1 << 1,
	MRC_QP_HINT_NUM_REMOTE_RECV_PEERS = 1 << 2,
	/* bit 31 (INT_MIN: the value of an int with only the sign bit) */
	MRC_QP_HINT_VENDOR_CFG = -0x7fffffff - 1,
};

struct mrc_qp_hint_init_attr {
	struct mrc_qp_hint_attr attr;
};

/* A QP hint; NULL with errno (EINVAL, ENOMEM) on failure. */
struct mrc_qp_hint *mrc_create_qp_hint(struct mrc_context *mrc_ctx,
				       struct mrc_qp_hint_init_attr *init_attr);

/* 0, or -1 with errno: EINVAL, EBUSY while a QP uses the hint. */
int mrc_destroy_qp_hint(struct mrc_qp_hint *qp_hint);

/* Read / change the fields named by the mask; 0, or -1 with EINVAL. */
int mrc_query_qp_hint(struct mrc_qp_hint *qp_hint,
		      struct mrc_qp_hint_attr *qp_hint_attr,
		      int qp_hint_attr_mask);
int mrc_modify_qp_hint(struct mrc_qp_hint *qp_hint,
		       struct mrc_qp_hint_attr *qp_hint_attr,
		       int qp_hint_attr_mask);

/* What a QP is created with (compare struct ibv_qp_init_attr). */
struct mrc_qp_init_attr {
	void *qp_context;
	struct mrc_cq *send_cq;
	struct mrc_cq *recv_cq;
	struct ibv_qp_cap cap;
	int sq_sig_all;
	struct ibv_pd *pd;
	uint64_t send_ops_flags; /* enum ibv_qp_create_send_ops_flags */
	enum mrc_protocol_version protocol_version; /* 0: the default */
};

/*
 * An MRC QP, in RESET.  NULL with errno on failure, like ibv_create_qp();
 * EOPNOTSUPP on a device without MRC.  @mrc_qp_attr->cap is updated to
 * what the QP really has.
 */
struct mrc_qp *mrc_create_qp(struct mrc_context *mrc_ctx,
			     struct mrc_qp_init_attr *mrc_qp_attr);

/* Like ibv_destroy_qp(). */
int mrc_destroy_qp(struct mrc_qp *qp);

/*
 * The MRC attributes of a QP (struct mrc_qp_attr), by mask bit.  Each
 * may be set only together with one state transition:
 *
 *   RESET -> INIT   MRC_QP_HINT, MRC_QP_EV_PROFILE_ID, MRC_QP_CC_PROFILE_ID
 *   INIT  -> RTR    MRC_QP_MAX_WIMM_DEST, MRC_QP_MPR_DEST, MRC_QP_CAP
 *                   (its dynamic MPR bit)
 *   RTR   -> RTS    MRC_QP_MAX_WIMM, MRC_QP_MPR, MRC_QP_RETRY_CNT,
 *                   MRC_QP_TIMEOUT
 */
enum mrc_qp_attr_mask {
	MRC_QP_MAX_WIMM = 1 << 0,
	MRC_QP_MAX_WIMM_DEST = 1 << 1,
	MRC_QP_MPR = 1 << 2,
	MRC_QP_MPR_DEST = 1 << 3,
	MRC_QP_TIMEOUT = 1 << 4,
	MRC_QP_EV_PROFILE_ID = 1 << 5,
	MRC_QP_CC_PROFILE_ID = 1 << 6,
	MRC_QP_HINT = 1 << 7,
	MRC_QP_RETRY_CNT = 1 << 8,
	MRC_QP_CAP = 1 << 9,
	/* bit 31 (INT_MIN), as MRC_QP_HINT_VENDOR_CFG */
	MRC_QP_VENDOR_CFG = -0x7fffffff - 1,
};

/* Per-QP feature bits (struct mrc_qp_attr.cap). */
enum mrc_qp_cap {
	/* the peer cannot send TRIM NACKs: do not expect them */
	MRC_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED = 1 << 0,
	/* dynamic MPR on this QP (takes effect when both ends enable it) */
	MRC_QP_CAP_DYNAMIC_MPR = 1 << 1,
	/* the peer does not report service time */
	MRC_QP_CAP_SVC_TIME_DEST_UNSUPPORTED = 1 << 2,
};

/* The MRC attributes of a QP (query / modify). */
struct mrc_qp_attr {
	struct {
		uint8_t mpr;	  /* requester window, 128-PSN units */
		uint8_t mpr_dest; /* responder window, 128-PSN units */
	} mpr;
	struct {
		uint16_t max_wimm; /* in-flight WRITE_WITH_IMM, requester */
		uint16_t max_wimm_dest; /* the same, responder */
	} wimm;
	uint8_t timeout; /* ACK timeout 1.024 us << timeout, <= 24 */
	struct {
		uint64_t ev_profile_id; /* profiles a controller installed */
		uint64_t cc_profile_id;
	} profile;
	struct {
		uint8_t linear_cnt; /* retries at a fixed interval, <= 7 */
		uint8_t exp_cnt; /* then doubling ones, <= 25 (25: for ever) */
	} retry;
	struct mrc_qp_hint *qp_hint; /* NULL: none */
	uint32_t cap;		     /* enum mrc_qp_cap bits */
	uint8_t vendor_cfg[MRC_MAX_VENDOR_CFG_SIZE];
};

/*
 * Read a QP's verbs attributes (@vattr_mask, as ibv_query_qp()), its MRC
 * attributes (@mrc_attr_mask) and what it was created with (@init_attr,
 * may be NULL).  Returns like ibv_query_qp(); EINVAL for an unknown mask
 * bit.
 */
int mrc_query_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		 struct mrc_qp_attr *mrc_attr, int mrc_attr_mask,
		 struct mrc_qp_init_attr *init_attr);

/*
 * Change a QP's state and attributes: verbs ones by @vattr_mask, MRC ones
 * by @mrc_attr_mask (see enum mrc_qp_attr_mask for which go with which
 * transition).  The library supplies the port and the verbs attributes
 * MRC replaces; these verbs mask bits are refused with EINVAL:
 * IBV_QP_PORT, IBV_QP_TIMEOUT and IBV_QP_RETRY_CNT (MRC_QP_TIMEOUT and
 * MRC_QP_RETRY_CNT instead), IBV_QP_RNR_RETRY, IBV_QP_MIN_RNR_TIMER,
 * IBV_QP_MAX_QP_RD_ATOMIC, IBV_QP_MAX_DEST_RD_ATOMIC, IBV_QP_ALT_PATH,
 * IBV_QP_PATH_MIG_STATE.  Returns like ibv_modify_qp().
 */
int mrc_modify_qp(struct mrc_qp *qp, struct ibv_qp_attr *vattr, int vattr_mask,
		  struct mrc_qp_attr *mrc_attr, int mrc_attr_mask);

/* The QP number the peer needs; 0, or -1 with errno. */
int mrc_get_qpn(struct mrc_qp *qp, uint32_t *qpn);

/*
 * Post receives, which WRITE_WITH_IMM consume (an MRC QP has no RNR: the
 * receives must be there first).  0, or -1 with errno and *bad_wr set.
 */
int mrc_post_recv(struct mrc_qp *qp, struct ibv_recv_wr *wr,
		  struct ibv_recv_wr **bad_wr);

/*
 * Post RDMA WRITE and WRITE_WITH_IMM work requests.  Returns like
 * ibv_post_send(); any other opcode is refused with EINVAL and *bad_wr
 * pointing at it (the requests before it are posted, none after).
 */
int mrc_post_send(struct mrc_qp *qp, struct ibv_send_wr *wr,
		  struct ibv_send_wr **bad_wr);

/* An asynchronous event and the object it is about. */
struct mrc_async_event {
	union {
		struct mrc_cq *cq;
		struct mrc_qp *qp;
		int port_num;
	} element;
	enum ibv_event_type event_type;
};

/*
 * The next asynchronous event of the context's objects (blocks unless the
 * verbs context's async_fd is non-blocking).  Like ibv_get_async_event():
 * 0, or -1 with errno.  Every event must be acknowledged.
 */
int mrc_get_async_event(struct mrc_context *mrc_ctx,
			struct mrc_async_event *event);
void mrc_ack_async_event(struct mrc_async_event *event);

/* Arm the CQ's channel, like ibv_req_notify_cq(). */
int mrc_req_notify_cq(struct mrc_cq *cq, int solicited_only);

/*
 * Wait for the next CQ event on a channel: the CQ and its cq_context.
 * 0, or -1 with errno, like ibv_get_cq_event().  Acknowledge with
 * mrc_ack_cq_events(); mrc_destroy_cq() waits for every acknowledgement.
 */
int mrc_get_cq_event(struct mrc_comp_channel *channel, struct mrc_cq **cq,
		     void **cq_context);
void mrc_ack_cq_events(struct mrc_cq *cq, unsigned int nevents);

#ifdef __cplusplus
}
#endif

#endif /* _MRC_API_H_ */

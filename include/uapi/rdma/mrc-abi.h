/* SPDX-License-Identifier: ((GPL-2.0-only WITH Linux-syscall-note) OR BSD-2-Clause) */
/*
 * The mrc device's own uverbs methods: what lib_mrc.so needs beyond the
 * rxe user ABI the device otherwise speaks.
 *
 * They are driver-namespace methods (UVERBS_ID_NS_SHIFT) added to two
 * core objects and reached with ioctl(RDMA_VERBS_IOCTL) on the context's
 * cmd_fd, header driver_id RDMA_DRIVER_RXE (the device's):
 *
 *   UVERBS_OBJECT_DEVICE  MRC_IB_METHOD_QUERY_DEVICE  what the device can do
 *   UVERBS_OBJECT_QP      MRC_IB_METHOD_QP_MODIFY     set MRC attributes
 *   UVERBS_OBJECT_QP      MRC_IB_METHOD_QP_QUERY      read them back
 *
 * The QP methods take the QP's uverbs handle (struct ibv_qp.handle), so a
 * process reaches only QPs of its own context and needs no privilege.  A
 * device that is not mrc (rdma_rxe, hardware) lacks the methods: the
 * ioctl fails with EOPNOTSUPP or EPROTONOSUPPORT, which is how lib_mrc
 * tells an MRC device from another.
 */
#ifndef _UAPI_RDMA_MRC_ABI_H
#define _UAPI_RDMA_MRC_ABI_H

#include <linux/types.h>
#include <rdma/ib_user_ioctl_cmds.h>

enum mrc_ib_device_methods {
	MRC_IB_METHOD_QUERY_DEVICE = (1U << UVERBS_ID_NS_SHIFT),
};

enum mrc_ib_query_device_attrs {
	/* PTR_OUT struct mrc_ib_device_attr (may be shorter: truncated) */
	MRC_IB_ATTR_QUERY_DEVICE_RESP = (1U << UVERBS_ID_NS_SHIFT),
};

enum mrc_ib_qp_methods {
	MRC_IB_METHOD_QP_MODIFY = (1U << UVERBS_ID_NS_SHIFT),
	MRC_IB_METHOD_QP_QUERY,
};

enum mrc_ib_qp_modify_attrs {
	MRC_IB_ATTR_QP_MODIFY_HANDLE = (1U << UVERBS_ID_NS_SHIFT), /* IDR QP */
	MRC_IB_ATTR_QP_MODIFY_ATTR,	/* PTR_IN struct mrc_ib_qp_attr */
};

enum mrc_ib_qp_query_attrs {
	MRC_IB_ATTR_QP_QUERY_HANDLE = (1U << UVERBS_ID_NS_SHIFT), /* IDR QP */
	MRC_IB_ATTR_QP_QUERY_RESP,	/* PTR_OUT struct mrc_ib_qp_attr */
};

/* Wire protocol versions (a bitmap, as the OCP API's). */
#define MRC_IB_PROTOCOL_V1		(1U << 0)

/* Device capabilities: the OCP API's enum mrc_device_cap bit values. */
#define MRC_IB_DEV_CAP_TRIM_NACK	(1U << 0)
#define MRC_IB_DEV_CAP_DYNAMIC_MPR	(1U << 1)
#define MRC_IB_DEV_CAP_SVC_TIME		(1U << 2)

struct mrc_ib_device_attr {
	__u32 protocol_versions;	/* MRC_IB_PROTOCOL_* */
	__u32 caps;			/* MRC_IB_DEV_CAP_* that really work */
	__u16 max_wimm;			/* in-flight WRITE_IMM, requester */
	__u16 max_wimm_dest;		/* in-flight WRITE_IMM, responder */
	__u8 max_mpr;			/* reorder window, 128-PSN units */
	__u8 mpr_resolution;		/* its granularity, 128-PSN units */
	__u8 max_timeout;		/* ACK timeout exponent: 1.024 us << t */
	__u8 max_retry_linear;		/* linear retries */
	__u8 max_retry_exp;		/* exponential retries; this one = inf */
	__u8 n_planes;			/* highest plane id (= port number) */
	__u16 reserved;
	__u32 planes_up;		/* bit p - 1: plane p is up */
	__u32 reserved2;
};

/*
 * struct mrc_ib_qp_attr.mask: which fields a MODIFY sets (or a QUERY
 * filled).  Bits 0-9 have the OCP API's enum mrc_qp_attr_mask values.
 */
#define MRC_IB_QP_MAX_WIMM		(1U << 0)
#define MRC_IB_QP_MAX_WIMM_DEST		(1U << 1)
#define MRC_IB_QP_MPR			(1U << 2)
#define MRC_IB_QP_MPR_DEST		(1U << 3)
#define MRC_IB_QP_TIMEOUT		(1U << 4)
#define MRC_IB_QP_EV_PROFILE		(1U << 5)
#define MRC_IB_QP_CC_PROFILE		(1U << 6)
#define MRC_IB_QP_RETRY_CNT		(1U << 8)
#define MRC_IB_QP_CAP			(1U << 9)
/* flags: MRC_IB_QP_F_* (MRC_IB_QP_F_MRC only in RESET, never cleared) */
#define MRC_IB_QP_FLAGS			(1U << 16)

/*
 * MRC_IB_QP_F_MRC: the QP has MRC semantics: it carries RDMA WRITE and
 * WRITE_WITH_IMM only (any other send WQE completes at once with
 * IB_WC_LOC_QP_OP_ERR), has no RNR (a WRITE_WITH_IMM that finds no
 * receive is a fatal error), keeps at most max_wimm WRITE_WITH_IMM in
 * flight and uses the timeout and retry fields below instead of the
 * verbs ones.
 */
#define MRC_IB_QP_F_MRC			(1U << 0)

/* cap: the OCP API's enum mrc_qp_cap bit values. */
#define MRC_IB_QP_CAP_TRIM_NACK_DEST_UNSUPPORTED (1U << 0)
#define MRC_IB_QP_CAP_DYNAMIC_MPR	(1U << 1)
#define MRC_IB_QP_CAP_SVC_TIME_DEST_UNSUPPORTED (1U << 2)

/* retry_exp value meaning "retry for ever". */
#define MRC_IB_RETRY_EXP_INFINITE	25

struct mrc_ib_qp_attr {
	__u32 mask;			/* MRC_IB_QP_* */
	__u32 flags;			/* MRC_IB_QP_F_* */
	__aligned_u64 ev_profile;	/* EV profile id (mrcctl's) */
	__aligned_u64 cc_profile;	/* CC profile id */
	__u16 max_wimm;
	__u16 max_wimm_dest;
	__u8 mpr;			/* 128-PSN units */
	__u8 mpr_dest;
	__u8 timeout;			/* 1.024 us << timeout */
	__u8 retry_linear;
	__u8 retry_exp;			/* MRC_IB_RETRY_EXP_INFINITE: for ever */
	__u8 reserved[3];
	__u32 cap;			/* MRC_IB_QP_CAP_* */
	/* QUERY only (0 in a MODIFY): WRITE_WITH_IMM given to the transport
	 * and not yet acknowledged, now and at most at once since RESET.
	 */
	__u16 wimm_inflight;
	__u16 wimm_inflight_max;
	__u32 reserved2;
};

#endif /* _UAPI_RDMA_MRC_ABI_H */

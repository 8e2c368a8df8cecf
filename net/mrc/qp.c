// SPDX-License-Identifier: GPL-2.0-only
/*
 * RC, UC and UD queue pairs: create, modify (the IB state machine),
 * query, destroy, and the doorbell.  Only user QPs exist; the rings are shared
 * with the rdma-core rxe provider in the rxe layout.  A UC QP rides the
 * same reliable engine connection as an RC one; what differs is the
 * operations it may post (req.c), what its receiver does with a message
 * it cannot take (resp.c: dropped, never NAKed) and that its sends
 * never fail by retries (mrc_qp_tx_params()).  A UD QP has no engine
 * connection: its datagrams are built, sent and received in ud.c.
 *
 * The engine connection is initialised at RTR (the QP must receive from
 * then on) and its send stream started at RTS, when the send PSN and the
 * ACK timeout and retry counts are known.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/inet_ecn.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_umem.h>
#include <rdma/uverbs_ioctl.h>

#include "qp.h"

void mrc_qp_mrc_init(struct mrc_qp *qp)
{
	struct mrc_qp_mrc *m = &qp->mrc;

	memset(m, 0, sizeof(*m));
	m->max_wimm = MRC_KABI_MAX_WIMM;
	m->max_wimm_dest = MRC_KABI_MAX_WIMM_DEST;
	m->mpr = MRC_MAX_MPR;
	m->mpr_dest = MRC_MAX_MPR;
	/* The verbs defaults (IB timeout 14, retry 7): 67 ms, 7 + 7. */
	m->timeout = 16;
	m->retry_linear = 7;
	m->retry_exp = MRC_QP_VERBS_BACKOFF;
}

struct mrc_qp *mrc_qp_get(struct mrc_net *mn, u32 qpn)
{
	struct mrc_qp *qp;

	rcu_read_lock();
	qp = xa_load(&mn->qps, qpn);
	if (qp && !refcount_inc_not_zero(&qp->ref))
		qp = NULL;
	rcu_read_unlock();
	return qp;
}

void mrc_qp_put(struct mrc_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref))
		complete(&qp->released);
}

/* Call @fn on every QP of @mdev that is not being destroyed.  @fn runs
 * in an RCU read-side section holding a reference: it may take qp->lock
 * but not sleep.
 */
void mrc_qp_for_each(struct mrc_dev *mdev,
		     void (*fn)(struct mrc_qp *qp, void *arg), void *arg)
{
	struct mrc_net *mn = mdev->mnet;
	struct mrc_qp *qp;
	unsigned long qpn;

	rcu_read_lock();
	xa_for_each(&mn->qps, qpn, qp) {
		if (qp->mdev != mdev || !refcount_inc_not_zero(&qp->ref))
			continue;
		fn(qp, arg);
		mrc_qp_put(qp);
	}
	rcu_read_unlock();
}

static u32 mrc_sq_wqe_size(u32 max_sge, u32 max_inline)
{
	return sizeof(struct rxe_send_wqe) +
	       max_t(u32, max_sge * sizeof(struct rxe_sge), max_inline);
}

static int mrc_qp_check_init(struct mrc_dev *mdev,
			     const struct ib_qp_init_attr *init,
			     struct ib_udata *udata)
{
	const struct ib_qp_cap *cap = &init->cap;

	if ((init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC &&
	     init->qp_type != IB_QPT_UD && init->qp_type != IB_QPT_GSI) ||
	    init->create_flags)
		return -EOPNOTSUPP;
	/* QP1 belongs to the kernel's MAD layer, on our single port. */
	if (init->qp_type == IB_QPT_GSI && (udata || init->port_num != 1))
		return -EOPNOTSUPP;
	if (init->srq && init->srq->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	/* UC receives from its own ring only (its drop accounting,
	 * resp.c, knows no SRQ).
	 */
	if (init->srq && init->qp_type == IB_QPT_UC)
		return -EOPNOTSUPP;
	/* Nor does UD's receive path (ud.c), nor a kernel consumer's
	 * (kernel SRQs do not exist).
	 */
	if (init->srq && (init->qp_type != IB_QPT_RC || !udata))
		return -EOPNOTSUPP;
	if (udata && udata->outlen < sizeof(struct rxe_create_qp_resp))
		return -EINVAL;
	/* A queue of depth 0 is allowed, as rxe allows it: a QP that only
	 * sends (max_recv_wr 0) or only answers (max_send_wr 0), as
	 * qperf's bandwidth tests create them.  Its ring has one slot and
	 * is always full (mrc_queue_init()): the provider refuses every
	 * post with ENOMEM, a SEND that arrives finds no receive WQE and
	 * is NAKed RNR (mrc_resp_bind()).
	 */
	/* With an SRQ the receive capabilities are ignored (as rxe). */
	if (cap->max_send_wr > MRC_MAX_QP_WR ||
	    (!init->srq && cap->max_recv_wr > MRC_MAX_QP_WR) ||
	    cap->max_send_sge > MRC_MAX_SGE ||
	    (!init->srq && cap->max_recv_sge > MRC_MAX_SGE) ||
	    cap->max_inline_data > MRC_MAX_INLINE)
		return -EINVAL;
	return 0;
}

/* Allocate the rings, their kernel copies and the engine connection. */
static int mrc_qp_alloc(struct mrc_qp *qp, struct ib_qp_init_attr *init)
{
	struct ib_qp_cap *cap = &init->cap;
	gfp_t gfp = qp->kernel ? MRC_GFP_KOBJ : MRC_GFP_USER;
	u32 sq_cap, rq_cap, sge, inl, slot;
	int err;

	sge = max_t(u32, cap->max_send_sge, 1);
	inl = max_t(u32, cap->max_inline_data, sge * sizeof(struct rxe_sge));
	inl = min_t(u32, inl, MRC_MAX_INLINE);
	err = mrc_queue_init_gfp(&qp->sq, cap->max_send_wr,
				 mrc_sq_wqe_size(sge, inl), &sq_cap, gfp);
	if (err)
		return err;
	/* The element may have been rounded up: offer what fits.  The
	 * provider copies inline data into the slot after the WQE header,
	 * the doorbell reads it from there: no more than the slot holds,
	 * or one WQE would spill into the next (or past the ring).
	 */
	slot = (1U << qp->sq.log2_elem_size) - sizeof(struct rxe_send_wqe);
	qp->max_sge = min_t(u32, MRC_MAX_SGE, slot / sizeof(struct rxe_sge));
	qp->max_inline = min_t(u32, MRC_MAX_INLINE, slot);
	if (qp->srq) {
		/* No ring of its own: slots for the WQEs it takes. */
		rq_cap = 0;
		qp->rwqe_num = MRC_SRQ_QP_SLOTS;
	} else {
		err = mrc_queue_init_gfp(&qp->rq, cap->max_recv_wr,
					 sizeof(struct rxe_recv_wqe) +
					 max_t(u32, cap->max_recv_sge, 1) *
					 sizeof(struct rxe_sge), &rq_cap, gfp);
		if (err)
			return err;
		qp->rwqe_num = qp->rq.index_mask + 1;
	}
	err = mrc_qp_paths_alloc(qp);
	if (err)
		return err;
	qp->swqe = kvcalloc(qp->sq.index_mask + 1, sizeof(*qp->swqe), gfp);
	qp->rwqe = kvcalloc(qp->rwqe_num, sizeof(*qp->rwqe), gfp);
	qp->inmsg = kvcalloc(MRC_MAX_WINDOW, sizeof(*qp->inmsg), gfp);
	qp->conn = kvzalloc(mrc_conn_size(), gfp);
	if (!qp->swqe || !qp->rwqe || !qp->inmsg || !qp->conn)
		return -ENOMEM;

	cap->max_send_wr = sq_cap;
	cap->max_recv_wr = rq_cap;
	cap->max_send_sge = qp->max_sge;
	cap->max_recv_sge = qp->srq ? 0 : max_t(u32, cap->max_recv_sge, 1);
	cap->max_inline_data = qp->max_inline;
	return 0;
}

static void mrc_qp_free(struct mrc_qp *qp)
{
	mrc_queue_cleanup(&qp->sq);
	mrc_queue_cleanup(&qp->rq);
	kvfree(qp->swqe);
	kvfree(qp->rwqe);
	kvfree(qp->inmsg);
	kvfree(qp->conn);
	mrc_qp_paths_free(qp);
}

/* A random free QPN in [MRC_QPN_MIN, MRC_QPN_MASK]: an off-path host
 * that wants to forge packets for a connection must guess it (cyclic
 * numbers would give it away).  A few draws find a free one unless the
 * namespace is nearly full; then the lowest free number.
 */
static int mrc_qpn_reserve(struct mrc_net *mn, u32 *qpn)
{
	int i;

	for (i = 0; i < 8; i++) {
		*qpn = MRC_QPN_MIN +
		       get_random_u32_below(MRC_QPN_MASK - MRC_QPN_MIN + 1);
		if (!xa_insert(&mn->qps, *qpn, NULL, GFP_KERNEL))
			return 0;
	}
	return xa_alloc(&mn->qps, qpn, NULL,
			XA_LIMIT(MRC_QPN_MIN, MRC_QPN_MASK), GFP_KERNEL);
}

/* QP1 of the namespace: the MAD layer's GSI QP of its first instance
 * (QPNs are per namespace, the GSI QP's is fixed).  A second instance
 * in the same namespace gets none: -EBUSY, and the MAD layer leaves
 * that port without management datagrams (rdma_cm cannot use it).
 */
static int mrc_qpn_reserve_gsi(struct mrc_net *mn, u32 *qpn)
{
	*qpn = 1;
	return xa_insert(&mn->qps, 1, NULL, GFP_KERNEL);
}

/* QP identities for memory windows: a pointer or a QPN may be reused. */
static atomic64_t mrc_qp_uid_next = ATOMIC64_INIT(0);

static int mrc_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
			 struct ib_udata *udata)
{
	struct mrc_dev *mdev = to_mdev(ibqp->device);
	struct mrc_qp *qp = to_mqp(ibqp);
	struct rxe_create_qp_resp resp = {};
	struct mrc_ucontext *uctx;
	unsigned long flags;
	u32 qpn;
	int err;

	err = mrc_qp_check_init(mdev, init, udata);
	if (err)
		return err;
	uctx = udata ? rdma_udata_to_drv_context(udata, struct mrc_ucontext,
						 ibuc) : NULL;
	/* Kernel QPs (QP1) are not counted: the limit is the users'. */
	err = udata ? mrc_obj_limit_get(&mdev->nr_qp, MRC_MAX_QP) : 0;
	if (err)
		return err;

	qp->mdev = mdev;
	qp->mnet = mdev->mnet;
	qp->uid = atomic64_inc_return(&mrc_qp_uid_next);
	qp->pd = to_mpd(ibqp->pd);
	qp->scq = to_mcq(init->send_cq);
	qp->rcq = to_mcq(init->recv_cq);
	qp->srq = init->srq ? to_msrq(init->srq) : NULL;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->owner = current_euid();
	qp->kernel = !udata;
	spin_lock_init(&qp->lock);
	qp->err_event = IB_EVENT_QP_FATAL;
	skb_queue_head_init(&qp->txq);
	refcount_set(&qp->ref, 1);
	init_completion(&qp->released);
	hrtimer_init(&qp->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	qp->timer.function = mrc_qp_timer_fn;
	qp->state = IB_QPS_RESET;
	mrc_qp_mrc_init(qp);

	err = mrc_qp_alloc(qp, init);
	if (err)
		goto err_free;
	/* A kernel consumer's rings stay unmapped (kverbs.c). */
	if (uctx)
		err = mrc_queue_publish(&qp->sq, &uctx->ibuc, &resp.sq_mi);
	/* With an SRQ the provider maps no receive ring (rq_mi stays 0). */
	if (!err && uctx && !qp->srq)
		err = mrc_queue_publish(&qp->rq, &uctx->ibuc, &resp.rq_mi);
	if (err)
		goto err_free;

	/* Reserve the number now, publish the QP when it is complete. */
	if (init->qp_type == IB_QPT_GSI)
		err = mrc_qpn_reserve_gsi(qp->mnet, &qpn);
	else
		err = mrc_qpn_reserve(qp->mnet, &qpn);
	if (err < 0)
		goto err_free;
	ibqp->qp_num = qpn;
	if (udata)
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
	if (err)
		goto err_xa;
	xa_store(&qp->mnet->qps, qpn, qp, GFP_KERNEL);
	spin_lock_irqsave(&qp->rcq->rq_qps_lock, flags);
	list_add_tail(&qp->rcq_node, &qp->rcq->rq_qps);
	spin_unlock_irqrestore(&qp->rcq->rq_qps_lock, flags);
	return 0;

err_xa:
	xa_erase(&qp->mnet->qps, qpn);
err_free:
	mrc_qp_free(qp);
	if (udata)
		mrc_obj_limit_put(&mdev->nr_qp);
	return err;
}

/* IB's 5-bit minimum RNR NAK timer code, in ns (IBA table 45). */
static u32 mrc_rnr_timer_ns(u8 code)
{
	static const u16 us100[32] = {
		6554, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
		256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192,
		12288, 16384, 24576, 32768, 49152,
	};

	/* Entries are 10 us units; code 0 is 655.36 ms. */
	return (u32)us100[code & 31] * 10000;
}

/* IB's local ACK timeout 4.096 us x 2^t is MRC's 1.024 us x 2^(t + 2);
 * t = 0 (wait forever) keeps the largest timeout with endless back-off.
 * The MRC attributes replace the verbs ones on an MRC QP, and on any QP
 * where the user set them (uverbs_mrc.c).
 */
struct mrc_tx_params {
	u8 exp, retry, backoff, rnr;
};

static void mrc_qp_tx_params(const struct mrc_qp *qp,
			     const struct ib_qp_attr *a,
			     struct mrc_tx_params *p)
{
	const struct mrc_qp_mrc *m = &qp->mrc;

	p->exp = a->timeout ? min_t(u8, a->timeout + 2, 24) : 24;
	p->retry = a->retry_cnt;
	p->backoff = MRC_QP_VERBS_BACKOFF;	/* the engine default, as before */
	p->rnr = a->rnr_retry;
	if (mrc_qp_is_mrc(qp) || (m->set & MRC_IB_QP_TIMEOUT))
		p->exp = m->timeout;
	if (mrc_qp_is_mrc(qp) || (m->set & MRC_IB_QP_RETRY_CNT)) {
		p->retry = m->retry_linear;
		p->backoff = m->retry_exp;
	}
	/* UC has no retry counts, no ACK timeout and no RNR (its modify
	 * masks carry none): a UC requester never completes with a retry
	 * or timeout error.  Its engine connection retransmits for as long
	 * as the QP lives, at the verbs default timeout unless the MRC
	 * timeout is set; its receiver never sends an RNR NACK.
	 */
	if (mrc_qp_is_uc(qp)) {
		if (!(m->set & MRC_IB_QP_TIMEOUT))
			p->exp = 14 + 2;
		p->retry = 7;
		p->backoff = MRC_BACKOFF_INFINITE;
		p->rnr = MRC_RNR_INFINITE;
	}
}

static int mrc_qp_set_av(struct mrc_qp *qp, const struct rdma_ah_attr *ah)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(ah);
	const struct ib_gid_attr *sattr = grh->sgid_attr;
	struct net_device *ndev;
	struct sockaddr_storage s, d;

	if (!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH) || !sattr)
		return -EINVAL;
	if (sattr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;
	rdma_gid2ip((struct sockaddr *)&s, &sattr->gid);
	rdma_gid2ip((struct sockaddr *)&d, &grh->dgid);
	/* Both ends IPv4 (IPv4-mapped GIDs) or both IPv6. */
	if (s.ss_family != d.ss_family)
		return -EINVAL;
	if (s.ss_family == AF_INET6) {
		if (!qp->mnet->sock6)
			return -EAFNOSUPPORT;	/* IPv6 disabled */
		memcpy(&qp->saddr.v6, &s, sizeof(qp->saddr.v6));
		memcpy(&qp->daddr.v6, &d, sizeof(qp->daddr.v6));
		qp->ipv6 = true;
	} else {
		memcpy(&qp->saddr.v4, &s, sizeof(qp->saddr.v4));
		memcpy(&qp->daddr.v4, &d, sizeof(qp->daddr.v4));
		qp->ipv6 = false;
	}
	qp->tos = grh->traffic_class & ~INET_ECN_MASK;
	qp->ttl = grh->hop_limit ? grh->hop_limit : 64;
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(sattr);
	qp->oif = IS_ERR(ndev) ? 0 : ndev->ifindex;
	rcu_read_unlock();
	return 0;
}

static int mrc_qp_check_attr(struct mrc_qp *qp, const struct ib_qp_attr *a,
			     int mask)
{
	if ((mask & IB_QP_PORT) && a->port_num != 1)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && a->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    a->max_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    a->max_dest_rd_atomic > MRC_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (a->path_mtu < IB_MTU_256 || a->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && a->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && a->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && a->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && a->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) && a->dest_qp_num > MRC_QPN_MASK)
		return -EINVAL;
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (a->qp_access_flags & ~(IB_ACCESS_REMOTE_WRITE |
				    IB_ACCESS_REMOTE_READ |
				    IB_ACCESS_REMOTE_ATOMIC |
				    IB_ACCESS_LOCAL_WRITE)))
		return -EINVAL;
	return 0;
}

/* Copy the attributes of @mask into qp->attr. */
static void mrc_qp_store_attr(struct mrc_qp *qp, const struct ib_qp_attr *a,
			      int mask)
{
	struct ib_qp_attr *q = &qp->attr;

	if (mask & IB_QP_ACCESS_FLAGS)
		q->qp_access_flags = a->qp_access_flags;
	if (mask & IB_QP_PORT)
		q->port_num = a->port_num;
	if (mask & IB_QP_PATH_MTU)
		q->path_mtu = a->path_mtu;
	if (mask & IB_QP_TIMEOUT)
		q->timeout = a->timeout;
	if (mask & IB_QP_RETRY_CNT)
		q->retry_cnt = a->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		q->rnr_retry = a->rnr_retry;
	if (mask & IB_QP_RQ_PSN)
		q->rq_psn = a->rq_psn & MRC_QPN_MASK;
	if (mask & IB_QP_SQ_PSN)
		q->sq_psn = a->sq_psn & MRC_QPN_MASK;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		q->max_rd_atomic = a->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		q->max_dest_rd_atomic = a->max_dest_rd_atomic;
	if (mask & IB_QP_MIN_RNR_TIMER)
		q->min_rnr_timer = a->min_rnr_timer;
	if (mask & IB_QP_DEST_QPN)
		q->dest_qp_num = a->dest_qp_num;
	if (mask & IB_QP_QKEY)
		q->qkey = a->qkey;
	if (mask & IB_QP_AV)
		q->ah_attr = a->ah_attr;	/* for query; sgid ref not kept */
}

/* Where our stream starts when it must before RTS tells us its sq_psn:
 * a responder that stays in RTR (perftest's bandwidth servers do) sends
 * READ and ATOMIC responses, which in MRC travel in its own stream.  Both
 * ends derive it from the requester's sq_psn (our rq_psn), half the PSN
 * space away from it; the requester accepts its peer's stream there
 * until a packet arrived (mrc_conn_set_peer_alt_psn()).
 */
static u32 mrc_early_psn(u32 peer_sq_psn)
{
	return (peer_sq_psn + BIT(23)) & MRC_QPN_MASK;
}

/* RTR: the connection exists from now on (we receive, and may answer). */
static int mrc_qp_to_rtr(struct mrc_qp *qp, struct mrc_qp_path_prep *prep)
{
	struct mrc_conn_config cfg;
	struct ib_qp_attr ib_default = {
		.timeout = 14, .retry_cnt = 7, .rnr_retry = 7,
	};
	struct mrc_tx_params p;
	u64 now;
	int err;

	mrc_conn_config_default(&cfg);
	cfg.mtu = ib_mtu_enum_to_int(qp->attr.path_mtu);
	/* The application's PSNs, as RoCE: the peer's from rq_psn, ours
	 * from sq_psn at RTS (mrc_qp_to_rts()).
	 */
	cfg.init_psn = mrc_early_psn(qp->attr.rq_psn);
	cfg.peer_init_psn = qp->attr.rq_psn;
	cfg.probe_seed = get_random_u32();
	/* Until RTS says otherwise: 7 retries of 67 ms (IB timeout 14). */
	mrc_qp_tx_params(qp, &ib_default, &p);
	cfg.ack_timeout_exp = p.exp;
	cfg.retry_cnt = p.retry;
	cfg.backoff_cnt = p.backoff;
	cfg.rnr_retry = p.rnr;
	/* Reorder windows (MRC_MAX_MPR unless set): ours receives, the
	 * peer's bounds our flight.
	 */
	cfg.mpr = qp->mrc.mpr_dest;
	cfg.peer_mpr = qp->mrc.mpr;
	cfg.rnr_timeout = mrc_rnr_timer_ns(qp->attr.min_rnr_timer);
	/* The route's CC profile (the built-in one without a route). */
	cfg.cc = prep->cc;
	/* Scheduling noise of a software path is not reordering evidence. */
	cfg.reo_min = 500000;
	cfg.ev_min_active = prep->min_active;
	/* OCP SVC_TIME_DEST_UNSUPPORTED: the peer's ACKs carry no service
	 * time (ours always do).
	 */
	cfg.peer_no_svc_time = !!(qp->mrc.cap &
				  MRC_IB_QP_CAP_SVC_TIME_DEST_UNSUPPORTED);
	now = mrc_now();
	if (mrc_conn_init(qp->conn, &cfg, &mrc_qp_conn_ops, qp, now))
		return -EINVAL;
	err = mrc_qp_paths_install(qp, prep, false, now);
	if (err)
		return err;
	qp->conn_ready = true;
	return 0;
}

static int mrc_qp_to_rts(struct mrc_qp *qp)
{
	struct mrc_tx_params p;
	int err;

	mrc_qp_tx_params(qp, &qp->attr, &p);
	/* -EBUSY: answered in RTR already, from mrc_early_psn(). */
	mrc_conn_set_init_psn(qp->conn, qp->attr.sq_psn);
	mrc_conn_set_peer_alt_psn(qp->conn, mrc_early_psn(qp->attr.sq_psn));
	/* MPR and the capabilities may have changed in RTR. */
	mrc_conn_set_peer_svc_time(qp->conn,
				   !(qp->mrc.cap &
				     MRC_IB_QP_CAP_SVC_TIME_DEST_UNSUPPORTED));
	err = mrc_conn_set_peer_mpr(qp->conn, qp->mrc.mpr);
	if (!err)
		err = mrc_conn_set_backoff(qp->conn, p.backoff);
	if (!err)
		err = mrc_conn_set_retry(qp->conn, p.exp, p.retry, p.rnr);
	return err;
}

/* Empty the send ring without completions. */
static void mrc_qp_discard_sq(struct mrc_qp *qp)
{
	mrc_queue_set_consumer(&qp->sq, mrc_queue_user_producer(&qp->sq));
	qp->sq_fetch = qp->sq.index;
	qp->sq_post = qp->sq.index;
}

/* Back to RESET: forget everything without completions (IBA 10.3.1). */
static void mrc_qp_reset(struct mrc_qp *qp)
{
	if (qp->conn_ready)
		mrc_conn_abort(qp->conn, mrc_now());
	mrc_resp_release(qp);
	qp->conn_ready = false;
	mrc_qp_discard_sq(qp);
	/* An SRQ QP forgets the WQEs it took (memset below): they are
	 * gone, as the receives of a ring that RESET empties.
	 */
	if (!qp->srq)
		mrc_queue_set_consumer(&qp->rq,
				       mrc_queue_user_producer(&qp->rq));
	qp->ssn_next = 0;
	qp->rsn_next = 0;
	qp->rsn_done = 0;
	qp->rq_ssn = 0;
	qp->req_msgs = 0;
	qp->wimm_inflight = 0;
	qp->wimm_inflight_max = 0;
	qp->pending_error = false;
	qp->err_event = IB_EVENT_QP_FATAL;
	qp->err_event_due = false;
	qp->srq_limit_due = false;
	qp->last_wqe_due = false;
	qp->last_wqe_done = false;
	bitmap_zero(qp->uc_drop, MRC_MAX_MSGS);
	qp->uc_drops = 0;
	qp->uc_bind_next = 0;
	memset(qp->rwqe, 0, qp->rwqe_num * sizeof(*qp->rwqe));
	memset(qp->inmsg, 0, MRC_MAX_WINDOW * sizeof(*qp->inmsg));
	__skb_queue_purge(&qp->txq);
}

static int mrc_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			 int mask, struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	struct mrc_qp_path_prep *prep = NULL;
	enum ib_qp_state cur, next;
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	if (udata && udata->inlen)
		return -EOPNOTSUPP;

	/* Routes and profiles sleep: look them up before the lock. */
	if ((mask & IB_QP_STATE) && attr->qp_state == IB_QPS_RTR &&
	    (mask & IB_QP_AV)) {
		prep = kzalloc(sizeof(*prep), GFP_KERNEL);
		if (!prep)
			return -ENOMEM;
		err = mrc_qp_paths_prepare(qp, &attr->ah_attr, prep);
		if (err)
			goto free;
	}

	spin_lock_bh(&qp->lock);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	err = -EINVAL;
	if (cur != qp->state ||
	    !ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		goto out;
	err = mrc_qp_check_attr(qp, attr, mask);
	if (err)
		goto out;
	/* The connection's paths, route caches and MTU are built at RTR
	 * from the AV (mrc_qp_paths_install(), mrc_conn_init()).  The core
	 * also allows a new AV and path MTU in SQD->SQD; rewriting the
	 * address family under paths built for the old one would send
	 * IPv4 destinations down the IPv6 path and vice versa.  Moving a
	 * live connection is not offered: refuse.
	 */
	if ((mask & (IB_QP_AV | IB_QP_PATH_MTU)) && cur != IB_QPS_INIT) {
		err = -EINVAL;
		goto out;
	}
	if (mask & IB_QP_AV) {
		err = mrc_qp_set_av(qp, &attr->ah_attr);
		if (err)
			goto out;
	}
	mrc_qp_store_attr(qp, attr, mask);

	if (next != cur) {
		switch (next) {
		case IB_QPS_RESET:
			mrc_qp_reset(qp);
			break;
		case IB_QPS_RTR:
			/* UD has no connection; ib_modify_qp_is_ok() wants
			 * the AV with RTR of the others.
			 */
			if (mrc_qp_is_ud(qp))
				break;
			err = prep ? mrc_qp_to_rtr(qp, prep) : -EINVAL;
			break;
		case IB_QPS_RTS:
			/* UD: sq_psn numbers the datagrams (ud.c). */
			if (cur == IB_QPS_RTR && mrc_qp_is_ud(qp))
				qp->ssn_next = qp->attr.sq_psn;
			else if (cur == IB_QPS_RTR)
				err = mrc_qp_to_rts(qp);
			break;
		case IB_QPS_ERR:
			qp->state = IB_QPS_ERR;
			mrc_qp_error(qp);
			break;
		default:
			break;
		}
		if (err)
			goto out;
		qp->state = next;
		qp->sq_draining = next == IB_QPS_SQD;
		/* Back from SQD (or SQE): what was posted meanwhile is
		 * still in the ring, unfetched (mrc_post_send()).
		 */
		if (next == IB_QPS_RTS && cur != IB_QPS_RTR)
			mrc_req_doorbell(qp);
		if (next == IB_QPS_RTS)
			mrc_qp_kick(qp);
	} else if (next == IB_QPS_ERR) {
		/* ERR -> ERR: receives posted since the last flush reached
		 * only the ring (the provider makes no system call for
		 * them), so a program that busy-polls would wait for ever.
		 * IBA 10.8.3: a QP in ERR completes every WR as flushed.
		 */
		mrc_req_flush(qp);
		mrc_resp_flush_rq(qp);
	}
out:
	mrc_qp_unlock_xmit(qp);
	/* A route change between the look-up and now: move at once. */
	if (prep && !err)
		mrc_qp_paths_recheck(qp, prep);
free:
	mrc_qp_path_prep_free(prep);
	return err;
}

static int mrc_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			int mask, struct ib_qp_init_attr *init)
{
	struct mrc_qp *qp = to_mqp(ibqp);

	spin_lock_bh(&qp->lock);
	*attr = qp->attr;
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->sq_draining = qp->sq_draining;
	attr->cap.max_send_wr = qp->sq.index_mask;
	attr->cap.max_recv_wr = qp->srq ? 0 : qp->rq.index_mask;
	attr->cap.max_send_sge = qp->max_sge;
	attr->cap.max_recv_sge = qp->srq ? 0 : qp->max_sge;
	attr->cap.max_inline_data = qp->max_inline;
	spin_unlock_bh(&qp->lock);

	memset(init, 0, sizeof(*init));
	init->send_cq = &qp->scq->ibcq;
	init->recv_cq = &qp->rcq->ibcq;
	init->srq = qp->srq ? &qp->srq->ibsrq : NULL;
	init->cap = attr->cap;
	init->qp_type = ibqp->qp_type;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR :
					     IB_SIGNAL_REQ_WR;
	return 0;
}

/* What the connection did, for "echo 'module mrc +p' >
 * /sys/kernel/debug/dynamic_debug/control".
 */
static void mrc_qp_debug_stats(struct mrc_qp *qp)
{
	struct mrc_conn_stats st;

	mrc_conn_get_stats(qp->conn, &st);
	pr_debug("qp %u: tx %llu retx %llu lost %llu timeouts %llu rx %llu dup %llu acks %llu/%llu nacks %llu/%llu srtt %u ns cwnd %u status %s\n",
		 mrc_qpn(qp), st.tx_pkts, st.retx_pkts, st.lost_pkts,
		 st.timeouts, st.rx_pkts, st.rx_dup, st.acks_tx, st.acks_rx,
		 st.nacks_tx, st.nacks_rx, st.srtt, st.cwnd,
		 mrc_status_name(st.status));
	pr_debug("qp %u: una %u nxt %u rcv_nxt %u inflight %u rto %u evs %u usable %u bad %u msgs %llu/%llu sq %u/%u/%u rq %u\n",
		 mrc_qpn(qp), st.snd_una, st.snd_nxt, st.rcv_nxt, st.inflight,
		 st.rto, st.evs_total, st.evs_usable, st.evs_bad,
		 st.msgs_sent, st.msgs_rcvd, qp->sq.index, qp->sq_post,
		 qp->sq_fetch, qp->rq.index);
}

static int mrc_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	unsigned long flags;

	spin_lock_irqsave(&qp->rcq->rq_qps_lock, flags);
	list_del(&qp->rcq_node);
	spin_unlock_irqrestore(&qp->rcq->rq_qps_lock, flags);
	/* No new lookup finds it; wait for the lookups that may have found
	 * it (RCU, up to their refcount_inc_not_zero()) and then for the
	 * references they took: the core frees the QP when we return.
	 */
	xa_erase(&qp->mnet->qps, mrc_qpn(qp));
	synchronize_rcu();
	mrc_qp_put(qp);
	wait_for_completion(&qp->released);

	/* Destroying a QP completes nothing (as rxe, whose tasks drain a
	 * destroyed QP's queues without completions, and hardware): work
	 * still outstanding disappears with the QP.  Posting its flushes
	 * into the CQ would hand the application completions of a QP it
	 * no longer has, in a CQ it may share with other QPs.  Completions
	 * already in the CQ stay there (the ring is the application's to
	 * consume); modify_qp to ERR is how to get outstanding work back.
	 */
	spin_lock_bh(&qp->lock);
	if (qp->conn_ready)
		mrc_qp_debug_stats(qp);
	qp->dying = true;
	qp->pending_error = false;
	mrc_resp_release(qp);
	mrc_qp_unlock_xmit(qp);
	hrtimer_cancel(&qp->timer);

	mrc_qp_free(qp);
	if (!qp->kernel)
		mrc_obj_limit_put(&qp->mdev->nr_qp);
	return 0;
}

/* From req_notify_cq, which a kernel consumer may call in any context
 * (softirq for IB_POLL_SOFTIRQ, IRQs off): irqsave, and the QPs' locks
 * without a BH toggle inside (mrc_qp_lock_any()).
 */
void mrc_cq_flush_err_qps(struct mrc_cq *cq)
{
	unsigned long flags;
	struct mrc_qp *qp;
	bool irqs_off;

	spin_lock_irqsave(&cq->rq_qps_lock, flags);
	list_for_each_entry(qp, &cq->rq_qps, rcq_node) {
		if (READ_ONCE(qp->state) != IB_QPS_ERR)
			continue;
		irqs_off = mrc_qp_lock_any(qp);
		if (qp->state == IB_QPS_ERR)
			mrc_resp_flush_rq(qp);
		mrc_qp_unlock_any(qp, irqs_off);
	}
	spin_unlock_irqrestore(&cq->rq_qps_lock, flags);
}

/* The WQEs the producer (the provider, or mrc_kpost_send()) wrote into
 * the send ring since the last call: take them.  With qp->lock held.
 */
int mrc_qp_doorbell(struct mrc_qp *qp)
{
	int err = 0;

	lockdep_assert_held(&qp->lock);

	switch (qp->state) {
	case IB_QPS_RTS:
	case IB_QPS_ERR:
	case IB_QPS_SQE:
		mrc_req_doorbell(qp);
		mrc_qp_kick(qp);
		break;
	case IB_QPS_SQD:
		break;		/* fetched again when back in RTS */
	default:
		/* Refused at post time (IBA 10.8.3.1): the WQEs the provider
		 * wrote are discarded, the caller sees the error.
		 */
		mrc_qp_discard_sq(qp);
		err = -EINVAL;
		break;
	}
	return err;
}

/* The provider's doorbell: ibv_post_send() wrote WQEs into the shared
 * send ring and calls POST_SEND with no work requests.  A kernel
 * consumer passes its work requests (kverbs.c).
 */
static int mrc_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			 const struct ib_send_wr **bad_wr)
{
	struct mrc_qp *qp = to_mqp(ibqp);
	int err;

	if (mrc_qp_is_kernel(qp))
		return mrc_kpost_send(ibqp, wr, bad_wr);
	if (wr) {
		/* A user QP's work requests come through the ring. */
		*bad_wr = wr;
		return -EOPNOTSUPP;
	}
	spin_lock_bh(&qp->lock);
	err = mrc_qp_doorbell(qp);
	mrc_qp_unlock_xmit(qp);
	return err;
}

static int mrc_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			 const struct ib_recv_wr **bad_wr)
{
	if (mrc_qp_is_kernel(to_mqp(ibqp)))
		return mrc_kpost_recv(ibqp, wr, bad_wr);
	/* The provider writes receive WQEs into the ring itself. */
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

const struct ib_device_ops mrc_qp_ops = {
	.create_qp = mrc_create_qp,
	.modify_qp = mrc_modify_qp,
	.query_qp = mrc_query_qp,
	.destroy_qp = mrc_destroy_qp,
	.post_send = mrc_post_send,
	.post_recv = mrc_post_recv,
	INIT_RDMA_OBJ_SIZE(ib_qp, mrc_qp, ibqp),
};

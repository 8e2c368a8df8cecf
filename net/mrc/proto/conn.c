// SPDX-License-Identifier: GPL-2.0-only
/*
 * Connection lifecycle: configuration and its defaults, the single timer
 * deadline, receive dispatch, failure, counters.
 */
#include "conn.h"

void mrc_conn_config_default(struct mrc_conn_config *cfg)
{
	mrc_memset(cfg, 0, sizeof(*cfg));
	cfg->mtu = 4096;
	cfg->mpr = MRC_MAX_MPR;
	cfg->peer_mpr = MRC_MAX_MPR;
	/* 1.024 us x 2^12 = 4.19 ms: a software stack on veth or a VM sees
	 * RTTs of 10-100 us with scheduling outliers of a few ms; losses are
	 * found within an RTT by the SACK/RACK logic, so the timeout only
	 * has to cover tail losses and dead fabrics and must never fire
	 * spuriously.
	 */
	cfg->ack_timeout_exp = 12;
	cfg->retry_cnt = 7;
	cfg->backoff_cnt = 7;
	cfg->rnr_retry = MRC_RNR_INFINITE;
	cfg->probe_backoff_max = 8;
	cfg->rnr_timeout = 100000;
	cfg->ack_every = 4;
	cfg->ack_delay = 5000;
	cfg->reo_min = 2000;
	cfg->probe_interval = 50000;
	cfg->ev_min_active = 1;
	mrc_nscc_params_default(&cfg->cc);
}

u32 mrc_conn_size(void)
{
	return sizeof(struct mrc_conn);
}

static bool conn_config_valid(const struct mrc_conn_config *cfg)
{
	return cfg->mtu && cfg->mtu <= MRC_MAX_PAYLOAD &&
	       cfg->mpr >= 1 && cfg->mpr <= MRC_MAX_MPR &&
	       cfg->peer_mpr >= 1 && cfg->peer_mpr <= MRC_MAX_MPR &&
	       cfg->ack_timeout_exp <= 24 && cfg->retry_cnt <= 7 &&
	       cfg->backoff_cnt <= MRC_BACKOFF_INFINITE &&
	       cfg->rnr_retry <= MRC_RNR_INFINITE &&
	       cfg->probe_backoff_max <= 24 && cfg->ack_every >= 1 &&
	       cfg->spray <= MRC_SPRAY_RECYCLE && cfg->tail_resend <= 1 &&
	       cfg->peer_no_svc_time <= 1;
}

int mrc_conn_init(struct mrc_conn *c, const struct mrc_conn_config *cfg,
		  const struct mrc_conn_ops *ops, void *priv, u64 now)
{
	if (!c || !cfg || !ops || !conn_config_valid(cfg))
		return -EINVAL;
	mrc_memset(c, 0, sizeof(*c));
	c->cfg = *cfg;
	c->ops = ops;
	c->priv = priv;
	mrc_nscc_init(&c->cc, &cfg->cc, cfg->mtu, now);
	mrc_path_init(c, now);
	mrc_tx_init(c);
	mrc_rx_init(c);
	return 0;
}

int mrc_conn_set_cc(struct mrc_conn *c, const struct mrc_nscc_params *cc,
		    u64 now)
{
	if (!c || !cc)
		return -EINVAL;
	c->cfg.cc = *cc;
	mrc_nscc_set_params(&c->cc, cc, now);
	return 0;
}

void mrc_conn_set_peer_svc_time(struct mrc_conn *c, bool reported)
{
	c->cfg.peer_no_svc_time = !reported;
}

int mrc_conn_set_retry(struct mrc_conn *c, u8 ack_timeout_exp, u8 retry_cnt,
		       u8 rnr_retry)
{
	struct mrc_conn_config cfg = c->cfg;

	cfg.ack_timeout_exp = ack_timeout_exp;
	cfg.retry_cnt = retry_cnt;
	cfg.rnr_retry = rnr_retry;
	if (!conn_config_valid(&cfg))
		return -EINVAL;
	c->cfg = cfg;
	return 0;
}

int mrc_conn_set_backoff(struct mrc_conn *c, u8 backoff_cnt)
{
	if (backoff_cnt > MRC_BACKOFF_INFINITE)
		return -EINVAL;
	c->cfg.backoff_cnt = backoff_cnt;
	return 0;
}

int mrc_conn_set_peer_mpr(struct mrc_conn *c, u8 peer_mpr)
{
	if (peer_mpr < 1 || peer_mpr > MRC_MAX_MPR)
		return -EINVAL;
	c->cfg.peer_mpr = peer_mpr;
	/* A smaller window than what is in flight only pauses new data
	 * (mrc_conn_tx_next() compares snd_nxt - snd_una with it).
	 */
	c->tx.window = (u32)peer_mpr * MRC_MPR_UNIT;
	return 0;
}

void mrc_conn_emit_event(struct mrc_conn *c, const struct mrc_conn_event *e)
{
	if (c->ops->event)
		c->ops->event(c->priv, e);
}

void mrc_conn_emit_ctrl(struct mrc_conn *c, struct mrc_pkt *pkt)
{
	if (c->ops->emit_ctrl)
		c->ops->emit_ctrl(c->priv, pkt);
}

void mrc_conn_fail(struct mrc_conn *c, int status, u32 err_msn, u64 now)
{
	struct mrc_conn_event e = {
		.time = now, .type = MRC_EVT_CONN_FAILED, .status = (u8)status,
	};

	if (c->status)
		return;
	c->status = (u8)status;
	mrc_tx_flush(c, status, err_msn);
	c->rx.ack_deadline = MRC_TIME_NEVER;
	c->paths.probe_deadline = MRC_TIME_NEVER;
	mrc_conn_emit_event(c, &e);
}

void mrc_conn_abort(struct mrc_conn *c, u64 now)
{
	/* msn_nxt names no message: all of them get FLUSHED. */
	mrc_conn_fail(c, MRC_ST_FLUSHED, c->tx.msn_nxt, now);
}

int mrc_conn_set_evs(struct mrc_conn *c, const struct mrc_ev_cfg *evs, u32 n,
		     u64 now)
{
	if (!evs)
		return -EINVAL;
	return mrc_path_set(c, evs, n, now);
}

int mrc_conn_replace_evs(struct mrc_conn *c, const struct mrc_ev_cfg *evs,
			 u32 n, u16 min_active, u64 now)
{
	if (!evs || mrc_path_check(evs, n) || !min_active)
		return -EINVAL;
	c->cfg.ev_min_active = min_active;
	mrc_tx_paths_replaced(c);
	return mrc_path_replace(c, evs, n, now);
}

int mrc_conn_set_ev_min_active(struct mrc_conn *c, u16 min_active, u64 now)
{
	if (!c || !min_active)
		return -EINVAL;
	c->cfg.ev_min_active = min_active;
	mrc_path_min_active_changed(c, now);
	return 0;
}

int mrc_conn_set_evs_auto(struct mrc_conn *c, u32 n, u64 now)
{
	return mrc_path_set(c, NULL, n, now);
}

int mrc_conn_ev_deny(struct mrc_conn *c, u32 ev, bool deny, u64 now)
{
	return mrc_path_deny(c, ev, deny, now);
}

int mrc_conn_plane_set(struct mrc_conn *c, u8 plane, bool up, u64 now)
{
	return mrc_path_plane(c, plane, up, now);
}

void mrc_conn_send_port_status(struct mrc_conn *c, u32 seq, u16 up_planes,
			       u64 now)
{
	struct mrc_pkt pkt;

	/* Its PSN snd_nxt ties it to the connection.  No path left: the
	 * peer finds out by loss.
	 */
	if (!mrc_ctrl_pkt_init(c, &pkt, MRC_OP_PORT_STATUS, 0, c->tx.snd_nxt,
			       now))
		return;
	pkt.u.port_status.seq = seq;
	pkt.u.port_status.up_planes = up_planes;
	mrc_conn_emit_ctrl(c, &pkt);
}

enum mrc_ev_state mrc_conn_ev_state(const struct mrc_conn *c, u32 ev)
{
	if (ev >= c->paths.n)
		return MRC_EV_UNKNOWN;
	return (enum mrc_ev_state)c->paths.ev[ev].state;
}

int mrc_conn_rx(struct mrc_conn *c, const struct mrc_pkt *pkt, u32 rx_flags,
		u64 now)
{
	int r;

	if (!pkt)
		return -EINVAL;
	if (c->status)
		return -EPIPE;
	switch (pkt->hdr.opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
	case MRC_OP_READ_REQ:
	case MRC_OP_READ_RESP:
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
	case MRC_OP_ATOMIC_RESP:
		return mrc_rx_data(c, pkt, rx_flags, now);
	case MRC_OP_ACK:
		r = mrc_tx_rx_ack(c, pkt, now);
		break;
	case MRC_OP_NACK:
		r = mrc_tx_rx_nack(c, pkt, now);
		break;
	case MRC_OP_PROBE_REQ:
	case MRC_OP_PROBE_RESP:
		r = mrc_path_rx_probe(c, pkt, now);
		break;
	case MRC_OP_PORT_STATUS:
		r = mrc_path_rx_port_status(c, pkt, now);
		break;
	default:
		return -EINVAL;
	}
	return r ? r : MRC_RX_CONTROL;
}

void mrc_conn_on_timer(struct mrc_conn *c, u64 now)
{
	if (c->status)
		return;
	mrc_rx_timer(c, now);
	mrc_tx_timer(c, now);
	if (!c->status)
		mrc_path_timer(c, now);
}

u64 mrc_conn_next_deadline(const struct mrc_conn *c)
{
	u64 d;

	if (c->status)
		return MRC_TIME_NEVER;
	d = mrc_min64(c->rx.ack_deadline, c->tx.rto_deadline);
	d = mrc_min64(d, c->tx.rack_deadline);
	d = mrc_min64(d, c->tx.rnr_deadline);
	return mrc_min64(d, c->paths.probe_deadline);
}

bool mrc_conn_idle(const struct mrc_conn *c)
{
	return c->tx.msn_una == c->tx.msn_nxt;
}

void mrc_tx_desc_to_pkt(const struct mrc_tx_desc *d, struct mrc_pkt *pkt)
{
	struct mrc_msg_ext *m = NULL;

	mrc_pkt_init(pkt, d->opcode);
	pkt->hdr.flags = d->flags;
	pkt->hdr.psn = d->psn;
	pkt->hdr.ev = d->ev;
	pkt->hdr.plane = d->plane;
	pkt->hdr.ts = d->ts;
	switch (d->opcode) {
	case MRC_OP_SEND:
	case MRC_OP_SEND_IMM:
	case MRC_OP_SEND_INV:
	case MRC_OP_READ_RESP:
		m = &pkt->u.send.msg;
		break;
	case MRC_OP_WRITE:
	case MRC_OP_WRITE_IMM:
		m = &pkt->u.write.msg;
		break;
	case MRC_OP_READ_REQ:
		pkt->u.read_req.msn = d->msn;
		break;
	case MRC_OP_ATOMIC_CS:
	case MRC_OP_ATOMIC_FA:
		pkt->u.atomic.msn = d->msn;
		break;
	case MRC_OP_ATOMIC_RESP:
		pkt->u.atomic_resp.msn = d->msn;
		break;
	default:
		break;
	}
	if (m) {
		m->msn = d->msn;
		m->offset = d->offset;
		m->msg_len = d->msg_len;
	}
	pkt->payload = NULL;
	pkt->payload_len = d->len;
}

int mrc_conn_status(const struct mrc_conn *c)
{
	return c->status;
}

void mrc_conn_get_stats(const struct mrc_conn *c, struct mrc_conn_stats *s)
{
	const struct mrc_paths *p = &c->paths;
	u32 i;

	*s = c->st;
	s->cwnd = mrc_nscc_cwnd(&c->cc);
	s->inflight = c->tx.inflight;
	s->srtt = c->tx.srtt;
	s->rto = (u32)mrc_min64(mrc_tx_rto(c), 0xffffffffu);
	s->snd_una = c->tx.snd_una;
	s->snd_nxt = c->tx.snd_nxt;
	s->rcv_nxt = c->rx.rcv_nxt;
	s->evs_total = (u16)p->n;
	s->evs_usable = (u16)p->n_usable;
	s->evs_bad = 0;
	s->evs_denied = 0;
	for (i = 0; i < p->n; i++) {
		s->evs_bad += p->ev[i].state == MRC_EV_ASSUMED_BAD;
		s->evs_denied += p->ev[i].state == MRC_EV_DENIED;
	}
	s->status = c->status;
}

const char *mrc_status_name(int status)
{
	switch (status) {
	case MRC_ST_OK:			return "ok";
	case MRC_ST_RETRY_EXCEEDED:	return "retry-exceeded";
	case MRC_ST_RNR_EXCEEDED:	return "rnr-retry-exceeded";
	case MRC_ST_REMOTE_ACCESS:	return "remote-access-error";
	case MRC_ST_INVALID_REQUEST:	return "invalid-request";
	case MRC_ST_FLUSHED:		return "flushed";
	case MRC_ST_NO_PATH:		return "no-path";
	default:			return "unknown";
	}
}

const char *mrc_ev_state_name(int state)
{
	switch (state) {
	case MRC_EV_GOOD:		return "good";
	case MRC_EV_ASSUMED_BAD:	return "assumed-bad";
	case MRC_EV_DENIED:		return "denied";
	default:			return "unknown";
	}
}

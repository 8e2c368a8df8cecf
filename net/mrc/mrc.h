/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Software MRC (Multipath Reliable Connection): private definitions of the
 * kernel glue.
 *
 * Locking, in the order it must be taken:
 *
 *   rtnl_lock        netdev lookups and the netdevice notifier; held by every
 *                    control-plane path that binds or unbinds a netdev so that
 *                    a plane can never be created on a netdev whose
 *                    NETDEV_UNREGISTER already ran.
 *   mrc_cfg_lock     (mutex) every control-plane object below: the
 *                    per-netns instance lists, the plane tables, the
 *                    instance and plane state flags, routes and profiles
 *                    (profile.h).  Netlink dumps take it
 *                    alone.
 *   RCU              the future datapath reads mrc_dev.planes[] and the
 *                    planes' admin state without locks.
 *
 * Lifetime: an instance (struct mrc_dev) is embedded in its ib_device; the
 * RDMA core owns the memory.  The single teardown path is
 * mrc_dev_dealloc_driver() (ib_device_ops.dealloc_driver), reached from
 * "rdma link del", from the netdev going away (queued unregistration), from
 * netns teardown, from rmmod (ib_unregister_driver) and from a failed
 * registration (ib_dealloc_device).
 */
#ifndef _NET_MRC_MRC_H
#define _NET_MRC_MRC_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <rdma/ib_verbs.h>
#include <linux/mrc.h>

#include "compat.h"
#include "wire.h"

/* Limits the verbs layer reports today: only contexts and PDs exist. */
#define MRC_MAX_PD		0xffff
#define MRC_MAX_UCONTEXT	512
#define MRC_GID_TBL_LEN		1024

/* Worst-case bytes a data packet carries besides the payload: IPv6 (40)
 * with a one-segment SRH (8 + 16) for SRV6 EVs, UDP (8), then the MRC
 * headers and ICRC of proto/wire.h.  Subtracted from the netdev MTU to get
 * the RDMA path MTU.
 */
#define MRC_MAX_HDR_LEN		(40 + 8 + 16 + 8 + MRC_COMMON_HDR_LEN + \
				 MRC_MAX_DATA_EXT_LEN + MRC_ICRC_LEN)

/* Memory a user's verbs objects hold for their lifetime (rings, kernel
 * copies of work requests, an MR's page array): charged to the memory
 * cgroup of the process creating them, so that memory.max bounds what one
 * unprivileged user can pin through them.  Over the limit the allocation
 * fails (the verb returns ENOMEM) instead of invoking the cgroup's OOM
 * killer, and the failure is the caller's to report, not a warning.
 */
#define MRC_GFP_USER		(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | \
				 __GFP_NOWARN)

/* Trimmed DSCP: 7 is in RFC 2474's pool 2 (xxxx11, experimental or
 * local use), which no standard per-hop behaviour claims.
 */
#define MRC_TRIM_DSCP_DEFAULT	7

extern struct mutex mrc_cfg_lock;
extern unsigned short mrc_udp_port;
extern int mrc_trim_dscp;

/* Per-namespace receive drops: the packet named no instance (yet). */
enum mrc_net_counter {
	MRC_NCNT_MALFORMED,		/* truncated or bad MRC header */
	MRC_NCNT_BAD_ICRC,		/* ICRC mismatch */
	MRC_NCNT_NO_QP,			/* no QP with that number */
	MRC_NCNT_PROBE_LIMITED,		/* probe answer over the rate limit */
	MRC_NCNT_PROBE_STRAY,		/* answer to no outstanding probe */
	MRC_NCNT_NR
};

/* Per-instance data path counters (atomic64: bumped from any CPU). */
enum mrc_dev_counter {
	MRC_CNT_TX_PKTS,		/* every packet sent, control included */
	MRC_CNT_TX_BYTES,		/* UDP payload bytes */
	MRC_CNT_RX_PKTS,		/* every packet delivered to a QP */
	MRC_CNT_RX_BYTES,
	MRC_CNT_RETX,			/* data packets retransmitted */
	MRC_CNT_DUP,			/* duplicate data packets */
	MRC_CNT_OOW,			/* data beyond the reorder window */
	MRC_CNT_NACK_TX,
	MRC_CNT_NACK_RX,
	MRC_CNT_BAD_RKEY,		/* remote access refused */
	MRC_CNT_SPOOFED,		/* wrong source address or QPN */
	MRC_CNT_BAD_STATE,		/* QP not able to receive */
	MRC_CNT_TX_DROP,		/* no route or no memory to send */
	MRC_CNT_PROTO_ERR,		/* peer broke the protocol: QP ended */
	MRC_CNT_CTRL_INVALID,		/* control packet outside the window */
	MRC_CNT_BAD_RESP,		/* response matching no request */
	MRC_CNT_UC_DROP,		/* UC message dropped by the receiver */
	MRC_CNT_UD_DROP,		/* UD datagram dropped by the receiver */
	MRC_CNT_RX_TRIMMED,		/* data packets a switch trimmed */
	MRC_CNT_NR
};

/* One netdev attached to an instance as plane @id. */
struct mrc_plane {
	struct mrc_dev *mdev;		/* const */
	struct net_device *ndev;	/* const; reference held (ndev_tracker) */
	netdevice_tracker ndev_tracker;
	u32 id;				/* const, 1..MRC_MAX_PLANES */
	bool admin_up;			/* mrc_cfg_lock; READ_ONCE() elsewhere */
	bool oper_up;			/* mrc_cfg_lock; last announced state */
	atomic64_t tx_pkts, tx_bytes;	/* data path, any CPU */
	atomic64_t rx_pkts, rx_bytes;
	struct rcu_head rcu;
};

/* Routes (route.c): how a peer is reached on each plane. */
#define MRC_MAX_ROUTES		1024	/* per instance */
#define MRC_MAX_PROFILE		65535	/* EV and CC profile ids */

struct mrc_route_hop {
	bool valid;			/* the route uses this plane */
	u8 family;			/* AF_INET or AF_INET6, the peer's */
	u8 addr[16];			/* the peer's address on the plane */
};

/* What the data path needs of a route (mrc_route_lookup()). */
struct mrc_route_info {
	struct mrc_route_hop hops[MRC_MAX_PLANES + 1];	/* by plane id */
	u32 ev_profile;			/* 0: default */
	u32 cc_profile;			/* 0: default */
};

struct mrc_route {
	struct list_head node;		/* in mrc_dev.routes; mrc_cfg_lock */
	u8 family;			/* AF_INET or AF_INET6 */
	u8 peer[16];			/* IPv4: first 4 bytes */
	struct mrc_route_info info;
};

/* One "rdma link add ... type mrc" instance. */
struct mrc_dev {
	struct ib_device ibdev;		/* must stay first: the core frees it */
	struct mrc_net *mnet;		/* const; the netns of plane 1 */
	struct list_head node;		/* in mnet->devs; mrc_cfg_lock */

	/* Indexed by plane id; [0] unused.  Written under mrc_cfg_lock with
	 * rcu_assign_pointer(), read under RCU or mrc_cfg_lock.
	 */
	struct mrc_plane __rcu *planes[MRC_MAX_PLANES + 1];
	unsigned int nr_planes;		/* mrc_cfg_lock */

	struct list_head routes;	/* struct mrc_route.node; mrc_cfg_lock */
	unsigned int nr_routes;		/* mrc_cfg_lock; <= MRC_MAX_ROUTES */
	/* Bumped (mrc_cfg_lock) whenever the route table changes: a QP that
	 * prepared its paths before and installs them after moves again.
	 */
	u32 route_gen;

	/* Profiles by id (profile.h); entries and counts under mrc_cfg_lock. */
	struct xarray ev_profiles;	/* struct mrc_ev_prof */
	unsigned int nr_ev_profiles;	/* <= MRC_MAX_EV_PROFILES */
	struct xarray cc_profiles;	/* struct mrc_cc_prof */
	unsigned int nr_cc_profiles;	/* <= MRC_MAX_CC_PROFILES */

	bool registered;		/* mrc_cfg_lock: ib_register_device done */
	bool dying;			/* mrc_cfg_lock: plane 1 netdev is gone */
	bool port_active;		/* mrc_cfg_lock; READ_ONCE() in verbs */
	bool has_sock;			/* mrc_cfg_lock: holds mnet's socket */

	struct ib_device_attr attr;	/* const after mrc_newlink() */
	atomic_t nr_pd;			/* PDs allocated, <= MRC_MAX_PD */
	atomic_t nr_ucontext;		/* user contexts, <= MRC_MAX_UCONTEXT */
	atomic_t nr_cq;			/* <= MRC_MAX_CQ */
	atomic_t nr_mr;			/* <= MRC_MAX_MR */
	atomic_t nr_mw;			/* <= MRC_MAX_MW */
	atomic_t nr_ah;			/* <= MRC_MAX_AH */
	atomic_t nr_qp;			/* <= MRC_MAX_QP */
	atomic_t nr_srq;		/* <= MRC_MAX_SRQ */

	/* MR key -> struct mrc_mr; xa_lock for writers, RCU for lookups. */
	struct xarray mrs;
	u32 mr_next;			/* xa_alloc_cyclic() cursor; xa_lock */
	/* Window key index -> struct mrc_mw (mw.c); as mrs. */
	struct xarray mws;
	u32 mw_next;			/* xa_lock of mws */
	/* AH number -> struct mrc_ah (the provider's ah_num). */
	struct xarray ahs;
	u32 ah_next;			/* xa_lock of ahs */
	/* SRQ number -> struct mrc_srq (rxe_create_srq_resp.srq_num). */
	struct xarray srqs;
	u32 srq_next;			/* xa_lock of srqs */

	atomic64_t cnt[MRC_CNT_NR];	/* enum mrc_dev_counter */
	atomic_t port_seq;		/* PORT_STATUS sequence (qp_path.c) */
	/* EV state events raised (nl_event.c): MRC_A_CONN_EV_SEQ. */
	atomic64_t ev_event_seq;
};

static inline void mrc_count(struct mrc_dev *mdev, enum mrc_dev_counter c,
			     u64 n)
{
	atomic64_add(n, &mdev->cnt[c]);
}

/* Per network namespace state. */
struct mrc_net {
	struct net *net;		/* const */
	struct list_head devs;		/* struct mrc_dev.node; mrc_cfg_lock */

	/* QPN -> struct mrc_qp of every instance in the namespace: the
	 * namespace's UDP socket finds a packet's QP by its destination QPN.
	 * xa_lock for writers, RCU for the receive path.
	 */
	struct xarray qps;

	/* The namespace's UDP tunnel socket (net.c): opened with the first
	 * instance, closed with the last; mrc_cfg_lock.  Stable while any
	 * instance (so any QP) of the namespace exists.
	 */
	struct socket *sock4;
	struct socket *sock6;		/* NULL when IPv6 is disabled */
	unsigned int sock_users;	/* mrc_cfg_lock */

	/* Packets dropped before they could be charged to an instance. */
	atomic64_t rx_drop[MRC_NCNT_NR];
	/* Probe answers that found no route back (probe.c). */
	atomic64_t probe_tx_drop;

	/* Probe runs waiting for answers (probe.c). */
	spinlock_t probe_lock;		/* probes, runs' state */
	struct list_head probes;
	/* Probe answers sent: a token bucket (probe.c), so that forged
	 * requests cannot turn the host into a reflector.
	 */
	spinlock_t probe_rl_lock;	/* the two fields below */
	u64 probe_rl_last;		/* ns: tokens counted up to then */
	u32 probe_rl_tokens;
};

/* probe.c: the namespace's probe answer rate limit. */
void mrc_probe_net_init(struct mrc_net *mn);

/* One more object of a kind counted in @nr (the nr_* fields above), at
 * most @max of them: -ENOMEM, with nothing counted, when @max are there
 * already.  The one limit rule of every verbs object; the object's
 * destroy gives it back with mrc_obj_limit_put().
 */
static inline int mrc_obj_limit_get(atomic_t *nr, int max)
{
	if (atomic_inc_return(nr) > max) {
		atomic_dec(nr);
		return -ENOMEM;
	}
	return 0;
}

static inline void mrc_obj_limit_put(atomic_t *nr)
{
	atomic_dec(nr);
}

static inline struct mrc_dev *to_mdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mrc_dev, ibdev);
}

/* ibdev.name, not dev_name(): "rdma dev set NAME name NEW" updates the
 * fixed array in place, while the kobject's name string is freed on rename.
 */
static inline const char *mrc_dev_name(const struct mrc_dev *mdev)
{
	return mdev->ibdev.name;
}

/* Whether netlink shows the instance: registered, and not on its way out
 * because its plane-1 netdev is gone.  Caller holds mrc_cfg_lock.
 */
static inline bool mrc_dev_visible(const struct mrc_dev *mdev)
{
	return mdev->registered && !mdev->dying;
}

/* Plane table access for holders of mrc_cfg_lock. */
static inline struct mrc_plane *mrc_plane_get_locked(struct mrc_dev *mdev,
						     u32 id)
{
	return rcu_dereference_protected(mdev->planes[id],
					 lockdep_is_held(&mrc_cfg_lock));
}

/* conflict.c */
int mrc_conflict_init(void);
void mrc_conflict_exit(void);

/* pernet.c */
int mrc_pernet_init(void);
void mrc_pernet_exit(void);
struct mrc_net *mrc_net(const struct net *net);

/* device.c */
int mrc_device_init(void);
void mrc_device_exit(void);
void mrc_dev_update_port(struct mrc_dev *mdev);
/* The RDMA path MTU a netdev of MTU @ndev_mtu carries (MRC headers off). */
enum ib_mtu mrc_path_mtu(unsigned int ndev_mtu);
struct mrc_dev *mrc_dev_find(struct mrc_net *mn, const char *name, u32 index);
void mrc_dev_unregister_all(struct mrc_net *mn);

/* plane.c */
int mrc_plane_add(struct mrc_dev *mdev, struct net_device *ndev, u32 id,
		  struct netlink_ext_ack *extack);
int mrc_plane_del(struct mrc_dev *mdev, u32 id,
		  struct netlink_ext_ack *extack);
int mrc_plane_set_admin(struct mrc_dev *mdev, u32 id, bool up,
			struct netlink_ext_ack *extack);
void mrc_plane_release(struct mrc_plane *plane);
bool mrc_plane_refresh(struct mrc_plane *plane);
struct mrc_plane *mrc_plane_find_ndev(struct mrc_net *mn,
				      const struct net_device *ndev);
bool mrc_plane_ndev_ok(const struct net_device *ndev,
		       struct netlink_ext_ack *extack);

/* route.c: every function but mrc_route_lookup() needs mrc_cfg_lock.
 * A change of the table moves the live QPs it covers (qp_path.c): add,
 * replace and delete fail with -errno (*@bad_qpn the QP that could not
 * move, 0 for another reason) and change nothing when one cannot.
 */
struct mrc_route *mrc_route_find(struct mrc_dev *mdev, u8 family,
				 const u8 *peer);
int mrc_route_add(struct mrc_dev *mdev, const struct mrc_route *tmpl,
		  bool replace, u32 *bad_qpn);
int mrc_route_del(struct mrc_dev *mdev, u8 family, const u8 *peer,
		  u32 *bad_qpn);
void mrc_route_plane_gone(struct mrc_dev *mdev, u32 id);
void mrc_route_flush(struct mrc_dev *mdev, bool announce);
int mrc_route_lookup(struct mrc_dev *mdev, const struct sockaddr *peer,
		     struct mrc_route_info *out);
int mrc_route_lookup_locked(struct mrc_dev *mdev, const struct sockaddr *peer,
			    struct mrc_route_info *out);
struct mrc_route *mrc_route_using_profile(struct mrc_dev *mdev, bool cc,
					  u32 id);

/* Profiles (ev_profile_cfg.c, cc_profile_cfg.c): the data path's view.
 * Process context; each takes mrc_cfg_lock, the __ ones want it held.
 */
struct mrc_ev;
struct mrc_ev_cfg;
struct mrc_nscc_params;
int mrc_ev_profile_conn_get(struct mrc_dev *mdev, u32 id, u32 qpn,
			    struct mrc_ev *evs, struct mrc_ev_cfg *cfg,
			    u16 cap, u8 *format, u16 *min_active,
			    u32 *event_mask);
int __mrc_ev_profile_conn_get(struct mrc_dev *mdev, u32 id, u32 qpn,
			      struct mrc_ev *evs, struct mrc_ev_cfg *cfg,
			      u16 cap, u8 *format, u16 *min_active,
			      u32 *event_mask);
int mrc_cc_profile_get(struct mrc_dev *mdev, u32 id,
		       struct mrc_nscc_params *out);
int __mrc_cc_profile_get(struct mrc_dev *mdev, u32 id,
			 struct mrc_nscc_params *out);
void mrc_cc_profile_default(struct mrc_nscc_params *out);
void mrc_profiles_flush(struct mrc_dev *mdev, bool announce);

u16 mrc_plane_up_mask(struct mrc_dev *mdev);

/* qp_path.c: plane @id went up or down (or away: down, ifindex 0);
 * every QP of @mdev adjusts and tells its peer.  Caller holds
 * mrc_cfg_lock.
 */
void mrc_qp_plane_changed(struct mrc_dev *mdev, u32 id, int ifindex,
			  bool up);
u32 mrc_qp_ev_changed(struct mrc_dev *mdev, u32 profile, u32 qpn, u16 idx,
		      const struct mrc_ev *ev, int deny);
u32 mrc_qp_cc_changed(struct mrc_dev *mdev, u32 profile,
		      const struct mrc_nscc_params *params);
u32 mrc_qp_ev_params_changed(struct mrc_dev *mdev, u32 profile,
			     u16 min_active, u32 event_mask);

/* qp_path.c: moving the live QPs (RTR and later) of one peer when its
 * route changes; caller holds mrc_cfg_lock throughout.  _prepare gathers
 * and builds the new paths of every such QP as if @route (NULL: none)
 * were the peer's route, without touching any QP: 0, or -errno with
 * *@bad_qpn the QP that cannot move (nothing is kept).  _commit makes
 * them take the new paths, _abort drops them; each empties @moves.
 */
int mrc_qp_repath_prepare(struct mrc_dev *mdev, u8 family, const u8 *peer,
			  const struct mrc_route_info *route,
			  struct list_head *moves, u32 *bad_qpn);
void mrc_qp_repath_commit(struct mrc_dev *mdev, struct list_head *moves);
void mrc_qp_repath_abort(struct list_head *moves);

/* netdev.c */
int mrc_netdev_init(void);
void mrc_netdev_exit(void);

/* net.c: the namespace's UDP socket, taken by each instance. */
int mrc_net_sock_get(struct mrc_net *mn);
void mrc_net_sock_put(struct mrc_net *mn);

/* counters.c: every counter of an instance, indexed 0..MRC_STATS_NR - 1:
 * enum mrc_dev_counter, then enum mrc_net_counter of its namespace.
 */
#define MRC_STATS_NR		(MRC_CNT_NR + MRC_NCNT_NR)
extern const struct ib_device_ops mrc_counter_ops;
extern const u16 mrc_stat_attr[MRC_STATS_NR];
u64 mrc_stat_read(const struct mrc_dev *mdev, unsigned int i);

/* netlink.c: the ops, registered with the family (nl_event.h). */
int mrc_genl_init(void);
void mrc_genl_exit(void);

#endif /* _NET_MRC_MRC_H */

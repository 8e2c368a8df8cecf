// SPDX-License-Identifier: GPL-2.0-only
/*
 * mrc_trim: a trimming switch for the test fabrics, as a tc egress
 * program (clsact, direct action) on a router's interface.
 *
 * MRC data packets (UDP to the MRC port, an opcode that carries payload,
 * payload_len > 0) are *selected* by the configuration in the array map
 * mrc_trim_cfg (key 0, struct mrc_trim_cfg):
 *
 *   every_n   every n-th data packet (deterministic: the same packets in
 *             every mode), or
 *   rate      above a rate: a token bucket of rate bytes/s and burst
 *             bytes (the data packets that find it empty).
 *
 * and then, by mode: TRIM cuts the packet after the MRC headers (the
 * payload and the ICRC go), sets the trimmed DSCP (ECN bits kept) and
 * fixes the IPv4 total length / IPv6 payload length, the UDP length and
 * the checksums: Documentation/networking/mrc.rst, "Trimmed packets".
 * DROP drops it instead; OFF (or no configuration) passes everything.
 * mrc_trim_stats (key 0, struct mrc_trim_stats) counts what it did.  A
 * test reads and writes both with bpftool by name ("bpftool map update
 * name mrc_trim_cfg ..."): load one instance of the program at a time.
 *
 * Built by the top-level build (tools/bpf/CMakeLists.txt) into
 * build/bin/mrc_trim.bpf.o; loaded with
 *   tc qdisc add dev IF clsact
 *   tc filter add dev IF egress bpf da obj mrc_trim.bpf.o sec tc
 * Ethernet (veth) only; IPv6 without extension headers.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MRC_HDR_LEN		28	/* common header */
#define MRC_OFF_OPCODE		1
#define MRC_OFF_PAYLEN		24
#define MRC_MAX_HDRS		(sizeof(struct udphdr) + MRC_HDR_LEN + 28)

enum { MRC_TRIM_OFF, MRC_TRIM_TRIM, MRC_TRIM_DROP };

struct mrc_trim_cfg {
	__u32 mode;		/* MRC_TRIM_* */
	__u32 every_n;		/* select every n-th data packet; 0: not */
	__u64 rate;		/* token bucket: bytes/s; 0: not */
	__u64 burst;		/* bucket depth in bytes */
	__u32 dscp;		/* the trimmed DSCP (0..63) */
	__u32 port;		/* MRC UDP destination port */
};

struct mrc_trim_stats {
	__u64 data;		/* MRC data packets seen */
	__u64 trimmed;
	__u64 dropped;
	__u64 cut_bytes;	/* bytes the trims removed */
	__u64 tokens;		/* token bucket state */
	__u64 last_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mrc_trim_cfg);
} mrc_trim_cfg SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct mrc_trim_stats);
} mrc_trim_stats SEC(".maps");

/* Extension header length of an MRC opcode that carries payload, else 0. */
static __always_inline __u32 mrc_data_ext_len(__u8 opcode)
{
	switch (opcode) {
	case 0x01:		/* SEND */
	case 0x06:		/* READ_RESP */
		return 12;
	case 0x02:		/* SEND_IMM */
	case 0x0a:		/* SEND_INV */
		return 16;
	case 0x03:		/* WRITE */
		return 24;
	case 0x04:		/* WRITE_IMM */
		return 28;
	default:
		return 0;
	}
}

static __always_inline __u16 csum_fold32(__s64 sum)
{
	__u64 s = (__u64)sum & 0xffffffffULL;

	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)~s;
}

/* Is this packet selected?  Counts it as a data packet. */
static __always_inline int mrc_select(const struct mrc_trim_cfg *cfg,
				      struct mrc_trim_stats *st, __u32 len)
{
	__u64 n = __sync_fetch_and_add(&st->data, 1) + 1;
	__u64 now, tokens, add;

	if (cfg->every_n)
		return n % cfg->every_n == 0;
	if (!cfg->rate)
		return 0;
	/* Racy across CPUs by design: a switch's meter is approximate too. */
	now = bpf_ktime_get_ns();
	tokens = st->tokens;
	if (st->last_ns) {
		add = (now - st->last_ns) * cfg->rate / 1000000000ULL;
		tokens += add;
	} else {
		tokens = cfg->burst;
	}
	if (tokens > cfg->burst)
		tokens = cfg->burst;
	st->last_ns = now;
	if (tokens >= len) {
		st->tokens = tokens - len;
		return 0;
	}
	st->tokens = tokens;
	return 1;
}

/* The UDP checksum over the pseudo header sum @pseudo and the @n bytes
 * left after the IP header (the UDP and MRC headers).
 */
static __always_inline int udp_csum(struct __sk_buff *skb, __u32 l4,
				    __u32 n, __s64 pseudo, __u16 *check)
{
	__u8 buf[MRC_MAX_HDRS] = {};
	__s64 sum;

	if (n > sizeof(buf) || n < sizeof(struct udphdr))
		return -1;
	if (bpf_skb_load_bytes(skb, l4, buf, n))
		return -1;
	buf[6] = 0;		/* the checksum field */
	buf[7] = 0;
	/* Zeros after the n bytes add nothing to the sum. */
	sum = bpf_csum_diff(0, 0, (__be32 *)buf, sizeof(buf), pseudo);
	if (sum < 0)
		return -1;
	*check = csum_fold32(sum);
	if (!*check)
		*check = 0xffff;
	return 0;
}

static __always_inline int trim4(struct __sk_buff *skb, __u32 l3,
				 const struct mrc_trim_cfg *cfg, __u32 keep)
{
	struct iphdr ip;
	__u32 ihl, l4, words[15] = {};
	struct {
		__be32 saddr, daddr;
		__u8 zero, proto;
		__be16 len;
	} ph;
	__u16 check, udp_len = sizeof(struct udphdr) + keep;
	__be16 ulen = bpf_htons(udp_len), ucheck;
	__s64 sum;

	if (bpf_skb_load_bytes(skb, l3, &ip, sizeof(ip)))
		return TC_ACT_OK;
	ihl = ip.ihl * 4;
	if (ihl < sizeof(ip) || ihl > sizeof(words))
		return TC_ACT_OK;
	l4 = l3 + ihl;
	if (bpf_skb_load_bytes(skb, l4 + 6, &ucheck, 2))
		return TC_ACT_OK;
	if (bpf_skb_change_tail(skb, l4 + udp_len, 0))
		return TC_ACT_OK;
	/* IP: DSCP (ECN kept), total length, header checksum. */
	if (bpf_skb_load_bytes(skb, l3, words, ihl))
		return TC_ACT_SHOT;
	ip.tos = (__u8)(cfg->dscp << 2) | (ip.tos & 3);
	ip.tot_len = bpf_htons(ihl + udp_len);
	ip.check = 0;
	__builtin_memcpy(words, &ip, sizeof(ip));
	sum = bpf_csum_diff(0, 0, words, sizeof(words), 0);
	if (sum < 0)
		return TC_ACT_SHOT;
	ip.check = csum_fold32(sum);
	if (bpf_skb_store_bytes(skb, l3, &ip, sizeof(ip), 0) ||
	    bpf_skb_store_bytes(skb, l4 + 4, &ulen, 2, 0))
		return TC_ACT_SHOT;
	/* UDP: no checksum stays none (MRC over IPv4 sends none). */
	if (!ucheck)
		return TC_ACT_OK;
	ph.saddr = ip.saddr;
	ph.daddr = ip.daddr;
	ph.zero = 0;
	ph.proto = IPPROTO_UDP;
	ph.len = ulen;
	sum = bpf_csum_diff(0, 0, (__be32 *)&ph, sizeof(ph), 0);
	if (sum < 0 || udp_csum(skb, l4, udp_len, sum, &check))
		return TC_ACT_SHOT;
	if (bpf_skb_store_bytes(skb, l4 + 6, &check, 2, 0))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

static __always_inline int trim6(struct __sk_buff *skb, __u32 l3,
				 const struct mrc_trim_cfg *cfg, __u32 keep)
{
	struct ipv6hdr ip6;
	struct {
		struct in6_addr saddr, daddr;
		__be32 len;
		__be32 nexthdr;
	} ph;
	__u32 l4 = l3 + sizeof(ip6), w0;
	__u16 check, udp_len = sizeof(struct udphdr) + keep;
	__be16 ulen = bpf_htons(udp_len);
	__s64 sum;

	if (bpf_skb_change_tail(skb, l4 + udp_len, 0))
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, l3, &ip6, sizeof(ip6)))
		return TC_ACT_SHOT;
	/* Traffic class = bits 20..27 of the first word: DSCP, ECN kept. */
	__builtin_memcpy(&w0, &ip6, 4);
	w0 = bpf_ntohl(w0);
	w0 = (w0 & ~(0xfcU << 20)) | ((cfg->dscp & 0x3f) << 22);
	w0 = bpf_htonl(w0);
	__builtin_memcpy(&ip6, &w0, 4);
	ip6.payload_len = ulen;
	if (bpf_skb_store_bytes(skb, l3, &ip6, sizeof(ip6), 0) ||
	    bpf_skb_store_bytes(skb, l4 + 4, &ulen, 2, 0))
		return TC_ACT_SHOT;
	/* UDP over IPv6 always has a checksum (or the RFC 6936 zero one,
	 * which stays zero).
	 */
	if (bpf_skb_load_bytes(skb, l4 + 6, &check, 2))
		return TC_ACT_SHOT;
	if (!check)
		return TC_ACT_OK;
	ph.saddr = ip6.saddr;
	ph.daddr = ip6.daddr;
	ph.len = bpf_htonl(udp_len);
	ph.nexthdr = bpf_htonl(IPPROTO_UDP);
	sum = bpf_csum_diff(0, 0, (__be32 *)&ph, sizeof(ph), 0);
	if (sum < 0 || udp_csum(skb, l4, udp_len, sum, &check))
		return TC_ACT_SHOT;
	if (bpf_skb_store_bytes(skb, l4 + 6, &check, 2, 0))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("tc")
int mrc_trim(struct __sk_buff *skb)
{
	__u32 key = 0, l3 = ETH_HLEN, l4, ext, keep;
	struct mrc_trim_stats *st;
	struct mrc_trim_cfg *cfg;
	struct udphdr uh;
	__u8 mrc[MRC_HDR_LEN];
	__u8 proto;
	int v6;

	cfg = bpf_map_lookup_elem(&mrc_trim_cfg, &key);
	st = bpf_map_lookup_elem(&mrc_trim_stats, &key);
	if (!cfg || !st || cfg->mode == MRC_TRIM_OFF)
		return TC_ACT_OK;
	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		struct iphdr ip;

		if (bpf_skb_load_bytes(skb, l3, &ip, sizeof(ip)))
			return TC_ACT_OK;
		/* Fragments are not MRC packets we can cut. */
		if (ip.frag_off & bpf_htons(0x3fff))
			return TC_ACT_OK;
		proto = ip.protocol;
		l4 = l3 + ip.ihl * 4;
		v6 = 0;
	} else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6;

		if (bpf_skb_load_bytes(skb, l3, &ip6, sizeof(ip6)))
			return TC_ACT_OK;
		proto = ip6.nexthdr;
		l4 = l3 + sizeof(ip6);
		v6 = 1;
	} else {
		return TC_ACT_OK;
	}
	if (proto != IPPROTO_UDP ||
	    bpf_skb_load_bytes(skb, l4, &uh, sizeof(uh)) ||
	    uh.dest != bpf_htons((__u16)cfg->port) ||
	    bpf_skb_load_bytes(skb, l4 + sizeof(uh), mrc, sizeof(mrc)))
		return TC_ACT_OK;
	ext = mrc_data_ext_len(mrc[MRC_OFF_OPCODE]);
	if (!ext || !(mrc[MRC_OFF_PAYLEN] | mrc[MRC_OFF_PAYLEN + 1]))
		return TC_ACT_OK;
	keep = MRC_HDR_LEN + ext;
	/* Not longer than the headers: nothing to cut. */
	if (bpf_ntohs(uh.len) <= sizeof(uh) + keep)
		return TC_ACT_OK;
	if (!mrc_select(cfg, st, skb->len))
		return TC_ACT_OK;
	if (cfg->mode == MRC_TRIM_DROP) {
		__sync_fetch_and_add(&st->dropped, 1);
		return TC_ACT_SHOT;
	}
	__sync_fetch_and_add(&st->trimmed, 1);
	__sync_fetch_and_add(&st->cut_bytes,
			     bpf_ntohs(uh.len) - sizeof(uh) - keep);
	return v6 ? trim6(skb, l3, cfg, keep) : trim4(skb, l3, cfg, keep);
}

char _license[] SEC("license") = "GPL";

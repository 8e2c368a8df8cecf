/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * EV (entropy value) profiles: which paths a connection may spray over.
 *
 * An EV names one path: a plane (1..MRC_MAX_PLANES) and a value whose
 * meaning depends on the profile's format:
 *
 *   UDP   2 bytes: the outer UDP source port (1..65535); switches hash it.
 *   STEV  4 bytes, a 32-bit number S: IPv6 flow label = S >> 12 (20 bits),
 *         UDP source port = 0xf000 | (S & 0xfff) (12 bits, top nibble 0xf
 *         so the port is never 0 and stays in the ephemeral range).
 *   SRV6  16 bytes: outer IPv6 destination (SID or uSID container), or
 *         32 bytes: that SID followed by one SRH segment.
 *
 * A profile is AUTO (no EVs: the transport derives UDP/STEV values from
 * the QPN, see mrc_ev_auto_expand()), EXP (an explicit list) or GEN (EVs
 * generated from bit fields, see mrc_ev_gen_expand()).  Its state
 * machine is INIT -> OFFLINE <-> ONLINE; Documentation/networking/mrc.rst
 * gives every rule.  Nothing here allocates: the EV array is the caller's.
 * Not for the packet path: validation is O(n^2) in the number of EVs.
 */
#ifndef _MRC_PROTO_EV_PROFILE_H
#define _MRC_PROTO_EV_PROFILE_H

#include "os.h"
#include "wire.h"
#include "engine.h"	/* enum mrc_ev_state, MRC_MAX_EVS */

#define MRC_EV_MAX_LEN		32	/* bytes of one EV value */
#define MRC_EV_PROFILE_MAX_EVS	MRC_MAX_EVS
#define MRC_EV_GEN_MAX_FIELDS	8
#define MRC_EV_GEN_MAX_BITS	64	/* sum of the field widths */
#define MRC_EV_STEV_SPORT_BASE	0xf000u
#define MRC_EV_AUTO_SPORT_BASE	0xc000u	/* AUTO/UDP: 0xc000..0xffff */

enum mrc_ev_format {
	MRC_EV_FMT_UDP		= 1,
	MRC_EV_FMT_STEV		= 2,
	MRC_EV_FMT_SRV6		= 3,
};

enum mrc_ev_mode {
	MRC_EV_MODE_AUTO	= 1,
	MRC_EV_MODE_EXP		= 2,
	MRC_EV_MODE_GEN		= 3,
};

enum mrc_ev_prof_state {
	MRC_EV_PROF_INIT	= 0,	/* being defined */
	MRC_EV_PROF_OFFLINE	= 1,	/* defined, not used by connections */
	MRC_EV_PROF_ONLINE	= 2,	/* validated, in use */
};

/* Event mask bits: which notifications the controller wants. */
#define MRC_EV_EVT_STATE(s)	((u32)BIT(s))	/* an EV entered state s */
#define MRC_EV_EVT_PROFILE	((u32)BIT(8))	/* the profile changed state */
#define MRC_EV_EVT_ALL		(MRC_EV_EVT_STATE(MRC_EV_UNKNOWN) | \
				 MRC_EV_EVT_STATE(MRC_EV_GOOD) | \
				 MRC_EV_EVT_STATE(MRC_EV_ASSUMED_BAD) | \
				 MRC_EV_EVT_STATE(MRC_EV_DENIED) | \
				 MRC_EV_EVT_PROFILE)

/* Errors: functions return the negative value; see mrc_ev_strerror(). */
enum mrc_ev_err {
	MRC_EV_OK = 0,
	MRC_EV_EMODE,		/* unknown mode, or op not valid in this mode */
	MRC_EV_EFORMAT,		/* unknown format */
	MRC_EV_ESTATE,		/* state transition not allowed */
	MRC_EV_EBUSY,		/* change not allowed while ONLINE */
	MRC_EV_EEMPTY,		/* no EVs */
	MRC_EV_ETOOMANY,	/* more EVs than the limit or the storage */
	MRC_EV_EPLANE,		/* plane 0 or > MRC_MAX_PLANES */
	MRC_EV_ELEN,		/* value length wrong for the format */
	MRC_EV_EVALUE,		/* value not usable in the format */
	MRC_EV_EDUP,		/* the same (plane, value) twice */
	MRC_EV_EMINACTIVE,	/* ev_min_active > number of EVs */
	MRC_EV_ENOENT,		/* EV index out of range */
	MRC_EV_EEVSTATE,	/* EV state the controller may not set */
	MRC_EV_EEVMASK,		/* unknown event mask bit */
	MRC_EV_EPLANEMASK,	/* empty plane mask or plane > MRC_MAX_PLANES */
	MRC_EV_EAUTO,		/* AUTO count 0 / too large, or SRV6 format */
	MRC_EV_EGEN_NFIELDS,	/* GEN: 0 or > MRC_EV_GEN_MAX_FIELDS fields */
	MRC_EV_EGEN_WIDTH,	/* GEN: field width not 1..32 */
	MRC_EV_EGEN_RANGE,	/* GEN: not min <= init <= max < 2^width */
	MRC_EV_EGEN_MASK,	/* GEN: mask too wide, init/min/max outside */
	MRC_EV_EGEN_FIT,	/* GEN: fields + shift exceed the format */
	MRC_EV_EGEN_BASE,	/* GEN: base wrong length or overlaps fields */
	MRC_EV_NR_ERR
};

/* One EV.  value[] holds len bytes, big endian, as described above. */
struct mrc_ev {
	u8 plane;		/* 1..MRC_MAX_PLANES */
	u8 state;		/* enum mrc_ev_state */
	u8 len;			/* 2 (UDP), 4 (STEV), 16 or 32 (SRV6) */
	u8 value[MRC_EV_MAX_LEN];
};

/* GEN bit field.  The field takes the values v with min <= v <= max and
 * (v & ~mask) == 0, in increasing order starting at init and wrapping from
 * max to min.
 */
struct mrc_ev_gen_field {
	u8 width;		/* 1..32 bits */
	u32 init;
	u32 min;
	u32 max;
	u32 mask;		/* bits of the field allowed to be set */
};

struct mrc_ev_gen {
	u8 n_fields;		/* 1..MRC_EV_GEN_MAX_FIELDS */
	/* fields[0] is the most significant, fields[n_fields - 1] the least */
	struct mrc_ev_gen_field fields[MRC_EV_GEN_MAX_FIELDS];
	u8 shift;		/* bit position of the generated number */
	/* value (format length) the generated number is OR-ed into */
	u8 base[MRC_EV_MAX_LEN];
	u16 plane_mask;		/* bit p-1: every value also on plane p */
};

struct mrc_ev_profile {
	u8 state;		/* enum mrc_ev_prof_state */
	u8 mode;		/* enum mrc_ev_mode */
	u8 format;		/* enum mrc_ev_format */
	u16 ev_min_active;	/* never fewer usable EVs than this */
	u32 event_mask;		/* MRC_EV_EVT_* */
	/* AUTO */
	u16 auto_count;		/* EVs per connection */
	u16 auto_plane_mask;	/* planes they are spread over */
	/* GEN */
	struct mrc_ev_gen gen;
	/* EXP: the list; GEN: the expansion (filled when going ONLINE) */
	struct mrc_ev *evs;	/* caller's storage */
	u16 n_evs;
	u16 cap;		/* entries in evs[] */
};

/* Value length of @format, or 0 if unknown (SRV6: 16, the short form). */
u8 mrc_ev_format_len(u8 format);
/* Check one EV against @format: 0 or -MRC_EV_EPLANE/ELEN/EVALUE/EFORMAT. */
int mrc_ev_check(u8 format, const struct mrc_ev *ev);

/* Start a profile in state INIT.  @evs/@cap: storage for the EXP list or
 * the GEN expansion (may be NULL/0 for AUTO).  0 or -MRC_EV_EMODE/EFORMAT.
 */
int mrc_ev_profile_init(struct mrc_ev_profile *p, u8 mode, u8 format,
			struct mrc_ev *evs, u16 cap);

/* Changes allowed in INIT and OFFLINE only (-MRC_EV_EBUSY when ONLINE). */
int mrc_ev_profile_set_auto(struct mrc_ev_profile *p, u16 count,
			    u16 plane_mask);
int mrc_ev_profile_set_gen(struct mrc_ev_profile *p,
			   const struct mrc_ev_gen *gen);
/* EXP: append one EV (state UNKNOWN; DENIED if @denied). */
int mrc_ev_profile_add(struct mrc_ev_profile *p, u8 plane, const u8 *value,
		       u8 len, bool denied);
int mrc_ev_profile_clear(struct mrc_ev_profile *p);

/* Allowed in any state (checked against the EV count when ONLINE). */
int mrc_ev_profile_set_min_active(struct mrc_ev_profile *p, u16 n);
int mrc_ev_profile_set_event_mask(struct mrc_ev_profile *p, u32 mask);
/* The checks of mrc_ev_profile_replace() without the change: 0 and the
 * EV it would install in @out, or a negative MRC_EV_E*.  A connection's
 * own copy of EV @idx is replaced under the same rules.
 */
int mrc_ev_profile_check_replace(const struct mrc_ev_profile *p, u16 idx,
				 u8 plane, const u8 *value, u8 len,
				 struct mrc_ev *out);
/* Allowed ONLINE too: replace EV @idx (validated, no duplicate). */
int mrc_ev_profile_replace(struct mrc_ev_profile *p, u16 idx, u8 plane,
			   const u8 *value, u8 len);
/* Allowed ONLINE too: deny EV @idx, or allow it again (-> UNKNOWN). */
int mrc_ev_profile_deny(struct mrc_ev_profile *p, u16 idx, bool deny);

/* GEN: check the definition against @format (fields, shift, base, planes). */
int mrc_ev_gen_check(const struct mrc_ev_gen *gen, u8 format);

/* GEN: expand @gen for @format into @out (at most @cap entries).  Returns
 * the number of EVs or a negative MRC_EV_E*.  Does not check duplicates.
 */
int mrc_ev_gen_expand(const struct mrc_ev_gen *gen, u8 format,
		      struct mrc_ev *out, u16 cap);

/* AUTO: the @count EVs connection @qpn uses.  EV i is on the (i mod P)-th
 * plane of @plane_mask (P planes, ascending); UDP value: port
 * 0xc000 | ((H14(qpn) + i) & 0x3fff); STEV value:
 * ((H20(qpn) + i) & 0xfffff) << 12 | (qpn & 0xfff), where Hk(x) is the top
 * k bits of the 32-bit product x * 2654435761.  Returns count or negative.
 */
int mrc_ev_auto_expand(u8 format, u16 count, u16 plane_mask, u32 qpn,
		       struct mrc_ev *out, u16 cap);

/* Full validation of a profile as going ONLINE requires it (GEN: after
 * expansion).  0 or the first violation found.
 */
int mrc_ev_profile_validate(const struct mrc_ev_profile *p);

/* State transitions: INIT -> OFFLINE, OFFLINE -> ONLINE (validates; GEN
 * expands into the storage first), ONLINE -> OFFLINE.  Setting the current
 * state again is a no-op.  0 or -MRC_EV_ESTATE or a validation error.
 */
int mrc_ev_profile_set_state(struct mrc_ev_profile *p, u8 state);

/* The EV set of a new connection @qpn from an ONLINE profile: the EVs
 * (AUTO: derived from @qpn; EXP/GEN: the profile's, DENIED ones included
 * so that EV indices match the profile) into @evs and their engine view
 * (plane, denied) into @cfg, both of @cap entries.  Returns the count or
 * -MRC_EV_ESTATE (not ONLINE) / -MRC_EV_ETOOMANY.
 */
int mrc_ev_profile_conn_evs(const struct mrc_ev_profile *p, u32 qpn,
			    struct mrc_ev *evs, struct mrc_ev_cfg *cfg,
			    u16 cap);

/* Does the controller want to hear that an EV entered @ev_state? */
bool mrc_ev_profile_wants(const struct mrc_ev_profile *p, u8 ev_state);

/* How an EV appears in the outer headers. */
struct mrc_ev_outer {
	u16 udp_sport;		/* UDP, STEV; 0 for SRV6 (caller's choice) */
	u32 flow_label;		/* STEV: 20 bits; otherwise 0 */
	const u8 *sid;		/* SRV6: outer IPv6 destination, else NULL */
	const u8 *segment;	/* SRV6 32-byte EV: SRH segment, else NULL */
};

int mrc_ev_to_outer(u8 format, const struct mrc_ev *ev,
		    struct mrc_ev_outer *out);

const char *mrc_ev_strerror(int err);
const char *mrc_ev_format_name(u8 format);
const char *mrc_ev_mode_name(u8 mode);
const char *mrc_ev_prof_state_name(u8 state);

#endif /* _MRC_PROTO_EV_PROFILE_H */

// SPDX-License-Identifier: GPL-2.0-only
// The help pages of every level. Kept beside each other so that they read
// as one synopsis; Documentation/mrcctl.rst says the same at length.
#include "cli.hpp"

namespace mrcctl {

namespace {

constexpr std::string_view kTop =
	"Usage: mrcctl [OPTIONS] OBJECT { COMMAND | help }\n"
	"       mrcctl help [OBJECT [COMMAND]]\n"
	"where  OBJECT := { dev | plane | route | ev-profile | ev | cc-profile |\n"
	"                   conn | probe | monitor }\n"
	"       OPTIONS := { -j[son] | -p[retty] | -s[tats] | -n[etns] NAME |\n"
	"                    -V[ersion] | -h[elp] }\n"
	"\n"
	"  -j, --json     JSON output (an array of objects; monitor: one\n"
	"                 object per line)\n"
	"  -p, --pretty   pretty-printed JSON (implies -j)\n"
	"  -n, --netns NAME  run in network namespace NAME (ip netns add NAME)\n"
	"  -s, --stats    show counters (dev show, plane show) and per-plane\n"
	"                 and per-EV detail (conn show)\n"
	"  -V, --version  print the version and exit\n"
	"  -h, --help     this help\n"
	"\n"
	"Keywords may be abbreviated to any unique prefix. Numbers are\n"
	"decimal or 0x hex (010 is ten).\n"
	"Exit status: 0 success, 1 the kernel refused or failed, 2 usage "
	"error.\n";

constexpr std::string_view kDev =
	"Usage: mrcctl dev show [ dev NAME ]\n"
	"\n"
	"Show MRC instances (created by \"rdma link add NAME type mrc netdev "
	"X\")\n"
	"of this network namespace: index, capabilities, maximum planes, UDP\n"
	"port and planes. With -s, the counters of each plane and instance\n"
	"(the instance's rx_malformed, rx_bad_icrc and rx_no_qp count drops of\n"
	"its whole network namespace).\n";

constexpr std::string_view kPlane =
	"Usage: mrcctl plane add dev NAME netdev IFNAME [ id ID ]\n"
	"       mrcctl plane del dev NAME id ID\n"
	"       mrcctl plane set dev NAME id ID { up | down }\n"
	"       mrcctl plane show [ dev NAME ] [ id ID ]\n"
	"\n"
	"A plane is one netdev attached to an MRC instance as plane ID\n"
	"(1..16); plane 1 is the netdev of \"rdma link add\". Changes need\n"
	"CAP_NET_ADMIN; show does not.\n";

constexpr std::string_view kPlaneAdd =
	"Usage: mrcctl plane add dev NAME netdev IFNAME [ id ID ]\n"
	"\n"
	"Attach netdev IFNAME (in this network namespace) to instance NAME.\n"
	"Without id the kernel picks the lowest free plane id.\n";

constexpr std::string_view kPlaneDel =
	"Usage: mrcctl plane del dev NAME id ID\n"
	"\n"
	"Detach plane ID from instance NAME. Plane 1 can only go when it is\n"
	"the last plane (it goes with \"rdma link del NAME\").\n";

constexpr std::string_view kPlaneSet =
	"Usage: mrcctl plane set dev NAME id ID { up | down }\n"
	"\n"
	"Set the administrative state of a plane. A plane carries traffic\n"
	"(oper up) when it is admin up and its netdev has carrier.\n";

constexpr std::string_view kPlaneShow =
	"Usage: mrcctl plane show [ dev NAME ] [ id ID ]\n"
	"\n"
	"List planes: instance, id, netdev and its ifindex, admin and\n"
	"operational state. With dev and id, ask the kernel for that one\n"
	"plane. With -s, each plane's tx_pkts, tx_bytes, rx_pkts and\n"
	"rx_bytes.\n";

constexpr std::string_view kRoute =
	"Usage: mrcctl route add PEER dev NAME plane N via ADDR\n"
	"                        [ plane N via ADDR ]... [ ev-profile ID ]\n"
	"                        [ cc-profile ID ]\n"
	"       mrcctl route set PEER dev NAME plane N via ADDR ... (as add)\n"
	"       mrcctl route del PEER dev NAME\n"
	"       mrcctl route show [ dev NAME ] [ PEER ]\n"
	"\n"
	"A route says how PEER (the IPv4 or IPv6 address a QP's address\n"
	"vector names: the peer's plane-1 address) is reached on each plane:\n"
	"via ADDR is the peer's address on plane N, of PEER's family; plane N\n"
	"must be attached to instance NAME. ev-profile and cc-profile are ids\n"
	"0..65535 of profiles of NAME (0, the built-in default, when left\n"
	"out); an EV profile must be online. QPs to PEER created later spray\n"
	"over every plane of the route; existing QPs keep their paths. add\n"
	"fails if PEER has a route; set replaces it. At most\n"
	"1024 routes per instance. Deleting a plane removes its hop from every\n"
	"route (a route left without hops is deleted). Changes need\n"
	"CAP_NET_ADMIN; show does not.\n";

constexpr std::string_view kConn =
	"Usage: mrcctl conn show [ dev NAME ] [ qpn N ]\n"
	"\n"
	"List the QPs (connections) of this network namespace: local and\n"
	"remote QP numbers, peer, QP state, failure status, EV profile, PSNs\n"
	"(snd_una, snd_nxt, rcv_nxt), bytes in flight, congestion window,\n"
	"smoothed RTT, ACK timeout, packet and byte counters, retransmissions,\n"
	"losses, ECN marks and how many EVs are usable, assumed bad, denied.\n"
	"With -s, also per plane (sums over its EVs) and per EV: plane, UDP\n"
	"source port, state, RTT and counters.\n";

constexpr std::string_view kProbe =
	"Usage: mrcctl probe dev NAME to ADDR [ ev PORT plane N | ev-profile ID ]\n"
	"                    [ timeout MS ]\n"
	"       mrcctl probe dev NAME to ADDR [ from ADDR ] EV... [ timeout MS ]\n"
	"EV := ev plane N { sport P | stev V | sid ADDR [ seg ADDR ] }\n"
	"\n"
	"Send one connectionless probe on every path a QP of instance NAME to\n"
	"peer ADDR would use (the route's planes and EVs; plane 1 alone\n"
	"without a route), or on the one UDP EV with source port PORT on\n"
	"plane N, or on the EVs of profile ID, and print each path's RTT or\n"
	"\"timeout\" (no answer within MS milliseconds, default 1000).\n"
	"\n"
	"The second form probes explicit EVs of any format in one batch (up\n"
	"to 256; the controller API's EV probe): UDP source port P, STEV\n"
	"value V (flow label = V >> 12), or SRv6 SID (and SRH segment), each\n"
	"on its plane N, from ADDR (one of the instance's GIDs) if given.\n"
	"Each EV prints its RTT less the responder's service time (svc), and\n"
	"the plane the answer came in on (via-plane), or \"timeout\".\n"
	"\n"
	"Needs CAP_NET_ADMIN. Exits 1 when no path answered.\n";
constexpr std::string_view kEvProfile =
	"Usage: mrcctl ev-profile add dev NAME id ID mode { auto | exp | gen }\n"
	"              format { udp | stev | srv6 } [ min-active N ] [ events MASK ]\n"
	"              [ count N planes LIST ]                          (auto)\n"
	"              [ ev plane P value V ]...                        (exp)\n"
	"              [ field width W init I min M max X [ mask K ] ]...\n"
	"              [ shift S ] [ base HEX ] [ planes LIST ]          (gen)\n"
	"       mrcctl ev-profile set dev NAME id ID [ state { offline | online } ]\n"
	"              [ min-active N ] [ events MASK ]\n"
	"       mrcctl ev-profile ev replace dev NAME profile ID index I plane P\n"
	"              value V [ qpn N ]\n"
	"       mrcctl ev-profile ev { deny | allow } dev NAME profile ID index I\n"
	"              [ qpn N ]\n"
	"       mrcctl ev-profile del dev NAME id ID\n"
	"       mrcctl ev-profile show [ dev NAME [ id ID ] ]\n"
	"where  MASK := { all | none | LIST of unknown, good, assumed-bad, denied,\n"
	"               profile }\n"
	"       LIST := planes like 1,2,5-8\n"
	"\n"
	"An EV profile names the paths (entropy values) of the connections of\n"
	"routes that use it; ids 1..65535 (0 is the built-in AUTO/udp profile\n"
	"with 16 EVs per plane of the route). A new profile is in state init;\n"
	"set it offline, then online (validated; routes may use it then). EV\n"
	"values: udp a port, stev a 32-bit number (decimal or 0x hex), srv6 an\n"
	"IPv6 address or SID,SEGMENT. A replaced, denied or allowed EV applies\n"
	"to the profile (connections set up afterwards) and at once to every\n"
	"live connection using the profile (a replacement on another plane:\n"
	"to new connections only); with qpn N, only to that connection's copy\n"
	"and not to the profile. Changes need CAP_NET_ADMIN.\n";

constexpr std::string_view kEv =
	"Usage: mrcctl ev show dev NAME profile ID\n"
	"\n"
	"The EVs of an EV profile: index, plane, value and state.\n";

constexpr std::string_view kCcProfile =
	"Usage: mrcctl cc-profile { add | set } dev NAME id ID\n"
	"              [ algo { uet-1.0-nscc | none } ]\n"
	"              [ base-rtt T ] [ target-delay T ] [ qa-threshold T ]\n"
	"              [ adjust-bytes N ] [ adjust-period T ] [ eta N ] [ fi N ]\n"
	"              [ fi-scale N ] [ gamma N ] [ max-md-jump N ] [ max-cwnd N ]\n"
	"              [ min-cwnd N ] [ init-cwnd N ] [ qa-gate N ]\n"
	"              [ disable-qa { on | off } ]\n"
	"       mrcctl cc-profile del dev NAME id ID\n"
	"       mrcctl cc-profile show [ dev NAME [ id ID ] ]\n"
	"\n"
	"A CC profile is a set of NSCC parameters for the connections of the\n"
	"routes that use it; ids 1..65535 (0 is the built-in default). add\n"
	"needs algo; values left out are the default's. set changes the values\n"
	"given. Times T take a suffix ns, us or ms (default ns). Changes need\n"
	"CAP_NET_ADMIN and apply to connections set up afterwards.\n";

constexpr std::string_view kMonitor =
	"Usage: mrcctl monitor [ dev NAME ]\n"
	"\n"
	"Print one line per event of the \"events\" multicast group (plane\n"
	"add, del, up, down; instance add, del; route, ev-profile and\n"
	"cc-profile add, del; a QP's EV changing state, \"ev state\", with\n"
	"the reason and, when a probe brought it back, the probe's RTT; a QP\n"
	"failing, \"qp error\") until SIGINT or SIGTERM. A route add event also reports a replaced or changed route.\n"
	"With -j each event is one JSON object on its own line. Exits 1 if\n"
	"the mrc module is unloaded meanwhile.\n";

} // namespace

std::string help_text(std::string_view topic)
{
	if (topic.empty())
		return std::string(kTop);
	if (topic == "dev" || topic == "dev show")
		return std::string(kDev);
	if (topic == "plane")
		return std::string(kPlane);
	if (topic == "plane add")
		return std::string(kPlaneAdd);
	if (topic == "plane del")
		return std::string(kPlaneDel);
	if (topic == "plane set")
		return std::string(kPlaneSet);
	if (topic == "plane show")
		return std::string(kPlaneShow);
	if (topic == "route" || topic == "route add" || topic == "route set" ||
	    topic == "route del" || topic == "route show")
		return std::string(kRoute);
	if (topic == "conn" || topic == "conn show")
		return std::string(kConn);
	if (topic == "probe")
		return std::string(kProbe);
	if (topic.starts_with("ev-profile"))
		return std::string(kEvProfile);
	if (topic == "ev" || topic == "ev show")
		return std::string(kEv);
	if (topic.starts_with("cc-profile"))
		return std::string(kCcProfile);
	if (topic == "monitor")
		return std::string(kMonitor);
	return {};
}

} // namespace mrcctl

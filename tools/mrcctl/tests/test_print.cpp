// SPDX-License-Identifier: GPL-2.0-only
// The exact bytes of every object's text and JSON output. Selftests parse
// both (grep/awk on text, python json on -j), so a change of the printing
// code must not change one byte. The expectations were captured from the
// printers before they were unified into one print path per object.
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "print_cases.hpp"

using namespace mrcctl::pin;

namespace {

struct Golden {
	const char *name;
	Mode mode;
	const char *out;
};

// clang-format off
const Golden kGolden[] = {
	{"plane", Mode::Text,
	 R"PIN(dev mrc0 id 1 netdev veth1 ifindex 11 admin up oper up
dev mrc0 id 2 netdev veth2 ifindex 12 admin up oper down
id 9
dev mrc0 id 3 netdev we"ird\ ifindex 13 admin up oper up
)PIN"},
	{"plane", Mode::Json,
	 R"PIN([{"dev":"mrc0","dev_index":4,"id":1,"netdev":"veth1","ifindex":11,"admin_state":"up","oper_state":"up"},{"dev":"mrc0","dev_index":4,"id":2,"netdev":"veth2","ifindex":12,"admin_state":"up","oper_state":"down"},{"id":9},{"dev":"mrc0","dev_index":4,"id":3,"netdev":"we\"ird\\","ifindex":13,"admin_state":"up","oper_state":"up"}]
)PIN"},
	{"plane", Mode::Pretty,
	 R"PIN([
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 1,
    "netdev": "veth1",
    "ifindex": 11,
    "admin_state": "up",
    "oper_state": "up"
  },
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 2,
    "netdev": "veth2",
    "ifindex": 12,
    "admin_state": "up",
    "oper_state": "down"
  },
  {
    "id": 9
  },
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 3,
    "netdev": "we\"ird\\",
    "ifindex": 13,
    "admin_state": "up",
    "oper_state": "up"
  }
]
)PIN"},
	{"plane-stats", Mode::Text,
	 R"PIN(dev mrc0 id 1 netdev veth1 ifindex 11 admin up oper up
    tx_pkts tx_bytes
         12    34567
    rx_pkts rx_bytes rx_dup
          8      900      0
dev mrc0 id 2 netdev veth2 ifindex 12 admin up oper down
    tx_pkts tx_bytes
         12    34567
    rx_pkts rx_bytes rx_dup
          8      900      0
id 9
dev mrc0 id 3 netdev we"ird\ ifindex 13 admin up oper up
    tx_pkts tx_bytes
         12    34567
    rx_pkts rx_bytes rx_dup
          8      900      0
)PIN"},
	{"plane-stats", Mode::Json,
	 R"PIN([{"dev":"mrc0","dev_index":4,"id":1,"netdev":"veth1","ifindex":11,"admin_state":"up","oper_state":"up","stats":{"tx_pkts":12,"tx_bytes":34567,"rx_pkts":8,"rx_bytes":900,"rx_dup":0}},{"dev":"mrc0","dev_index":4,"id":2,"netdev":"veth2","ifindex":12,"admin_state":"up","oper_state":"down","stats":{"tx_pkts":12,"tx_bytes":34567,"rx_pkts":8,"rx_bytes":900,"rx_dup":0}},{"id":9},{"dev":"mrc0","dev_index":4,"id":3,"netdev":"we\"ird\\","ifindex":13,"admin_state":"up","oper_state":"up","stats":{"tx_pkts":12,"tx_bytes":34567,"rx_pkts":8,"rx_bytes":900,"rx_dup":0}}]
)PIN"},
	{"plane-stats", Mode::Pretty,
	 R"PIN([
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 1,
    "netdev": "veth1",
    "ifindex": 11,
    "admin_state": "up",
    "oper_state": "up",
    "stats": {
      "tx_pkts": 12,
      "tx_bytes": 34567,
      "rx_pkts": 8,
      "rx_bytes": 900,
      "rx_dup": 0
    }
  },
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 2,
    "netdev": "veth2",
    "ifindex": 12,
    "admin_state": "up",
    "oper_state": "down",
    "stats": {
      "tx_pkts": 12,
      "tx_bytes": 34567,
      "rx_pkts": 8,
      "rx_bytes": 900,
      "rx_dup": 0
    }
  },
  {
    "id": 9
  },
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 3,
    "netdev": "we\"ird\\",
    "ifindex": 13,
    "admin_state": "up",
    "oper_state": "up",
    "stats": {
      "tx_pkts": 12,
      "tx_bytes": 34567,
      "rx_pkts": 8,
      "rx_bytes": 900,
      "rx_dup": 0
    }
  }
]
)PIN"},
	{"dev", Mode::Text,
	 R"PIN(mrc0: index 4 caps trim_nack,ev_udp,bit30 max_planes 16 udp_port 4793 planes 3 (2 up)
    plane id 1 netdev veth1 ifindex 11 admin up oper up
    plane id 2 netdev veth2 ifindex 12 admin up oper down
    plane id 3 netdev veth3 ifindex 13 admin up oper up
mrc1: index 5 caps none planes 0 (0 up)
?: planes 0 (0 up)
)PIN"},
	{"dev", Mode::Json,
	 R"PIN([{"name":"mrc0","index":4,"caps":["trim_nack","ev_udp","bit30"],"max_planes":16,"udp_port":4793,"planes":[{"id":1,"netdev":"veth1","ifindex":11,"admin_state":"up","oper_state":"up"},{"id":2,"netdev":"veth2","ifindex":12,"admin_state":"up","oper_state":"down"},{"id":3,"netdev":"veth3","ifindex":13,"admin_state":"up","oper_state":"up"}]},{"name":"mrc1","index":5,"caps":[],"planes":[]},{"planes":[]}]
)PIN"},
	{"dev", Mode::Pretty,
	 R"PIN([
  {
    "name": "mrc0",
    "index": 4,
    "caps": [
      "trim_nack",
      "ev_udp",
      "bit30"
    ],
    "max_planes": 16,
    "udp_port": 4793,
    "planes": [
      {
        "id": 1,
        "netdev": "veth1",
        "ifindex": 11,
        "admin_state": "up",
        "oper_state": "up"
      },
      {
        "id": 2,
        "netdev": "veth2",
        "ifindex": 12,
        "admin_state": "up",
        "oper_state": "down"
      },
      {
        "id": 3,
        "netdev": "veth3",
        "ifindex": 13,
        "admin_state": "up",
        "oper_state": "up"
      }
    ]
  },
  {
    "name": "mrc1",
    "index": 5,
    "caps": [],
    "planes": []
  },
  {
    "planes": []
  }
]
)PIN"},
	{"dev-stats", Mode::Text,
	 R"PIN(mrc0: index 4 caps trim_nack,ev_udp,bit30 max_planes 16 udp_port 4793 planes 3 (2 up)
    plane id 1 netdev veth1 ifindex 11 admin up oper up
        tx_pkts tx_bytes
             12    34567
        rx_pkts rx_bytes rx_dup
              8      900      0
    plane id 2 netdev veth2 ifindex 12 admin up oper down
        tx_pkts tx_bytes
             12    34567
        rx_pkts rx_bytes rx_dup
              8      900      0
    plane id 3 netdev veth3 ifindex 13 admin up oper up
        tx_pkts tx_bytes
             12    34567
        rx_pkts rx_bytes rx_dup
              8      900      0
    tx_pkts  tx_bytes retx_pkts nack_tx tx_drop
        100 123456789         3       1       0
    rx_pkts rx_bytes
         99    98765
    rx_malformed
               2
    rx_ctrl_invalid probe_limited
                  5             0
    some_new_counter
                   7
mrc1: index 5 caps none planes 0 (0 up)
?: planes 0 (0 up)
)PIN"},
	{"dev-stats", Mode::Json,
	 R"PIN([{"name":"mrc0","index":4,"caps":["trim_nack","ev_udp","bit30"],"max_planes":16,"udp_port":4793,"planes":[{"id":1,"netdev":"veth1","ifindex":11,"admin_state":"up","oper_state":"up","stats":{"tx_pkts":12,"tx_bytes":34567,"rx_pkts":8,"rx_bytes":900,"rx_dup":0}},{"id":2,"netdev":"veth2","ifindex":12,"admin_state":"up","oper_state":"down","stats":{"tx_pkts":12,"tx_bytes":34567,"rx_pkts":8,"rx_bytes":900,"rx_dup":0}},{"id":3,"netdev":"veth3","ifindex":13,"admin_state":"up","oper_state":"up","stats":{"tx_pkts":12,"tx_bytes":34567,"rx_pkts":8,"rx_bytes":900,"rx_dup":0}}],"stats":{"tx_pkts":100,"tx_bytes":123456789,"retx_pkts":3,"nack_tx":1,"tx_drop":0,"rx_pkts":99,"rx_bytes":98765,"rx_malformed":2,"rx_ctrl_invalid":5,"probe_limited":0,"some_new_counter":7}},{"name":"mrc1","index":5,"caps":[],"planes":[]},{"planes":[]}]
)PIN"},
	{"dev-stats", Mode::Pretty,
	 R"PIN([
  {
    "name": "mrc0",
    "index": 4,
    "caps": [
      "trim_nack",
      "ev_udp",
      "bit30"
    ],
    "max_planes": 16,
    "udp_port": 4793,
    "planes": [
      {
        "id": 1,
        "netdev": "veth1",
        "ifindex": 11,
        "admin_state": "up",
        "oper_state": "up",
        "stats": {
          "tx_pkts": 12,
          "tx_bytes": 34567,
          "rx_pkts": 8,
          "rx_bytes": 900,
          "rx_dup": 0
        }
      },
      {
        "id": 2,
        "netdev": "veth2",
        "ifindex": 12,
        "admin_state": "up",
        "oper_state": "down",
        "stats": {
          "tx_pkts": 12,
          "tx_bytes": 34567,
          "rx_pkts": 8,
          "rx_bytes": 900,
          "rx_dup": 0
        }
      },
      {
        "id": 3,
        "netdev": "veth3",
        "ifindex": 13,
        "admin_state": "up",
        "oper_state": "up",
        "stats": {
          "tx_pkts": 12,
          "tx_bytes": 34567,
          "rx_pkts": 8,
          "rx_bytes": 900,
          "rx_dup": 0
        }
      }
    ],
    "stats": {
      "tx_pkts": 100,
      "tx_bytes": 123456789,
      "retx_pkts": 3,
      "nack_tx": 1,
      "tx_drop": 0,
      "rx_pkts": 99,
      "rx_bytes": 98765,
      "rx_malformed": 2,
      "rx_ctrl_invalid": 5,
      "probe_limited": 0,
      "some_new_counter": 7
    }
  },
  {
    "name": "mrc1",
    "index": 5,
    "caps": [],
    "planes": []
  },
  {
    "planes": []
  }
]
)PIN"},
	{"route", Mode::Text,
	 R"PIN(dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 plane 2 via fd00:2::2 ev-profile 5 cc-profile 0
fd00::9
)PIN"},
	{"route", Mode::Json,
	 R"PIN([{"dev":"mrc0","dev_index":4,"peer":"10.0.0.2","hops":[{"plane":1,"via":"10.1.0.2"},{"plane":2,"via":"fd00:2::2"}],"ev_profile":5,"cc_profile":0},{"peer":"fd00::9","hops":[]}]
)PIN"},
	{"route", Mode::Pretty,
	 R"PIN([
  {
    "dev": "mrc0",
    "dev_index": 4,
    "peer": "10.0.0.2",
    "hops": [
      {
        "plane": 1,
        "via": "10.1.0.2"
      },
      {
        "plane": 2,
        "via": "fd00:2::2"
      }
    ],
    "ev_profile": 5,
    "cc_profile": 0
  },
  {
    "peer": "fd00::9",
    "hops": []
  }
]
)PIN"},
	{"route-none", Mode::Text,
	 R"PIN()PIN"},
	{"route-none", Mode::Json,
	 R"PIN([]
)PIN"},
	{"route-none", Mode::Pretty,
	 R"PIN([]
)PIN"},
	{"ev-profile", Mode::Text,
	 R"PIN(dev mrc0 id 5 mode exp format udp state online min-active 1 events all
    index 0 plane 1 value 49152 state good
    index 1 plane 2 value 49153 state assumed-bad
    index 2 plane 1 value 49154
dev mrc0 id 6 mode gen format stev state init planes 1,2,4 shift 12 base 0x00010000
    field width 8 init 0 min 0 max 255 mask 0xff
    field width 4 init 1 min 1 max 9
dev mrc1 id 7 mode auto format srv6 state offline events none count 16 planes route
)PIN"},
	{"ev-profile", Mode::Json,
	 R"PIN([{"dev":"mrc0","dev_index":4,"id":5,"mode":"exp","format":"udp","state":"online","min_active":1,"events":"all","evs":[{"index":0,"plane":1,"value":"49152","state":"good"},{"index":1,"plane":2,"value":"49153","state":"assumed-bad"},{"index":2,"plane":1,"value":"49154"}]},{"dev":"mrc0","id":6,"mode":"gen","format":"stev","state":"init","planes":"1,2,4","fields":[{"width":8,"init":0,"min":0,"max":255,"mask":255},{"width":4,"init":1,"min":1,"max":9}],"shift":12,"base":"0x00010000","evs":[]},{"dev":"mrc1","id":7,"mode":"auto","format":"srv6","state":"offline","events":"none","count":16}]
)PIN"},
	{"ev-profile", Mode::Pretty,
	 R"PIN([
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 5,
    "mode": "exp",
    "format": "udp",
    "state": "online",
    "min_active": 1,
    "events": "all",
    "evs": [
      {
        "index": 0,
        "plane": 1,
        "value": "49152",
        "state": "good"
      },
      {
        "index": 1,
        "plane": 2,
        "value": "49153",
        "state": "assumed-bad"
      },
      {
        "index": 2,
        "plane": 1,
        "value": "49154"
      }
    ]
  },
  {
    "dev": "mrc0",
    "id": 6,
    "mode": "gen",
    "format": "stev",
    "state": "init",
    "planes": "1,2,4",
    "fields": [
      {
        "width": 8,
        "init": 0,
        "min": 0,
        "max": 255,
        "mask": 255
      },
      {
        "width": 4,
        "init": 1,
        "min": 1,
        "max": 9
      }
    ],
    "shift": 12,
    "base": "0x00010000",
    "evs": []
  },
  {
    "dev": "mrc1",
    "id": 7,
    "mode": "auto",
    "format": "srv6",
    "state": "offline",
    "events": "none",
    "count": 16
  }
]
)PIN"},
	{"ev-show", Mode::Text,
	 R"PIN(    index 0 plane 1 value 49152 state good
    index 1 plane 2 value 49153 state assumed-bad
    index 2 plane 1 value 49154
)PIN"},
	{"ev-show", Mode::Json,
	 R"PIN([{"dev":"mrc0","profile":5,"evs":[{"index":0,"plane":1,"value":"49152","state":"good"},{"index":1,"plane":2,"value":"49153","state":"assumed-bad"},{"index":2,"plane":1,"value":"49154"}]},{"dev":"mrc0","profile":6,"evs":[]},{"dev":"mrc1","profile":7,"evs":[]}]
)PIN"},
	{"ev-show", Mode::Pretty,
	 R"PIN([
  {
    "dev": "mrc0",
    "profile": 5,
    "evs": [
      {
        "index": 0,
        "plane": 1,
        "value": "49152",
        "state": "good"
      },
      {
        "index": 1,
        "plane": 2,
        "value": "49153",
        "state": "assumed-bad"
      },
      {
        "index": 2,
        "plane": 1,
        "value": "49154"
      }
    ]
  },
  {
    "dev": "mrc0",
    "profile": 6,
    "evs": []
  },
  {
    "dev": "mrc1",
    "profile": 7,
    "evs": []
  }
]
)PIN"},
	{"cc-profile", Mode::Text,
	 R"PIN(dev mrc0 id 1 algo uet-1.0-nscc base-rtt 100us target-delay 4ms qa-threshold 1500ns eta 8 qa-gate 3 disable-qa on max-cwnd 0
id 0
)PIN"},
	{"cc-profile", Mode::Json,
	 R"PIN([{"dev":"mrc0","dev_index":4,"id":1,"algo":"uet-1.0-nscc","base_rtt":100000,"target_delay":4000000,"qa_threshold":1500,"eta":8,"qa_gate":3,"disable_qa":true,"max_cwnd":0},{"id":0}]
)PIN"},
	{"cc-profile", Mode::Pretty,
	 R"PIN([
  {
    "dev": "mrc0",
    "dev_index": 4,
    "id": 1,
    "algo": "uet-1.0-nscc",
    "base_rtt": 100000,
    "target_delay": 4000000,
    "qa_threshold": 1500,
    "eta": 8,
    "qa_gate": 3,
    "disable_qa": true,
    "max_cwnd": 0
  },
  {
    "id": 0
  }
]
)PIN"},
	{"conn", Mode::Text,
	 R"PIN(dev mrc0 qpn 17 peer 10.0.0.2 dest_qpn 18 state RTS status ok ev_profile 5 srtt 582us rto 67ms evs 4 evs_usable 3 cwnd 65536
   tx_pkts 50 tx_bytes 50000 retx_pkts 5
    plane 1 evs_usable 2 tx_pkts 30 tx_bytes 30000 retx_pkts 3
    plane 2
    ev 0 plane 1 sport 49152 state good rtt 4500ns tx_pkts 10 tx_bytes 10000 retx_pkts 1
    ev 3 plane 2 state denied
qpn 20
)PIN"},
	{"conn", Mode::Json,
	 R"PIN([{"dev":"mrc0","qpn":17,"peer":"10.0.0.2","dest_qpn":18,"state":"RTS","status":"ok","ev_profile":5,"srtt_ns":582000,"rto_ns":67000000,"evs_total":4,"evs_usable":3,"cwnd":65536,"tx_pkts":50,"tx_bytes":50000,"retx_pkts":5,"planes":[{"plane":1,"evs_usable":2,"tx_pkts":30,"tx_bytes":30000,"retx_pkts":3},{"plane":2}],"evs":[{"ev":0,"plane":1,"sport":49152,"state":"good","rtt_ns":4500,"tx_pkts":10,"tx_bytes":10000,"retx_pkts":1},{"ev":3,"plane":2,"state":"denied","rtt_ns":0}]},{"qpn":20}]
)PIN"},
	{"conn", Mode::Pretty,
	 R"PIN([
  {
    "dev": "mrc0",
    "qpn": 17,
    "peer": "10.0.0.2",
    "dest_qpn": 18,
    "state": "RTS",
    "status": "ok",
    "ev_profile": 5,
    "srtt_ns": 582000,
    "rto_ns": 67000000,
    "evs_total": 4,
    "evs_usable": 3,
    "cwnd": 65536,
    "tx_pkts": 50,
    "tx_bytes": 50000,
    "retx_pkts": 5,
    "planes": [
      {
        "plane": 1,
        "evs_usable": 2,
        "tx_pkts": 30,
        "tx_bytes": 30000,
        "retx_pkts": 3
      },
      {
        "plane": 2
      }
    ],
    "evs": [
      {
        "ev": 0,
        "plane": 1,
        "sport": 49152,
        "state": "good",
        "rtt_ns": 4500,
        "tx_pkts": 10,
        "tx_bytes": 10000,
        "retx_pkts": 1
      },
      {
        "ev": 3,
        "plane": 2,
        "state": "denied",
        "rtt_ns": 0
      }
    ]
  },
  {
    "qpn": 20
  }
]
)PIN"},
	{"probe", Mode::Text,
	 R"PIN(ev 0 plane 1 sport 49152 via 10.1.0.2 rtt 582us
ev 1 plane 2 sport 49153 via - timeout
via fd00:2::2 rtt 90ns
)PIN"},
	{"probe", Mode::Json,
	 R"PIN([{"ev":0,"plane":1,"sport":49152,"via":"10.1.0.2","rtt_ns":582000},{"ev":1,"plane":2,"sport":49153,"timeout":true},{"via":"fd00:2::2","rtt_ns":90}]
)PIN"},
	{"probe", Mode::Pretty,
	 R"PIN([
  {
    "ev": 0,
    "plane": 1,
    "sport": 49152,
    "via": "10.1.0.2",
    "rtt_ns": 582000
  },
  {
    "ev": 1,
    "plane": 2,
    "sport": 49153,
    "timeout": true
  },
  {
    "via": "fd00:2::2",
    "rtt_ns": 90
  }
]
)PIN"},
	{"event-0-plane_add", Mode::Text,
	 R"PIN(plane add dev mrc0 id 2 netdev veth2 ifindex 12 admin up oper down
)PIN"},
	{"event-0-plane_add", Mode::Json,
	 R"PIN({"event":"plane_add","dev":"mrc0","dev_index":4,"id":2,"netdev":"veth2","ifindex":12,"admin_state":"up","oper_state":"down"}
)PIN"},
	{"event-0-plane_add", Mode::Pretty,
	 R"PIN({
  "event": "plane_add",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 2,
  "netdev": "veth2",
  "ifindex": 12,
  "admin_state": "up",
  "oper_state": "down"
}
)PIN"},
	{"event-1-plane_del", Mode::Text,
	 R"PIN(plane del dev mrc0 id 2
)PIN"},
	{"event-1-plane_del", Mode::Json,
	 R"PIN({"event":"plane_del","dev":"mrc0","dev_index":4,"id":2}
)PIN"},
	{"event-1-plane_del", Mode::Pretty,
	 R"PIN({
  "event": "plane_del",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 2
}
)PIN"},
	{"event-2-plane_up", Mode::Text,
	 R"PIN(plane up dev mrc0 id 2 netdev veth2 ifindex 12 admin up oper down
)PIN"},
	{"event-2-plane_up", Mode::Json,
	 R"PIN({"event":"plane_up","dev":"mrc0","dev_index":4,"id":2,"netdev":"veth2","ifindex":12,"admin_state":"up","oper_state":"down"}
)PIN"},
	{"event-2-plane_up", Mode::Pretty,
	 R"PIN({
  "event": "plane_up",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 2,
  "netdev": "veth2",
  "ifindex": 12,
  "admin_state": "up",
  "oper_state": "down"
}
)PIN"},
	{"event-3-plane_down", Mode::Text,
	 R"PIN(plane down dev mrc0 id 2 netdev veth2 ifindex 12 admin up oper down
)PIN"},
	{"event-3-plane_down", Mode::Json,
	 R"PIN({"event":"plane_down","dev":"mrc0","dev_index":4,"id":2,"netdev":"veth2","ifindex":12,"admin_state":"up","oper_state":"down"}
)PIN"},
	{"event-3-plane_down", Mode::Pretty,
	 R"PIN({
  "event": "plane_down",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 2,
  "netdev": "veth2",
  "ifindex": 12,
  "admin_state": "up",
  "oper_state": "down"
}
)PIN"},
	{"event-4-dev_add", Mode::Text,
	 R"PIN(dev add dev mrc0 index 4
)PIN"},
	{"event-4-dev_add", Mode::Json,
	 R"PIN({"event":"dev_add","dev":"mrc0","dev_index":4}
)PIN"},
	{"event-4-dev_add", Mode::Pretty,
	 R"PIN({
  "event": "dev_add",
  "dev": "mrc0",
  "dev_index": 4
}
)PIN"},
	{"event-5-dev_del", Mode::Text,
	 R"PIN(dev del dev mrc0 index 4
)PIN"},
	{"event-5-dev_del", Mode::Json,
	 R"PIN({"event":"dev_del","dev":"mrc0","dev_index":4}
)PIN"},
	{"event-5-dev_del", Mode::Pretty,
	 R"PIN({
  "event": "dev_del",
  "dev": "mrc0",
  "dev_index": 4
}
)PIN"},
	{"event-6-route_add", Mode::Text,
	 R"PIN(route add dev mrc0 10.0.0.2 plane 1 via 10.1.0.2 plane 2 via fd00:2::2 ev-profile 5 cc-profile 0
)PIN"},
	{"event-6-route_add", Mode::Json,
	 R"PIN({"event":"route_add","dev":"mrc0","dev_index":4,"peer":"10.0.0.2","hops":[{"plane":1,"via":"10.1.0.2"},{"plane":2,"via":"fd00:2::2"}],"ev_profile":5,"cc_profile":0}
)PIN"},
	{"event-6-route_add", Mode::Pretty,
	 R"PIN({
  "event": "route_add",
  "dev": "mrc0",
  "dev_index": 4,
  "peer": "10.0.0.2",
  "hops": [
    {
      "plane": 1,
      "via": "10.1.0.2"
    },
    {
      "plane": 2,
      "via": "fd00:2::2"
    }
  ],
  "ev_profile": 5,
  "cc_profile": 0
}
)PIN"},
	{"event-7-route_del", Mode::Text,
	 R"PIN(route del dev mrc0 10.0.0.2
)PIN"},
	{"event-7-route_del", Mode::Json,
	 R"PIN({"event":"route_del","dev":"mrc0","dev_index":4,"peer":"10.0.0.2","hops":[]}
)PIN"},
	{"event-7-route_del", Mode::Pretty,
	 R"PIN({
  "event": "route_del",
  "dev": "mrc0",
  "dev_index": 4,
  "peer": "10.0.0.2",
  "hops": []
}
)PIN"},
	{"event-8-ev_state", Mode::Text,
	 R"PIN(ev state dev mrc0 qpn 17 peer 10.0.0.2 ev 3 plane 2 good -> assumed_bad reason loss rtt 4500ns
)PIN"},
	{"event-8-ev_state", Mode::Json,
	 R"PIN({"event":"ev_state","dev":"mrc0","dev_index":4,"qpn":17,"peer":"10.0.0.2","ev":3,"plane":2,"old_state":"good","state":"assumed_bad","reason":"loss","rtt_ns":4500}
)PIN"},
	{"event-8-ev_state", Mode::Pretty,
	 R"PIN({
  "event": "ev_state",
  "dev": "mrc0",
  "dev_index": 4,
  "qpn": 17,
  "peer": "10.0.0.2",
  "ev": 3,
  "plane": 2,
  "old_state": "good",
  "state": "assumed_bad",
  "reason": "loss",
  "rtt_ns": 4500
}
)PIN"},
	{"event-9-qp_error", Mode::Text,
	 R"PIN(qp error dev mrc0 qpn 17 state ERR status retry_exceeded
)PIN"},
	{"event-9-qp_error", Mode::Json,
	 R"PIN({"event":"qp_error","dev":"mrc0","dev_index":4,"qpn":17,"dest_qpn":18,"state":"ERR","status":"retry_exceeded"}
)PIN"},
	{"event-9-qp_error", Mode::Pretty,
	 R"PIN({
  "event": "qp_error",
  "dev": "mrc0",
  "dev_index": 4,
  "qpn": 17,
  "dest_qpn": 18,
  "state": "ERR",
  "status": "retry_exceeded"
}
)PIN"},
	{"event-10-ev_profile", Mode::Text,
	 R"PIN(ev-profile add dev mrc0 id 5 mode exp format udp state online min-active 1 events all evs 3
)PIN"},
	{"event-10-ev_profile", Mode::Json,
	 R"PIN({"event":"ev_profile","dev":"mrc0","dev_index":4,"id":5,"mode":"exp","format":"udp","state":"online","min_active":1,"events":"all","evs":[{"index":0,"plane":1,"value":"49152","state":"good"},{"index":1,"plane":2,"value":"49153","state":"assumed-bad"},{"index":2,"plane":1,"value":"49154"}]}
)PIN"},
	{"event-10-ev_profile", Mode::Pretty,
	 R"PIN({
  "event": "ev_profile",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 5,
  "mode": "exp",
  "format": "udp",
  "state": "online",
  "min_active": 1,
  "events": "all",
  "evs": [
    {
      "index": 0,
      "plane": 1,
      "value": "49152",
      "state": "good"
    },
    {
      "index": 1,
      "plane": 2,
      "value": "49153",
      "state": "assumed-bad"
    },
    {
      "index": 2,
      "plane": 1,
      "value": "49154"
    }
  ]
}
)PIN"},
	{"event-11-ev_profile_del", Mode::Text,
	 R"PIN(ev-profile del dev mrc0 id 5
)PIN"},
	{"event-11-ev_profile_del", Mode::Json,
	 R"PIN({"event":"ev_profile_del","dev":"mrc0","dev_index":4,"id":5}
)PIN"},
	{"event-11-ev_profile_del", Mode::Pretty,
	 R"PIN({
  "event": "ev_profile_del",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 5
}
)PIN"},
	{"event-12-cc_profile", Mode::Text,
	 R"PIN(cc-profile add dev mrc0 id 1 algo uet-1.0-nscc base-rtt 100us target-delay 4ms qa-threshold 1500ns eta 8 qa-gate 3 disable-qa on max-cwnd 0
)PIN"},
	{"event-12-cc_profile", Mode::Json,
	 R"PIN({"event":"cc_profile","dev":"mrc0","dev_index":4,"id":1,"algo":"uet-1.0-nscc","base_rtt":100000,"target_delay":4000000,"qa_threshold":1500,"eta":8,"qa_gate":3,"disable_qa":true,"max_cwnd":0}
)PIN"},
	{"event-12-cc_profile", Mode::Pretty,
	 R"PIN({
  "event": "cc_profile",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 1,
  "algo": "uet-1.0-nscc",
  "base_rtt": 100000,
  "target_delay": 4000000,
  "qa_threshold": 1500,
  "eta": 8,
  "qa_gate": 3,
  "disable_qa": true,
  "max_cwnd": 0
}
)PIN"},
	{"event-13-cc_profile_del", Mode::Text,
	 R"PIN(cc-profile del dev mrc0 id 1
)PIN"},
	{"event-13-cc_profile_del", Mode::Json,
	 R"PIN({"event":"cc_profile_del","dev":"mrc0","dev_index":4,"id":1}
)PIN"},
	{"event-13-cc_profile_del", Mode::Pretty,
	 R"PIN({
  "event": "cc_profile_del",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 1
}
)PIN"},
	{"event-14-event_250", Mode::Text,
	 R"PIN(event 250 dev mrc0 id 1
)PIN"},
	{"event-14-event_250", Mode::Json,
	 R"PIN({"event":"event_250","dev":"mrc0","dev_index":4,"id":1}
)PIN"},
	{"event-14-event_250", Mode::Pretty,
	 R"PIN({
  "event": "event_250",
  "dev": "mrc0",
  "dev_index": 4,
  "id": 1
}
)PIN"},
};
// clang-format on

const char *mode_name(Mode m)
{
	return m == Mode::Text ? "text" : m == Mode::Json ? "json" : "pretty";
}

TEST(Print, EveryObjectInEveryModeIsPinned)
{
	std::set<std::pair<std::string, Mode>> pinned;
	for (const auto &g : kGolden)
		pinned.insert({g.name, g.mode});
	for (const auto &c : cases())
		for (Mode m : {Mode::Text, Mode::Json, Mode::Pretty})
			EXPECT_TRUE(pinned.count({c.name, m}))
				<< c.name << " " << mode_name(m);
}

TEST(Print, OutputIsUnchanged)
{
	std::map<std::string, Case> by_name;
	for (auto &c : cases())
		by_name.emplace(c.name, c);
	for (const auto &g : kGolden) {
		auto it = by_name.find(g.name);
		ASSERT_NE(it, by_name.end()) << g.name;
		EXPECT_EQ(it->second.render(g.mode), g.out)
			<< g.name << " " << mode_name(g.mode);
	}
}

} // namespace

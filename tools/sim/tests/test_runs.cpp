// SPDX-License-Identifier: GPL-2.0-only
// Whole-simulation checks on small fabrics: line rate, incast fairness,
// failures, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "metrics.hpp"
#include "sim.hpp"

using namespace mrcsim;

namespace {

Config make(const std::string &text)
{
	Config c;
	c.parse_text(text, "test");
	return c;
}

std::vector<double> throughputs(const Simulation &s)
{
	std::vector<double> v;
	for (std::uint32_t i = 0; i < s.flows().size(); ++i)
		v.push_back(flow_throughput_fraction(s.flows()[i], s.fabric()));
	return v;
}

// Runs @c and returns the mean throughput of its 128 flows, every one of
// which must finish.
double mean_of_128(const Config &c)
{
	Simulation s(c);
	s.run({});
	auto thr = throughputs(s);
	EXPECT_EQ(thr.size(), 128u);
	double sum = 0;
	for (std::uint32_t i = 0; i < s.flows().size(); ++i) {
		EXPECT_TRUE(s.flows()[i].done) << "flow " << i;
		sum += thr[i];
	}
	return thr.empty() ? 0 : sum / thr.size();
}

std::vector<std::string> transports() { return {"gbn", "spray", "mrc"}; }

const char *kIdle = "hosts = 16\nhosts_per_leaf = 4\nlink_rate = 100G\ntraffic = single\n"
		    "src = 0\ndst = 15\nflow_bytes = 64MB\n";

} // namespace

class PerTransport : public ::testing::TestWithParam<std::string> {};

TEST_P(PerTransport, IdleSingleFlowReachesLineRate)
{
	for (int planes : {1, 4}) {
		Config c = make(kIdle);
		c.set("transport", GetParam());
		c.set("planes", std::to_string(planes));
		Simulation s(c);
		s.run({});
		ASSERT_TRUE(s.flows()[0].done) << planes << " planes";
		EXPECT_GE(flow_throughput_fraction(s.flows()[0], s.fabric()), 0.99)
			<< planes << " planes";
		EXPECT_EQ(s.flows()[0].retx, 0u);
	}
}

INSTANTIATE_TEST_SUITE_P(Transports, PerTransport,
			 ::testing::ValuesIn(transports()),
			 [](const auto &i) { return i.param; });

class Incast : public ::testing::TestWithParam<std::string> {};

// 16 senders on other leaves to one receiver: they must share its links
// fairly and the switch queues must stay within the configured buffer.
TEST_P(Incast, SharesReceiverFairlyWithBoundedQueues)
{
	Config c = make(
		"hosts = 64\nhosts_per_leaf = 8\nplanes = 2\nbuffer = 2bdp\ntraffic = incast\n"
		"incast_senders = 16\nflow_bytes = 2MB\n");
	c.set("transport", GetParam());
	Simulation s(c);
	s.run({});
	for (std::uint32_t i = 0; i < s.flows().size(); ++i)
		ASSERT_TRUE(s.flows()[i].done) << "flow " << i;
	auto thr = throughputs(s);
	EXPECT_GE(jain_index(thr), 0.95);
	const auto &fp = s.fabric().params();
	EXPECT_LE(s.sampler().peak_queue(), fp.buffer);
	// Together they keep the receiver's links busy.
	double sum = 0;
	for (double x : thr)
		sum += x;
	EXPECT_GE(sum, 0.8);
}

INSTANTIATE_TEST_SUITE_P(Transports, Incast, ::testing::Values("spray", "mrc"),
			 [](const auto &i) { return i.param; });

namespace {

// One flow whose go-back-N path crosses leaf->spine link that dies 100 us
// in, with static routing.
Config failed_link(const std::string &transport)
{
	Config c = make(
		"hosts = 16\nhosts_per_leaf = 4\nplanes = 2\ntraffic = single\nsrc = 0\ndst = 15\n"
		"flow_bytes = 8MB\nduration = 50ms\nfailure = link_down at=100us link=flow0:1\n");
	c.set("transport", transport);
	return c;
}

} // namespace

TEST(Failure, GoBackNPinnedOnDeadLinkDoesNotComplete)
{
	Simulation s(failed_link("gbn"));
	s.run({});
	EXPECT_FALSE(s.flows()[0].done);
	EXPECT_TRUE(s.flows()[0].failed);
	EXPECT_GT(s.fabric().drops(), 0u);
}

TEST(Failure, GoBackNCompletesOnceRoutingReconverges)
{
	Config c = failed_link("gbn");
	c.set("reconverge", "1");
	c.set("reconverge_delay", "500us");
	Simulation s(c);
	s.run({});
	EXPECT_TRUE(s.flows()[0].done);
	EXPECT_GT(s.flows()[0].retx, 0u);
}

TEST(Failure, MrcRoutesAroundDeadLink)
{
	Simulation s(failed_link("mrc"));
	s.run({});
	ASSERT_TRUE(s.flows()[0].done);
	EXPECT_GT(s.fabric().drops(), 0u) << "the failure did not hit the flow";
	// Static routes: the flow keeps going on its other paths.
	EXPECT_GE(flow_throughput_fraction(s.flows()[0], s.fabric()), 0.5);
}

TEST(Failure, MrcSurvivesPlaneDown)
{
	Config c = make(
		"hosts = 32\nhosts_per_leaf = 8\nplanes = 4\ntraffic = permutation\nflow_bytes = 4MB\n"
		"transport = mrc\nfailure = plane_down at=50us plane=2\n");
	Simulation s(c);
	s.run({});
	for (std::uint32_t i = 0; i < s.flows().size(); ++i)
		ASSERT_TRUE(s.flows()[i].done) << "flow " << i;
}

// Issue 18's plane-down row (scenarios/plane-down.scn: 128 hosts, 4
// planes, 16 MB permutation, plane 2 down at 150 us, hashed EVs), seed 1:
// 0.715 mean with 64 EVs per plane (sim.rst, "Plane down"), 0.680 with
// the 128 EVs before, which fails the floor.
TEST(PlaneDown, UdpKeepsItsThroughput)
{
	Config c = make(
		"hosts = 128\nhosts_per_leaf = 16\nplanes = 4\nbuffer = 2bdp\n"
		"traffic = permutation\nflow_bytes = 16MB\ntransport = mrc\n"
		"failure = plane_down at=150us plane=2\nseed = 1\n");
	EXPECT_GE(mean_of_128(c), 0.70);
}

namespace {

// The k=8 fat tree of published datacenter-transport experiments
// (tools/sim/scenarios/fat-tree-k8.scn), 2 MB permutation, seed 1.
Config fat_tree(const std::string &ev_mode)
{
	Config c = make(
		"topology = fat_tree\nfat_tree_k = 8\nplanes = 1\nlink_rate = 100G\nlatency = 1us\n"
		"mtu = 4096\nbuffer = 1bdp\necn_threshold = 0.25bdp\ntraffic = permutation\n"
		"flow_bytes = 2MB\ntransport = mrc\nseed = 1\n");
	c.set("ev_mode", ev_mode);
	// As fat-tree-goals.sh: hashed EVs recycle, source routes rotate.
	c.set("mrc.spray", ev_mode == "udp" ? "recycle" : "round_robin");
	return c;
}

// Runs @c, whose 128 flows must all finish, and checks their mean and
// lowest throughput against the floors.
void expect_run(const Config &c, const std::string &what, double mean, double min)
{
	Simulation s(c);
	s.run({});
	auto thr = throughputs(s);
	ASSERT_EQ(thr.size(), 128u);
	double sum = 0, lo = 1;
	for (std::uint32_t i = 0; i < s.flows().size(); ++i) {
		ASSERT_TRUE(s.flows()[i].done) << "flow " << i;
		sum += thr[i];
		lo = std::min(lo, thr[i]);
	}
	EXPECT_GE(sum / thr.size(), mean) << what;
	EXPECT_GE(lo, min) << what;
}

void expect_throughput(const std::string &ev_mode, double mean, double min)
{
	expect_run(fat_tree(ev_mode), ev_mode, mean, min);
}

} // namespace

// Regression floors a little below what the engine and the adapter reach
// (sim.rst, "Fat tree"): SRv6 0.906 mean / 0.894 min, UDP 0.835 / 0.740 on
// this seed.  Before the delay target grew with the tiers and hashed EVs
// recycled, 0.893 / 0.860 and 0.763 / 0.585; before the first window was
// sized to the loaded RTT and the fat-tree EV lists alternated aggregation
// switches, 0.773 / 0.681 and 0.737 / 0.564.
TEST(FatTree, Srv6PermutationKeepsItsThroughput)
{
	expect_throughput("srv6", 0.90, 0.88);
}

TEST(FatTree, UdpPermutationKeepsItsThroughput)
{
	expect_throughput("udp", 0.82, 0.73);
}

// The tail resend (mrc-engine.rst, loss detection; on in mrcsim by
// default, off in the engine) with 1 % of the
// links failed 50 us in, UDP EVs, seed 2: mean 0.826 with it, 0.783
// without (sim.rst, "Failures on the fat tree").
TEST(FatTree, TailResendShortensFailedLinksTails)
{
	Config c = fat_tree("udp");
	c.set("seed", "2");
	c.set("failure", "random_links at=50us fraction=0.01");
	c.set("mrc.tail_resend", "1");
	EXPECT_GE(mean_of_128(c), 0.81);
}

namespace {

// Issue 18's degraded-links row (scenarios/fat-tree-degraded.scn): four
// core links, one in each of pods 0-3, at a quarter of their rate and
// buffer from t=0.
Config degraded(const std::string &ev_mode)
{
	Config c = fat_tree(ev_mode);
	c.parse_text("failure = degrade at=0 link=p1:agg0-core0 rate=0.25\n"
		     "failure = degrade at=0 link=p1:agg5-core5 rate=0.25\n"
		     "failure = degrade at=0 link=p1:agg10-core10 rate=0.25\n"
		     "failure = degrade at=0 link=p1:agg15-core15 rate=0.25\n",
		     "test");
	return c;
}

void expect_degraded(const std::string &ev_mode, double mean, double min)
{
	expect_run(degraded(ev_mode), ev_mode + ", degraded", mean, min);
}

} // namespace

// Floors a little below seed 1 of sim.rst, "Degraded links": SRv6 0.849
// mean / 0.761 min, UDP (recycling) 0.809 / 0.675; 0.785 / 0.543 and
// 0.756 / 0.522 before mrcsim turned the tail resend on, oblivious
// spraying 0.546 / 0.425.
TEST(FatTree, Srv6AvoidsDegradedLinks) { expect_degraded("srv6", 0.83, 0.74); }

TEST(FatTree, UdpAvoidsDegradedLinks) { expect_degraded("udp", 0.79, 0.65); }

namespace {

std::string slurp(const std::string &path)
{
	std::ifstream f(path);
	std::stringstream ss;
	ss << f.rdbuf();
	return ss.str();
}

std::string run_to(const std::string &transport, const std::string &seed,
		   const std::string &dir)
{
	Config c = make(
		"hosts = 32\nhosts_per_leaf = 8\nplanes = 2\ntraffic = permutation\nflow_bytes = 1MB\n"
		"buffer = 1bdp\nfailure = random_links at=20us fraction=0.05\n");
	c.set("transport", transport);
	c.set("seed", seed);
	std::filesystem::create_directories(dir);
	Simulation s(c);
	s.run({dir, false});
	s.write_outputs(dir);
	return slurp(dir + "/flows.csv") + slurp(dir + "/series.csv");
}

} // namespace

class Determinism : public ::testing::TestWithParam<std::string> {};

TEST_P(Determinism, SameSeedSameOutput)
{
	auto base = std::filesystem::temp_directory_path() /
		    ("mrcsim-det-" + GetParam() + "-" + std::to_string(getpid()));
	std::string a = run_to(GetParam(), "5", base / "a");
	std::string b = run_to(GetParam(), "5", base / "b");
	std::string c = run_to(GetParam(), "6", base / "c");
	std::filesystem::remove_all(base);
	EXPECT_GT(a.size(), 200u);
	EXPECT_EQ(a, b);
	EXPECT_NE(a, c) << "the seed changes nothing";
}

INSTANTIATE_TEST_SUITE_P(Transports, Determinism,
			 ::testing::ValuesIn(transports()),
			 [](const auto &i) { return i.param; });

namespace {

// A small version of collective-failure.sh (sim.rst, "Collectives with a
// failure"): 64 hosts under 4 leaves, 4 planes, SRv6 EVs, a ring (linear
// order) of 8 steps of 512 KB on kept connections; completion (the last
// flow's finish) without a failure, and with one seeded random spine
// link down at 40 % of it: 159.5 us and 171.8 us, 1.077 (goal 1.1).
Time ring_completion(const std::string &failure)
{
	Config c = make(
		"hosts = 64\nhosts_per_leaf = 16\nplanes = 4\nbuffer = 2bdp\nev_mode = srv6\n"
		"traffic = ring\nring_order = linear\nring_steps = 8\nflow_bytes = 512KB\n"
		"transport = mrc\nmrc.reuse = 1\nseed = 1\n");
	if (!failure.empty())
		c.set("failure", failure);
	Simulation s(c);
	s.run({});
	Time last = 0;
	for (std::uint32_t i = 0; i < s.flows().size(); ++i) {
		EXPECT_TRUE(s.flows()[i].done) << "flow " << i;
		last = std::max(last, s.flows()[i].finish);
	}
	return last;
}

} // namespace

TEST(Collective, RingSurvivesASpineLinkDownMidway)
{
	const Time base = ring_completion("");
	ASSERT_GT(base, 0);
	const Time at = base * 4 / 10;
	const Time fail = ring_completion(
		"random_links at=" + std::to_string(at / kNs) + "ns count=1");
	const double ratio = static_cast<double>(fail) /
			     static_cast<double>(base);
	std::printf("ring completion %.3f us, with the failure %.3f us: ratio %.4f\n",
		    static_cast<double>(base) / kUs,
		    static_cast<double>(fail) / kUs, ratio);
	EXPECT_LE(ratio, 1.09) << base << " ps -> " << fail << " ps";
}

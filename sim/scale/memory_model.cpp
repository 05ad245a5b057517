#include "sim/scale/memory_model.hpp"

#include <algorithm>

#include "algorithms/text_table.hpp"
#include "sim/scale/rank_batch.hpp"
#include "sim/simgrid/memory_model.hpp"
#include "workloads/workload.hpp"

namespace a2a::sim {

namespace {

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;

// Measured on polaris, parlogna r=2 and r=16, uniform <= 1 KiB (docs/performance.md): peak RSS
// 74 MiB at P = 4,096, 113 MiB at 8,192, 188-189 MiB at 16,384 — about 40 MiB + 9 KiB per rank.
// Per message in flight (each side counts once): fugaku, vendor openmpi (ompi_linear: every rank
// posts P - 1 receives and P - 1 sends at once), uniform:max=16, peak RSS 285 MiB at P = 1,024,
// 995 MiB at 2,048, 3,601 MiB at 4,096 (docs/performance.md, "Memory per message in flight"),
// after the compaction of commit 3f83220: 91-110 B per side beyond the other terms. At 128 B the
// estimates (359 MiB, 1.1 GiB, 4.1 GiB) exceed those peaks by 13-26 %. (It was 320 B: about
// 260 B a side was measured before the compaction, 8,454 MiB at P = 4,096.) Stop 28's open-
// addressing table of waiting posts takes more room at this load: 3,751 MiB at P = 4,096 against
// 3,049 MiB with std::unordered_map the same day (uniform:max=16), 9 % under the estimate (4.1
// GiB). Its load after growing is the lowest it gets (0.5), so no P is far worse. Measured again
// in stop 49 (AMD EPYC, one thread): 275, 984 and 3,764 MiB at P = 1,024, 2,048 and 4,096
// with the posts matched rank after rank (e700e33), and 350, 1,257 and 4,810 MiB with the posts
// of a platform with NIC time matched in time order, where every rank's P - 1 receives wait in
// the table before any send comes (twice the table): about 147 B a side beyond the other terms
// at P = 4,096, so 160 B were charged there. Stop 62 made a waiting post 24 B instead of 48 and
// grew the table by half instead of doubling it (AMD EPYC, the same runs): 269, 899 and 3,664 MiB
// at P = 1,024, 2,048 and 4,096, about 115 B a side, with the table at 61-77 % of its buckets
// (58 % at worst). So 128 B are charged with NIC time or without, where posts are matched rank
// after rank and fewer wait at once. A ctest runs P = 1,024 against its estimate.
constexpr std::int64_t kBase = 48 * MiB;  // SimGrid platform, a2a, libraries (rounded up)
// Per rank: its touched stack page (one for most algorithms since each rank's top shares a page
// with the next rank's canary, stop 56: 926 MiB peak for parlogna r = 2 at P = 131,072 on
// fugaku_full, constant 512 B, against 1,436 MiB before, one page a rank less), RankState,
// RankRecord, row key.
constexpr std::int64_t kPerRank = 7 * KiB;
// A message in flight: its request and post (16 + 32 B a side), its share of the pending
// matches (a 40-byte bucket), transfer (64 B), flow (24 B), events and allocator overhead.
constexpr std::int64_t kPerMessage = 128;
// An interned route and its hops. The flow network's lists of the routes in use per link and
// each route's places in them (stop 59) are not charged apart: peak RSS with and without them
// differed by 0.1-0.8 MiB (parlogna r = 128 at P = 16,384 on fugaku and polaris_scaled, r = 64 at
// 4,096 on polaris_scaled, spread_out at 4,096 on fugaku) and 2.9 MiB at P = 131,072, at most
// 0.4 % of the peak (docs/performance.md, stop 60).
constexpr std::int64_t kPerNodePair = 96;
constexpr std::int64_t kPerNode = 4 * KiB;  // the routes and NIC state of a used node
// Each NIC engine beyond a node's first (nic_engines): its two calendars, sending and receiving
// (sim/scale/nic_calendar.hpp), with room for a few busy stretches each.
constexpr std::int64_t kPerExtraNicEngine = 2 * 96;
// Under adaptive routing, the detours let go that the route table keeps findable beyond those in
// flight (sim/scale/routes.hpp): 65,536, each a route, its room for 12 hops and its key. Measured:
// parlogna r = 64 at P = 4,096 on polaris_scaled, 94 MiB peak against 109 MiB estimated with them
// (137 MiB before detours were let go, stop 37); those in flight count with their messages.
constexpr std::int64_t kDetoursKept = 65536 * 128;
// The heap ranks keep while they wait (MessageFootprint::rank_heap_bytes) is allocated on whichever
// thread resumed them. glibc's malloc gives each thread an arena of its own, and what a rank freed
// in one arena is not reused by an allocation in the other, so with two threads the peak holds
// more than the heap declared. bitonic_inplace, constant 64 B blocks on fugaku, peak RSS with one
// thread and with two (3 runs each way, AMD EPYC, stop 61): P = 1,024, 214 MiB and 231-251 MiB
// (192 MiB declared); P = 2,048, 695 MiB and 744-788 MiB (768 MiB declared): 12-19 % of the
// declared heap. Charged as 25 % of it for each thread beyond the first.
constexpr double kArenaSharePerThread = 0.25;
// Plus what the workload's run-sum caches can take (Workload::cache_bytes: up to 1.3 GiB for
// uniform blocks at P = 131,072), charged in full whether or not the algorithms read them.

// The workload's caches of run sums (Bruck rounds' rows and columns: workloads/
// distance_residue_sums.hpp, column_prefix_sums.hpp).
std::string workload_caches(const Workload& workload) {
  const std::int64_t bytes = workload.cache_bytes();
  return bytes > 0 ? " + workload's run sums " + human_bytes(bytes) : "";
}

}  // namespace

MemoryEstimate estimate_scale_memory(const RunShape& run) {
  const std::int64_t P = run.ranks;
  const std::int64_t Q = std::max(1, run.platform.ranks_per_node);
  const std::int64_t nodes = (P + Q - 1) / Q;
  std::int64_t in_flight = 1;
  std::string busiest;  // the configuration with the most messages in flight
  for (const Planned& item : run.planned) {
    const int q = static_cast<int>(Q);
    const std::int64_t posted = messages_in_flight(item.config, run.ranks, q, run.options.vendor);
    if (busiest.empty() || posted > in_flight) {
      in_flight = std::max(in_flight, posted);
      busiest = guarded_label(item.config, run.ranks, q, run.options.vendor);
    }
  }
  // The scale engine routes over the SimGrid platform it builds: a fat-tree whole, however few
  // nodes the ranks use, a torus the block of leading dimensions that holds them (a job on all of a
  // 128 x 128 x 128 torus is 2 million routers and 6 million links).
  const std::int64_t platform = simgrid_platform_bytes(
      run.platform, nodes_built(run.platform, run.ranks, run.options.placement));
  const std::int64_t messages = P * in_flight * 2;  // both sides of each
  // Every rank reaches at most min(P, rounds x in-flight) other ranks; routes are per node pair.
  const std::int64_t node_pairs = nodes * std::min(nodes, in_flight * 64);
  const std::int64_t detours = run.platform.routing == "minimal" ? 0 : kDetoursKept;
  const bool nic = run.platform.nic_message_time > 0;
  const std::int64_t nic_engines = nic ? nodes * (run.platform.nic_engines - 1) : 0;
  const RankHeap heap = rank_heap(run.planned, run.ranks, static_cast<int>(Q), run.options.vendor);
  const int threads = scale::RankBatch::thread_count(run.options.threads);
  const auto arenas = static_cast<std::int64_t>(static_cast<double>(P * heap.bytes) *
                                                kArenaSharePerThread * (threads - 1));
  MemoryEstimate estimate;
  estimate.bytes = kBase + P * (kPerRank + heap.bytes) + arenas + messages * kPerMessage +
                   node_pairs * kPerNodePair + nodes * kPerNode + nic_engines * kPerExtraNicEngine +
                   platform + detours + run.workload.cache_bytes();
  estimate.what =
      std::to_string(P) + " ranks x " + human_bytes(kPerRank) + " + " + std::to_string(messages) +
      " messages in flight (" + busiest + ") x " + human_bytes(kPerMessage) + " + " +
      std::to_string(node_pairs) + " routes x " + human_bytes(kPerNodePair) + " + platform " +
      human_bytes(platform) + " + base " + human_bytes(kBase) +
      (detours > 0 ? " + detours kept " + human_bytes(detours) : "") +
      (nic_engines > 0 ? " + NIC engines " + human_bytes(nic_engines * kPerExtraNicEngine) : "") +
      heap.what +
      (arenas > 0 ? " + " + std::to_string(threads) + " threads' arenas " + human_bytes(arenas)
                  : "") +
      workload_caches(run.workload) + undeclared_footprints(run.planned);
  return estimate;
}

}  // namespace a2a::sim

// Job placement: which of a machine's nodes a job's ranks run on. Rank r runs on the job's node
// r / ranks_per_node; placement maps that job node to a node of the machine (its number in the
// platform's own order: on a dragonfly nodes fill a router, then a group; on a torus the first
// dimension varies fastest).
//   contiguous  job node i is machine node i (the first nodes, in order);
//   spread      job nodes evenly spaced over the whole machine: node floor(i · N / n) of N for a
//               job of n nodes (on a dragonfly, over all its groups);
//   random      n distinct machine nodes drawn uniformly (a fixed seed: the same every run), in
//               the order drawn.
#pragma once

#include <string>
#include <vector>

namespace a2a {

enum class Placement { contiguous, spread, random };

// Parses a placement name; throws InvalidParameter naming the choices.
Placement parse_placement(const std::string& name);
const char* placement_name(Placement placement);

// The machine node of each of a job's `job_nodes` nodes, on a machine of `machine_nodes`.
std::vector<int> place_nodes(Placement placement, int job_nodes, int machine_nodes);

}  // namespace a2a

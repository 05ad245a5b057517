// Tuning maps as self-contained SVG pictures, written by hand (SVG is text): a heatmap of the best
// configuration per (P, S) cell with its speed-up over the vendor (in the manner of Fan et al.,
// HPDC 2025, §5.1, Fig. 8), and the decision regions over log P x log S that the tuning table
// encodes (in the manner of MPICH's decision tree, Netterville et al., HiPCW 2022, §II, Fig. 2).
#pragma once

#include <string>

#include "sim/tune/tuning_map.hpp"

namespace a2a::tune {

// Columns P, rows S (largest on top); each cell coloured by its best configuration (hue: the
// algorithm, shade: its parameters), labelled with it and the speed-up, with a red bar whose
// intensity grows with the speed-up. Missing cells are hatched.
std::string heatmap_svg(const TuningMap& map);

// Each cell's region reaches the geometric midpoints to its neighbours (the table's ranges);
// lines mark where the choice changes, dots the measured points, one label per region.
std::string regions_svg(const TuningMap& map);

}  // namespace a2a::tune

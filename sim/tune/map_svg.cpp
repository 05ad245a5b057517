#include "sim/tune/map_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "algorithms/registry.hpp"
#include "algorithms/text_table.hpp"

namespace a2a::tune {

namespace {

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string fraction(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

std::string times_text(double speedup) {
  char text[32];
  std::snprintf(text, sizeof text, speedup < 10 ? "%.2f\u00d7" : "%.1f\u00d7", speedup);
  return text;
}

// "16 B", "64 KiB", "1.5 KiB": whole multiples without decimals.
std::string size_text(std::int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int unit = 0;
  std::int64_t whole = bytes;
  while (unit < 3 && whole >= 1024 && whole % 1024 == 0) {
    whole /= 1024;
    ++unit;
  }
  if (whole < 1024) return std::to_string(whole) + " " + units[unit];
  return human_bytes(bytes);
}

// ---- colours: hue per algorithm (catalog order), shade per parameter values -------------------

struct Style {
  std::string fill;
  bool dark = false;  // white text on it
};

std::vector<std::int64_t> parameter_values(const std::string& config) {
  std::vector<std::int64_t> values;
  const size_t colon = config.find(':');
  if (colon == std::string::npos) return values;
  std::stringstream options(config.substr(colon + 1));
  std::string option;
  while (std::getline(options, option, ',')) {
    const size_t eq = option.find('=');
    if (eq != std::string::npos) values.push_back(std::atoll(option.c_str() + eq + 1));
  }
  return values;
}

int catalog_index(const std::string& name) {
  const auto& entries = catalog();
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].name == name) return static_cast<int>(i);
  }
  return static_cast<int>(entries.size());
}

// The best configurations of the map, in legend order: by catalog order, then parameter values.
std::vector<std::string> legend_configs(const TuningMap& map) {
  std::vector<std::string> configs;
  for (const Cell& cell : map.cells) {
    if (!cell.missing() &&
        std::find(configs.begin(), configs.end(), cell.best->config) == configs.end()) {
      configs.push_back(cell.best->config);
    }
  }
  auto key = [](const std::string& config) {
    return std::make_pair(catalog_index(config.substr(0, config.find(':'))),
                          parameter_values(config));
  };
  std::sort(configs.begin(), configs.end(),
            [&](const std::string& a, const std::string& b) { return key(a) < key(b); });
  return configs;
}

std::map<std::string, Style> styles(const std::vector<std::string>& configs) {
  static const int hues[] = {210, 28, 135, 355, 275, 48, 178, 310, 90, 235, 5, 160};
  std::map<std::string, std::vector<std::string>> by_algorithm;
  for (const std::string& config : configs)
    by_algorithm[config.substr(0, config.find(':'))].push_back(config);
  std::map<std::string, Style> out;
  for (const auto& [name, members] : by_algorithm) {
    for (size_t i = 0; i < members.size(); ++i) {
      // Lightness from 80 % (smallest parameters) to 36 % (largest).
      const double lightness =
          members.size() == 1 ? 58.0 : 80.0 - 44.0 * static_cast<double>(i) / (members.size() - 1);
      if (name == "vendor") {
        out[members[i]] = {"hsl(0,0%,74%)", false};
        continue;
      }
      const int hue = hues[catalog_index(name) % (sizeof hues / sizeof hues[0])];
      out[members[i]] = {"hsl(" + std::to_string(hue) + ",62%," + number(lightness) + "%)",
                         lightness < 52};
    }
  }
  return out;
}

// ---- shared pieces -------------------------------------------------------------------------

std::string text(double x, double y, const std::string& content, const std::string& attributes) {
  return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" " + attributes + ">" +
         escape(content) + "</text>\n";
}

std::string rect(double x, double y, double w, double h, const std::string& fill,
                 const std::string& extra = "") {
  return "<rect x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(w) +
         "\" height=\"" + number(h) + "\" fill=\"" + fill + "\" " + extra + "/>\n";
}

std::string document_start(double width, double height, const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width) + "\" height=\"" +
         number(height) + "\" viewBox=\"0 0 " + number(width) + " " + number(height) +
         "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n<title>" + escape(title) +
         "</title>\n<defs><pattern id=\"missing\" width=\"8\" height=\"8\" "
         "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"8\" "
         "height=\"8\" fill=\"#f4f4f4\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" "
         "stroke=\"#bbbbbb\" stroke-width=\"3\"/></pattern>\n<linearGradient id=\"gain\"><stop "
         "offset=\"0\" stop-color=\"#d62728\" stop-opacity=\"0\"/><stop offset=\"1\" "
         "stop-color=\"#d62728\" stop-opacity=\"1\"/></linearGradient></defs>\n" +
         rect(0, 0, width, height, "white");
}

std::string titles(const TuningMap& map, const std::string& heading) {
  return text(20, 28, heading, "font-size=\"17\" font-weight=\"bold\"") +
         text(20, 48, map.key.describe(), "font-size=\"12\" fill=\"#333\"");
}

// The legend at (x, y): one swatch per configuration, then "no data"; returns its height.
double legend(std::string& svg, double x, double y, const std::vector<std::string>& configs,
              const std::map<std::string, Style>& style) {
  svg += text(x, y, "best configuration", "font-size=\"12\" font-weight=\"bold\"");
  double row = y + 10;
  for (const std::string& config : configs) {
    svg += rect(x, row, 18, 14, style.at(config).fill, "stroke=\"#555\" stroke-width=\"0.5\"");
    svg += text(x + 26, row + 11, short_config(config), "font-size=\"11\"");
    row += 20;
  }
  svg += rect(x, row, 18, 14, "url(#missing)", "stroke=\"#555\" stroke-width=\"0.5\"");
  svg += text(x + 26, row + 11, "no usable measurement", "font-size=\"11\"");
  return row + 20 - y;
}

double max_speedup(const TuningMap& map) {
  double best = 1;
  for (const Cell& cell : map.cells)
    best = std::max(best, cell.speedup().value_or(1));
  return best;
}

// Opacity of the red speed-up bar: 0 at 1x, 1 at the map's largest speed-up (log scale).
double gain_opacity(double speedup, double largest) {
  if (largest <= 1 || speedup <= 1) return 0;
  return std::log(speedup) / std::log(largest);
}

std::string block_label(const std::optional<std::int64_t>& block) {
  return block ? size_text(*block) : "all S";
}

}  // namespace

std::string heatmap_svg(const TuningMap& map) {
  const size_t columns = map.ranks.size(), rows = map.blocks.size();
  // At least 240 pixels of rows, so that the vertical axis title fits beside them.
  const double cell_w = 128, cell_h = std::max(56.0, 240.0 / rows), left = 110, top = 78;
  const double grid_w = cell_w * columns, grid_h = cell_h * rows;
  const std::vector<std::string> configs = legend_configs(map);
  const std::map<std::string, Style> style = styles(configs);
  const double legend_x = left + grid_w + 28;
  const double width = std::max(legend_x + 230, 700.0);
  const double height = std::max(top + grid_h + 70, top + 20.0 * configs.size() + 150);
  const double largest = max_speedup(map);
  std::string svg = document_start(width, height, "a2a tune: best configuration per (P, S)");
  svg += titles(map, "Best configuration per (P, S) and its speed-up over vendor (predicted)");
  for (size_t p = 0; p < columns; ++p) {
    for (size_t s = 0; s < rows; ++s) {
      const Cell& cell = map.at(p, s);
      const double x = left + p * cell_w, y = top + (rows - 1 - s) * cell_h;
      const double cx = x + cell_w / 2, middle = y + (cell_h - 8) / 2;
      if (cell.missing()) {
        svg += rect(x, y, cell_w, cell_h, "url(#missing)", "stroke=\"white\" stroke-width=\"2\"");
        svg += text(cx, middle - 2, "no data",
                    "font-size=\"11\" text-anchor=\"middle\" fill=\"#555\"");
        if (cell.failed > 0) {
          svg += text(
              cx, middle + 13,
              std::to_string(cell.failed) + (cell.failed == 1 ? " failed check" : " failed checks"),
              "font-size=\"10\" text-anchor=\"middle\" fill=\"#555\"");
        }
        continue;
      }
      const Style& look = style.at(cell.best->config);
      const std::string ink = look.dark ? "white" : "#111";
      svg += rect(x, y, cell_w, cell_h, look.fill, "stroke=\"white\" stroke-width=\"2\"");
      const std::string label = short_config(cell.best->config);
      const size_t space = label.find(' ');
      svg +=
          text(cx, middle - 8, label.substr(0, space),
               "font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"" + ink + "\"");
      const std::string params =
          space == std::string::npos ? "" : label.substr(space + 1) + " \u00b7 ";
      const auto speedup = cell.speedup();
      svg += text(cx, middle + 8, params + (speedup ? times_text(*speedup) : "no vendor row"),
                  "font-size=\"11\" text-anchor=\"middle\" fill=\"" + ink + "\"");
      if (speedup) {  // on white, so that the red reads the same on every fill
        svg += rect(x + 4, y + cell_h - 11, cell_w - 8, 6, "white");
        svg += rect(x + 4, y + cell_h - 11, cell_w - 8, 6, "#d62728",
                    "fill-opacity=\"" + fraction(gain_opacity(*speedup, largest)) + "\"");
      }
    }
  }
  // Axes: P under the columns, S left of the rows.
  for (size_t p = 0; p < columns; ++p) {
    svg += text(left + (p + 0.5) * cell_w, top + grid_h + 18, std::to_string(map.ranks[p]),
                "font-size=\"12\" text-anchor=\"middle\"");
  }
  for (size_t s = 0; s < rows; ++s) {
    svg += text(left - 8, top + (rows - 1 - s + 0.5) * cell_h + 4, block_label(map.blocks[s]),
                "font-size=\"12\" text-anchor=\"end\"");
  }
  svg += text(left + grid_w / 2, top + grid_h + 40, "P (ranks)",
              "font-size=\"13\" text-anchor=\"middle\"");
  svg += "<text transform=\"translate(24," + number(top + grid_h / 2) +
         ") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">S (bytes, the sweep's "
         "block_bytes)</text>\n";
  const double used = legend(svg, legend_x, top + 4, configs, style);
  const double bar_y = top + used + 26;
  svg +=
      text(legend_x, bar_y, "speed-up over vendor (bar)", "font-size=\"12\" font-weight=\"bold\"");
  svg += rect(legend_x, bar_y + 8, 150, 10, "url(#gain)", "stroke=\"#555\" stroke-width=\"0.5\"");
  svg += text(legend_x, bar_y + 32, "1\u00d7", "font-size=\"11\"");
  svg +=
      text(legend_x + 150, bar_y + 32, times_text(largest), "font-size=\"11\" text-anchor=\"end\"");
  svg += text(legend_x, bar_y + 50, "(log scale; best = lowest predicted", "font-size=\"10\"");
  svg += text(legend_x, bar_y + 63, "time, checks failed: ignored)", "font-size=\"10\"");
  return svg + "</svg>\n";
}

namespace {

// Positions on a log2 axis: each grid value's region reaches halfway (in log) to its neighbours;
// the outer regions extend as far as their inner half (or one octave for a single value).
struct LogAxis {
  std::vector<double> centre, low, high;
  double min = 0, max = 1;
};

LogAxis log_axis(const std::vector<double>& values) {
  LogAxis axis;
  double smallest_positive = 1;
  for (double v : values) {
    if (v > 0) {
      smallest_positive = v;
      break;
    }
  }
  for (double v : values)
    axis.centre.push_back(v > 0 ? std::log2(v) : std::log2(smallest_positive) - 1);
  const size_t n = axis.centre.size();
  for (size_t i = 0; i < n; ++i) {
    const double below =
        i > 0 ? axis.centre[i] - axis.centre[i - 1] : (n > 1 ? axis.centre[1] - axis.centre[0] : 2);
    const double above = i + 1 < n ? axis.centre[i + 1] - axis.centre[i] : below;
    axis.low.push_back(axis.centre[i] - below / 2);
    axis.high.push_back(axis.centre[i] + above / 2);
  }
  axis.min = axis.low.front();
  axis.max = axis.high.back();
  return axis;
}

// Cells with the same best configuration (or both missing) that touch form one region.
std::vector<int> regions(const TuningMap& map) {
  const size_t columns = map.ranks.size(), rows = map.blocks.size();
  auto same = [&](size_t a, size_t b) {
    const Cell &x = map.cells[a], &y = map.cells[b];
    return x.missing() == y.missing() && (x.missing() || x.best->config == y.best->config);
  };
  std::vector<int> region(map.cells.size(), -1);
  int next = 0;
  for (size_t start = 0; start < region.size(); ++start) {
    if (region[start] >= 0) continue;
    std::vector<size_t> stack = {start};
    region[start] = next;
    while (!stack.empty()) {
      const size_t c = stack.back();
      stack.pop_back();
      const size_t p = c / rows, s = c % rows;
      std::vector<size_t> around;
      if (p > 0) around.push_back(c - rows);
      if (p + 1 < columns) around.push_back(c + rows);
      if (s > 0) around.push_back(c - 1);
      if (s + 1 < rows) around.push_back(c + 1);
      for (size_t n : around) {
        if (region[n] < 0 && same(c, n)) {
          region[n] = next;
          stack.push_back(n);
        }
      }
    }
    ++next;
  }
  return region;
}

}  // namespace

std::string regions_svg(const TuningMap& map) {
  const double left = 96, top = 78, plot_w = 620, plot_h = 420;
  const size_t columns = map.ranks.size(), rows = map.blocks.size();
  std::vector<double> p_values(map.ranks.begin(), map.ranks.end()), s_values;
  for (const auto& block : map.blocks)
    s_values.push_back(block ? static_cast<double>(*block) : 1.0);
  const LogAxis px = log_axis(p_values), sy = log_axis(s_values);
  auto x_of = [&](double v) { return left + (v - px.min) / (px.max - px.min) * plot_w; };
  auto y_of = [&](double v) { return top + plot_h - (v - sy.min) / (sy.max - sy.min) * plot_h; };
  const bool by_block = map.blocks.front().has_value();
  const std::vector<std::string> configs = legend_configs(map);
  const std::map<std::string, Style> style = styles(configs);
  const double legend_x = left + plot_w + 28;
  const double width = legend_x + 230;
  const double height = std::max(top + plot_h + 86, top + 20.0 * configs.size() + 60);
  std::string svg = document_start(width, height, "a2a tune: decision regions over P and S");
  svg += titles(map, "Decision regions: best configuration over log P \u00d7 log S, predicted");
  auto cell_box = [&](size_t p, size_t s) {
    const double y_top = by_block ? y_of(sy.high[s]) : top;
    const double y_bottom = by_block ? y_of(sy.low[s]) : top + plot_h;
    return std::array<double, 4>{x_of(px.low[p]), y_top, x_of(px.high[p]) - x_of(px.low[p]),
                                 y_bottom - y_top};
  };
  for (size_t p = 0; p < columns; ++p) {
    for (size_t s = 0; s < rows; ++s) {
      const Cell& cell = map.at(p, s);
      const auto [x, y, w, h] = cell_box(p, s);
      // Overlap by half a pixel so that no hairline shows between equal neighbours.
      svg += rect(x, y, w + 0.5, h + 0.5,
                  cell.missing() ? "url(#missing)" : style.at(cell.best->config).fill);
    }
  }
  // Decision boundaries: where neighbouring cells choose differently.
  const std::vector<int> region = regions(map);
  std::string lines;
  auto line = [&](double x1, double y1, double x2, double y2) {
    lines += "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) +
             "\" y2=\"" + number(y2) + "\" stroke=\"#222\" stroke-width=\"1.6\"/>\n";
  };
  for (size_t p = 0; p < columns; ++p) {
    for (size_t s = 0; s < rows; ++s) {
      const size_t c = p * rows + s;
      const auto [x, y, w, h] = cell_box(p, s);
      if (p + 1 < columns && region[c] != region[c + rows]) line(x + w, y, x + w, y + h);
      if (s + 1 < rows && region[c] != region[c + 1]) line(x, y, x + w, y);
    }
  }
  svg += lines;
  svg += rect(left, top, plot_w, plot_h, "none", "stroke=\"#222\" stroke-width=\"1\"");
  // Measured points, then one label per region at its cell nearest the region's centre.
  for (size_t p = 0; p < columns; ++p) {
    for (size_t s = 0; s < rows; ++s) {
      const double cy = by_block ? y_of(sy.centre[s]) : top + plot_h / 2;
      svg += "<circle cx=\"" + number(x_of(px.centre[p])) + "\" cy=\"" + number(cy) +
             "\" r=\"2.6\" fill=\"#111\"/>\n";
    }
  }
  const int region_count = region.empty() ? 0 : *std::max_element(region.begin(), region.end()) + 1;
  for (int r = 0; r < region_count; ++r) {
    double sum_p = 0, sum_s = 0;
    int members = 0;
    for (size_t c = 0; c < region.size(); ++c) {
      if (region[c] != r) continue;
      sum_p += c / rows;
      sum_s += c % rows;
      ++members;
    }
    size_t anchor = 0;
    double nearest = 1e300;
    for (size_t c = 0; c < region.size(); ++c) {
      const double dp = c / rows - sum_p / members, ds = c % rows - sum_s / members;
      if (region[c] == r && dp * dp + ds * ds < nearest) {
        nearest = dp * dp + ds * ds;
        anchor = c;
      }
    }
    const Cell& cell = map.cells[anchor];
    // Just above the anchor cell's measured point.
    const double x = x_of(px.centre[anchor / rows]);
    const double y = by_block ? y_of(sy.centre[anchor % rows]) : top + plot_h / 2;
    svg += text(x, y - 9, cell.missing() ? "no data" : short_config(cell.best->config),
                "font-size=\"12\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#111\" "
                "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\"");
  }
  // Axes: ticks at the measured values.
  for (size_t p = 0; p < columns; ++p) {
    const double x = x_of(px.centre[p]);
    svg += "<line x1=\"" + number(x) + "\" y1=\"" + number(top + plot_h) + "\" x2=\"" + number(x) +
           "\" y2=\"" + number(top + plot_h + 5) + "\" stroke=\"#222\"/>\n";
    svg += text(x, top + plot_h + 19, std::to_string(map.ranks[p]),
                "font-size=\"12\" text-anchor=\"middle\"");
  }
  for (size_t s = 0; by_block && s < rows; ++s) {
    const double y = y_of(sy.centre[s]);
    svg += "<line x1=\"" + number(left - 5) + "\" y1=\"" + number(y) + "\" x2=\"" + number(left) +
           "\" y2=\"" + number(y) + "\" stroke=\"#222\"/>\n";
    svg +=
        text(left - 8, y + 4, block_label(map.blocks[s]), "font-size=\"12\" text-anchor=\"end\"");
  }
  svg += text(left + plot_w / 2, top + plot_h + 40, "P (ranks, log scale)",
              "font-size=\"13\" text-anchor=\"middle\"");
  svg += "<text transform=\"translate(22," + number(top + plot_h / 2) +
         ") rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">S (bytes, log scale)</text>\n";
  svg += text(left, top + plot_h + 64,
              "Regions end at the geometric midpoints between measured points (dots), as the "
              "ranges of `a2a tune --table` do.",
              "font-size=\"11\" fill=\"#333\"");
  legend(svg, legend_x, top + 4, configs, style);
  return svg + "</svg>\n";
}

}  // namespace a2a::tune

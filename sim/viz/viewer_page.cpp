#include "sim/viz/viewer_page.hpp"

#include "algorithms/errors.hpp"

namespace a2a::sim::viz {

namespace {

using recorder::Message;
using recorder::Op;
using recorder::Step;

constexpr std::string_view kMarker = "/*A2A_RECORDING*/";

// kind, rank, buffer, temp, offset, then: copy/receive: segment count and 4 integers per segment
// (src, dst, offset in block, bytes; src -1 for a hole); alloc/read: bytes; free: nothing.
void flatten(const Op& op, nlohmann::json& out) {
  out.push_back(static_cast<int>(op.kind));
  out.push_back(op.rank);
  out.push_back(static_cast<int>(op.buffer));
  out.push_back(op.temp);
  out.push_back(op.offset);
  switch (op.kind) {
    case Op::Kind::copy:
    case Op::Kind::receive:
      out.push_back(op.segments.size());
      for (const recorder::Segment& s : op.segments) {
        out.push_back(s.src);
        out.push_back(s.dst);
        out.push_back(s.block_offset);
        out.push_back(s.bytes);
      }
      break;
    case Op::Kind::alloc:
    case Op::Kind::read:
      out.push_back(op.bytes);
      break;
    case Op::Kind::free:
      break;
  }
}

nlohmann::json step_json(const Step& step) {
  nlohmann::json ops = nlohmann::json::array();
  for (const Op& op : step.ops)
    flatten(op, ops);
  nlohmann::json messages = nlohmann::json::array();
  for (const Message& m : step.messages) {
    for (std::int64_t v : {static_cast<std::int64_t>(m.kind), std::int64_t{m.src},
                           std::int64_t{m.dst}, m.bytes, std::int64_t{m.blocks}})
      messages.push_back(v);
  }
  return {{"label", step.label},   {"round", step.round},
          {"sub", step.sub},       {"phases", step.phases},
          {"time", step.time},     {"collectives", step.collectives},
          {"ops", std::move(ops)}, {"messages", std::move(messages)}};
}

}  // namespace

nlohmann::json recording_json(const recorder::Recording& r) {
  nlohmann::json buffers = nlohmann::json::array();
  for (const recorder::RankBuffers& b : r.buffers) {
    buffers.push_back({{"send_bytes", b.send_bytes},
                       {"recv_bytes", b.recv_bytes},
                       {"send_at", b.send_at},
                       {"recv_at", b.recv_at}});
  }
  nlohmann::json steps = nlohmann::json::array();
  for (const Step& step : r.steps)
    steps.push_back(step_json(step));
  return {{"format", "a2a-recording-1"},
          {"meta",
           {{"algorithm", r.algorithm},
            {"label", r.label},
            {"params", r.params},
            {"ranks", r.ranks},
            {"ranks_per_node", r.ranks_per_node},
            {"workload", r.workload},
            {"platform", r.platform},
            {"layout", r.layout},
            {"vendor", r.vendor},
            {"predicted", r.predicted},
            {"check", r.check}}},
          {"block_bytes", r.block_bytes},
          {"buffers", std::move(buffers)},
          {"steps", std::move(steps)}};
}

std::string viewer_html(const recorder::Recording& recording) {
  std::string data = recording_json(recording).dump();
  // Inside <script>, "</" could end the element early (a workload file name, say).
  for (size_t at = data.find("</"); at != std::string::npos; at = data.find("</", at + 3))
    data.replace(at, 2, "<\\/");
  const std::string_view page = viewer_template();
  const size_t at = page.find(kMarker);
  if (at == std::string_view::npos) throw Error("viewer template has no recording marker");
  std::string out;
  out.reserve(page.size() + data.size());
  out.append(page.substr(0, at)).append(data).append(page.substr(at + kMarker.size()));
  return out;
}

}  // namespace a2a::sim::viz

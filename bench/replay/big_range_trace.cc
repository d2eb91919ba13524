// Writes a synthetic trace of one range over large buffers, for the replay
// memory benchmark (replay_memory.py): the replayer's peak memory is judged
// against the bytes of the range's buffers.
//
// Layouts (four buffers of a quarter of the size each):
//   in-place: each buffer scaled by 2 in place, so all four are written and
//             restored before each pass (the case restore copies double);
//   mixed:    c = a + b into a buffer that starts as zeros, and x scaled in
//             place: two read-only inputs, one output, one in-place buffer.
// Half of the buffers hold smooth values (stored compressed), half random
// ones (stored as they are). Data is made chunk by chunk, so this program
// holds little of it.
// Usage: msprof_big_range_trace --mib N --layout in-place|mixed OUT
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench/replay/add_scale_trace.h"
#include "format/trace_writer.h"

using namespace msprof;

namespace {

constexpr std::size_t kPiece = 1u << 20;  // floats made at a time

float smooth(std::uint64_t i) {
  return static_cast<float>(i % 1000) * 0.5f;
}

// A float in [0, 1) from the element index alone, so the initial and final
// states are made the same way without being held.
float random_at(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) / static_cast<float>(1ull << 24);
}

trace::BlobRef make_blob(trace::TraceWriter& writer, std::uint64_t count,
                         const std::function<float(std::uint64_t)>& value) {
  auto blob = writer.begin_blob();
  std::vector<float> piece(kPiece);
  for (std::uint64_t at = 0; at < count; at += kPiece) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kPiece, count - at));
    for (std::size_t i = 0; i < n; ++i) piece[i] = value(at + i);
    blob.append(std::as_bytes(std::span(piece.data(), n)));
  }
  return blob.finish();
}

trace::KernelArg buffer_arg(std::uint32_t index, trace::CaptureId buffer) {
  return trace::KernelArg{index, trace::ArgKind::Buffer, buffer, 0, {}, 0};
}

trace::KernelLaunch scale_launch(trace::CaptureId buffer, std::uint64_t count) {
  std::vector<std::uint8_t> two(4);
  const float value = 2.0f;
  std::memcpy(two.data(), &value, 4);
  return trace::KernelLaunch{
      4, 1, {}, {count}, {64}, {buffer_arg(0, buffer), {1, trace::ArgKind::Bytes, 0, 0, two, 0}},
      {}};
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t mib = 4096;
  std::string layout = "in-place", out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mib" && i + 1 < argc) {
      mib = std::stoull(argv[++i]);
    } else if (arg == "--layout" && i + 1 < argc) {
      layout = argv[++i];
    } else {
      out = arg;
    }
  }
  if (out.empty() || mib < 4 || mib % 4 != 0 || (layout != "in-place" && layout != "mixed")) {
    std::fprintf(stderr,
                 "usage: msprof_big_range_trace --mib N (a multiple of 4) --layout "
                 "in-place|mixed OUT\n");
    return 2;
  }
  try {
    const std::uint64_t count = (mib << 20) / 4 / 4;  // floats per buffer
    trace::TraceWriter writer(out);
    bench::write_add_scale_objects(writer, trace::DeviceInfo{}, count * 4);
    trace::Range range;
    range.id = 30;
    range.name = "big";
    const auto smooth_at = [](std::uint64_t i) { return smooth(i); };
    const auto random_of = [](std::uint64_t i) { return random_at(i); };
    const auto twice = [](auto f) { return [f](std::uint64_t i) { return f(i) * 2.0f; }; };
    if (layout == "in-place") {
      std::uint64_t seq = 0;
      for (trace::CaptureId id : {10, 11, 12, 13}) {
        const bool smooth_values = id % 2 == 0;
        const auto initial = smooth_values ? make_blob(writer, count, smooth_at)
                                           : make_blob(writer, count, random_of);
        const auto final_state = smooth_values ? make_blob(writer, count, twice(smooth_at))
                                               : make_blob(writer, count, twice(random_of));
        range.initial_state.push_back({id, initial});
        range.final_state.push_back({id, final_state});
        range.commands.push_back({seq++, 20, 0, {}, false, 0, scale_launch(id, count)});
      }
    } else {
      const auto a = make_blob(writer, count, smooth_at), b = make_blob(writer, count, random_of);
      const auto zeros = make_blob(writer, count, [](std::uint64_t) { return 0.0f; });
      const auto c =
          make_blob(writer, count, [](std::uint64_t i) { return smooth(i) + random_at(i); });
      const auto x = make_blob(writer, count, random_of),
                 x2 = make_blob(writer, count, twice(random_of));
      range.initial_state = {{10, a}, {11, b}, {12, zeros}, {13, x}};
      range.final_state = {{10, a}, {11, b}, {12, c}, {13, x2}};
      trace::KernelLaunch add{
          3, 1, {}, {count}, {64}, {buffer_arg(0, 10), buffer_arg(1, 11), buffer_arg(2, 12)}, {}};
      range.commands = {{0, 20, 0, {}, false, 0, add},
                        {1, 20, 0, {}, false, 0, scale_launch(13, count)}};
    }
    writer.write(range);
    writer.close();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "msprof_big_range_trace: %s\n", e.what());
    return 1;
  }
  return 0;
}

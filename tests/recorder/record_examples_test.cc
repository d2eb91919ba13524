// End to end: real programs run under msprof-record; the trace is checked
// with the format library, and the program's output against a plain run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <map>
#include <set>
#include <unordered_map>

#include <signal.h>

#include "format/trace_reader.h"
#include "tests/recorder/record_run.h"
#include "tests/support/temp_dir.h"

using namespace msprof::trace;
using msprof::test::example;
using msprof::test::example_binary;
using msprof::test::record;
using msprof::test::run_command;
using msprof::test::TempDir;

namespace {

std::vector<std::string> plain_python(const std::string& script) {
  return {"env", std::string("PYTHONPATH=") + MSPROF_SOURCE_DIR + "/recorder/python", "python3",
          example(script)};
}

// Runs a Python example plainly and under msprof-record (trace.fb in `dir`):
// both succeed and print the same, since the recorder never changes what the
// program computes. Returns the recorded run.
msprof::test::RunResult record_unchanged(const std::string& script,
                                         const std::filesystem::path& dir) {
  const auto plain = run_command(plain_python(script), dir);
  REQUIRE(plain.exit_code == 0);
  auto rec = record({}, {"python3", example(script)}, dir);
  INFO("msprof-record of ", script, ":\n", rec.err);
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.out == plain.out);
  return rec;
}

// Each of `values` for `option` is refused as the launcher refuses bad
// input: exit 2, one line naming the option, no trace.
void check_refused(const std::string& option, std::initializer_list<const char*> values,
                   const std::filesystem::path& dir) {
  for (const char* bad : values) {
    CAPTURE(bad);
    const auto r = record({"-o", "bad.fb", option, bad}, {"true"}, dir);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(option) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
  CHECK_FALSE(std::filesystem::exists(dir / "bad.fb"));
}

struct Loaded {
  TraceInfo info;
  std::vector<Range> ranges;
  std::map<CaptureId, Kernel> kernels;
  std::map<CaptureId, Program> programs;
  std::map<CaptureId, Buffer> buffers;
  std::map<CaptureId, Queue> queues;
  std::set<CaptureId> contexts, samplers;
  const Buffer* buffer(CaptureId id) const {
    const auto it = buffers.find(id);
    return it == buffers.end() ? nullptr : &it->second;
  }
};

// Each blob chunk frame of the trace: its size, by the chunk's content key.
std::unordered_map<Hash128, std::uint64_t, Hash128Hasher> chunk_frames(
    const std::filesystem::path& path) {
  TraceReader reader(path);
  std::unordered_map<Hash128, std::uint64_t, Hash128Hasher> frames;
  for (const IndexEntry& frame : reader.frames()) {
    if (frame.type == static_cast<std::uint16_t>(FrameType::BlobChunk)) {
      frames[frame.key] = frame.frame_size;
    }
  }
  return frames;
}

Loaded load(const std::filesystem::path& path) {
  TraceReader reader(path);
  REQUIRE_FALSE(reader.recovered());
  Loaded l;
  l.info = reader.info();
  l.ranges = reader.read_all<Range>();
  std::sort(l.ranges.begin(), l.ranges.end(),
            [](const Range& a, const Range& b) { return a.order < b.order; });
  for (auto& k : reader.read_all<Kernel>()) l.kernels[k.id] = k;
  for (auto& p : reader.read_all<Program>()) l.programs[p.id] = p;
  for (auto& b : reader.read_all<Buffer>()) l.buffers[b.id] = b;
  for (auto& q : reader.read_all<Queue>()) l.queues[q.id] = q;
  for (auto& c : reader.read_all<Context>()) l.contexts.insert(c.id);
  for (auto& s : reader.read_all<Sampler>()) l.samplers.insert(s.id);
  // Every blob a range names is in the trace.
  for (const auto& r : l.ranges) {
    for (const auto& s : r.initial_state) CHECK(reader.has_blob(s.blob));
    for (const auto& s : r.final_state) CHECK(reader.has_blob(s.blob));
    for (const auto id : r.objects) {
      INFO("object ", id, " of range ", r.name);
      CHECK((l.kernels.contains(id) || l.programs.contains(id) || l.buffers.contains(id) ||
             l.queues.contains(id) || l.contexts.contains(id) || l.samplers.contains(id)));
    }
  }
  return l;
}

std::vector<std::string> kernel_names(const Loaded& l, const Range& r) {
  std::vector<std::string> names;
  for (const auto& c : r.commands) {
    if (const auto* k = std::get_if<KernelLaunch>(&c.body))
      names.push_back(l.kernels.at(k->kernel).name);
  }
  return names;
}

const Range& range_named(const Loaded& l, const std::string& name) {
  const auto it = std::find_if(l.ranges.begin(), l.ranges.end(),
                               [&](const Range& r) { return r.name == name; });
  REQUIRE(it != l.ranges.end());
  return *it;
}

}  // namespace

TEST_CASE("the reference example: range1 and range2 captured, range3 inside range2 ignored") {
  TempDir dir;
  const auto rec = record_unchanged("test.py", dir.path());
  CAPTURE(rec.err);
  CHECK(rec.err.find("range 'range3' opened inside range 'range2' is ignored") !=
        std::string::npos);
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() == 3);
  CHECK(l.ranges[0].name == "range1");
  CHECK(l.ranges[0].status == RangeStatus::Complete);
  CHECK(kernel_names(l, l.ranges[0]) == std::vector<std::string>{"axpbyz", "multiply"});
  CHECK(l.ranges[1].name == "range2");
  CHECK(l.ranges[1].status == RangeStatus::Complete);
  CHECK(kernel_names(l, l.ranges[1]) ==
        std::vector<std::string>{"divide", "fabs_kernel", "axpbyz"});
  CHECK(l.ranges[2].name == "range3");
  CHECK(l.ranges[2].status == RangeStatus::Ignored);
  CHECK(l.ranges[2].status_reason == "opened inside range 'range2'");
  CHECK(l.ranges[2].commands.empty());
  for (const auto& r : {l.ranges[0], l.ranges[1]}) {
    CHECK_FALSE(r.initial_state.empty());
    CHECK(r.final_state.size() == r.initial_state.size());
    // Device durations of the original run, one per kernel.
    CHECK(r.timings.size() == r.commands.size());
    for (const auto& t : r.timings) CHECK(t.end_ns >= t.start_ns);
    for (const auto& c : r.commands) {
      const auto& launch = std::get<KernelLaunch>(c.body);
      const Program& p = l.programs.at(l.kernels.at(launch.kernel).program);
      CHECK_FALSE(p.sources.empty());  // the program cache is off: sources are there
      // Built from source: no binaries asked of the driver (--program-binaries).
      CHECK(p.built_binaries.empty());
      CHECK_FALSE(p.devices.empty());
    }
  }
  // The program asked for no profiling; the recorder's own is not shown as its.
  for (const auto& [id, q] : l.queues) CHECK_FALSE(q.profiling);
}

TEST_CASE("a range run in a loop with in-place updates is captured once, at its first execution") {
  TempDir dir;
  const auto rec = record_unchanged("loop_inplace.py", dir.path());
  CAPTURE(rec.err);
  TraceReader reader(dir / "trace.fb");
  const auto ranges = reader.read_all<Range>();
  REQUIRE(ranges.size() == 1);
  const Range& step = ranges[0];
  CHECK(step.name == "step");
  CHECK(step.commands.size() == 2);
  // x is read and written: its initial state is 0..1023, its final 2x+0.5.
  bool found = false;
  for (const auto& init : step.initial_state) {
    auto bytes = reader.read_blob(init.blob);
    if (bytes.size() != 1024 * sizeof(float)) continue;
    std::vector<float> x(1024);
    std::memcpy(x.data(), bytes.data(), bytes.size());
    if (x[0] != 0.0f || x[1023] != 1023.0f) continue;
    found = true;
    const auto fin = std::find_if(step.final_state.begin(), step.final_state.end(),
                                  [&](const BufferState& s) { return s.buffer == init.buffer; });
    REQUIRE(fin != step.final_state.end());
    auto out = reader.read_blob(fin->blob);
    std::memcpy(x.data(), out.data(), out.size());
    CHECK(x[0] == 0.5f);
    CHECK(x[1023] == 2046.5f);
  }
  CHECK(found);
}

TEST_CASE("pyopencl reduction and scan kernels, and __local arguments, are captured") {
  TempDir dir;
  const auto rec = record_unchanged("reduction_scan.py", dir.path());
  CAPTURE(rec.err);
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() == 3);
  CHECK(kernel_names(l, range_named(l, "reduce")) ==
        std::vector<std::string>{"reduce_kernel_stage1", "reduce_kernel_stage2"});
  CHECK(kernel_names(l, range_named(l, "scan")).size() == 3);
  for (const auto& r : l.ranges) CHECK(r.status == RangeStatus::Complete);
  const auto& launch = std::get<KernelLaunch>(range_named(l, "local_arg").commands.at(0).body);
  REQUIRE(launch.args.size() == 3);
  CHECK(launch.args[2].kind == ArgKind::Local);
  CHECK(launch.args[2].local_size == 64 * 4);
  CHECK(launch.local_size == std::vector<std::uint64_t>{64});
}

TEST_CASE("two queues with an event dependency are recorded with the dependency") {
  TempDir dir;
  const auto rec = record_unchanged("two_queues.py", dir.path());
  CAPTURE(rec.err);
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() == 1);
  const auto& cmds = l.ranges[0].commands;
  REQUIRE(cmds.size() == 2);
  CHECK(cmds[0].queue != cmds[1].queue);
  CHECK(cmds[0].event != 0);
  CHECK(cmds[1].wait_events == std::vector<CaptureId>{cmds[0].event});
  CHECK(kernel_names(l, l.ranges[0]) == std::vector<std::string>{"scale", "add"});
  // The scalar argument is kept as its bytes.
  const auto& scale = std::get<KernelLaunch>(cmds[0].body);
  REQUIRE(scale.args.size() == 2);
  CHECK(scale.args[0].kind == ArgKind::Buffer);
  CHECK(scale.args[1].kind == ArgKind::Bytes);
  float s = 0;
  REQUIRE(scale.args[1].bytes.size() == sizeof s);
  std::memcpy(&s, scale.args[1].bytes.data(), sizeof s);
  CHECK(s == 3.0f);
}

TEST_CASE("every kind of command in one range is recorded, in order, with its data") {
  TempDir dir;
  record_unchanged("command_kinds.py", dir.path());
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() == 1);
  const Range& r = l.ranges[0];
  CHECK(r.status == RangeStatus::Complete);
  // The command kinds in enqueue order (host waits stand for blocking calls).
  std::vector<std::size_t> kinds;
  for (const auto& c : r.commands)
    if (!std::holds_alternative<HostWait>(c.body)) kinds.push_back(c.body.index());
  const std::vector<std::size_t> expected = {
      CommandBody(BufferUnmap{}).index(), CommandBody(BufferCopy{}).index(),
      CommandBody(BufferWrite{}).index(), CommandBody(BufferFill{}).index(),
      CommandBody(Marker{}).index(),      CommandBody(KernelLaunch{}).index(),
      CommandBody(Barrier{}).index(),     CommandBody(BufferCopy{}).index(),
      CommandBody(BufferWrite{}).index(), CommandBody(BufferCopy{}).index(),
      CommandBody(BufferMap{}).index(),   CommandBody(BufferUnmap{}).index(),
      CommandBody(Marker{}).index(),      CommandBody(KernelLaunch{}).index(),
      CommandBody(BufferRead{}).index()};
  CHECK(kinds == expected);
  TraceReader reader(dir / "trace.fb");
  const auto body = [&](std::size_t nth, auto type) {
    using T = decltype(type);
    std::size_t seen = 0;
    for (const auto& c : r.commands) {
      if (const auto* b = std::get_if<T>(&c.body); b && seen++ == nth) return *b;
    }
    FAIL("command missing");
    return T{};
  };
  // The host write carries the program's bytes: linspace(0, 1, n).
  const auto write = body(0, BufferWrite{});
  CHECK_FALSE(write.rect.has_value());
  const auto written = reader.read_blob(write.data);
  REQUIRE(written.size() == 4 * 65536);
  float last = 0;
  std::memcpy(&last, written.data() + written.size() - 4, 4);
  CHECK(last == 1.0f);
  // The rectangular write: a 16 x 16 block at (100, 100) of 256-float rows.
  const auto rect_write = body(1, BufferWrite{});
  REQUIRE(rect_write.rect.has_value());
  CHECK(rect_write.rect->buffer_origin == std::vector<std::uint64_t>{400, 100, 0});
  CHECK(rect_write.rect->region == std::vector<std::uint64_t>{64, 16, 1});
  CHECK(rect_write.rect->buffer_row_pitch == 1024);
  CHECK(reader.read_blob(rect_write.data).size() == 16 * 16 * 4);
  CHECK(body(1, BufferCopy{}).rect.has_value());
  const auto copy = body(2, BufferCopy{});
  CHECK_FALSE(copy.rect.has_value());
  CHECK(copy.src_offset == 8192);
  CHECK(copy.size == 4096);
  CHECK(body(0, BufferFill{}).pattern.size() == 4);
  // Mapped before the range: the unmap says so, and carries the bytes the
  // host wrote inside it: 0, -1, -2, ...
  const auto early = body(0, BufferUnmap{});
  CHECK(early.map_seq == kMappedBeforeRange);
  const auto early_bytes = reader.read_blob(early.data);
  REQUIRE(early_bytes.size() == 4096);
  float minus_two = 0;
  std::memcpy(&minus_two, early_bytes.data() + 8, 4);
  CHECK(minus_two == -2.0f);
  // Mapped in the range: the unmap names its map and carries 0, 1, 2, ...
  const auto unmap = body(1, BufferUnmap{});
  const auto unmapped = reader.read_blob(unmap.data);
  REQUIRE(unmapped.size() == 4096);
  float third = 0;
  std::memcpy(&third, unmapped.data() + 8, 4);
  CHECK(third == 2.0f);
  const auto map_it = std::find_if(r.commands.begin(), r.commands.end(), [](const Command& c) {
    return std::holds_alternative<BufferMap>(c.body);
  });
  CHECK(unmap.map_seq == map_it->seq);
  // The sub-buffer argument: the second half of its parent.
  const auto fma = body(0, KernelLaunch{});
  REQUIRE(fma.args.size() == 5);
  const Buffer& half = l.buffers.at(fma.args[0].object);
  CHECK(half.parent != 0);
  CHECK(half.origin == 4 * 65536);
  CHECK(fma.args[3].kind == ArgKind::Local);
  CHECK(fma.args[3].local_size == 256);
  // The out-of-order queue's kernel waits for the marker before it.
  const auto shift_it = std::find_if(r.commands.rbegin(), r.commands.rend(), [](const Command& c) {
    return std::holds_alternative<KernelLaunch>(c.body);
  });
  CHECK(l.queues.at(shift_it->queue).out_of_order);
  const auto marker_it = std::next(shift_it);
  REQUIRE(std::holds_alternative<Marker>(marker_it->body));
  CHECK(shift_it->wait_events == std::vector<CaptureId>{marker_it->event});
}

TEST_CASE("a C program using CLBlast is recorded inside its range") {
  TempDir dir;
  const auto plain = run_command({example_binary("example_clblast_gemm")}, dir.path());
  REQUIRE(plain.exit_code == 0);
  const auto rec = record({}, {example_binary("example_clblast_gemm")}, dir.path());
  CAPTURE(rec.err);
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.out == plain.out);
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() == 1);
  CHECK(l.ranges[0].name == "gemm");
  CHECK(l.ranges[0].status == RangeStatus::Complete);
  const auto names = kernel_names(l, l.ranges[0]);
  REQUIRE_FALSE(names.empty());
  CHECK(std::any_of(names.begin(), names.end(), [](const std::string& n) {
    return n.find("gemm") != std::string::npos || n.find("Xgemm") != std::string::npos;
  }));
}

TEST_CASE("a program killed inside its second range keeps its first range") {
  TempDir dir;
  const auto rec = record({}, {"python3", example("killed.py")}, dir.path());
  CAPTURE(rec.err);
  CHECK(rec.exit_code == 128 + 9);
  CHECK(rec.err.find("killed by signal 9") != std::string::npos);
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() >= 1);
  CHECK(l.ranges[0].name == "first");
  CHECK(l.ranges[0].status == RangeStatus::Complete);
  CHECK(kernel_names(l, l.ranges[0]) == std::vector<std::string>{"axpb"});
  CHECK_FALSE(std::filesystem::exists(dir / "trace.fb.partial"));
}

TEST_CASE("an NVTX-annotated C program is recorded with push/pop and start/end ranges") {
  TempDir dir;
  const auto plain = run_command({example_binary("example_nvtx_vector_add")}, dir.path());
  REQUIRE(plain.exit_code == 0);
  const auto rec = record({}, {example_binary("example_nvtx_vector_add")}, dir.path());
  CAPTURE(rec.err);
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.out == plain.out);
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() == 3);
  CHECK(l.ranges[0].name == "add_and_scale");
  CHECK(kernel_names(l, l.ranges[0]) == std::vector<std::string>{"vadd", "vscale"});
  CHECK(l.ranges[1].name == "scale_again");
  CHECK(kernel_names(l, l.ranges[1]) == std::vector<std::string>{"vscale"});
  CHECK(l.ranges[2].name == "solve");
  CHECK(l.ranges[2].domain == "solver");
  CHECK(kernel_names(l, l.ranges[2]) == std::vector<std::string>{"vadd"});
  CHECK(l.ranges[0].domain != "solver");
  const Program& p = l.programs.begin()->second;
  CHECK(p.build_options == "-cl-std=CL1.2");
}

TEST_CASE("include and exclude filters apply at record time") {
  TempDir dir;
  auto rec = record({"--mstx-include", "range1"}, {"python3", example("test.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  Loaded l = load(dir / "trace.fb");
  // range3 is still marked as ignored (nesting is a property of the program).
  std::vector<std::string> names;
  for (const auto& r : l.ranges) names.push_back(r.name);
  CHECK(names == std::vector<std::string>{"range1", "range3"});
  rec = record({"-f", "--exclude", "range1"}, {"python3", example("test.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  l = load(dir / "trace.fb");
  names.clear();
  for (const auto& r : l.ranges) names.push_back(r.name);
  CHECK(names == std::vector<std::string>{"range2", "range3"});
  rec = record({"-f", "--include", "range*"}, {"python3", example("test.py")}, dir.path());
  l = load(dir / "trace.fb");
  CHECK(l.ranges.size() == 3);
}

TEST_CASE("launcher options: alternatives in --mstx-include=, -q, --compression-level, summary") {
  TempDir dir;
  auto rec = record({"--mstx-include=range1|range2"}, {"python3", example("test.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  Loaded l = load(dir / "trace.fb");
  std::vector<std::string> names;
  for (const auto& r : l.ranges) names.push_back(r.name);
  CHECK(names == std::vector<std::string>{"range1", "range2", "range3"});
  // The summary: every range with its kernels or its reason, then totals.
  CHECK(rec.err.find("msprof-record: 3 range(s) in trace.fb\n") != std::string::npos);
  CHECK(rec.err.find("  range1: complete, 2 kernel(s) [axpbyz, multiply], 2 command(s), ") !=
        std::string::npos);
  CHECK(rec.err.find("  range3: ignored (opened inside range 'range2')\n") != std::string::npos);
  CHECK(rec.err.find("  range2: complete, 3 kernel(s) [divide, fabs_kernel, axpbyz]") !=
        std::string::npos);
  CHECK(rec.err.find("msprof-record: trace size ") != std::string::npos);
  CHECK(rec.err.find(" ms spent capturing in the program\n") != std::string::npos);

  // Quiet: the program's own output only, and the same trace.
  rec = record({"-q", "-f"}, {"python3", example("test.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.err.empty());
  CHECK(load(dir / "trace.fb").ranges.size() == 3);

  // The compression level reaches the writer: the same data, smaller at 19.
  rec = record({"-o", "fast.fb", "--compression-level", "1"},
               {"python3", example("command_kinds.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  rec = record({"-o", "small.fb", "--compression-level", "19"},
               {"python3", example("command_kinds.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  // Compared chunk by chunk where both hold the same bytes: this program's
  // out-of-order queue lets a snapshot differ from one run to the next
  // (14 KiB stored, more or less), about what level 19 saves, so the two
  // files alone compared either way.
  const auto fast = chunk_frames(dir / "fast.fb");
  std::uint64_t fast_bytes = 0, small_bytes = 0;
  for (const auto& [key, size] : chunk_frames(dir / "small.fb")) {
    if (const auto it = fast.find(key); it != fast.end()) {
      small_bytes += size;
      fast_bytes += it->second;
    }
  }
  CHECK(fast_bytes > 500'000);  // most of the trace
  CHECK(small_bytes < fast_bytes);
  rec = record({"-o", "bad.fb", "--compression-level", "20"}, {"true"}, dir.path());
  CHECK(rec.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(dir / "bad.fb"));

  // The compressing threads reach the recorder, which says in the trace how
  // many compressed it; the trace's content does not depend on them.
  CHECK(load(dir / "fast.fb").info.options.compression_threads == 1);
  rec = record({"-o", "two.fb", "--compression-threads", "2"},
               {"python3", example("command_kinds.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  const Loaded two = load(dir / "two.fb");
  CHECK(two.info.options.compression_threads == 2);
  CHECK(two.ranges.size() == load(dir / "fast.fb").ranges.size());
  check_refused("--compression-threads", {"0", "17", "two"}, dir.path());
}

TEST_CASE("a range's end does not wait for its commands: a kernel gated by a user event") {
  TempDir dir;
  record_unchanged("gated_range.py", dir.path());
  const Loaded l = load(dir / "trace.fb");
  const Range& r = range_named(l, "gated");
  CHECK(r.status == RangeStatus::Complete);
  CHECK(kernel_names(l, r) == std::vector<std::string>{"twice"});
  // Timings and final state come from after the gate opened.
  REQUIRE(r.timings.size() == 1);
  CHECK(r.timings[0].end_ns >= r.timings[0].start_ns);
  REQUIRE(r.initial_state.size() == 1);
  REQUIRE(r.final_state.size() == 1);
  TraceReader reader(dir / "trace.fb");
  const auto before = reader.read_blob(r.initial_state[0].blob);
  const auto after = reader.read_blob(r.final_state[0].blob);
  REQUIRE(before.size() == after.size());
  std::size_t doubled = 0;
  for (std::size_t i = 0; i + 4 <= before.size(); i += 4) {
    float a = 0, b = 0;
    std::memcpy(&a, before.data() + i, 4);
    std::memcpy(&b, after.data() + i, 4);
    doubled += b == 2 * a;
  }
  CHECK(doubled == before.size() / 4);
}

TEST_CASE("--kill on ends the program once every included range is captured") {
  TempDir dir;
  const auto rec =
      record({"--include", "range1", "--kill", "on"}, {"python3", example("test.py")}, dir.path());
  CAPTURE(rec.err);
  CHECK(rec.exit_code == 0);
  CHECK(rec.err.find("--kill on") != std::string::npos);
  CHECK(rec.out.find("f [") == std::string::npos);  // ended before its last print
  const Loaded l = load(dir / "trace.fb");
  REQUIRE(l.ranges.size() == 1);
  CHECK(l.ranges[0].name == "range1");
  CHECK(l.ranges[0].status == RangeStatus::Complete);
}

TEST_CASE("--final-state off records no final state") {
  TempDir dir;
  const auto rec = record({"--final-state", "off"}, {"python3", example("test.py")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  const Loaded l = load(dir / "trace.fb");
  CHECK(range_named(l, "range1").final_state.empty());
  CHECK_FALSE(range_named(l, "range1").initial_state.empty());
}

TEST_CASE("more than 50 kernels in a range: a warning, and all are kept") {
  TempDir dir;
  const auto rec = record_unchanged("many_kernels.py", dir.path());
  CHECK(rec.err.find("holds 60 kernels, more than the 50") != std::string::npos);
  const Loaded l = load(dir / "trace.fb");
  CHECK(kernel_names(l, range_named(l, "many")).size() == 60);
}

TEST_CASE("a range open at exit is truncated") {
  TempDir dir;
  const auto rec = record_unchanged("open_at_exit.py", dir.path());
  const Loaded l = load(dir / "trace.fb");
  CHECK(range_named(l, "done").status == RangeStatus::Complete);
  CHECK(range_named(l, "never_closed").status == RangeStatus::Truncated);
  CHECK(rec.err.find("still open at exit") != std::string::npos);
}

TEST_CASE("an API the replayer cannot replay marks the range, and the program goes on") {
  TempDir dir;
  const auto plain = run_command({MSPROF_NATIVE_KERNEL_EXE}, dir.path());
  const auto rec = record({}, {MSPROF_NATIVE_KERNEL_EXE}, dir.path());
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.out == plain.out);
  if (plain.out.find("unsupported") != std::string::npos) return;
  CHECK(plain.out == "values[15] = 30.0\n");
  const Loaded l = load(dir / "trace.fb");
  const Range& r = range_named(l, "native");
  CHECK(r.status == RangeStatus::NotReplayable);
  CHECK(r.status_reason == "clEnqueueNativeKernel");
}

TEST_CASE("images are recorded with their format, their commands with packed data") {
  TempDir dir;
  const auto plain = run_command({example_binary("example_image_range")}, dir.path());
  const auto rec = record({}, {example_binary("example_image_range")}, dir.path());
  REQUIRE(rec.exit_code == 0);
  CHECK(rec.out == plain.out);
  if (plain.out.find("unsupported") != std::string::npos) return;
  const Loaded l = load(dir / "trace.fb");
  const Range& r = range_named(l, "with_image");
  CHECK(r.status == RangeStatus::Complete);
  // The first command writes the 64x48 RGBA float source from a host array
  // one pixel wider per row: stored packed, 16 bytes a pixel.
  const auto& write = std::get<BufferWrite>(r.commands.at(0).body);
  const Buffer* image = l.buffer(write.buffer);
  REQUIRE(image != nullptr);
  REQUIRE(image->image);
  CHECK(image->kind == MemoryKind::Image);
  CHECK(image->image->type == ImageType::Image2D);
  CHECK(image->image->width == 64);
  CHECK(image->image->height == 48);
  CHECK(image->image->pixel_size == 16);
  CHECK(image->image->channels == 4);
  CHECK(image->image->element_type == "float32");
  CHECK(image->size == 64 * 48 * 16);
  REQUIRE(write.rect);
  CHECK(write.rect->region == std::vector<std::uint64_t>{64 * 16, 48, 1});
  CHECK(write.rect->host_row_pitch == 64 * 16);
  TraceReader reader(dir / "trace.fb");
  const auto data = reader.read_blob(write.data);
  REQUIRE(data.size() == 64 * 48 * 16);
  // Pixel (x, y) channel c is ((x * 7 + y * 13 + c * 5) % 31) / 8.
  float last = 0;
  std::memcpy(&last, data.data() + data.size() - 4, 4);
  CHECK(last == static_cast<float>((63 * 7 + 47 * 13 + 3 * 5) % 31) / 8.0f);
  // The image argument is the image, the sampler a sampler.
  const auto& blur = std::get<KernelLaunch>(r.commands.at(1).body);
  CHECK(blur.args.at(0).kind == ArgKind::Buffer);
  CHECK(blur.args.at(0).object == write.buffer);
  CHECK(blur.args.at(2).kind == ArgKind::Sampler);
  // The kinds range holds a 1D array, a 2D array and a 3D image.
  std::set<ImageType> types;
  for (const auto& s : range_named(l, "image_kinds").initial_state) {
    if (const Buffer* b = l.buffer(s.buffer); b && b->image) types.insert(b->image->type);
  }
  CHECK(types == std::set<ImageType>{ImageType::Image1D, ImageType::Image1DArray,
                                     ImageType::Image2DArray, ImageType::Image3D});
  // The 1D image over a buffer has that buffer as its parent; its state is
  // the buffer's.
  const auto over = std::find_if(l.buffers.begin(), l.buffers.end(), [](const auto& b) {
    return b.second.image && b.second.image->type == ImageType::Image1DBuffer;
  });
  REQUIRE(over != l.buffers.end());
  REQUIRE(l.buffer(over->second.parent) != nullptr);
  CHECK(l.buffer(over->second.parent)->kind == MemoryKind::Buffer);
}

TEST_CASE("bad input: one line, non-zero exit, nothing written") {
  TempDir dir;
  auto r = record({}, {"/no/such/program"}, dir.path());
  CHECK(r.exit_code == 127);
  CHECK(r.err ==
        "msprof-record: error: cannot run '/no/such/program': No such file or directory\n");
  CHECK_FALSE(std::filesystem::exists(dir / "trace.fb"));

  r = record({"-o", "/no/such/dir/t.fb"}, {"true"}, dir.path());
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("cannot write /no/such/dir/t.fb.partial") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);

  { std::ofstream(dir / "trace.fb") << "precious"; }
  r = record({}, {"true"}, dir.path());
  CHECK(r.exit_code != 0);
  CHECK(r.err ==
        "msprof-record: error: trace.fb already exists; pass -f to overwrite it or -o to choose "
        "another file\n");
  std::ifstream in(dir / "trace.fb");
  std::string kept;
  in >> kept;
  CHECK(kept == "precious");

  r = record({"-o", "x.fb", "--include", "a||b"}, {"true"}, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("empty alternative") != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  r = record({"-o", "x.fb", "--include", "range[1"}, {"true"}, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unclosed '['") != std::string::npos);
  r = record({"-o", "x.fb", "--kill", "on"}, {"true"}, dir.path());
  CHECK(r.exit_code == 2);
  std::filesystem::create_directory(dir / "adir");
  r = record({"-o", "adir"}, {"true"}, dir.path());
  CHECK(r.exit_code == 1);
  CHECK(r.err == "msprof-record: error: adir is a directory; pass -o FILE\n");
  r = record({"-o", "x.fb", "--memory-bound", "1M"}, {"true"}, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err == "msprof-record: error: --memory-bound 1M is too small; use at least 64M\n");
  r = record({"-o", "x.fb", "--memory-bound", "99999999999G"}, {"true"}, dir.path());
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is too large") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "x.fb"));
}

TEST_CASE("the program's exit status is returned") {
  TempDir dir;
  const auto r = record({"--memory-bound", "512M"}, {"sh", "-c", "exit 7"}, dir.path());
  CHECK(r.exit_code == 7);
  // No OpenCL, no mstx: a complete trace that says what was run, and no more.
  TraceReader reader(dir / "trace.fb");
  CHECK_FALSE(reader.recovered());
  CHECK(reader.read_all<Range>().empty());
  const TraceInfo info = reader.info();
  CHECK(info.api == "none");
  CHECK(info.command_line == std::vector<std::string>{"sh", "-c", "exit 7"});
  CHECK(info.pid > 0);
  CHECK(info.options.memory_bound == 512ull << 20);
  CHECK(info.devices.empty());
}

TEST_CASE("the options the trace records default to those documented") {
  TempDir dir;
  const auto r = record({}, {"true"}, dir.path());
  CHECK(r.exit_code == 0);
  const TraceInfo info = TraceReader(dir / "trace.fb").info();
  CHECK(info.options.memory_bound == 128ull << 20);
  CHECK(info.options.compression_level == 1);
  CHECK(info.options.compression_threads == 1);
  REQUIRE(info.options.min_saving_percent.has_value());
  CHECK(*info.options.min_saving_percent == 25);
  CHECK(info.options.final_state);
}

TEST_CASE("--min-saving: random floats stored raw by default, compressed at 0, zeros always") {
  TempDir dir;
  // 4 MiB of random floats and 4 MiB of zeros, each snapshotted at the
  // range's start and end (the kernel changes both).
  const std::string program =
      "import mstx, numpy as np, pyopencl as cl, pyopencl.array as cla\n"
      "ctx = cl.create_some_context(interactive=False)\n"
      "q = cl.CommandQueue(ctx)\n"
      "x = cla.to_device(q, np.random.default_rng(1).random(1 << 20, dtype=np.float32))\n"
      "z = cla.zeros(q, 1 << 20, np.float32)\n"
      "r = mstx.range_start('scale', None)\n"
      "x *= 0.5\n"
      "z += 1\n"
      "mstx.range_end(r)\n"
      "q.finish()\n"
      "print(float(x.get()[:4].sum()))\n";
  auto r = record({"-o", "default.fb"}, {"python3", "-c", program}, dir.path());
  REQUIRE(r.exit_code == 0);
  r = record({"-o", "all.fb", "--min-saving", "0"}, {"python3", "-c", program}, dir.path());
  REQUIRE(r.exit_code == 0);
  const auto size = [&](const char* name) {
    return static_cast<double>(std::filesystem::file_size(dir / name));
  };
  // 8 MiB of random floats: stored raw they are most of the default trace;
  // compressed they shrink by 15% or more. The zeros shrink to almost nothing
  // in both.
  CHECK(size("default.fb") > 8.0 * (1 << 20));
  CHECK(size("default.fb") < 8.5 * (1 << 20));
  CHECK(size("all.fb") < 0.85 * 8.0 * (1 << 20));
  const auto all = TraceReader(dir / "all.fb").info();
  REQUIRE(all.options.min_saving_percent.has_value());
  CHECK(*all.options.min_saving_percent == 0);
  // The snapshots hold the same bytes, stored either way.
  const TraceReader raw_reader(dir / "default.fb"), coded_reader(dir / "all.fb");
  const auto raw_ranges = raw_reader.read_all<Range>();
  const auto coded_ranges = coded_reader.read_all<Range>();
  REQUIRE(raw_ranges.size() == 1);
  REQUIRE(coded_ranges.size() == 1);
  for (const auto member : {&Range::initial_state, &Range::final_state}) {
    const auto& raw_states = raw_ranges[0].*member;
    const auto& coded_states = coded_ranges[0].*member;
    REQUIRE(raw_states.size() == 2);
    REQUIRE(coded_states.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
      CHECK(raw_states[i].blob == coded_states[i].blob);
      CHECK(raw_reader.read_blob(raw_states[i].blob) ==
            coded_reader.read_blob(coded_states[i].blob));
    }
  }
  check_refused("--min-saving", {"91", "-1", "most"}, dir.path());
}

TEST_CASE("ranges without device work: the trace says so, and a later OpenCL call updates it") {
  TempDir dir;
  const std::string annotate_only =
      "import mstx\n"
      "r = mstx.range_start('host_only', None)\n"
      "mstx.range_end(r)\n";
  auto r = record({}, {"python3", "-c", annotate_only}, dir.path());
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("warning: the program made no OpenCL call, so the trace holds no device work "
                   "to replay; its ranges are kept") != std::string::npos);
  {
    TraceReader reader(dir / "trace.fb");
    CHECK(reader.info().api == "none");
    // The description comes before the range that relies on it.
    CHECK(std::holds_alternative<TraceInfo>(reader.read_record(reader.records().front())));
    const auto ranges = reader.read_all<Range>();
    REQUIRE(ranges.size() == 1);
    CHECK(ranges[0].name == "host_only");
    CHECK(ranges[0].status == RangeStatus::Complete);
    CHECK(ranges[0].commands.empty());
  }
  r = record(
      {"-f"},
      {"python3", "-c",
       annotate_only + "import pyopencl as cl, numpy as np\n"
                       "ctx = cl.create_some_context(interactive=False)\n"
                       "q = cl.CommandQueue(ctx)\n"
                       "r = mstx.range_start('device', None)\n"
                       "cl.enqueue_fill_buffer(q, cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64), "
                       "np.float32(1), 0, 64)\n"
                       "q.finish()\n"
                       "mstx.range_end(r)\n"},
      dir.path());
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("no OpenCL call") == std::string::npos);
  TraceReader reader(dir / "trace.fb");
  CHECK(reader.info().api == "opencl");
  CHECK(reader.info().devices.size() == 1);
  CHECK(reader.read_all<Range>().size() == 2);
}

TEST_CASE("msprof-record returns when the program exits, not when a process it started does") {
  // The background sleep inherits the recorder's status pipe and holds it
  // open after the program has exited.
  TempDir dir;
  const auto r =
      record({}, {"sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $! > bg.pid; exit 3"}, dir.path());
  CHECK(r.exit_code == 3);
  std::ifstream pid_file(dir / "bg.pid");
  pid_t background = 0;
  pid_file >> background;
  REQUIRE(background > 0);
  CHECK(::kill(background, 0) == 0);  // still running: nobody waited for it
  ::kill(background, SIGKILL);
  TraceReader reader(dir / "trace.fb");
  CHECK_FALSE(reader.recovered());
}

TEST_CASE("the summary and warnings print names escaped: no ANSI escape, no broken line") {
  TempDir dir;
  const std::string program =
      "import mstx\n"
      "r = mstx.range_start('\\x1b[31mred\\x1b[0m', None)\n"
      "mstx.range_end(r)\n"
      "r = mstx.range_start('two\\nlines', None)\n"
      "mstx.range_end(r)\n"
      "o = mstx.range_start('outer', None)\n"
      "n = mstx.range_start('\\x1b[1mnested', None)\n"
      "mstx.range_end(n)\n"
      "mstx.range_end(o)\n";
  const auto r = record({}, {"python3", "-c", program}, dir.path());
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.err.find('\x1b') == std::string::npos);
  const std::string all = r.out + r.err;
  CHECK(all.find("  \\x1b[31mred\\x1b[0m: complete") != std::string::npos);
  CHECK(all.find("  two\\nlines: complete") != std::string::npos);
  CHECK(all.find("two\nlines") == std::string::npos);
  // The recorder's warnings quote names escaped too.
  CHECK(r.err.find("warning: range '\\x1b[1mnested'") != std::string::npos);
}

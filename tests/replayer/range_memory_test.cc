#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "format/trace_reader.h"
#include "replayer/core/plan/trace_catalog.h"
#include "replayer/core/replay_error.h"
#include "replayer/opencl/memory_copy.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/opencl_device_list.h"
#include "replayer/opencl/range_memory.h"
#include "tests/replayer/synthetic_trace.h"
#include "tests/support/temp_dir.h"

using namespace msprof;
using namespace msprof::replay;
using namespace msprof::replay::opencl;

namespace {

constexpr std::uint64_t kSize = 4096;
constexpr trace::CaptureId kRoot = 1, kSub = 2, kSvm = 3, kImage = 4, kOther = 5, kSvm2 = 6;

trace::Buffer buffer(trace::CaptureId id, trace::CaptureId parent = 0, std::uint64_t origin = 0,
                     std::uint64_t size = kSize) {
  trace::Buffer b;
  b.id = id;
  b.flags = CL_MEM_READ_WRITE;
  b.size = size;
  b.parent = parent;
  b.origin = origin;
  return b;
}

trace::Buffer svm(trace::CaptureId id, std::uint64_t recorded_address) {
  trace::Buffer b = buffer(id);
  b.kind = trace::MemoryKind::Pointer;
  b.device_address = recorded_address;
  return b;
}

// 32x32 single-channel float32: 4096 bytes packed.
trace::Buffer image(trace::CaptureId id) {
  trace::Buffer b = buffer(id);
  b.kind = trace::MemoryKind::Image;
  trace::ImageDesc d;
  d.type = trace::ImageType::Image2D;
  d.width = 32;
  d.height = 32;
  d.channel_order = CL_R;
  d.channel_type = CL_FLOAT;
  d.pixel_size = 4;
  d.element_type = "float32";
  b.image = d;
  return b;
}

trace::Rect whole_image() {
  trace::Rect r;
  r.buffer_origin = {0, 0, 0};
  r.host_origin = {0, 0, 0};
  r.region = {32 * 4, 32, 1};
  r.host_row_pitch = 32 * 4;
  return r;
}

std::vector<std::byte> pattern(std::uint8_t seed, std::uint64_t size = kSize) {
  std::vector<std::byte> out(size);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::byte((i * 7 + seed) & 0xff);
  return out;
}

bool has_coarse_svm(cl_device_id device) {
  cl_device_svm_capabilities caps = 0;
  return clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, nullptr) ==
             CL_SUCCESS &&
         (caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0;
}

// One of every kind on the device the replay would choose for the
// synthetic trace, in one table.
struct Objects {
  test::TempDir dir;
  std::filesystem::path path = dir / "t.fb";
  bool written = (test::write_synthetic_trace(path), true);
  trace::TraceReader reader{path};
  TraceCatalog catalog{reader};
  std::vector<OpenClDeviceEntry> devices = list_opencl_devices();
  std::string note;
  OpenClDevice device{choose_device(devices, "", catalog.info(), note)};
  bool with_svm = has_coarse_svm(device.device());
  std::vector<trace::Buffer> records;
  RangePlan plan;
  HostLineFlush flush;
  std::optional<RangeMemory> memory;
  std::vector<std::string> notes;

  explicit Objects(const RestorePlan& restores = {}) {
    records = {buffer(kRoot), buffer(kSub, kRoot, 1024, 1024), image(kImage), buffer(kOther)};
    if (with_svm) {
      records.push_back(svm(kSvm, 0x7f0000000000));
      records.push_back(svm(kSvm2, 0x7f0000100000));
    }
    for (const auto& r : records) plan.buffers.push_back(&r);
    memory.emplace(device, false, flush, reader, restores);
    memory->create(plan, notes);
  }

  Submission at() const { return {device.control_queue(), {}, 1}; }
  void finish() const { REQUIRE(clFinish(device.control_queue()) == CL_SUCCESS); }

  void write(trace::CaptureId id, const std::vector<std::byte>& bytes) {
    trace::BufferWrite w{id, 0, bytes.size(), {}, std::nullopt};
    if (memory->at(id).image() != nullptr) w.rect = whole_image();
    ClEvent(memory->at(id).enqueue_write(at(), w, bytes));
    finish();
    // As a pass does: what verification read before is stale.
    memory->forget_reads();
  }
  std::vector<std::byte> read(trace::CaptureId id) {
    std::vector<std::byte> out(memory->at(id).size());
    memory->read(id, 0, out);
    return out;
  }
};

}  // namespace

TEST_CASE("every kind of memory object is made zeros, takes a write and gives it back") {
  Objects o;
  for (const auto& r : o.records) {
    CAPTURE(r.id);
    CHECK(o.read(r.id) == std::vector<std::byte>(r.size));
  }
  for (const auto id : {kRoot, kImage, kOther}) o.write(id, pattern(static_cast<std::uint8_t>(id)));
  // The sub-buffer sees its parent's bytes at its origin.
  const auto root = pattern(kRoot);
  CHECK(o.read(kSub) == std::vector<std::byte>(root.begin() + 1024, root.begin() + 2048));
  CHECK(o.read(kImage) == pattern(kImage));
  CHECK(o.memory->pointer_allocations() == (o.with_svm ? 2u : 0u));
  if (o.with_svm) {
    o.write(kSvm, pattern(kSvm));
    CHECK(o.read(kSvm) == pattern(kSvm));
    CHECK_THROWS_AS(o.memory->mem(kSvm), PlanError);
  }
  CHECK_THROWS_AS(o.memory->pointer(kRoot), PlanError);
  CHECK_THROWS_AS(o.memory->at(99), PlanError);
  std::vector<std::byte> past(16);
  CHECK_THROWS_AS(o.memory->read(kRoot, kSize - 8, past), PlanError);
}

TEST_CASE("a pointer stored in SVM is moved to the replayed allocation and back") {
  Objects o;
  if (!o.with_svm) return;
  std::vector<std::byte> bytes(kSize);
  const std::uint64_t recorded = 0x7f0000100000 + 64;  // into kSvm2
  std::memcpy(bytes.data() + 8, &recorded, sizeof recorded);
  o.memory->at(kSvm).translate_in(bytes, 0);
  std::uint64_t moved = 0;
  std::memcpy(&moved, bytes.data() + 8, sizeof moved);
  CHECK(moved == reinterpret_cast<std::uintptr_t>(o.memory->pointer(kSvm2)) + 64);
  CHECK(o.memory->pointers_moved() == 1);
  o.write(kSvm, bytes);
  std::uint64_t read_back = 0;
  const auto out = o.read(kSvm);
  std::memcpy(&read_back, out.data() + 8, sizeof read_back);
  CHECK(read_back == recorded);
}

TEST_CASE("a copy picks the call for the pair of kinds, and refuses a buffer with SVM") {
  Objects o;
  o.write(kRoot, pattern(3));
  trace::BufferCopy to_image{kRoot, kImage, 0, 0, kSize, whole_image()};
  ClEvent(enqueue_copy(o.at(), to_image, o.memory->at(kRoot), o.memory->at(kImage)));
  trace::BufferCopy to_buffer{kImage, kOther, 0, 0, kSize, whole_image()};
  ClEvent(enqueue_copy(o.at(), to_buffer, o.memory->at(kImage), o.memory->at(kOther)));
  o.finish();
  CHECK(o.read(kImage) == pattern(3));
  CHECK(o.read(kOther) == pattern(3));
  trace::BufferCopy no_region{kRoot, kImage, 0, 0, kSize, std::nullopt};
  CHECK_THROWS_AS(enqueue_copy(o.at(), no_region, o.memory->at(kRoot), o.memory->at(kImage)),
                  PlanError);
  if (!o.with_svm) return;
  o.write(kSvm, pattern(5));
  trace::BufferCopy between{kSvm, kSvm2, 0, 0, kSize, std::nullopt};
  ClEvent(enqueue_copy(o.at(), between, o.memory->at(kSvm), o.memory->at(kSvm2)));
  o.finish();
  CHECK(o.read(kSvm2) == pattern(5));
  trace::BufferCopy mixed{kRoot, kSvm, 0, 0, kSize, std::nullopt};
  CHECK_THROWS_AS(enqueue_copy(o.at(), mixed, o.memory->at(kRoot), o.memory->at(kSvm)), PlanError);
}

TEST_CASE("restores put each kind back from its own copy or by zeros, every pass") {
  RestorePlan plan;
  const auto restore = [](trace::CaptureId id, RestoreSource source) {
    BufferRestore r;
    r.state.buffer = id;
    r.state.blob.size = kSize;
    r.source = source;
    return r;
  };
  plan.buffers = {restore(kRoot, RestoreSource::Copy), restore(kImage, RestoreSource::Copy),
                  restore(kOther, RestoreSource::Zeros)};
  Objects probe;
  if (probe.with_svm) {
    plan.buffers.push_back(restore(kSvm, RestoreSource::Copy));
    plan.buffers.push_back(restore(kSvm2, RestoreSource::Zeros));
  }
  Objects o(plan);
  // The state the copies are taken of: what the range starts with.
  std::vector<trace::CaptureId> ids = {kRoot, kImage, kOther};
  if (o.with_svm) ids.insert(ids.end(), {kSvm, kSvm2});
  for (const auto id : ids) o.write(id, pattern(static_cast<std::uint8_t>(id)));
  o.memory->prepare_restores(o.notes);
  CHECK(o.memory->restored_bytes() == kSize * plan.buffers.size());
  CHECK_FALSE(o.memory->restores_changed());
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto id : ids) o.write(id, pattern(200));
    o.memory->restore(o.device.restore_queue(), o.device.restore_workers());
    CHECK(o.read(kRoot) == pattern(kRoot));
    CHECK(o.read(kImage) == pattern(kImage));
    CHECK(o.read(kOther) == std::vector<std::byte>(kSize));
    if (o.with_svm) {
      CHECK(o.read(kSvm) == pattern(kSvm));
      CHECK(o.read(kSvm2) == std::vector<std::byte>(kSize));
    }
  }
}

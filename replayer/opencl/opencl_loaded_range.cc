#include "replayer/opencl/opencl_loaded_range.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <set>

#include "replayer/core/copy_pieces.h"
#include "replayer/core/range_footprint.h"
#include "replayer/core/replay_error.h"
#include "replayer/opencl/cl_error.h"
#include "replayer/opencl/host_memory_buffer.h"
#include "replayer/opencl/kernel_arg_info.h"
#include "replayer/opencl/opencl_device.h"
#include "replayer/opencl/program_builder.h"

namespace msprof::replay::opencl {

namespace {

// Replay allocates and fills every buffer itself and reads them all back to
// verify, so host-pointer and host-access restrictions of the program go.
constexpr cl_mem_flags kStrippedFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                                        CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY |
                                        CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::array<std::size_t, 3> triple(const std::vector<std::uint64_t>& v, std::size_t fill) {
  std::array<std::size_t, 3> out{fill, fill, fill};
  for (std::size_t i = 0; i < std::min<std::size_t>(v.size(), 3); ++i) out[i] = v[i];
  return out;
}

}  // namespace

OpenClLoadedRange::OpenClLoadedRange(OpenClDevice& device, const RangePlan& plan,
                                     const trace::TraceInfo& info, const trace::TraceReader& reader,
                                     const CacheClearRequest& cache, const RestorePlan& restores)
    : device_(device),
      range_(*plan.range),
      cache_(cache),
      evicts_lines_(device.evicts_lines(cache)),
      reader_(reader),
      restores_(restores),
      trace_restorer_(reader, device.restore_workers()) {
  for (const auto* p : plan.programs) trace_programs_.emplace(p->id, p);
  for (const auto* k : plan.kernels) trace_kernels_.emplace(k->id, k);
  create_queues(plan);
  create_programs(plan, info, reader);
  create_buffers(plan);
  upload_initial_state(plan, reader);
  prepare_restores();
  load_host_data(range_, reader);
  if (!svm_.empty() && !addresses_.identity()) {
    // OpenCL cannot place an SVM allocation at a chosen address.
    notes_.push_back(std::to_string(svm_.size()) +
                     " SVM allocation(s) replayed at new addresses; " +
                     std::to_string(translated_words_) +
                     " pointer(s) stored in them moved along, and moved back for verification");
  }
  for (const auto& c : range_.commands) {
    if (std::holds_alternative<trace::KernelLaunch>(c.body)) kernel_seqs_.insert(c.seq);
  }
  if (evicts_lines_) {
    // The program's host data of the range is evicted too, as a sweep would.
    for (const auto& [seq, bytes] : host_data_) line_flush_.add(bytes);
    device_.note_lines_evicted();
  } else if (cache_.enabled()) {
    device_.cache_clearer(cache_.scratch_bytes);
  }
}

ClMem OpenClLoadedRange::create_buffer(cl_mem_flags flags, std::uint64_t size, cl_int& err,
                                       std::span<const std::byte>* host_bytes) {
  if (!evicts_lines_) {
    return ClMem(
        clCreateBuffer(device_.context(), flags, std::max<std::uint64_t>(size, 1), nullptr, &err));
  }
  auto buffer = create_host_memory_buffer(device_.context(), flags, size);
  line_flush_.add(buffer.bytes);
  if (host_bytes != nullptr) *host_bytes = buffer.bytes;
  err = CL_SUCCESS;
  return std::move(buffer.mem);
}

OpenClLoadedRange::~OpenClLoadedRange() {
  // Nothing may still run on buffers about to be released.
  for (auto& [id, q] : queues_) clFinish(q.get());
  clFinish(device_.control_queue());
  pass_events_.clear();
}

void OpenClLoadedRange::create_queues(const RangePlan& plan) {
  for (const auto* q : plan.queues) {
    // Profiling is what replay measures with, whatever the program asked.
    const cl_queue_properties wanted =
        (q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) | CL_QUEUE_PROFILING_ENABLE;
    const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, wanted, 0};
    cl_int err = CL_SUCCESS;
    ClQueue queue(
        clCreateCommandQueueWithProperties(device_.context(), device_.device(), properties, &err));
    if (err == CL_INVALID_QUEUE_PROPERTIES && (wanted & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
      // In order is a stricter schedule than out of order, so still faithful.
      const cl_queue_properties in_order[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
      queue = ClQueue(
          clCreateCommandQueueWithProperties(device_.context(), device_.device(), in_order, &err));
      notes_.push_back("queue " + std::to_string(q->id) +
                       ": out-of-order execution not supported, replayed in order");
    }
    cl_check(err, "clCreateCommandQueueWithProperties");
    queues_.emplace(q->id, std::move(queue));
  }
}

void OpenClLoadedRange::create_programs(const RangePlan& plan, const trace::TraceInfo& info,
                                        const trace::TraceReader& reader) {
  for (const auto* p : plan.programs) {
    BuiltProgram built = build_program(device_.context(), device_.device(), device_.description(),
                                       *p, info, reader, plan.rebuild_programs);
    if (!built.note.empty()) notes_.push_back(built.note);
    origins_.emplace(p->id, built.origin);
    programs_.emplace(p->id, std::move(built.program));
  }
  for (const auto* k : plan.kernels) {
    cl_int err = CL_SUCCESS;
    ClKernel kernel(clCreateKernel(programs_.at(k->program).get(), k->name.c_str(), &err));
    if (err != CL_SUCCESS) {
      throw DeviceError("kernel '" + k->name + "' is not in its rebuilt program (" +
                        cl_error_name(err) + "); the trace's program does not match it");
    }
    kernels_.emplace(k->id, std::move(kernel));
  }
  for (const auto* s : plan.samplers) {
    const cl_sampler_properties properties[] = {
        CL_SAMPLER_NORMALIZED_COORDS,
        static_cast<cl_sampler_properties>(s->normalized_coords ? CL_TRUE : CL_FALSE),
        CL_SAMPLER_ADDRESSING_MODE,
        s->addressing_mode,
        CL_SAMPLER_FILTER_MODE,
        s->filter_mode,
        0};
    cl_int err = CL_SUCCESS;
    ClSampler sampler(clCreateSamplerWithProperties(device_.context(), properties, &err));
    cl_check(err, "clCreateSamplerWithProperties");
    samplers_.emplace(s->id, std::move(sampler));
  }
}

void OpenClLoadedRange::create_svm(const trace::Buffer& b) {
  constexpr cl_svm_mem_flags kSvmFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                                         CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  const cl_svm_mem_flags flags = b.flags & kSvmFlags;
  const auto size = std::max<std::uint64_t>(b.size, 1);
  void* pointer = clSVMAlloc(device_.context(), flags, size, static_cast<cl_uint>(b.alignment));
  if (pointer == nullptr) {
    const bool fine = (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) != 0;
    throw DeviceError("the device gave no " + std::string(fine ? "fine" : "coarse") +
                      "-grained SVM allocation of " + std::to_string(b.size) +
                      " bytes for allocation " + std::to_string(b.id) +
                      "; replay on a device whose clinfo lists that SVM capability");
  }
  ClSvm owned(device_.context(), pointer);
  const cl_uchar zero = 0;
  cl_check(
      clEnqueueSVMMemFill(device_.control_queue(), pointer, &zero, 1, size, 0, nullptr, nullptr),
      "clEnqueueSVMMemFill");
  // Done before anything can fail and free the allocation under it.
  cl_check(clFinish(device_.control_queue()), "clFinish");
  if (evicts_lines_) line_flush_.add({static_cast<const std::byte*>(pointer), b.size});
  if (b.device_address)
    addresses_.add(*b.device_address, b.size, reinterpret_cast<std::uintptr_t>(pointer));
  svm_.emplace(b.id, std::move(owned));
  buffer_sizes_.emplace(b.id, b.size);
}

std::byte* OpenClLoadedRange::svm(trace::CaptureId id) const {
  const auto it = svm_.find(id);
  return it == svm_.end() ? nullptr : static_cast<std::byte*>(it->second.get());
}

void OpenClLoadedRange::translate_in(trace::CaptureId id, std::span<std::byte> bytes,
                                     std::uint64_t offset) {
  if (svm(id) != nullptr) translated_words_ += addresses_.to_replay(bytes, offset);
}

void OpenClLoadedRange::write_memory(cl_command_queue q, trace::CaptureId id, std::uint64_t offset,
                                     std::span<const std::byte> bytes) {
  if (std::byte* base = svm(id)) {
    std::vector<std::byte> moved(bytes.begin(), bytes.end());
    addresses_.to_replay(moved, offset);
    cl_check(clEnqueueSVMMemcpy(q, CL_TRUE, base + offset, moved.data(), moved.size(), 0, nullptr,
                                nullptr),
             "clEnqueueSVMMemcpy");
    return;
  }
  cl_check(clEnqueueWriteBuffer(q, mem(id), CL_TRUE, offset, bytes.size(), bytes.data(), 0, nullptr,
                                nullptr),
           "clEnqueueWriteBuffer");
}

namespace {

cl_mem_object_type cl_image_type(trace::ImageType type) {
  switch (type) {
    case trace::ImageType::Image1D:
      return CL_MEM_OBJECT_IMAGE1D;
    case trace::ImageType::Image1DBuffer:
      return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    case trace::ImageType::Image1DArray:
      return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    case trace::ImageType::Image2D:
      return CL_MEM_OBJECT_IMAGE2D;
    case trace::ImageType::Image2DArray:
      return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    case trace::ImageType::Image3D:
      return CL_MEM_OBJECT_IMAGE3D;
  }
  return CL_MEM_OBJECT_IMAGE2D;
}

// The slice pitch clEnqueueRead/WriteImage takes for packed rows: 0 where
// the image type asks for 0, a 1D array's layer size, else a slice's size.
std::size_t packed_slice_pitch(const trace::ImageDesc& d, std::size_t row_bytes, std::size_t rows) {
  switch (d.type) {
    case trace::ImageType::Image1DArray:
      return row_bytes;
    case trace::ImageType::Image2DArray:
    case trace::ImageType::Image3D:
      return row_bytes * rows;
    default:
      return 0;
  }
}

struct PixelRect {
  std::array<std::size_t, 3> origin{0, 0, 0}, other{0, 0, 0}, region{1, 1, 1};
};

// A rect of an image command (x in bytes) in pixels of `d`.
PixelRect pixels(const trace::ImageDesc& d, const trace::Rect& rect) {
  PixelRect out;
  const auto in_pixels = [&](const std::vector<std::uint64_t>& v, std::size_t fill) {
    auto t = triple(v, fill);
    t[0] /= d.pixel_size;
    return t;
  };
  out.origin = in_pixels(rect.buffer_origin, 0);
  out.other = in_pixels(rect.host_origin, 0);
  out.region = in_pixels(rect.region, 1);
  return out;
}

}  // namespace

ClMem OpenClLoadedRange::create_image(const trace::Buffer& b, cl_int& err) {
  const trace::ImageDesc& d = *b.image;
  const cl_image_format format{d.channel_order, d.channel_type};
  cl_image_desc desc{};
  desc.image_type = cl_image_type(d.type);
  desc.image_width = d.width;
  desc.image_height = d.height;
  desc.image_depth = d.depth;
  desc.image_array_size = d.array_size;
  if (b.parent != 0) {
    desc.buffer = mem(b.parent);
    // Only a 2D image over a buffer takes the buffer's row pitch.
    if (d.type == trace::ImageType::Image2D) desc.image_row_pitch = d.row_pitch;
  }
  return ClMem(
      clCreateImage(device_.context(), b.flags & kAccessFlags, &format, &desc, nullptr, &err));
}

const trace::ImageDesc* OpenClLoadedRange::image(trace::CaptureId id) const {
  const auto it = images_.find(id);
  return it == images_.end() ? nullptr : &it->second;
}

void OpenClLoadedRange::write_image(cl_command_queue q, trace::CaptureId id,
                                    std::span<const std::byte> bytes) {
  const trace::ImageDesc& d = images_.at(id);
  const std::size_t origin[3] = {0, 0, 0};
  const std::size_t region[3] = {d.width, d.rows(), d.slices()};
  cl_check(clEnqueueWriteImage(q, mem(id), CL_TRUE, origin, region, d.row_bytes(),
                               packed_slice_pitch(d, d.row_bytes(), d.rows()), bytes.data(), 0,
                               nullptr, nullptr),
           "clEnqueueWriteImage");
}

void OpenClLoadedRange::read_image(trace::CaptureId id, std::vector<std::byte>& out) {
  const trace::ImageDesc& d = images_.at(id);
  out.resize(d.packed_size());
  const std::size_t origin[3] = {0, 0, 0};
  const std::size_t region[3] = {d.width, d.rows(), d.slices()};
  cl_check(clEnqueueReadImage(device_.control_queue(), mem(id), CL_TRUE, origin, region,
                              d.row_bytes(), packed_slice_pitch(d, d.row_bytes(), d.rows()),
                              out.data(), 0, nullptr, nullptr),
           "clEnqueueReadImage");
}

void OpenClLoadedRange::create_buffers(const RangePlan& plan) {
  // Pointer allocations first: buffers may be made over their memory.
  for (const auto* b : plan.buffers) {
    if (b->is_pointer()) create_svm(*b);
  }
  for (const auto* b : plan.buffers) {
    trace_buffers_.emplace(b->id, b);
    if (b->is_pointer()) continue;
    cl_int err = CL_SUCCESS;
    ClMem mem;
    if (b->is_image()) {
      if (!b->image || b->image->pixel_size == 0 || b->image->packed_size() != b->size) {
        throw PlanError("image " + std::to_string(b->id) +
                        " has no valid description; the trace is damaged");
      }
      mem = create_image(*b, err);
      if (err != CL_SUCCESS) {
        throw DeviceError("the device cannot make image " + std::to_string(b->id) + " (" +
                          std::to_string(b->image->width) + "x" + std::to_string(b->image->height) +
                          ", " + b->image->element_type + " x" +
                          std::to_string(b->image->channels) + "): " + cl_error_name(err) +
                          "; replay on a device that supports the image format");
      }
      images_.emplace(b->id, *b->image);
      if (b->parent == 0) {
        // Contents the trace does not give start as zeros.
        const cl_uint4 zero{};
        const std::size_t origin[3] = {0, 0, 0};
        const std::size_t region[3] = {b->image->width, b->image->rows(), b->image->slices()};
        cl_check(clEnqueueFillImage(device_.control_queue(), mem.get(), &zero, origin, region, 0,
                                    nullptr, nullptr),
                 "clEnqueueFillImage");
      }
      if (evicts_lines_ && b->parent == 0 && images_.size() == 1) {
        notes_.push_back(
            "images are the driver's memory: their lines are not evicted before a pass");
      }
    } else if (std::byte* base = b->parent != 0 ? svm(b->parent) : nullptr) {
      // A buffer over SVM memory (CL_MEM_USE_HOST_PTR), as recorded: the
      // kernels that use it see the allocation's bytes.
      mem = ClMem(clCreateBuffer(device_.context(), (b->flags & kAccessFlags) | CL_MEM_USE_HOST_PTR,
                                 std::max<std::uint64_t>(b->size, 1), base + b->origin, &err));
      cl_check(err, "clCreateBuffer over SVM");
    } else if (b->parent == 0) {
      std::span<const std::byte> host;
      mem = create_buffer(b->flags & ~kStrippedFlags, b->size, err, &host);
      cl_check(err, "clCreateBuffer");
      if (!host.empty()) host_bytes_.emplace(b->id, host);
      // Contents the trace does not give start as zeros, not as garbage.
      const cl_uchar zero = 0;
      cl_check(clEnqueueFillBuffer(device_.control_queue(), mem.get(), &zero, 1, 0,
                                   std::max<std::uint64_t>(b->size, 1), 0, nullptr, nullptr),
               "clEnqueueFillBuffer");
    } else {
      const cl_buffer_region region{b->origin, b->size};
      mem = ClMem(clCreateSubBuffer(buffers_.at(b->parent).get(), b->flags & kAccessFlags,
                                    CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
      cl_check(err, "clCreateSubBuffer");
    }
    buffers_.emplace(b->id, std::move(mem));
    buffer_sizes_.emplace(b->id, b->size);
  }
  cl_check(clFinish(device_.control_queue()), "clFinish");
}

void OpenClLoadedRange::upload_initial_state(const RangePlan& plan,
                                             const trace::TraceReader& reader) {
  for (const auto& state : plan.range->initial_state) {
    const auto size = buffer_sizes_.at(state.buffer);
    if (state.blob.size != size) {
      throw PlanError("the initial state of buffer " + std::to_string(state.buffer) + " has " +
                      std::to_string(state.blob.size) + " bytes, the buffer " +
                      std::to_string(size) + "; the trace is damaged");
    }
    // The buffer was made zeros: a state of zeros is there already.
    if (is_zero_blob(reader, state.blob)) continue;
    std::uint64_t offset = 0;
    if (image(state.buffer) != nullptr) {
      write_image(device_.control_queue(), state.buffer, reader.read_blob(state.blob));
      continue;
    }
    if (std::byte* base = svm(state.buffer)) {
      reader.stream_blob(state.blob, [&](std::span<const std::byte> chunk) {
        std::vector<std::byte> moved(chunk.begin(), chunk.end());
        translate_in(state.buffer, moved, offset);
        cl_check(clEnqueueSVMMemcpy(device_.control_queue(), CL_TRUE, base + offset, moved.data(),
                                    moved.size(), 0, nullptr, nullptr),
                 "clEnqueueSVMMemcpy");
        offset += chunk.size();
      });
      continue;
    }
    const cl_mem target = mem(state.buffer);
    reader.stream_blob(state.blob, [&](std::span<const std::byte> chunk) {
      cl_check(clEnqueueWriteBuffer(device_.control_queue(), target, CL_TRUE, offset, chunk.size(),
                                    chunk.data(), 0, nullptr, nullptr),
               "clEnqueueWriteBuffer");
      offset += chunk.size();
    });
  }
}

void OpenClLoadedRange::prepare_restores() {
  bool copies_fit = true;
  for (auto& restore : restores_.buffers) {
    const auto& state = restore.state;
    restored_bytes_ += state.blob.size;
    if (restore.source == RestoreSource::Copy && image(state.buffer) != nullptr) {
      // The restore plan gives every image a copy (plan_restores).
      cl_int err = CL_SUCCESS;
      ClMem copy = create_image(*trace_buffers_.at(state.buffer), err);
      if (err == CL_SUCCESS) {
        const trace::ImageDesc& d = images_.at(state.buffer);
        const std::size_t origin[3] = {0, 0, 0};
        const std::size_t region[3] = {d.width, d.rows(), d.slices()};
        err = clEnqueueCopyImage(device_.control_queue(), mem(state.buffer), copy.get(), origin,
                                 origin, region, 0, nullptr, nullptr);
        if (err == CL_SUCCESS) err = clFinish(device_.control_queue());
      }
      if (err != CL_SUCCESS) {
        throw DeviceError("no device memory for the restore copy of image " +
                          std::to_string(state.buffer) + " (" + cl_error_name(err) + ")");
      }
      pristine_images_.emplace(state.buffer, std::move(copy));
      continue;
    }
    if (restore.source == RestoreSource::Copy && copies_fit && svm(state.buffer) != nullptr) {
      const auto size = std::max<std::uint64_t>(state.blob.size, 1);
      ClSvm copy(device_.context(), clSVMAlloc(device_.context(), CL_MEM_READ_WRITE, size, 0));
      cl_int err = copy.get() != nullptr ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
      if (err == CL_SUCCESS) {
        err = clEnqueueSVMMemcpy(device_.control_queue(), CL_TRUE, copy.get(), svm(state.buffer),
                                 size, 0, nullptr, nullptr);
      }
      if (err == CL_SUCCESS) {
        pristine_svm_.emplace(state.buffer, std::move(copy));
        continue;
      }
      copies_fit = false;
      restores_changed_ = true;
      notes_.push_back("no device memory for a restore copy (" + cl_error_name(err) +
                       "): restoring from the trace instead");
    }
    if (restore.source == RestoreSource::Copy && copies_fit) {
      cl_int err = CL_SUCCESS;
      ClMem copy = create_buffer(CL_MEM_READ_WRITE, state.blob.size, err);
      if (err == CL_SUCCESS && state.blob.size != 0) {
        err = clEnqueueCopyBuffer(device_.control_queue(), mem(state.buffer), copy.get(), 0, 0,
                                  state.blob.size, 0, nullptr, nullptr);
        if (err == CL_SUCCESS) err = clFinish(device_.control_queue());
      }
      if (err == CL_SUCCESS) {
        pristine_.emplace(state.buffer, std::move(copy));
        continue;
      }
      // What the footprint allowed for, the driver did not give.
      copies_fit = false;
      restores_changed_ = true;
      notes_.push_back("no device memory for a restore copy (" + cl_error_name(err) +
                       "): restoring from the trace instead");
    }
    if (restore.source == RestoreSource::Copy) restore.source = RestoreSource::Trace;
    if (restore.source == RestoreSource::Zeros) {
      zero_restored_.push_back(state.buffer);
    } else {
      trace_restorer_.add(state.buffer, state.blob);
    }
  }
}

void OpenClLoadedRange::load_host_data(const trace::Range& range,
                                       const trace::TraceReader& reader) {
  for (const auto& command : range.commands) {
    std::visit(Overloaded{
                   [&](const trace::BufferWrite& w) {
                     auto data = reader.read_blob(w.data);
                     const auto need = w.rect ? host_extent(*w.rect) : w.size;
                     if (data.size() < need) {
                       throw PlanError("the data of write " + std::to_string(command.seq) +
                                       " is shorter than the write; the trace is damaged");
                     }
                     translate_in(w.buffer, data, w.offset);
                     host_data_.emplace(command.seq, std::move(data));
                   },
                   [&](const trace::BufferUnmap& u) {
                     if (!u.data.present()) return;
                     auto data = reader.read_blob(u.data);
                     translate_in(u.buffer, data, u.offset);
                     host_data_.emplace(command.seq, std::move(data));
                   },
                   [&](const trace::BufferRead& r) {
                     host_data_.emplace(command.seq, std::vector<std::byte>(
                                                         r.rect ? host_extent(*r.rect) : r.size));
                   },
                   [](const auto&) {},
               },
               command.body);
  }
}

std::string OpenClLoadedRange::program_origin() const {
  std::set<std::string> kinds;
  for (const auto& [id, origin] : origins_) kinds.insert(origin);
  std::string out;
  for (const auto& k : kinds) out += (out.empty() ? "" : ",") + k;
  return out;
}

cl_mem OpenClLoadedRange::mem(trace::CaptureId id) const {
  const auto it = buffers_.find(id);
  if (it == buffers_.end()) throw PlanError("buffer " + std::to_string(id) + " is not loaded");
  return it->second.get();
}

cl_command_queue OpenClLoadedRange::queue(trace::CaptureId id) const {
  const auto it = queues_.find(id);
  if (it == queues_.end()) throw PlanError("queue " + std::to_string(id) + " is not loaded");
  return it->second.get();
}

void OpenClLoadedRange::restore() {
  const cl_command_queue q = device_.restore_queue();
  const unsigned workers = device_.restore_workers();
  try {
    for (const auto& [id, copy] : pristine_) {
      for (const auto& piece : copy_pieces(buffer_sizes_.at(id), workers)) {
        cl_check(clEnqueueCopyBuffer(q, copy.get(), mem(id), piece.offset, piece.offset, piece.size,
                                     0, nullptr, nullptr),
                 "clEnqueueCopyBuffer");
      }
    }
    image_reads_.clear();
    for (const auto& [id, copy] : pristine_images_) {
      const trace::ImageDesc& d = images_.at(id);
      const std::size_t origin[3] = {0, 0, 0};
      const std::size_t region[3] = {d.width, d.rows(), d.slices()};
      cl_check(
          clEnqueueCopyImage(q, copy.get(), mem(id), origin, origin, region, 0, nullptr, nullptr),
          "clEnqueueCopyImage");
    }
    for (const auto& [id, copy] : pristine_svm_) {
      const auto* from = static_cast<const std::byte*>(copy.get());
      for (const auto& piece : copy_pieces(buffer_sizes_.at(id), workers)) {
        cl_check(clEnqueueSVMMemcpy(q, CL_FALSE, svm(id) + piece.offset, from + piece.offset,
                                    piece.size, 0, nullptr, nullptr),
                 "clEnqueueSVMMemcpy");
      }
    }
    const cl_uchar zero = 0;
    for (const auto id : zero_restored_) {
      if (const trace::ImageDesc* d = image(id)) {
        const cl_uint4 zero_color{};
        const std::size_t origin[3] = {0, 0, 0};
        const std::size_t region[3] = {d->width, d->rows(), d->slices()};
        cl_check(clEnqueueFillImage(q, mem(id), &zero_color, origin, region, 0, nullptr, nullptr),
                 "clEnqueueFillImage");
        continue;
      }
      for (const auto& piece : copy_pieces(buffer_sizes_.at(id), workers)) {
        if (std::byte* base = svm(id)) {
          cl_check(clEnqueueSVMMemFill(q, base + piece.offset, &zero, 1, piece.size, 0, nullptr,
                                       nullptr),
                   "clEnqueueSVMMemFill");
          continue;
        }
        cl_check(clEnqueueFillBuffer(q, mem(id), &zero, 1, piece.offset, piece.size, 0, nullptr,
                                     nullptr),
                 "clEnqueueFillBuffer");
      }
    }
    if (!trace_restorer_.empty()) {
      trace_restorer_.restore(
          [&](trace::CaptureId id, std::uint64_t offset, std::span<const std::byte> bytes) {
            // Where the buffer is host memory the device works on in place, the
            // chunk goes straight there; elsewhere through the driver.
            const auto host = host_bytes_.find(id);
            if (host != host_bytes_.end()) {
              std::memcpy(const_cast<std::byte*>(host->second.data()) + offset, bytes.data(),
                          bytes.size());
              return;
            }
            write_memory(q, id, offset, bytes);
          });
    }
  } catch (...) {
    // The pieces already enqueued write the buffers: they end before the
    // range (and its buffers) can go.
    clFinish(q);
    throw;
  }
  cl_check(clFinish(q), "clFinish");
}

void OpenClLoadedRange::clear_cache() {
  if (evicts_lines_) {
    line_flush_.clear();
  } else if (cache_.enabled()) {
    device_.cache_clearer(cache_.scratch_bytes).clear();
  }
}

void OpenClLoadedRange::begin_pass() {
  recorded_events_.clear();
  pass_events_.clear();
}

std::vector<cl_event> OpenClLoadedRange::wait_list(const trace::Command& command) const {
  std::vector<cl_event> out;
  for (auto id : command.wait_events) {
    // Events from before the range completed before the range began.
    const auto it = recorded_events_.find(id);
    if (it != recorded_events_.end()) out.push_back(it->second);
  }
  return out;
}

void OpenClLoadedRange::execute(std::span<const trace::Command> commands) {
  image_reads_.clear();
  try {
    for (const auto& command : commands) {
      if (std::holds_alternative<trace::HostWait>(command.body)) {
        host_wait(command);
        continue;
      }
      cl_event event = enqueue(command);
      pass_events_.emplace_back(command.seq, ClEvent(event));
      if (command.event != 0) recorded_events_[command.event] = event;
      if (command.blocking) cl_check(clWaitForEvents(1, &event), "clWaitForEvents");
    }
  } catch (...) {
    // What was enqueued ends before anything restores the buffers under it.
    for (auto& [id, q] : queues_) clFinish(q.get());
    throw;
  }
  finish_all();
}

void OpenClLoadedRange::host_wait(const trace::Command& command) {
  const auto& wait = std::get<trace::HostWait>(command.body);
  std::vector<cl_event> events;
  for (auto id : wait.events) {
    const auto it = recorded_events_.find(id);
    if (it != recorded_events_.end()) events.push_back(it->second);
  }
  if (!events.empty()) {
    cl_check(clWaitForEvents(static_cast<cl_uint>(events.size()), events.data()),
             "clWaitForEvents");
  } else if (command.queue != 0) {
    cl_check(clFinish(queue(command.queue)), "clFinish");
  } else if (wait.events.empty()) {
    finish_all();
  }
}

void OpenClLoadedRange::finish_all() {
  for (auto& [id, q] : queues_) cl_check(clFinish(q.get()), "clFinish");
}

cl_event OpenClLoadedRange::enqueue(const trace::Command& command) {
  const cl_command_queue q = queue(command.queue);
  const auto waits = wait_list(command);
  const auto n = static_cast<cl_uint>(waits.size());
  const cl_event* w = waits.empty() ? nullptr : waits.data();
  if (const cl_event on_image = enqueue_image(q, command, waits)) return on_image;
  cl_event event = nullptr;
  std::visit(
      Overloaded{
          [&](const trace::KernelLaunch& k) { event = enqueue_kernel(q, k, waits); },
          [&](const trace::BufferWrite& b) {
            const void* data = host_data_.at(command.seq).data();
            if (std::byte* base = svm(b.buffer)) {
              cl_check(clEnqueueSVMMemcpy(q, CL_FALSE, base + b.offset, data, b.size, n, w, &event),
                       "clEnqueueSVMMemcpy");
            } else if (b.rect) {
              const auto bo = triple(b.rect->buffer_origin, 0), ho = triple(b.rect->host_origin, 0),
                         rg = triple(b.rect->region, 1);
              cl_check(clEnqueueWriteBufferRect(q, mem(b.buffer), CL_FALSE, bo.data(), ho.data(),
                                                rg.data(), b.rect->buffer_row_pitch,
                                                b.rect->buffer_slice_pitch, b.rect->host_row_pitch,
                                                b.rect->host_slice_pitch, data, n, w, &event),
                       "clEnqueueWriteBufferRect");
            } else {
              cl_check(clEnqueueWriteBuffer(q, mem(b.buffer), CL_FALSE, b.offset, b.size, data, n,
                                            w, &event),
                       "clEnqueueWriteBuffer");
            }
          },
          [&](const trace::BufferRead& b) {
            void* data = host_data_.at(command.seq).data();
            if (std::byte* base = svm(b.buffer)) {
              cl_check(clEnqueueSVMMemcpy(q, CL_FALSE, data, base + b.offset, b.size, n, w, &event),
                       "clEnqueueSVMMemcpy");
            } else if (b.rect) {
              const auto bo = triple(b.rect->buffer_origin, 0), ho = triple(b.rect->host_origin, 0),
                         rg = triple(b.rect->region, 1);
              cl_check(clEnqueueReadBufferRect(q, mem(b.buffer), CL_FALSE, bo.data(), ho.data(),
                                               rg.data(), b.rect->buffer_row_pitch,
                                               b.rect->buffer_slice_pitch, b.rect->host_row_pitch,
                                               b.rect->host_slice_pitch, data, n, w, &event),
                       "clEnqueueReadBufferRect");
            } else {
              cl_check(clEnqueueReadBuffer(q, mem(b.buffer), CL_FALSE, b.offset, b.size, data, n, w,
                                           &event),
                       "clEnqueueReadBuffer");
            }
          },
          [&](const trace::BufferCopy& c) {
            std::byte* const from = svm(c.src);
            std::byte* const to = svm(c.dst);
            if ((from == nullptr) != (to == nullptr)) {
              throw PlanError(
                  "command " + std::to_string(command.seq) +
                  " copies between a buffer and an SVM allocation; the trace is damaged");
            }
            if (from != nullptr) {
              cl_check(clEnqueueSVMMemcpy(q, CL_FALSE, to + c.dst_offset, from + c.src_offset,
                                          c.size, n, w, &event),
                       "clEnqueueSVMMemcpy");
            } else if (c.rect) {
              const auto so = triple(c.rect->buffer_origin, 0),
                         dor = triple(c.rect->host_origin, 0), rg = triple(c.rect->region, 1);
              cl_check(clEnqueueCopyBufferRect(q, mem(c.src), mem(c.dst), so.data(), dor.data(),
                                               rg.data(), c.rect->buffer_row_pitch,
                                               c.rect->buffer_slice_pitch, c.rect->host_row_pitch,
                                               c.rect->host_slice_pitch, n, w, &event),
                       "clEnqueueCopyBufferRect");
            } else {
              cl_check(clEnqueueCopyBuffer(q, mem(c.src), mem(c.dst), c.src_offset, c.dst_offset,
                                           c.size, n, w, &event),
                       "clEnqueueCopyBuffer");
            }
          },
          [&](const trace::BufferFill& f) {
            if (std::byte* base = svm(f.buffer)) {
              cl_check(clEnqueueSVMMemFill(q, base + f.offset, f.pattern.data(), f.pattern.size(),
                                           f.size, n, w, &event),
                       "clEnqueueSVMMemFill");
              return;
            }
            cl_check(clEnqueueFillBuffer(q, mem(f.buffer), f.pattern.data(), f.pattern.size(),
                                         f.offset, f.size, n, w, &event),
                     "clEnqueueFillBuffer");
          },
          [&](const trace::BufferUnmap& u) {
            // What the host left in a write mapping is a write; the mapping
            // itself only orders, like a marker.
            const auto it = host_data_.find(command.seq);
            if (it != host_data_.end() && !it->second.empty() && svm(u.buffer) != nullptr) {
              cl_check(clEnqueueSVMMemcpy(q, CL_FALSE, svm(u.buffer) + u.offset, it->second.data(),
                                          std::min<std::uint64_t>(u.size, it->second.size()), n, w,
                                          &event),
                       "clEnqueueSVMMemcpy");
            } else if (it != host_data_.end() && !it->second.empty()) {
              cl_check(clEnqueueWriteBuffer(q, mem(u.buffer), CL_FALSE, u.offset,
                                            std::min<std::uint64_t>(u.size, it->second.size()),
                                            it->second.data(), n, w, &event),
                       "clEnqueueWriteBuffer");
            } else {
              cl_check(clEnqueueMarkerWithWaitList(q, n, w, &event), "clEnqueueMarkerWithWaitList");
            }
          },
          [&](const trace::BufferMap&) {
            cl_check(clEnqueueMarkerWithWaitList(q, n, w, &event), "clEnqueueMarkerWithWaitList");
          },
          [&](const trace::Marker&) {
            cl_check(clEnqueueMarkerWithWaitList(q, n, w, &event), "clEnqueueMarkerWithWaitList");
          },
          [&](const trace::Barrier&) {
            cl_check(clEnqueueBarrierWithWaitList(q, n, w, &event), "clEnqueueBarrierWithWaitList");
          },
          [&](const trace::HostWait&) {},
      },
      command.body);
  return event;
}

cl_event OpenClLoadedRange::enqueue_image(cl_command_queue q, const trace::Command& command,
                                          const std::vector<cl_event>& waits) {
  const auto n = static_cast<cl_uint>(waits.size());
  const cl_event* w = waits.empty() ? nullptr : waits.data();
  cl_event event = nullptr;
  const auto rect_of = [&](const std::optional<trace::Rect>& rect) -> const trace::Rect& {
    if (!rect) {
      throw PlanError("command " + std::to_string(command.seq) +
                      " on an image has no region; the trace is damaged");
    }
    return *rect;
  };
  // A write, an unmap's data or a read of the image's region, packed on
  // the host side.
  const auto transfer = [&](bool write, trace::CaptureId id, const std::optional<trace::Rect>& r) {
    const trace::ImageDesc* d = image(id);
    const auto data = host_data_.find(command.seq);
    if (d == nullptr || data == host_data_.end() || data->second.empty()) return;
    const trace::Rect& rect = rect_of(r);
    const PixelRect p = pixels(*d, rect);
    const std::size_t slice = packed_slice_pitch(*d, rect.host_row_pitch, p.region[1]);
    if (write) {
      cl_check(clEnqueueWriteImage(q, mem(id), CL_FALSE, p.origin.data(), p.region.data(),
                                   rect.host_row_pitch, slice, data->second.data(), n, w, &event),
               "clEnqueueWriteImage");
    } else {
      cl_check(clEnqueueReadImage(q, mem(id), CL_FALSE, p.origin.data(), p.region.data(),
                                  rect.host_row_pitch, slice, data->second.data(), n, w, &event),
               "clEnqueueReadImage");
    }
  };
  std::visit(
      Overloaded{
          [&](const trace::BufferWrite& b) { transfer(true, b.buffer, b.rect); },
          [&](const trace::BufferUnmap& u) { transfer(true, u.buffer, u.rect); },
          [&](const trace::BufferRead& b) { transfer(false, b.buffer, b.rect); },
          [&](const trace::BufferFill& f) {
            const trace::ImageDesc* d = image(f.buffer);
            if (d == nullptr) return;
            const PixelRect p = pixels(*d, rect_of(f.rect));
            if (f.pattern.size() < 16) {
              throw PlanError("the fill color of command " + std::to_string(command.seq) +
                              " is not 16 bytes; the trace is damaged");
            }
            cl_check(clEnqueueFillImage(q, mem(f.buffer), f.pattern.data(), p.origin.data(),
                                        p.region.data(), n, w, &event),
                     "clEnqueueFillImage");
          },
          [&](const trace::BufferCopy& c) {
            const trace::ImageDesc* from = image(c.src);
            const trace::ImageDesc* to = image(c.dst);
            if (from == nullptr && to == nullptr) return;
            const trace::Rect& rect = rect_of(c.rect);
            if (from != nullptr && to != nullptr) {
              const PixelRect p = pixels(*from, rect);
              cl_check(clEnqueueCopyImage(q, mem(c.src), mem(c.dst), p.origin.data(),
                                          p.other.data(), p.region.data(), n, w, &event),
                       "clEnqueueCopyImage");
            } else if (from != nullptr) {
              const PixelRect p = pixels(*from, rect);
              cl_check(clEnqueueCopyImageToBuffer(q, mem(c.src), mem(c.dst), p.origin.data(),
                                                  p.region.data(), c.dst_offset, n, w, &event),
                       "clEnqueueCopyImageToBuffer");
            } else {
              const PixelRect p = pixels(*to, rect);
              cl_check(clEnqueueCopyBufferToImage(q, mem(c.src), mem(c.dst), c.src_offset,
                                                  p.other.data(), p.region.data(), n, w, &event),
                       "clEnqueueCopyBufferToImage");
            }
          },
          [](const auto&) {},
      },
      command.body);
  return event;
}

void OpenClLoadedRange::prepare_variant(std::size_t index, const Variant& variant) {
  variants_.erase(index);
  variants_.emplace(index,
                    build_variant(device_.context(), device_.device(), variant,
                                  RangeCode{range_, trace_programs_, trace_kernels_}, reader_));
}

void OpenClLoadedRange::select_variant(std::optional<std::size_t> index) {
  active_ = nullptr;
  if (!index) return;
  const auto it = variants_.find(*index);
  if (it == variants_.end())
    throw PlanError("variant " + std::to_string(*index) + " was not prepared");
  active_ = &it->second;
}

cl_event OpenClLoadedRange::enqueue_kernel(cl_command_queue q, const trace::KernelLaunch& launch,
                                           const std::vector<cl_event>& waits) {
  cl_kernel kernel = nullptr;
  const VariantCode::Sizes* sizes = nullptr;
  if (active_ != nullptr) {
    const auto k = active_->kernels.find(launch.kernel);
    if (k != active_->kernels.end()) kernel = k->second.get();
    const auto s = active_->sizes.find(launch.kernel);
    if (s != active_->sizes.end()) sizes = &s->second;
  }
  if (kernel == nullptr) {
    const auto it = kernels_.find(launch.kernel);
    if (it == kernels_.end())
      throw PlanError("kernel " + std::to_string(launch.kernel) + " is not loaded");
    kernel = it->second.get();
  }
  for (const auto& arg : launch.args) {
    cl_int err = CL_SUCCESS;
    switch (arg.kind) {
      case trace::ArgKind::Buffer: {
        if (arg.offset != 0) {
          throw PlanError(
              "a buffer argument with an offset is not an OpenCL argument; the trace "
              "was recorded for another API");
        }
        const cl_mem m = mem(arg.object);
        err = clSetKernelArg(kernel, arg.index, sizeof m, &m);
        break;
      }
      case trace::ArgKind::Bytes:
        err = clSetKernelArg(kernel, arg.index, arg.bytes.size(), arg.bytes.data());
        break;
      case trace::ArgKind::Local:
        err = clSetKernelArg(kernel, arg.index, arg.local_size, nullptr);
        break;
      case trace::ArgKind::Sampler: {
        const cl_sampler s = samplers_.at(arg.object).get();
        err = clSetKernelArg(kernel, arg.index, sizeof s, &s);
        break;
      }
      case trace::ArgKind::Pointer: {
        std::byte* base = arg.object != 0 ? svm(arg.object) : nullptr;
        if (arg.object != 0 && base == nullptr)
          throw PlanError("allocation " + std::to_string(arg.object) + " is not loaded");
        err = clSetKernelArgSVMPointer(kernel, arg.index,
                                       base != nullptr ? base + arg.offset : nullptr);
        break;
      }
      case trace::ArgKind::Null: {
        // A pointer to a NULL handle, not a null pointer: that is a NULL
        // buffer argument and also a zero 8-byte scalar, which a recorder
        // cannot tell apart without argument information.
        const cl_mem none = nullptr;
        err = clSetKernelArg(kernel, arg.index, sizeof none, &none);
        break;
      }
      case trace::ArgKind::Unset:
        break;
    }
    cl_check(err, "clSetKernelArg");
  }
  if (!launch.indirect.empty()) {
    std::vector<void*> pointers;
    for (const auto& arg : launch.indirect) {
      std::byte* base = svm(arg.object);
      if (base == nullptr)
        throw PlanError("allocation " + std::to_string(arg.object) + " is not loaded");
      pointers.push_back(base + arg.offset);
    }
    cl_check(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS,
                                 pointers.size() * sizeof(void*), pointers.data()),
             "clSetKernelExecInfo");
  }
  std::vector<std::size_t> offset(launch.global_offset.begin(), launch.global_offset.end());
  const auto& global_size = sizes && sizes->global ? *sizes->global : launch.global_size;
  const auto& local_size = sizes && sizes->local ? *sizes->local : launch.local_size;
  std::vector<std::size_t> global(global_size.begin(), global_size.end());
  std::vector<std::size_t> local(local_size.begin(), local_size.end());
  cl_event event = nullptr;
  cl_check(clEnqueueNDRangeKernel(
               q, kernel, launch.work_dim, offset.empty() ? nullptr : offset.data(), global.data(),
               local.empty() ? nullptr : local.data(), static_cast<cl_uint>(waits.size()),
               waits.empty() ? nullptr : waits.data(), &event),
           "clEnqueueNDRangeKernel");
  return event;
}

std::vector<trace::CommandTiming> OpenClLoadedRange::timings() {
  std::vector<trace::CommandTiming> out;
  for (const auto& [seq, event] : pass_events_) {
    if (kernel_seqs_.count(seq) == 0) continue;
    trace::CommandTiming t;
    t.command_seq = seq;
    const std::pair<cl_profiling_info, std::uint64_t*> fields[] = {
        {CL_PROFILING_COMMAND_QUEUED, &t.queued_ns},
        {CL_PROFILING_COMMAND_SUBMIT, &t.submit_ns},
        {CL_PROFILING_COMMAND_START, &t.start_ns},
        {CL_PROFILING_COMMAND_END, &t.end_ns}};
    for (const auto& [what, target] : fields) {
      cl_ulong value = 0;
      cl_check(clGetEventProfilingInfo(event.get(), what, sizeof value, &value, nullptr),
               "clGetEventProfilingInfo");
      *target = value;
    }
    out.push_back(t);
  }
  return out;
}

std::vector<trace::KernelArgInfo> OpenClLoadedRange::learned_arg_info(trace::CaptureId kernel) {
  const auto k = trace_kernels_.find(kernel);
  if (k == trace_kernels_.end()) return {};
  const auto p = trace_programs_.find(k->second->program);
  if (p == trace_programs_.end()) return {};
  auto twin = arg_info_twins_.find(p->first);
  if (twin == arg_info_twins_.end()) {
    twin = arg_info_twins_
               .emplace(p->first, build_arg_info_twin(device_.context(), device_.device(),
                                                      *p->second, reader_))
               .first;
  }
  return kernel_arg_info(twin->second.get(), k->second->name);
}

void OpenClLoadedRange::read_buffer(trace::CaptureId buffer, std::uint64_t offset,
                                    std::span<std::byte> out) {
  const auto size = buffer_sizes_.at(buffer);
  if (offset > size || out.size() > size - offset) {
    throw PlanError("a read of buffer " + std::to_string(buffer) + " past its " +
                    std::to_string(size) + " bytes; the trace is damaged");
  }
  if (out.empty()) return;
  if (image(buffer) != nullptr) {
    auto it = image_reads_.find(buffer);
    if (it == image_reads_.end()) {
      it = image_reads_.emplace(buffer, std::vector<std::byte>()).first;
      read_image(buffer, it->second);
    }
    std::memcpy(out.data(), it->second.data() + offset, out.size());
    return;
  }
  if (std::byte* base = svm(buffer)) {
    cl_check(clEnqueueSVMMemcpy(device_.control_queue(), CL_TRUE, out.data(), base + offset,
                                out.size(), 0, nullptr, nullptr),
             "clEnqueueSVMMemcpy");
    // Compared with the recording, so in its addresses.
    addresses_.to_recorded(out, offset);
    return;
  }
  cl_check(clEnqueueReadBuffer(device_.control_queue(), mem(buffer), CL_TRUE, offset, out.size(),
                               out.data(), 0, nullptr, nullptr),
           "clEnqueueReadBuffer");
}

}  // namespace msprof::replay::opencl

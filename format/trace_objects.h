#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "format/hash128.h"

namespace msprof::trace {

// Monotonic per trace, never a raw handle; 0 means "none".
using CaptureId = std::uint64_t;

struct BlobRef {
  Hash128 hash;
  std::uint64_t size = 0;
  bool present() const { return size != 0 || hash != Hash128{}; }
  friend bool operator==(const BlobRef&, const BlobRef&) = default;
};

struct DeviceInfo {
  std::string platform_name, platform_version, device_name, vendor, driver_version, device_version,
      device_type;
  std::uint32_t compute_units = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t local_mem_bytes = 0;
  std::uint64_t global_cache_bytes = 0;
  std::uint32_t cacheline_bytes = 0;
  std::uint32_t max_clock_mhz = 0;
  std::uint64_t max_work_group_size = 0;
  std::uint32_t address_bits = 0;
  friend bool operator==(const DeviceInfo&, const DeviceInfo&) = default;
};

// The most a writer may ask a coding to save before a chunk is stored
// compressed: at 100% nothing could ever be, and past 90% only data that
// shrinks tenfold is, which zeros and repeats do at any setting.
inline constexpr std::uint32_t kMaxMinSavingPercent = 90;

struct CaptureOptions {
  std::vector<std::string> include, exclude;
  bool final_state = true;
  bool kill = false;
  std::int32_t compression_level = 0;
  std::uint64_t memory_bound = 0;
  std::uint32_t compression_threads = 0;
  // At most kMaxMinSavingPercent; absent in older traces.
  std::optional<std::uint32_t> min_saving_percent;
  friend bool operator==(const CaptureOptions&, const CaptureOptions&) = default;
};

struct TraceInfo {
  std::uint32_t schema_version = 0;
  std::uint32_t min_reader_version = 0;
  std::string tool_version;
  std::uint64_t created_unix_ns = 0;
  std::string host;
  std::vector<std::string> command_line;
  std::uint64_t pid = 0;
  std::string api;  // "opencl", "cuda", ...
  CaptureOptions options;
  std::vector<DeviceInfo> devices;
  friend bool operator==(const TraceInfo&, const TraceInfo&) = default;
};

struct Context {
  CaptureId id = 0;
  std::vector<std::uint32_t> devices;  // indices into TraceInfo::devices
  friend bool operator==(const Context&, const Context&) = default;
};

enum class ProgramKind : std::uint8_t { Source = 0, IL = 1, Binary = 2, BuiltIn = 3 };

struct ProgramBinary {
  std::uint32_t device = 0;
  BlobRef data;
  friend bool operator==(const ProgramBinary&, const ProgramBinary&) = default;
};

struct Program {
  CaptureId id = 0;
  CaptureId context = 0;
  ProgramKind kind = ProgramKind::Source;
  std::vector<std::string> sources;
  BlobRef il;
  std::vector<ProgramBinary> given_binaries;
  std::string build_options;
  std::vector<ProgramBinary> built_binaries;  // what the driver built, per device
  std::vector<std::uint32_t> devices;
  std::string kernel_names;  // built-in kernels
  friend bool operator==(const Program&, const Program&) = default;
};

struct KernelArgInfo {
  std::string name, type_name;
  std::uint32_t address_qualifier = 0;
  std::uint32_t access_qualifier = 0;
  std::uint64_t type_qualifier = 0;
  friend bool operator==(const KernelArgInfo&, const KernelArgInfo&) = default;
};

struct Kernel {
  CaptureId id = 0;
  CaptureId program = 0;
  std::string name;
  std::uint32_t num_args = 0;
  std::vector<KernelArgInfo> arg_info;  // empty when the driver keeps none
  friend bool operator==(const Kernel&, const Kernel&) = default;
};

// How a memory object is addressed: by handle, or by address (OpenCL SVM,
// CUDA), where arguments and commands name it as allocation + offset.
// Image: pixels of a given format, held packed in its states.
enum class MemoryKind : std::uint8_t { Buffer = 0, Pointer = 1, Image = 2 };

enum class ImageType : std::uint8_t {
  Image1D = 0,
  Image1DBuffer = 1,
  Image1DArray = 2,
  Image2D = 3,
  Image2DArray = 4,
  Image3D = 5
};

// An image's shape and pixel format (schemas/trace.fbs). Packed, its rows
// are width * pixel_size bytes; a 1D array's layers are its rows, a 2D
// array's its slices.
struct ImageDesc {
  ImageType type = ImageType::Image2D;
  std::uint64_t width = 0, height = 1, depth = 1, array_size = 1;
  std::uint32_t channel_order = 0, channel_type = 0;  // the API's values
  std::uint32_t pixel_size = 0;
  std::uint32_t channels = 1;
  std::string element_type;                      // "float32", "uint8", ...
  std::uint64_t row_pitch = 0, slice_pitch = 0;  // over a buffer: its pitches

  std::uint64_t row_bytes() const { return width * pixel_size; }
  // Rows per slice and slices of the packed layout.
  std::uint64_t rows() const { return type == ImageType::Image1DArray ? array_size : height; }
  std::uint64_t slices() const { return type == ImageType::Image2DArray ? array_size : depth; }
  std::uint64_t packed_size() const { return row_bytes() * rows() * slices(); }
  friend bool operator==(const ImageDesc&, const ImageDesc&) = default;
};

struct Buffer {
  CaptureId id = 0;
  CaptureId context = 0;
  std::uint64_t flags = 0;
  std::uint64_t size = 0;
  CaptureId parent = 0;  // sub-buffers
  std::uint64_t origin = 0;
  std::optional<std::uint64_t> device_address;  // Pointer: where it was
  MemoryKind kind = MemoryKind::Buffer;
  std::uint64_t alignment = 0;  // Pointer: as asked, 0 for the API's default
  std::optional<ImageDesc> image =
      std::nullopt;  // Image; its parent is the buffer it was made over
  bool is_pointer() const { return kind == MemoryKind::Pointer; }
  bool is_image() const { return kind == MemoryKind::Image; }
  friend bool operator==(const Buffer&, const Buffer&) = default;
};

struct Queue {
  CaptureId id = 0;
  CaptureId context = 0;
  std::uint32_t device = 0;
  std::uint64_t properties = 0;
  bool out_of_order = false;
  bool profiling = false;
  friend bool operator==(const Queue&, const Queue&) = default;
};

struct Sampler {
  CaptureId id = 0;
  CaptureId context = 0;
  bool normalized_coords = false;
  std::uint32_t addressing_mode = 0;
  std::uint32_t filter_mode = 0;
  friend bool operator==(const Sampler&, const Sampler&) = default;
};

}  // namespace msprof::trace

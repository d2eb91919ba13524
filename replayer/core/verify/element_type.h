#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "format/trace_range.h"
#include "replayer/core/plan/trace_catalog.h"

namespace msprof::replay {

// What a buffer's elements are, as the kernels that use it declare them,
// so a difference is reported in the kernel's own terms ("int32, max abs 3")
// and never as a float32 reading of integer bits.
struct ElementType {
  enum class Kind { Float, Signed, Unsigned, Bytes };
  Kind kind = Kind::Bytes;
  std::uint32_t size = 1;  // bytes of one scalar element; 1 for Bytes
  // "float32", "int32", "uint8", ...; for Bytes what the kernel called it
  // ("struct particle") or "bytes" when nothing says.
  std::string name = "bytes";

  bool floating() const { return kind == Kind::Float; }
  friend bool operator==(const ElementType&, const ElementType&) = default;
};

// The element type of an OpenCL C (or CUDA C) pointer argument type as
// CL_KERNEL_ARG_TYPE_NAME gives it: "float*", "const int4*", "half*",
// "uchar*"; vectors are their scalar type. Anything else (a struct, a
// typedef, an empty name) is Bytes, named after the type when it has one.
ElementType element_type_of(std::string_view type_name);

// How the range's kernels use a buffer they take as an argument (or a
// sub-buffer of it): the element type (the last launch that may write it,
// through a non-const pointer, decides, else the last that names it) and
// the argument names it is passed as, which users name buffers by.
struct BufferUse {
  ElementType element;
  std::set<std::string> arg_names;
};

// Buffers no kernel names are absent: the caller compares them as bytes.
// `learned` gives argument information for kernels whose trace has none.
std::map<trace::CaptureId, BufferUse> buffer_uses(
    const trace::Range& range, const TraceCatalog& catalog,
    const std::map<trace::CaptureId, std::vector<trace::KernelArgInfo>>& learned = {});

}  // namespace msprof::replay

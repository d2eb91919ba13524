#include "replayer/core/host/host_line_flush.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace msprof::replay {
namespace {

#if defined(__x86_64__)

struct LineFlushCpu {
  bool optimized = false;  // CLFLUSHOPT: flushes overlap instead of running one by one
  std::size_t line = 64;
};

LineFlushCpu probe_cpu() {
  LineFlushCpu cpu;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    // CPUID.1:EBX[15:8], the CLFLUSH line size in 8-byte units.
    const std::size_t line = ((b >> 8) & 0xff) * 8;
    if (line >= 32) cpu.line = line;
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) cpu.optimized = (b & (1u << 23)) != 0;
  return cpu;
}

const LineFlushCpu& flush_cpu() {
  static const LineFlushCpu cpu = probe_cpu();
  return cpu;
}

__attribute__((target("clflushopt"))) void flush_lines_optimized(const std::byte* begin,
                                                                 const std::byte* end,
                                                                 std::size_t line) {
  for (const std::byte* p = begin; p < end; p += line) _mm_clflushopt(const_cast<std::byte*>(p));
}

void flush_lines_plain(const std::byte* begin, const std::byte* end, std::size_t line) {
  for (const std::byte* p = begin; p < end; p += line) _mm_clflush(p);
}

#endif

}  // namespace

bool HostLineFlush::available() {
#if defined(__x86_64__)
  return true;  // CLFLUSH is part of SSE2, which every x86-64 CPU has
#else
  return false;
#endif
}

void HostLineFlush::add(std::span<const std::byte> region) {
  if (region.empty()) return;
  regions_.push_back(region);
  bytes_ += region.size();
}

void HostLineFlush::clear() {
#if defined(__x86_64__)
  const auto& cpu = flush_cpu();
  for (const auto region : regions_) {
    // From the line the region starts in: a flush acts on the whole line.
    const auto first = reinterpret_cast<std::uintptr_t>(region.data()) & ~(cpu.line - 1);
    const auto* begin = reinterpret_cast<const std::byte*>(first);
    const auto* end = region.data() + region.size();
    if (cpu.optimized) {
      flush_lines_optimized(begin, end, cpu.line);
    } else {
      flush_lines_plain(begin, end, cpu.line);
    }
  }
  // CLFLUSHOPT is ordered only by fences: the pass must not start before
  // the last line is out.
  _mm_mfence();
#endif
}

std::string HostLineFlush::describe() {
#if defined(__x86_64__)
  const char* how = flush_cpu().optimized ? "CLFLUSHOPT" : "CLFLUSH";
#else
  const char* how = "unavailable";
#endif
  return std::string("evict the range's buffers from every cache level, line by line (") + how +
         "; the device works in host memory)";
}

}  // namespace msprof::replay

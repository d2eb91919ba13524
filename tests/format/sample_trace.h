#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "format/trace_record.h"

namespace msprof::test {

// One record of every kind, with every command kind inside the range, and the
// blob contents the records refer to.
struct SampleTrace {
  std::vector<trace::Record> records;
  std::vector<std::vector<std::byte>> blobs;
  std::size_t chunk_size = 0;  // a blob's key depends on it
  trace::BlobRef ref(const std::vector<std::byte>& blob) const;
};

SampleTrace make_sample_records(std::size_t chunk_size);
// Writes the sample (blobs first, as the recorder does) and returns it.
SampleTrace write_sample_trace(const std::filesystem::path& path, std::size_t chunk_size = 1024);

std::vector<std::byte> pattern_bytes(std::size_t size, unsigned seed);

}  // namespace msprof::test

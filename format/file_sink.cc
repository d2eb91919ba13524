#include "format/file_sink.h"

namespace msprof::trace {

FileSink::FileSink(const std::filesystem::path& path) : file_(path) {
  file_.append(encode_file_header());
}

std::uint64_t FileSink::append_frame(const FrameHeader& header,
                                     std::span<const std::byte> payload) {
  const auto head = encode_frame_header(header);
  std::lock_guard lock(mutex_);
  const std::uint64_t offset = file_.size();
  file_.append(head);
  file_.append(payload);
  index_.push_back({offset, header.frame_size(), header.raw_size, header.key, header.type});
  return offset;
}

void FileSink::flush() {
  std::lock_guard lock(mutex_);
  file_.flush();
}

std::uint64_t FileSink::bytes_written() const {
  std::lock_guard lock(mutex_);
  return file_.size();
}

std::vector<IndexEntry> FileSink::index_snapshot() const {
  std::lock_guard lock(mutex_);
  return index_;
}

void FileSink::finish() {
  std::lock_guard lock(mutex_);
  // Frames are appended one at a time, so the index is in file order.
  const auto payload = encode_index(index_);
  FrameHeader header;
  header.type = static_cast<std::uint16_t>(FrameType::Index);
  header.stored_size = payload.size();
  header.raw_size = payload.size();
  header.payload_hash = hash64(payload);
  const std::uint64_t index_offset = file_.size();
  file_.append(encode_frame_header(header));
  file_.append(payload);
  const std::uint64_t trailer_offset = file_.size();
  file_.append(encode_trailer({index_offset, header.frame_size(), trailer_offset}));
  file_.flush();
}

}  // namespace msprof::trace

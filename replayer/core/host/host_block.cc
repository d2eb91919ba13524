#include "replayer/core/host/host_block.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include <sys/mman.h>

#include "replayer/core/replay_error.h"

namespace msprof::replay {

HostBlock::HostBlock(std::uint64_t bytes)
    : size_(bytes),
      mapped_((std::max<std::uint64_t>(bytes, 1) + kAlignment - 1) & ~(kAlignment - 1)) {
  void* p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    throw DeviceError("cannot allocate " + std::to_string((mapped_ + (1u << 20) - 1) >> 20) +
                      " MiB of host memory for a buffer (" + std::strerror(errno) +
                      "); free host memory and replay again");
  }
  data_ = static_cast<std::byte*>(p);
}

HostBlock::~HostBlock() {
  ::munmap(data_, mapped_);
}

}  // namespace msprof::replay

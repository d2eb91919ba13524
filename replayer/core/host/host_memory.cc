#include "replayer/core/host/host_memory.h"

#include <fstream>
#include <string>

namespace msprof::replay {

std::optional<std::uint64_t> available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t value = 0;
  std::string unit;
  while (meminfo >> key >> value) {
    std::getline(meminfo, unit);
    if (key == "MemAvailable:") return value * 1024;  // the file's unit is kB
  }
  return std::nullopt;
}

}  // namespace msprof::replay

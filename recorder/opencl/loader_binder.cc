#include "recorder/opencl/loader_binder.h"

#include <dlfcn.h>
#include <link.h>

#include <cstring>
#include <mutex>
#include <set>

#include "recorder/opencl/cl_next.h"

namespace msprof::record::opencl {

namespace {

std::mutex g_mutex;
std::set<std::string> g_seen;           // loaders already bound (or tried)
std::vector<std::string> g_bypassing;   // of them, those calls bypass the layer
unsigned long long g_objects_seen = 0;  // dlpi_adds at the last scan
thread_local bool t_probe_arrived = false;

bool is_loader(const char* path) {
  if (path == nullptr || *path == '\0') return false;
  const char* base = std::strrchr(path, '/');
  base = base != nullptr ? base + 1 : path;
  return std::strncmp(base, "libOpenCL", 9) == 0;
}

int collect(struct dl_phdr_info* info, size_t, void* data) {
  auto* paths = static_cast<std::vector<std::string>*>(data);
  if (is_loader(info->dlpi_name)) paths->emplace_back(info->dlpi_name);
  return 0;
}

int count_objects(struct dl_phdr_info* info, size_t, void* data) {
  *static_cast<unsigned long long*>(data) = info->dlpi_adds;
  return 1;  // the first object carries the counter
}

using GetPlatformIDs = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);
using GetPlatformInfo = cl_int(CL_API_CALL*)(cl_platform_id, cl_platform_info, size_t, void*,
                                             size_t*);

// Whether a call through the loader at `path` reaches this layer, after
// asking it for its platforms (which sets its layers up).
bool bind(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return true;  // gone again: nothing to bind
  auto ids = reinterpret_cast<GetPlatformIDs>(dlsym(handle, "clGetPlatformIDs"));
  auto info = reinterpret_cast<GetPlatformInfo>(dlsym(handle, "clGetPlatformInfo"));
  bool reaches = true;
  cl_platform_id platform = nullptr;
  cl_uint count = 0;
  if (ids != nullptr && info != nullptr && ids(1, &platform, &count) == CL_SUCCESS && count > 0) {
    t_probe_arrived = false;
    std::size_t size = 0;
    info(platform, CL_PLATFORM_NAME, 0, nullptr, &size);
    reaches = t_probe_arrived;
  }
  dlclose(handle);
  return reaches;
}

}  // namespace

std::vector<std::string> LoaderBinder::bind_new_loaders() {
  unsigned long long objects = 0;
  dl_iterate_phdr(count_objects, &objects);
  std::vector<std::string> fresh;
  {
    const std::lock_guard lock(g_mutex);
    if (objects == g_objects_seen) return {};
    g_objects_seen = objects;
    std::vector<std::string> paths;
    dl_iterate_phdr(collect, &paths);
    for (auto& p : paths) {
      if (g_seen.insert(p).second) fresh.push_back(std::move(p));
    }
  }
  // Outside the lock: the loaders call back into the layer.
  std::vector<std::string> bypassing;
  for (const auto& path : fresh) {
    if (!bind(path)) bypassing.push_back(path);
  }
  const std::lock_guard lock(g_mutex);
  g_bypassing.insert(g_bypassing.end(), bypassing.begin(), bypassing.end());
  return bypassing;
}

std::vector<std::string> LoaderBinder::bypassing() {
  const std::lock_guard lock(g_mutex);
  return g_bypassing;
}

void LoaderBinder::note_call() {
  t_probe_arrived = true;
}

}  // namespace msprof::record::opencl

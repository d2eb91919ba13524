// The OpenCL layer's two entry points (cl_layer.h). The ICD loader calls
// them when OPENCL_LAYERS names this library.
#include <algorithm>
#include <cstring>
#include <mutex>

#include <CL/cl_layer.h>

#include "recorder/core/capture_session.h"
#include "recorder/opencl/cl_intercepts.h"
#include "recorder/opencl/cl_next.h"
#include "recorder/opencl/cl_recorder.h"
#include "recorder/opencl/loader_binder.h"

namespace msprof::record::opencl {
namespace {

cl_icd_dispatch g_next{};
cl_icd_dispatch g_layer{};
constexpr cl_uint kEntries = sizeof(cl_icd_dispatch) / sizeof(void*);

}  // namespace

const cl_icd_dispatch& next() {
  return g_next;
}

void set_next(const cl_icd_dispatch* target, cl_uint num_entries) {
  std::memset(&g_next, 0, sizeof g_next);
  std::memcpy(&g_next, target, sizeof(void*) * std::min(num_entries, kEntries));
}

}  // namespace msprof::record::opencl

using namespace msprof::record;
using namespace msprof::record::opencl;

extern "C" {

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clGetLayerInfo(cl_layer_info param_name, size_t size, void* value, size_t* size_ret) {
  static const char kName[] = "msprof-record";
  switch (param_name) {
    case CL_LAYER_API_VERSION: {
      const cl_layer_api_version version = CL_LAYER_API_VERSION_100;
      if (size_ret != nullptr) *size_ret = sizeof version;
      if (value != nullptr) {
        if (size < sizeof version) return CL_INVALID_VALUE;
        std::memcpy(value, &version, sizeof version);
      }
      return CL_SUCCESS;
    }
    case CL_LAYER_NAME:
      if (size_ret != nullptr) *size_ret = sizeof kName;
      if (value != nullptr) {
        if (size < sizeof kName) return CL_INVALID_VALUE;
        std::memcpy(value, kName, sizeof kName);
      }
      return CL_SUCCESS;
    default:
      return CL_INVALID_VALUE;
  }
}

__attribute__((visibility("default"))) CL_API_ENTRY cl_int CL_API_CALL
clInitLayer(cl_uint num_entries, const cl_icd_dispatch* target, cl_uint* num_entries_ret,
            const cl_icd_dispatch** layer_dispatch_ret) {
  if (target == nullptr || num_entries_ret == nullptr || layer_dispatch_ret == nullptr) {
    return CL_INVALID_VALUE;
  }
  // A second loader of the process (LoaderBinder) initialises its layers
  // too. Its target reaches the same driver through the objects' dispatch
  // tables, as the first one's does: the first table stays, so no call in
  // flight sees it change.
  static std::once_flag once;
  std::call_once(once, [&] {
    set_next(target, num_entries);
    g_layer = g_next;
    install_intercepts(g_layer);
    // An entry the layer below lacks stays empty, so the loader reports it
    // as unsupported instead of the layer calling a null pointer.
    auto* ours = reinterpret_cast<void**>(&g_layer);
    const auto* theirs = reinterpret_cast<void* const*>(&g_next);
    for (cl_uint i = 0; i < kEntries; ++i) {
      if (theirs[i] == nullptr) ours[i] = nullptr;
    }
    if (CaptureSession* session = CaptureSession::get()) {
      session->set_backend(&ClRecorder::instance());
      session->set_before_range([session] {
        for (const auto& path : LoaderBinder::bind_new_loaders()) {
          session->warn("OpenCL calls through " + path +
                        " reach the driver without passing msprof-record (that loader did not "
                        "load its layers): kernels a library enqueues through it are not "
                        "recorded; link that library against the loader the program uses");
        }
      });
      session->set_unseen_work([] {
        std::string paths;
        for (const auto& p : LoaderBinder::bypassing()) paths += (paths.empty() ? "" : ", ") + p;
        return paths.empty() ? std::string() : "calls through " + paths + " bypass the recorder";
      });
    }
  });
  *num_entries_ret = kEntries;
  *layer_dispatch_ret = &g_layer;
  return CL_SUCCESS;
}

}  // extern "C"

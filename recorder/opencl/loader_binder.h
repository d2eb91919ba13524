#pragma once

#include <string>
#include <vector>

namespace msprof::record::opencl {

// A process can hold several OpenCL ICD loaders: pyopencl's wheel brings its
// own, and a library linked against the system's libOpenCL.so.1 that is
// handed pyopencl's queues sends its calls through that one. ocl-icd sets
// up OPENCL_LAYERS only on the first call that takes a platform, which such
// a library never makes, so its kernels would reach the driver unseen.
// This finds every loader loaded in the process and makes each set its
// layers up (it asks for the platforms), then checks that a call through it
// reaches this layer.
class LoaderBinder {
 public:
  // Binds the loaders loaded since the last call; cheap when none was. Must
  // not run inside a loader's call (the binding calls into the loaders).
  // Returns the paths of loaders whose calls still bypass the layer.
  static std::vector<std::string> bind_new_loaders();
  // Every loader found so far that bypasses the layer.
  static std::vector<std::string> bypassing();
  // Called by the layer's clGetPlatformInfo: a probe's call arrived.
  static void note_call();
};

}  // namespace msprof::record::opencl

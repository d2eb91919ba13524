#pragma once

#include "recorder/opencl/cl_next.h"

namespace msprof::record::opencl {

// Each fills the layer's dispatch table with the intercepted entry points of
// its file; the rest stay as `next()` has them.
void install_context_queue_intercepts(cl_icd_dispatch& table);    // intercept_contexts_queues.cc
void install_memory_intercepts(cl_icd_dispatch& table);           // intercept_memory.cc
void install_program_intercepts(cl_icd_dispatch& table);          // intercept_programs.cc
void install_kernel_intercepts(cl_icd_dispatch& table);           // intercept_kernels.cc
void install_kernel_enqueue_intercepts(cl_icd_dispatch& table);   // intercept_enqueue_kernels.cc
void install_buffer_enqueue_intercepts(cl_icd_dispatch& table);   // intercept_enqueue_buffers.cc
void install_image_enqueue_intercepts(cl_icd_dispatch& table);    // intercept_enqueue_images.cc
void install_svm_enqueue_intercepts(cl_icd_dispatch& table);      // intercept_enqueue_svm.cc
void install_synchronization_intercepts(cl_icd_dispatch& table);  // intercept_synchronization.cc

inline void install_intercepts(cl_icd_dispatch& table) {
  install_context_queue_intercepts(table);
  install_memory_intercepts(table);
  install_program_intercepts(table);
  install_kernel_intercepts(table);
  install_kernel_enqueue_intercepts(table);
  install_buffer_enqueue_intercepts(table);
  install_image_enqueue_intercepts(table);
  install_svm_enqueue_intercepts(table);
  install_synchronization_intercepts(table);
}

}  // namespace msprof::record::opencl

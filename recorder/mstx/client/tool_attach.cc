#include "recorder/mstx/client/tool_attach.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

#include "recorder/mstx/client/staging_tables.h"
#include "recorder/mstx/include/ms_tools_ext.h"

namespace msprof::mstx {
namespace {

mstxInitInjectionFunc as_init_function(void* symbol) {
  return reinterpret_cast<mstxInitInjectionFunc>(symbol);
}

}  // namespace

bool attach_tool() noexcept {
  const char* path = std::getenv(MSTX_INJECTION_PATH_ENV);
  void* library = nullptr;
  mstxInitInjectionFunc init = nullptr;
  if (path != nullptr && path[0] != '\0') {
    // A named tool that cannot be used is a set-up mistake worth one line;
    // the program itself goes on without annotations.
    library = ::dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "mstx: warning: cannot load %s=%s: %s; annotations are off\n",
                   MSTX_INJECTION_PATH_ENV, path, ::dlerror());
      return false;
    }
    init = as_init_function(::dlsym(library, MSTX_INJECTION_ENTRY_NAME));
    if (init == nullptr) {
      std::fprintf(stderr, "mstx: warning: %s does not export %s; annotations are off\n", path,
                   MSTX_INJECTION_ENTRY_NAME);
      ::dlclose(library);
      return false;
    }
  } else {
    // A tool loaded some other way (LD_PRELOAD, linked in) is found here.
    init = as_init_function(::dlsym(RTLD_DEFAULT, MSTX_INJECTION_ENTRY_NAME));
    if (init == nullptr) return false;
  }

  int status = MSTX_FAIL;
  try {
    status = init(&StagingTables::get_module_func_table);
  } catch (...) {
    status = MSTX_FAIL;
  }
  if (status != MSTX_SUCCESS) {
    // Nothing the tool installed is published, so its code may go away.
    if (library != nullptr) ::dlclose(library);
    return false;
  }
  return true;
}

}  // namespace msprof::mstx

#include "recorder/launcher/tool_paths.h"

#include <stdexcept>
#include <system_error>

namespace msprof::record {

ToolPaths find_tool_paths() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto prefix = exe.parent_path().parent_path();
  ToolPaths installed{prefix / "lib" / "libmsprof_record.so", prefix / "lib" / "libms_tools_ext.so",
                      prefix / "lib" / "msprof-replay" / "python"};
  if (std::filesystem::exists(installed.layer)) return installed;
  ToolPaths built{MSPROF_BUILD_LAYER, MSPROF_BUILD_MSTX_LIBRARY, MSPROF_SOURCE_PYTHON_DIR};
  if (std::filesystem::exists(built.layer)) return built;
  throw std::runtime_error("the recorder library libmsprof_record.so is missing next to " +
                           exe.string() + "; reinstall with scripts/setup.sh");
}

}  // namespace msprof::record

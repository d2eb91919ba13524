#pragma once

#include <filesystem>

namespace msprof::record {

// Where the recorder's pieces are: next to the installed launcher
// (<prefix>/bin -> <prefix>/lib), else in the build tree it came from.
struct ToolPaths {
  std::filesystem::path layer;         // libmsprof_record.so
  std::filesystem::path mstx_library;  // libms_tools_ext.so
  std::filesystem::path python_dir;    // holds the mstx package
};
ToolPaths find_tool_paths();  // std::runtime_error when the layer is missing

}  // namespace msprof::record

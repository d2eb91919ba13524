#pragma once

#include <stdexcept>
#include <string>

namespace msprof::analyze {

// Bad input that is not a damaged trace: an unknown range, a results folder
// from another tool, an option that does not fit. The message is one line the
// CLI prints as it is.
class AnalyzeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace msprof::analyze

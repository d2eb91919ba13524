#pragma once

#include <string>
#include <string_view>

namespace msprof {

// A name from a trace (a range's mstx message, a kernel name, an argument's
// name) as one line a terminal shows as it is: control characters become \n,
// \t, \r or \xNN and a backslash becomes \\, so a name can neither break a
// one-line message nor move the cursor. Every tool prints names through it,
// so a name reads the same everywhere.
std::string printable(std::string_view text);

}  // namespace msprof

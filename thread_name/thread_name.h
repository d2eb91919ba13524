#pragma once

namespace msprof {

// Names the calling thread (at most 15 characters are kept) so that `top -H`,
// perf and a debugger show which threads in the recorded program are ours
// and what each one does. Best effort: a failure changes nothing else.
void name_this_thread(const char* name) noexcept;

}  // namespace msprof

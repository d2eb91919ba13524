#include "thread_name/thread_name.h"

#include <pthread.h>

namespace msprof {

void name_this_thread(const char* name) noexcept {
  char truncated[16] = {};
  for (int i = 0; i < 15 && name[i] != '\0'; ++i) truncated[i] = name[i];
  (void)pthread_setname_np(pthread_self(), truncated);
}

}  // namespace msprof

#pragma once

#include <cstddef>
#include <vector>

namespace msprof::record {

// Which whole chunks of a region of this process's memory were never
// touched, so read as zeros, told by the kernel's page tables without
// reading the region: reading untouched memory maps the zero page into it,
// and every later write to it by the program then costs a copy-on-write
// fault and, with several threads, a TLB shootdown on every core.
//
// Chunk i is [data + i * chunk_size, data + (i + 1) * chunk_size); only
// whole chunks are judged (a shorter last one is false). A chunk is true
// only when the region lies in private anonymous mappings (a file's pages
// that are not in memory are not zeros) and no page of the chunk is
// present or swapped out. Empty when that cannot be told (no
// /proc/self/pagemap, another kind of mapping, a region smaller than a
// chunk): the caller reads the region then.
std::vector<bool> untouched_chunks(const void* data, std::size_t size, std::size_t chunk_size);

}  // namespace msprof::record

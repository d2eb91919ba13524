#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <unordered_set>
#include <utility>
#include <vector>

#include "format/trace_record.h"
#include "recorder/core/snapshot_pipeline.h"

namespace msprof::record {

// A range while it is being captured. The blob references of its states and
// host data arrive later from the snapshot pipeline, through the slots.
struct RangeCapture {
  trace::Range range;
  std::vector<std::pair<trace::CaptureId, SnapshotPipeline::BlobSlot>> initial, final;
  // Commands whose data (a host write, an unmap) is a blob still being written.
  std::vector<std::pair<std::size_t, SnapshotPipeline::BlobSlot>> command_data;
  std::set<trace::CaptureId> objects;
  // Records of the objects, made at their first use in the range while their
  // handles are surely alive; built on the snapshot worker.
  std::vector<std::pair<trace::CaptureId, std::function<trace::Record()>>> object_records;
  std::unordered_set<trace::CaptureId> snapshotted;  // root buffers with an initial state
  std::size_t kernels = 0;
  // What the backend leaves to the snapshot worker, run just before the
  // range is written: the device timings, read once the range's commands
  // are done, so that the program need not wait for them at the range's end.
  std::function<void(trace::Range&)> finish_on_worker;
  // Set by the backend at the range's end: a command of the range still
  // waits on work only the program can complete (a user event it has not
  // set), so the range's record cannot be in the file before the program
  // goes on.
  bool waits_on_program = false;

  bool needs_initial_state(trace::CaptureId root) const { return !snapshotted.contains(root); }
};

}  // namespace msprof::record

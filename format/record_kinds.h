#pragma once

// The one list of record kinds. Each line is one kind:
//
//   X(type, frame type value, name)
//
// - type: the model type in trace_*.h, the table of the same name in
//   schemas/trace.fbs (a member of its RecordBody union) and the FrameType
//   value of the frame that holds it;
// - frame type value: the u16 on disk, fixed forever (append new kinds with
//   a value never used before);
// - name: what tools print for the kind (`frame_type_name`).
//
// Everything that maps between these is made from this list: the record
// values of FrameType and their names (frame.h), the Record variant
// (trace_record.h), frame_type_of (record_codec.h), the union tags and the
// decoding switch (record_codec.cc). Adding a kind is one line here plus its
// encoder and decoder in record_codec.cc; tests/format/record_kinds_test.cc
// checks that the list holds together.
#define MSPROF_TRACE_RECORD_KINDS(X) \
  X(TraceInfo, 1, "trace-info")      \
  X(Context, 2, "context")           \
  X(Program, 3, "program")           \
  X(Kernel, 4, "kernel")             \
  X(Buffer, 5, "buffer")             \
  X(Queue, 6, "queue")               \
  X(Sampler, 7, "sampler")           \
  X(Range, 8, "range")               \
  X(BlobManifest, 16, "blob-manifest")

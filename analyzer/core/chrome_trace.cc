#include "analyzer/core/chrome_trace.h"

#include <algorithm>
#include <limits>
#include <set>

namespace msprof::analyze {

using namespace msprof::trace;
using nlohmann::ordered_json;

namespace {

constexpr int kHostPid = 1;
constexpr int kDevicePid = 2;

ordered_json name_event(const char* what, int pid, std::uint64_t tid, const std::string& name) {
  ordered_json e = {{"name", what}, {"ph", "M"}, {"pid", pid}};
  if (std::string(what) == "thread_name") e["tid"] = tid;
  e["args"] = {{"name", name}};
  return e;
}

ordered_json span(const std::string& name, const char* cat, int pid, std::uint64_t tid,
                  double ts_us, double dur_us, ordered_json args) {
  return {{"name", name}, {"cat", cat},  {"ph", "X"},     {"pid", pid},
          {"tid", tid},   {"ts", ts_us}, {"dur", dur_us}, {"args", std::move(args)}};
}

double us(std::uint64_t ns, std::uint64_t zero) {
  return static_cast<double>(ns - zero) / 1e3;
}

std::string command_label(const ObjectTable& table, const CommandBody& body) {
  if (const auto* k = std::get_if<KernelLaunch>(&body)) return table.kernel_name(k->kernel);
  if (const auto* w = std::get_if<BufferWrite>(&body))
    return "write buffer " + std::to_string(w->buffer);
  if (const auto* r = std::get_if<BufferRead>(&body))
    return "read buffer " + std::to_string(r->buffer);
  if (const auto* c = std::get_if<BufferCopy>(&body)) {
    return "copy buffer " + std::to_string(c->src) + " -> " + std::to_string(c->dst);
  }
  if (const auto* f = std::get_if<BufferFill>(&body))
    return "fill buffer " + std::to_string(f->buffer);
  return "command";
}

}  // namespace

ordered_json chrome_trace_of_trace(const ObjectTable& table) {
  ordered_json events = ordered_json::array();
  events.push_back(name_event("process_name", kHostPid, 0, "host: ranges (host clock)"));
  events.push_back(name_event("process_name", kDevicePid, 0, "device: queues (device clock)"));

  std::uint64_t host_zero = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t device_zero = std::numeric_limits<std::uint64_t>::max();
  for (const auto& r : table.ranges()) {
    if (r.start_ns) host_zero = std::min(host_zero, r.start_ns);
    for (const auto& t : r.timings) {
      if (t.start_ns) device_zero = std::min(device_zero, t.start_ns);
    }
  }
  std::set<std::uint64_t> threads, queues;
  for (const auto& r : table.ranges()) {
    ordered_json args = {{"id", r.id},
                         {"status", range_status_name(r.status)},
                         {"reason", r.status_reason},
                         {"commands", r.commands.size()}};
    threads.insert(r.thread_id);
    if (r.start_ns && r.end_ns >= r.start_ns) {
      events.push_back(span(r.name, "range", kHostPid, r.thread_id, us(r.start_ns, host_zero),
                            us(r.end_ns, r.start_ns), args));
    } else if (r.start_ns) {
      events.push_back({{"name", r.name},
                        {"cat", "range"},
                        {"ph", "i"},
                        {"s", "t"},
                        {"pid", kHostPid},
                        {"tid", r.thread_id},
                        {"ts", us(r.start_ns, host_zero)},
                        {"args", args}});
    }

    // The range's span on each queue, then its commands inside it.
    std::map<CaptureId, std::pair<std::uint64_t, std::uint64_t>> on_queue;
    std::vector<ordered_json> commands;
    for (const auto& t : r.timings) {
      const auto it = std::find_if(r.commands.begin(), r.commands.end(),
                                   [&](const Command& c) { return c.seq == t.command_seq; });
      if (it == r.commands.end() || t.start_ns == 0 || t.end_ns < t.start_ns) continue;
      auto [q, fresh] = on_queue.try_emplace(it->queue, t.start_ns, t.end_ns);
      if (!fresh) {
        q->second.first = std::min(q->second.first, t.start_ns);
        q->second.second = std::max(q->second.second, t.end_ns);
      }
      ordered_json cargs = {{"range", r.name}, {"seq", it->seq}};
      if (const auto* k = std::get_if<KernelLaunch>(&it->body)) {
        cargs["global_size"] = k->global_size;
        cargs["local_size"] = k->local_size;
      }
      const bool kernel = std::holds_alternative<KernelLaunch>(it->body);
      commands.push_back(span(command_label(table, it->body), kernel ? "kernel" : "transfer",
                              kDevicePid, it->queue, us(t.start_ns, device_zero),
                              us(t.end_ns, t.start_ns), cargs));
    }
    for (const auto& [queue, times] : on_queue) {
      queues.insert(queue);
      events.push_back(span(r.name, "range", kDevicePid, queue, us(times.first, device_zero),
                            us(times.second, times.first), {{"id", r.id}}));
    }
    for (auto& c : commands) events.push_back(std::move(c));
  }
  for (const auto t : threads)
    events.push_back(name_event("thread_name", kHostPid, t, "thread " + std::to_string(t)));
  for (const auto q : queues)
    events.push_back(name_event("thread_name", kDevicePid, q, "queue " + std::to_string(q)));
  return {{"traceEvents", events},
          {"displayTimeUnit", "ns"},
          {"otherData",
           {{"source", "msprof-analyze export"},
            {"host", table.info().host},
            {"command_line", table.info().command_line}}}};
}

ordered_json chrome_trace_of_result(const ReplayResult& result) {
  ordered_json events = ordered_json::array();
  events.push_back(name_event("process_name", kHostPid, 0, "replay: " + result.label()));
  double cursor = 0;
  std::uint64_t tid = 0;
  for (const auto& r : result.ranges) {
    ++tid;
    events.push_back(name_event("thread_name", kHostPid, tid, r.name));
    if (r.kernels.empty()) continue;  // skipped; a failed range keeps the passes it completed
    std::size_t passes = 0;
    for (const auto& k : r.kernels) passes = std::max(passes, k.passes_us.size());
    for (std::size_t p = 0; p < passes; ++p) {
      double at = cursor;
      std::vector<ordered_json> kernels;
      for (const auto& k : r.kernels) {
        if (p >= k.passes_us.size()) continue;
        kernels.push_back(span(
            k.name, "kernel", kHostPid, tid, at, k.passes_us[p],
            {{"pass", p}, {"launch", k.launch}, {"seq", k.seq}, {"global_size", k.global_size}}));
        at += k.passes_us[p];
      }
      events.push_back(span("pass " + std::to_string(p), "pass", kHostPid, tid, cursor, at - cursor,
                            {{"range", r.name}, {"pass", p}}));
      for (auto& k : kernels) events.push_back(std::move(k));
      // A gap of a tenth keeps the passes apart on the timeline.
      cursor = at + std::max((at - cursor) / 10.0, 0.001);
    }
  }
  return {{"traceEvents", events},
          {"displayTimeUnit", "ns"},
          {"otherData",
           {{"source", "msprof-analyze export"},
            {"result", result.path},
            {"note", "durations are measured; passes are laid end to end"}}}};
}

}  // namespace msprof::analyze

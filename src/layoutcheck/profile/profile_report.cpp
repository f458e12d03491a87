// The ranking and its two renderings. Candidates are operators that run on the device, ranked by
// their total device time (calls x average at one shape); copies, allocations and
// synchronisations are listed apart with their counts, whatever their device time.
#include <algorithm>
#include <cstdio>
#include <string>

#include "layoutcheck/contract/diagnostic.h"
#include "layoutcheck/contract/utf8.h"
#include "layoutcheck/profile/operator_kind.h"
#include "layoutcheck/profile/profile.h"

namespace layoutcheck {
namespace {

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

std::string time_text(double us) {
  return us >= 1000 ? fixed(us / 1000, 3) + " ms" : fixed(us, 3) + " µs";
}

std::string bytes_text(double bytes) {
  if (bytes >= 1e9) return fixed(bytes / 1e9, 2) + " GB";
  if (bytes >= 1e6) return fixed(bytes / 1e6, 2) + " MB";
  if (bytes >= 1e3) return fixed(bytes / 1e3, 1) + " kB";
  return fixed(bytes, 0) + " B";
}

bool is_overhead(OperatorKind kind) {
  return kind == OperatorKind::copy || kind == OperatorKind::allocation ||
         kind == OperatorKind::synchronisation;
}

struct Ranked {
  const ProfiledOperator* op;
  double per_call_us;
  std::optional<double> bytes;          // per call
  std::optional<double> bandwidth_pct;  // of the copy bandwidth
};

// Above 100 % the estimate is no figure: the bytes were guessed too high from the shapes, or the
// operator's data came from L2; said so beside it rather than printed as a fast kernel.
std::string bandwidth_text(double percent) {
  return fixed(percent, 1) + " %" +
         (percent > 100 ? " (over the copy: bytes over-estimated or served from L2)" : "");
}

std::vector<Ranked> candidates(const Profile& profile, const ProfileOptions& options) {
  std::vector<Ranked> ranked;
  for (const ProfiledOperator& op : profile.operators) {
    if (op.device_us <= 0 || is_overhead(op.kind)) continue;
    Ranked entry{&op, op.calls > 0 ? op.device_us / static_cast<double>(op.calls) : op.device_us,
                 std::nullopt, std::nullopt};
    if (op.kind == OperatorKind::memory_bound)
      entry.bytes = estimated_bytes(op.name, op.shapes, options.element_bytes);
    if (entry.bytes && options.copy_bandwidth_gbps > 0 && entry.per_call_us > 0)
      entry.bandwidth_pct =
          *entry.bytes / (entry.per_call_us * 1e-6) / (options.copy_bandwidth_gbps * 1e9) * 100;
    ranked.push_back(entry);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
    return a.op->device_us > b.op->device_us;
  });
  return ranked;
}

std::vector<const ProfiledOperator*> overheads(const Profile& profile) {
  std::vector<const ProfiledOperator*> found;
  for (const ProfiledOperator& op : profile.operators)
    if (is_overhead(op.kind)) found.push_back(&op);
  std::stable_sort(
      found.begin(), found.end(),
      [](const ProfiledOperator* a, const ProfiledOperator* b) { return a->calls > b->calls; });
  return found;
}

std::string why(OperatorKind kind) {
  switch (kind) {
    case OperatorKind::copy:
      return "a copy: a tensor moved or converted between operators";
    case OperatorKind::allocation:
      return "an allocation: a temporary tensor";
    case OperatorKind::synchronisation:
      return "a synchronisation: the host waits for the device";
    default:
      return "";
  }
}

// Markdown table cells must not break the table: control characters (a newline would end the row
// and could start a heading of its own) are written as escapes; backslashes and pipes escaped, so
// no pipe of the name ends its cell. Bytes that are not UTF-8 (a name the table cut inside a
// character) become U+FFFD, as in the JSON, so the page stays valid text.
std::string cell(std::string_view name) {
  std::string text;
  for (const char c : printable(with_invalid_utf8_replaced(name))) {
    if (c == '\\' || c == '|') text += '\\';
    text += c;
  }
  return text;
}

}  // namespace

std::string profile_markdown(const Profile& profile, const ProfileOptions& options) {
  const std::vector<Ranked> ranked = candidates(profile, options);
  std::string text = "# Profile (" + profile.source +
                     "): " + std::to_string(profile.operators.size()) + " operators, device time " +
                     time_text(profile.device_total_us) + "\n\n";
  text += "## Candidates, by total device time\n\n";
  text +=
      "| # | operator | input shapes | calls | device total | per call | share | est. bytes/call "
      "| of copy bandwidth | kind |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < ranked.size() && i < options.top; ++i) {
    const Ranked& r = ranked[i];
    const double share =
        profile.device_total_us > 0 ? r.op->device_us / profile.device_total_us * 100 : 0;
    text += "| " + std::to_string(i + 1) + " | " + cell(r.op->name) + " | " +
            (r.op->input_shapes.empty() ? "—" : cell(r.op->input_shapes)) + " | " +
            std::to_string(r.op->calls) + " | " + time_text(r.op->device_us) + " | " +
            time_text(r.per_call_us) + " | " + fixed(share, 1) + " % | " +
            (r.bytes ? bytes_text(*r.bytes) : "—") + " | " +
            (r.bandwidth_pct ? bandwidth_text(*r.bandwidth_pct) : "—") + " | " +
            std::string(operator_kind_name(r.op->kind)) + " |\n";
  }
  if (ranked.size() > options.top)
    text += "\n… and " + std::to_string(ranked.size() - options.top) + " more (--top)\n";
  const std::vector<const ProfiledOperator*> costs = overheads(profile);
  text += "\n## Copies, allocations and synchronisations\n\n";
  if (costs.empty()) {
    text += "None in this profile.\n";
  } else {
    text +=
        "| operator | calls | device total | " +
        (profile.cpu_column.empty() ? std::string("CPU") : profile.cpu_column) +
        " | why it counts |\n|---|---|---|---|---|\n";
    for (const ProfiledOperator* op : costs)
      text += "| " + cell(op->name) + " | " + std::to_string(op->calls) + " | " +
              time_text(op->device_us) + " | " + (op->cpu_us > 0 ? time_text(op->cpu_us) : "—") +
              " | " + why(op->kind) + " |\n";
  }
  if (!profile.notes.empty()) {
    text += "\n## What in the profile does not hold together\n\n";
    for (const std::string& note : profile.notes) text += "- " + cell(note) + "\n";
    if (profile.notes_left_out > 0)
      text += "- … and " + std::to_string(profile.notes_left_out) + " more rows like these\n";
  }
  text +=
      "\nRead the calls and the shapes, not only the first line: a memory-bound operator of fixed "
      "shape called many times can be worth more than the largest GEMM.";
  if (options.copy_bandwidth_gbps <= 0)
    text +=
        " (The share of the copy bandwidth needs --copy-bandwidth GB/s, measured on the "
        "profiled device.)";
  text += " Bytes assume " + std::to_string(options.element_bytes) +
          "-byte elements where the profile gives shapes but no dtypes.\n";
  return text;
}

Json profile_json(const Profile& profile, const ProfileOptions& options) {
  Json ranked_json = Json::array();
  const std::vector<Ranked> ranked = candidates(profile, options);
  for (std::size_t i = 0; i < ranked.size() && i < options.top; ++i) {
    const Ranked& r = ranked[i];
    Json entry = Json::object()
                     .set("name", r.op->name)
                     .set("input_shapes", r.op->input_shapes)
                     .set("calls", r.op->calls)
                     .set("device_us", r.op->device_us)
                     .set("per_call_us", r.per_call_us)
                     .set("kind", std::string(operator_kind_name(r.op->kind)));
    entry.set("bytes_per_call", r.bytes ? Json(*r.bytes) : Json());
    entry.set("copy_bandwidth_pct", r.bandwidth_pct ? Json(*r.bandwidth_pct) : Json());
    if (r.bandwidth_pct && *r.bandwidth_pct > 100) entry.set("exceeds_copy_bandwidth", true);
    ranked_json.push(std::move(entry));
  }
  Json notes = Json::strings(profile.notes);
  Json costs = Json::array();
  for (const ProfiledOperator* op : overheads(profile))
    costs.push(Json::object()
                   .set("name", op->name)
                   .set("kind", std::string(operator_kind_name(op->kind)))
                   .set("calls", op->calls)
                   .set("device_us", op->device_us)
                   .set("cpu_us", op->cpu_us));
  return Json::object()
      .set("source", profile.source)
      .set("operators", static_cast<std::int64_t>(profile.operators.size()))
      .set("device_total_us", profile.device_total_us)
      .set("cpu_us_is", profile.cpu_column)
      .set("copy_bandwidth_gbps",
           options.copy_bandwidth_gbps > 0 ? Json(options.copy_bandwidth_gbps) : Json())
      .set("element_bytes", options.element_bytes)
      .set("candidates_total", static_cast<std::int64_t>(ranked.size()))
      .set("candidates", std::move(ranked_json))
      .set("copies_allocations_synchronisations", std::move(costs))
      .set("notes", std::move(notes))
      .set("notes_left_out", static_cast<std::int64_t>(profile.notes_left_out));
}

}  // namespace layoutcheck

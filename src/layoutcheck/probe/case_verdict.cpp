#include "layoutcheck/probe/case_verdict.h"

#include <algorithm>

#include "layoutcheck/render/misread_json.h"
#include "layoutcheck/render/misread_text.h"

namespace layoutcheck {
void CaseVerdict::add(std::string kind, std::string buffer_name, std::string message) {
  if (static_cast<std::size_t>(finding_counts[kind]++) < kMaxListedFindings)
    findings.push_back({std::move(kind), std::move(buffer_name), std::move(message)});
}

std::int64_t CaseVerdict::count(std::string_view kind) const {
  const auto found = finding_counts.find(kind);
  return found == finding_counts.end() ? 0 : found->second;
}

namespace {

// Kinds the conclusion words itself (from the counts beside them); any other is named by kind.
bool worded_kind(std::string_view kind) {
  for (std::string_view known :
       {"dependence", "unresolved", "ambiguous", "row-stride", "output-layout", "values"})
    if (kind == known) return true;
  return false;
}

}  // namespace

bool CaseVerdict::reads_clean() const {
  const bool hard_findings =
      std::any_of(finding_counts.begin(), finding_counts.end(),
                  [](const auto& entry) { return entry.first != "values" && entry.second > 0; });
  return reads.misread == 0 && reads.unresolved == 0 && unresolved == 0 &&
         dependence_mismatches == 0 && row_stride_findings == 0 && outputs_misplaced == 0 &&
         agrees_with_diff && not_verified.empty() && !hard_findings;
}

bool CaseVerdict::clean() const {
  return reads_clean() && (values_checked ? values_ok : count("values") == 0);
}

bool CaseVerdict::value_noise() const {
  const bool values_wrong = values_checked && !values_ok;
  const bool structural = dependence_mismatches > 0 || row_stride_findings > 0 ||
                          outputs_misplaced > 0 || count("input-layout") > 0 ||
                          count("routing") > 0 ||
                          count("not-a-copy") > 0 || count("never-read") > 0 ||
                          !not_verified.empty();
  const std::int64_t placed = reads.misread + std::max(unresolved, reads.unresolved);
  return values_wrong && !structural && probed > 0 && count("values") * 2 > probed && placed > 0 &&
         placed * 100 <= probed;
}

std::string CaseVerdict::conclusion(bool with_values) const {
  if (!side_effect_of.empty() && !clean())
    return "findings that follow from " + side_effect_of + ", not evidence of their own";
  if (value_noise())
    return "no layout misread the probes can attribute: " + std::to_string(count("values")) +
           " of " + std::to_string(probed) +
           " probes' values differ from the reference's, and the " +
           std::to_string(reads.misread + std::max(unresolved, reads.unresolved)) +
           " elements placed elsewhere or unresolved are what wrong values look like" +
           (with_values ? "; values differ from the reference" : "");
  if (clean())
    return sampled() ? "clean on a random sample: " + std::to_string(probed) + " of " +
                           std::to_string(offsets) + " offsets probed, each read as the claim says"
                     : "clean";
  std::vector<std::string> parts;
  if (reads.misread > 0)
    parts.push_back("layout misread: " + std::to_string(reads.misread) + " of " +
                    std::to_string(reads.elements) + " elements" +
                    (agrees_with_diff ? ", exactly the static diff's set" : ""));
  if (unresolved > 0) parts.push_back(std::to_string(unresolved) + " probes unresolved");
  if (unresolved == 0 && reads.unresolved > 0)
    parts.push_back(std::to_string(reads.unresolved) + " elements never read");
  if (dependence_mismatches > 0)
    parts.push_back(std::to_string(dependence_mismatches) +
                    " probes change other outputs than the reference's");
  if (row_stride_findings > 0) parts.push_back("rows read from the wrong place");
  if (outputs_misplaced > 0)
    parts.push_back("output written in another layout: " + std::to_string(outputs_misplaced) +
                    " elements where the model reads others");
  for (const auto& [counted, number] : finding_counts) {
    if (worded_kind(counted) || number <= 0) continue;
    const std::string& kind = counted;  // a lambda may not capture a structured binding (C++17)
    const auto first = std::find_if(findings.begin(), findings.end(),
                                    [&](const ProbeFinding& f) { return f.kind == kind; });
    parts.push_back(number == 1 && first != findings.end()
                        ? kind + ": " + first->message
                        : std::to_string(number) + " " + kind + " findings");
  }
  if (!agrees_with_diff)
    parts.push_back("the probes and the contracts disagree (the static diff predicts " +
                    std::to_string(static_diff.misread) + " misread)");
  const bool values_differ = values_checked ? !values_ok : count("values") > 0;
  if (values_differ && (with_values || parts.empty()))
    parts.push_back(parts.empty() ? "no layout misread, values differ from the reference"
                                  : "values differ from the reference");
  if (!not_verified.empty()) parts.push_back("not everything verified");
  if (parts.empty()) parts.push_back("findings");
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

Json findings_json(const std::vector<ProbeFinding>& findings) {
  Json json = Json::array();
  for (const ProbeFinding& finding : findings)
    json.push(Json::object()
                  .set("kind", finding.kind)
                  .set("buffer", finding.buffer)
                  .set("message", finding.message));
  return json;
}

std::string case_verdict_text(const CaseVerdict& verdict, std::size_t max_runs) {
  const MisreadReport& reads = verdict.reads;
  std::string text = "probe (" + verdict.case_name + ", " + verdict.decoder +
                     "): " + verdict.runner + " fed " + reads.producer + " (" + verdict.buffer +
                     ", " + std::to_string(verdict.probed) +
                     (verdict.probed < verdict.offsets
                          ? " of " + std::to_string(verdict.offsets) + " offsets sampled"
                          : " offsets") +
                     ", " + std::to_string(verdict.rows) + " rows per run, " +
                     std::to_string(verdict.runs) + " runs)\n";
  if (!verdict.other_layouts.empty()) {
    text += "  buffers not probed (model / kernel):";
    for (const CaseVerdict::OtherLayout& other : verdict.other_layouts)
      text += " " + other.buffer + " " + other.model + " / " + other.kernel +
              (&other == &verdict.other_layouts.back() ? "\n" : ";");
  }
  if (reads.misread > 0 || reads.unresolved > 0) {
    text += "  " + pad_right("field", 8) + pad_right("elements", 10) + pad_right("misread", 9) +
            "unresolved\n";
    for (const FieldReport& field : reads.fields)
      text += "  " + pad_right(field.name, 8) + pad_right(std::to_string(field.elements), 10) +
              pad_right(std::to_string(field.misread), 9) + std::to_string(field.unresolved) + "\n";
  }
  const std::size_t shown = std::min(max_runs, reads.runs.size());
  for (std::size_t i = 0; i < shown; ++i) text += "  " + describe_run(reads.runs[i]) + "\n";
  if (reads.runs_total > static_cast<std::int64_t>(shown))
    text += "  ... and " + std::to_string(reads.runs_total - static_cast<std::int64_t>(shown)) +
            " more runs\n";
  for (const ProbeFinding& finding : verdict.findings)
    text += "  " + finding.kind + ": " + finding.message + "\n";
  for (const std::string& gap : verdict.not_verified) text += "  not verified: " + gap + "\n";
  if (verdict.placed_by_claim > 0)
    text += "  sampled: " + std::to_string(verdict.placed_by_claim) +
            " elements were placed by the kernel's claim (their offsets were not probed)\n";
  if (verdict.values_checked)
    text += std::string("  values against the reference: ") +
            (verdict.values_ok ? "agree" : "DIFFER") +
            (verdict.values_detail.empty() ? "" : " (" + verdict.values_detail + ")") + "\n";
  std::string static_text = verdict.static_diff.misread > 0
                                ? std::to_string(verdict.static_diff.misread) + " elements misread"
                                : std::string("no misread");
  for (const std::string& mismatch : verdict.static_diff.row_mismatches)
    static_text += "; " + mismatch;
  text +=
      "  static diff of the contracts: " + static_text +
      (verdict.agrees_with_diff ? "; the probes agree exactly" : "; the probes DISAGREE with it") +
      "\n";
  for (const std::string& note : verdict.notes) text += "  note: " + note + "\n";
  text += "verdict: " + verdict.conclusion() + "\n";
  return text;
}

Json case_verdict_json(const CaseVerdict& verdict, std::size_t max_runs) {
  Json json = report_to_json(verdict.reads, max_runs);
  json.set("case", verdict.case_name)
      .set("decoder", verdict.decoder)
      .set("runner", verdict.runner)
      .set("buffer", verdict.buffer)
      .set("offsets", verdict.offsets)
      .set("probed", verdict.probed)
      .set("rows_per_run", verdict.rows)
      .set("runner_calls", verdict.runs)
      .set("agrees_with_diff", verdict.agrees_with_diff)
      .set("static_misread", verdict.static_diff.misread)
      .set("unresolved_probes", verdict.unresolved)
      .set("dependence_mismatches", verdict.dependence_mismatches)
      .set("row_stride_findings", verdict.row_stride_findings)
      .set("outputs_misplaced", verdict.outputs_misplaced);
  Json layouts = Json::array();
  for (const CaseVerdict::OtherLayout& other : verdict.other_layouts)
    layouts.push(Json::object()
                     .set("buffer", other.buffer)
                     .set("model", other.model)
                     .set("kernel", other.kernel));
  json.set("buffers_not_probed", std::move(layouts));
  json.set("findings", findings_json(verdict.findings));
  Json counts = Json::object();
  for (const auto& [kind, number] : verdict.finding_counts) counts.set(kind, number);
  json.set("finding_counts", std::move(counts));
  json.set("sampled", verdict.sampled()).set("placed_by_claim", verdict.placed_by_claim);
  Json notes = Json::strings(verdict.notes);
  json.set("notes", std::move(notes));
  json.set("details", verdict.details);
  Json values = Json::object();
  values.set("checked", verdict.values_checked)
      .set("agree", verdict.values_ok)
      .set("detail", verdict.values_detail);
  json.set("values", std::move(values));
  Json gaps = Json::strings(verdict.not_verified);
  json.set("not_verified", std::move(gaps));
  json.set("clean", verdict.clean()).set("conclusion", verdict.conclusion());
  return json;
}

}  // namespace layoutcheck

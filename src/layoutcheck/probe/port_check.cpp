#include "layoutcheck/probe/port_check.h"

#include <algorithm>

namespace layoutcheck {

bool PortCheck::clean() const {
  return !buffers.empty() && findings.empty() && not_verified.empty() &&
         (!values_checked || values_ok) &&
         std::all_of(buffers.begin(), buffers.end(),
                     [](const CaseVerdict& verdict) { return verdict.clean(); });
}

std::string PortCheck::conclusion() const {
  if (clean()) {
    std::string sampled;
    for (const CaseVerdict& verdict : buffers)
      if (verdict.sampled())
        sampled += (sampled.empty() ? "" : ", ") + verdict.buffer + " on a random sample of " +
                   std::to_string(verdict.probed) + " of " + std::to_string(verdict.offsets) +
                   " offsets";
    return sampled.empty() ? "clean" : "clean (" + sampled + ")";
  }
  std::string text;
  const auto add = [&text](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
  bool values_differ = values_checked && !values_ok;
  // A stray access, a race or two launches that disagree explain any wrong value and any probe
  // finding: say that plainly, first, and do not list what follows from it as a layout's.
  const bool unattributable =
      std::any_of(findings.begin(), findings.end(), [](const ProbeFinding& finding) {
        return finding.kind == "out-of-bounds" || finding.kind == "non-deterministic" ||
               finding.kind == "memcheck" || finding.kind == "racecheck";
      });
  if (unattributable) {
    for (const ProbeFinding& finding : findings) add(finding.kind + ": " + finding.message);
    std::string disturbed;
    for (const CaseVerdict& verdict : buffers)
      if (!verdict.reads_clean()) disturbed += (disturbed.empty() ? "" : ", ") + verdict.buffer;
    if (!disturbed.empty())
      add("the probes' findings in " + disturbed +
          " may follow from it and are not evidence of a layout");
    if (values_differ) add("values differ from the reference");
    return text;
  }
  for (const CaseVerdict& verdict : buffers) {
    if (!verdict.reads_clean() && !verdict.value_noise() && verdict.side_effect_of.empty())
      add(verdict.buffer + ": " + verdict.conclusion(false));
    else
      values_differ = values_differ || !verdict.clean();
  }
  for (const ProbeFinding& finding : findings) add(finding.kind + ": " + finding.message);
  if (values_differ)
    add(text.empty() ? "no layout misread, values differ from the reference"
                     : "values differ from the reference, as the findings above explain");
  if (!not_verified.empty()) add("not everything verified");
  if (buffers.empty()) add("nothing probed");
  if (text.empty()) add("findings");
  return text;
}

namespace {

// Output elements (where the claimed contract puts one) still holding the all-ones sentinel.
void check_every_output_written(const Case& subject, const CaseProbeRequest& request,
                                const BufferSet& written, PortCheck& check) {
  for (const BufferSpec& spec : subject.buffers()) {
    if (spec.role != BufferRole::output) continue;
    const HostBuffer& buffer = written.at(spec.name);
    const auto claimed = request.claimed.find(spec.name);
    std::int64_t unwritten = 0;
    std::string first;
    const std::uint64_t sentinel =
        buffer.width() == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * buffer.width())) - 1;
    const auto look = [&](std::int64_t index) {
      if (buffer.bits(index) != sentinel) return;
      if (unwritten++ < 4) first += (first.empty() ? "" : ", ") + std::to_string(index);
    };
    if (claimed == request.claimed.end()) {
      for (std::int64_t i = 0; i < buffer.elements(); ++i) look(i);
    } else {
      for (const Field& field : claimed->second.fields)
        field.for_each_offset([&](std::int64_t, std::int64_t offset) {
          for (std::int64_t row = 0; row < buffer.rows; ++row)
            look(row * buffer.row_stride + offset);
        });
    }
    if (unwritten > 0)
      check.findings.push_back({"unwritten", spec.name,
                                std::to_string(unwritten) + " elements of '" + spec.name +
                                    "' were never written (still the sentinel the buffer was "
                                    "filled with), the first at offsets " +
                                    first});
  }
}

// Two launches on the same inputs must write the same bits.
void check_determinism(const BufferSet& first, const BufferSet& second, PortCheck& check) {
  for (const HostBuffer& buffer : first.all()) {
    const HostBuffer& again = second.at(buffer.name);
    std::int64_t differ = 0, at = -1;
    for (std::int64_t i = 0; i < buffer.elements(); ++i)
      if (buffer.bits(i) != again.bits(i)) {
        if (at < 0) at = i;
        ++differ;
      }
    if (differ > 0)
      check.findings.push_back({"non-deterministic", buffer.name,
                                std::to_string(differ) + " elements of '" + buffer.name +
                                    "' differ between two launches on the same inputs, the first "
                                    "at offset " +
                                    std::to_string(at)});
  }
}

}  // namespace

Contract with_padded_rows(const Contract& contract) {
  Contract padded = contract;
  const std::int64_t stride = row_stride(contract) + kPitchPad;
  if (padded.rows.empty())
    padded.rows.push_back(RowDim{"row", stride, {}});
  else
    padded.rows.back().stride = stride;
  padded.name = contract.name + " (rows padded to " + std::to_string(stride) + ")";
  return padded;
}

std::string row_pitch_message(const std::string& buffer, std::int64_t padded_stride,
                              const std::string& padded_conclusion) {
  return "with the rows of '" + buffer + "' padded by " + std::to_string(kPitchPad) +
         " elements (the row stride passed as " + std::to_string(padded_stride) +
         "), the kernel does not read them as with packed rows: " + padded_conclusion +
         " (it computes its own row pitch instead of using the stride the ABI passes)";
}

PortCheck check_port(const Case& subject, CaseRunner& port, const std::string& port_name,
                     const CaseProbeRequest& request) {
  PortCheck check;
  check.port = port_name;
  // The ABI's promises beside the reads, on random inputs laid out as the model lays them out:
  // every output element written (outputs start as all-ones bytes, NaN in every float dtype), the
  // same bits from two launches, nothing written past a buffer (the runner's guard zones).
  BufferSet inputs = subject.make_buffers(request.model, request.rows, request.seed);
  for (const BufferSpec& spec : subject.buffers())
    if (spec.role == BufferRole::output)
      std::fill(inputs.at(spec.name).bytes.begin(), inputs.at(spec.name).bytes.end(), 0xFF);
  BufferSet first = inputs, second = inputs;
  port.run(first);
  port.run(second);
  check_every_output_written(subject, request, first, check);
  check_determinism(first, second, check);
  const std::string decoder = subject.decoders().front();
  for (const std::string& buffer : subject.port_probe_buffers()) {
    CaseProbeRequest one = request;
    one.buffer = buffer;
    one.value_probes = false;
    CaseVerdict verdict = probe_case(subject, port, decoder, one);
    if (verdict.values_checked && !check.values_checked) {
      check.values_checked = true;
      check.values_ok = verdict.values_ok;
      check.values_detail = verdict.values_detail;
    }
    verdict.values_checked = false;  // the port's, above: each buffer is judged on its reads
    check.buffers.push_back(std::move(verdict));
  }
  // The row stride the ABI passes, honoured: each probed buffer again with padded rows, where the
  // model packs them (a model that pads already was probed so above). The pad holds the probe's
  // constant; a kernel reading it depends on an offset no element is at.
  for (const std::string& buffer : subject.port_probe_buffers()) {
    const auto model = request.model.find(buffer);
    const auto claimed = request.claimed.find(buffer);
    if (model == request.model.end() || claimed == request.claimed.end() ||
        row_stride(model->second) != model->second.row_size || request.rows < 2)
      continue;
    CaseProbeRequest padded = request;
    padded.buffer = buffer;
    padded.value_probes = false;
    padded.model[buffer] = with_padded_rows(model->second);
    padded.claimed[buffer] = with_padded_rows(claimed->second);
    const CaseVerdict verdict = probe_case(subject, port, decoder, padded);
    const auto unpadded = std::find_if(check.buffers.begin(), check.buffers.end(),
                                       [&](const CaseVerdict& v) { return v.buffer == buffer; });
    if (!verdict.reads_clean() && unpadded != check.buffers.end() && unpadded->reads_clean())
      check.findings.push_back(
          {"row-pitch", buffer,
           row_pitch_message(buffer, row_stride(padded.model[buffer]), verdict.conclusion(false))});
  }
  for (ProbeFinding& finding : run_value_probes(subject, port, request))
    check.findings.push_back(std::move(finding));
  for (ProbeFinding& finding : port.take_findings()) check.findings.push_back(std::move(finding));
  return check;
}

std::string port_check_text(const PortCheck& check) {
  std::string text;
  for (const CaseVerdict& verdict : check.buffers) text += case_verdict_text(verdict);
  for (const ProbeFinding& finding : check.findings)
    text += finding.kind + ": " + finding.message + "\n";
  for (const std::string& gap : check.not_verified) text += "not verified: " + gap + "\n";
  for (const std::string& note : check.notes) text += "note: " + note + "\n";
  if (check.values_checked)
    text += std::string("values against the reference on random inputs: ") +
            (check.values_ok ? "agree" : "DIFFER") +
            (check.values_detail.empty() ? "" : " (" + check.values_detail + ")") + "\n";
  text += "port " + check.port + ": " + check.conclusion() + "\n";
  return text;
}

Json port_check_json(const PortCheck& check) {
  Json buffers = Json::array();
  for (const CaseVerdict& verdict : check.buffers) buffers.push(case_verdict_json(verdict));
  Json gaps = Json::strings(check.not_verified), notes = Json::strings(check.notes);
  return Json::object()
      .set("port", check.port)
      .set("buffers", std::move(buffers))
      .set("findings", findings_json(check.findings))
      .set("not_verified", std::move(gaps))
      .set("notes", std::move(notes))
      .set("values", Json::object()
                         .set("checked", check.values_checked)
                         .set("agree", check.values_ok)
                         .set("detail", check.values_detail))
      .set("clean", check.clean())
      .set("conclusion", check.conclusion());
}

}  // namespace layoutcheck

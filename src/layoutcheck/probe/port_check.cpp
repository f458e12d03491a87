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

PortCheck check_port(const Case& subject, CaseRunner& port, const std::string& port_name,
                     const CaseProbeRequest& request) {
  PortCheck check;
  check.port = port_name;
  const std::string decoder = subject.decoders().front();
  for (const std::string& buffer : subject.port_probe_buffers()) {
    CaseProbeRequest one = request;
    one.buffer = buffer;
    CaseVerdict verdict = probe_case(subject, port, decoder, one);
    if (verdict.values_checked && !check.values_checked) {
      check.values_checked = true;
      check.values_ok = verdict.values_ok;
      check.values_detail = verdict.values_detail;
    }
    verdict.values_checked = false;  // the port's, above: each buffer is judged on its reads
    check.buffers.push_back(std::move(verdict));
  }
  return check;
}

std::string port_check_text(const PortCheck& check) {
  std::string text;
  for (const CaseVerdict& verdict : check.buffers) text += case_verdict_text(verdict);
  for (const ProbeFinding& finding : check.findings)
    text += finding.kind + ": " + finding.message + "\n";
  for (const std::string& gap : check.not_verified) text += "not verified: " + gap + "\n";
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
  Json gaps = Json::array();
  for (const std::string& gap : check.not_verified) gaps.push(gap);
  return Json::object()
      .set("port", check.port)
      .set("buffers", std::move(buffers))
      .set("findings", findings_json(check.findings))
      .set("not_verified", std::move(gaps))
      .set("values", Json::object()
                         .set("checked", check.values_checked)
                         .set("agree", check.values_ok)
                         .set("detail", check.values_detail))
      .set("clean", check.clean())
      .set("conclusion", check.conclusion());
}

}  // namespace layoutcheck

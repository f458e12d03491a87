// A case's merge gates (`layoutcheck gate --case NAME`): named checks over the inputs and models
// the case declares, each passed, failed or not run with the reason. Nothing merges on a check
// that did not run: a report with any check not run is INCOMPLETE, never clean. Each case
// registers its gates once; the host half runs anywhere (input refusals, CPU models), the device
// half, registered by the case's GPU half, runs the kernels and replaces the host half's
// placeholders for the checks only a GPU can make.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace layoutcheck {

enum class GateOutcome { passed, failed, not_run };
std::string_view outcome_name(GateOutcome outcome);  // "passed", "FAILED", "not run"

struct GateCheck {
  std::string gate;     // "operator", "model", "end-to-end"
  std::string kind;     // "valid", "boundary", "illegal", "model"
  std::string subject;  // "layernorm fp16 [1,131040,191]"
  GateOutcome outcome = GateOutcome::not_run;
  std::string detail;   // what was compared or refused; for not run, why
};

struct GateRequest {
  std::string contracts_folder;
  std::string only;  // run only checks whose subject contains this; empty: all
  // One call the case checks alone, as KEY=VALUE strings the case reads (its gate's --call); a
  // call the kernels do not take is the command's error (InputError), not a failed check.
  std::vector<std::string> call;
};

struct GateReport {
  std::string case_name;
  std::string device;  // "NVIDIA H200 (sm_90)" or "none: <why>"
  // Empty: every check of the case ran, the merge gate. Otherwise what was selected (--only,
  // --call), said beside the verdict: a clean selection is not a clean gate.
  std::string selection;
  std::vector<GateCheck> checks;

  std::size_t count(GateOutcome outcome) const;
  // "clean", "FAILED" (any failed) or "INCOMPLETE" (none failed, some not run).
  std::string verdict() const;
  int exit_code() const;  // 0 clean, 1 failed, 3 incomplete
};

// The device half's checks replace the host half's of the same gate and subject; others append.
std::vector<GateCheck> merge_gate_checks(std::vector<GateCheck> host,
                                         const std::vector<GateCheck>& device);

struct CaseGates {
  std::string case_name;
  std::function<std::vector<GateCheck>(const GateRequest&)> host;
  std::function<std::vector<GateCheck>(const GateRequest&)> device;  // empty: no GPU half
};

class CaseGateRegistry {
 public:
  static CaseGateRegistry& instance();
  void add(CaseGates gates);  // one for the same case is replaced
  // The device half of an already registered case (the GPU library's registration).
  void set_device(std::string_view case_name,
                  std::function<std::vector<GateCheck>(const GateRequest&)> device);
  // @post nullptr when the case has no gates.
  const CaseGates* find(std::string_view case_name) const;
  std::vector<std::string> names() const;

 private:
  mutable std::mutex mutex_;
  std::vector<CaseGates> gates_;
};

}  // namespace layoutcheck

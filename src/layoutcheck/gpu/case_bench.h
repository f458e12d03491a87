// The GPU halves of the cases' benches: `layoutcheck bench --case NAME` runs the one registered
// for NAME (src/cases/builtin_gpu_cases.cpp registers them; the toolkit names none). A run gates
// every path, times the VALID ones and returns the result model; rendering is the toolkit's.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "layoutcheck/bench/bench_request.h"
#include "layoutcheck/bench/operator_report.h"
#include "layoutcheck/bench/result.h"

namespace layoutcheck::gpu {

using BenchProgress = std::function<void(const std::string&)>;

struct CaseBench {
  std::string case_name;  // the registry's name ("gdn")
  // @pre the request passed validate_bench_request and the case's validate_bench.
  // One of the two is set: a bench of layer graphs over batches (result.h), or of fixed-shape
  // operators (operator_report.h).
  std::function<BenchReport(const BenchRequest&, const BenchProgress&)> run;
  std::function<OperatorBenchReport(const BenchRequest&, const BenchProgress&)> run_operators;
};

class CaseBenchRegistry {
 public:
  static CaseBenchRegistry& instance();
  void add(CaseBench bench);  // one for the same case is replaced
  // @post nullptr when no bench is registered for the case.
  const CaseBench* find(std::string_view case_name) const;

 private:
  mutable std::mutex mutex_;
  std::vector<CaseBench> benches_;
};

}  // namespace layoutcheck::gpu

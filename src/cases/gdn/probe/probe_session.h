// One kernel under probe: the inputs, its base outputs, the predictor and the decoder, built once
// and reused for every runner call of a sweep.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "cases/gdn/probe/decoder.h"
#include "cases/gdn/probe/probe_inputs.h"
#include "cases/gdn/probe/probe_options.h"
#include "cases/gdn/probe/response.h"
#include "cases/gdn/problem.h"
#include "cases/gdn/reference.h"

namespace layoutcheck {

struct ProbePoint {
  std::int64_t row = 0;
  std::int64_t offset = 0;
};

class ProbeSession {
 public:
  // @pre target validated; values resolved (non-zero). Runs the runner once for the base.
  ProbeSession(GdnRunner& runner, const ProbeTarget& target, const ProbeOptions& options,
               OneHotValues values, std::int64_t batch);
  ProbeSession(const ProbeSession&) = delete;  // the predictor refers to members
  ProbeSession& operator=(const ProbeSession&) = delete;

  std::int64_t batch() const { return inputs_.batch(); }

  // One runner call with a hot element at each point (at most one per row); decodes the response
  // of each point's own row.
  std::vector<ProbeDecoding> probe(const std::vector<ProbePoint>& points);

  // One runner call with a single hot element; decodes every row that responded (each decoding
  // names its row), so a response that lands in another row shows.
  std::vector<ProbeDecoding> probe_all_rows(ProbePoint point);

  // Rows of the base outputs that differ from row 0 although their inputs are identical.
  std::vector<std::int64_t> base_rows_differing() const;

 private:
  void run(GdnStepOutputs& outputs);

  GdnRunner& runner_;
  unsigned threads_;
  GdnReference model_;  // the reference reading as the kernel claims to read
  ProbeInputs inputs_;
  GdnStepOutputs base_;
  GdnStepOutputs outputs_;  // reused by every call: runners may keep its buffers
  bool base_rows_identical_ = true;
  ResponseExtractor extractor_;
  std::unique_ptr<ResponsePredictor> predictor_;
  std::unique_ptr<ProbeDecoder> decoder_;
};

}  // namespace layoutcheck

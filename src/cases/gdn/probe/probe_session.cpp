#include "cases/gdn/probe/probe_session.h"

#include <algorithm>
#include <thread>

namespace layoutcheck {
namespace {

unsigned worker_count(unsigned requested, std::size_t jobs) {
  const unsigned threads =
      requested ? requested : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(jobs, 1)));
}

template <class Work>
void parallel_for(std::size_t jobs, unsigned threads, Work&& work) {
  if (threads <= 1) {
    for (std::size_t i = 0; i < jobs; ++i) work(i);
    return;
  }
  std::vector<std::jthread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::size_t i = t; i < jobs; i += threads) work(i);
    });
}

}  // namespace

ProbeSession::ProbeSession(GdnRunner& runner, const ProbeTarget& target,
                           const ProbeOptions& options, OneHotValues values, std::int64_t batch)
    : runner_(runner),
      threads_(options.threads),
      model_(target.shape, target.consumer),
      inputs_(target, values, batch, options.seed),
      extractor_(target.shape, target.consumer.state) {
  run(base_);
  base_rows_identical_ = base_rows_differing().empty();
  predictor_ = std::make_unique<ResponsePredictor>(model_, target.buffer, inputs_.inputs(), values);
  const std::int64_t row = target.shape.HV * target.shape.V;
  decoder_ = std::make_unique<ProbeDecoder>(
      *predictor_, target.shape, options.tolerance,
      std::vector<bf16_bits>(base_.out.begin(), base_.out.begin() + row), target.consumer.state,
      values.hot);
}

void ProbeSession::run(GdnStepOutputs& outputs) {
  runner_.step_into(inputs_.inputs(), outputs);
  extractor_.check_outputs(outputs, inputs_.batch(), runner_.name());
}

std::vector<ProbeDecoding> ProbeSession::probe(const std::vector<ProbePoint>& points) {
  for (const ProbePoint& point : points) inputs_.set_hot(point.row, point.offset);
  run(outputs_);
  inputs_.clear_hot();
  const GdnStepOutputs& outputs = outputs_;
  std::vector<ProbeDecoding> decodings(points.size());
  parallel_for(points.size(), worker_count(threads_, points.size()), [&](std::size_t i) {
    ProbeDecoding& decoding = decodings[i];
    decoding.row = points[i].row;
    decoding.offset = points[i].offset;
    // Every base row is normally the same: comparing with row 0 keeps one base row in cache.
    const RowResponse response =
        extractor_.extract(outputs, decoding.row, base_, base_rows_identical_ ? 0 : decoding.row);
    if (response.changed) decoder_->decode(response, decoding);
  });
  return decodings;
}

std::vector<ProbeDecoding> ProbeSession::probe_all_rows(ProbePoint point) {
  inputs_.set_hot(point.row, point.offset);
  run(outputs_);
  inputs_.clear_hot();
  const GdnStepOutputs& outputs = outputs_;
  std::vector<ProbeDecoding> decodings;
  for (std::int64_t row = 0; row < inputs_.batch(); ++row) {
    const RowResponse response = extractor_.extract(outputs, row, base_, row);
    if (!response.changed) continue;
    ProbeDecoding decoding;
    decoding.row = row;
    decoding.offset = point.offset;
    decoder_->decode(response, decoding);
    decodings.push_back(std::move(decoding));
  }
  return decodings;
}

std::vector<std::int64_t> ProbeSession::base_rows_differing() const {
  std::vector<std::int64_t> rows;
  for (std::int64_t row = 1; row < inputs_.batch(); ++row)
    if (extractor_.extract(base_, row, base_, 0).changed) rows.push_back(row);
  return rows;
}

}  // namespace layoutcheck

#include "cases/gdn/gpu/adapter_runners.h"

#include <stdexcept>

#include "kernels/gdn/gdn_kernels.h"
#include "cases/gdn/layouts.h"
#include "cases/gdn/standard_layouts.h"

namespace layoutcheck::gpu {
namespace {

std::int64_t span_of_rows(const Contract& contract, std::int64_t batch) {
  return (batch - 1) * row_stride(contract) + contract.row_size;
}

class HandWrittenQkvz : public GpuAdapterRunner {
 public:
  HandWrittenQkvz(const GdnShape& shape, std::int64_t batch)
      : GpuAdapterRunner("gpu:adapter:qkvz (hand-written)", flat_qkvz_contract(shape),
                         interleaved_qkvz_contract(shape), batch),
        shape_(shape) {}

 private:
  void enqueue(hipStream_t stream) override {
    kernels::launch_adapt_qkvz_flat_to_interleaved(input_.data(), producer_stride_, output_.data(),
                                                   consumer_stride_, batch_, shape_.H, shape_.HV,
                                                   shape_.K, shape_.V, stream);
  }
  GdnShape shape_;
};

class HandWrittenBa : public GpuAdapterRunner {
 public:
  HandWrittenBa(const GdnShape& shape, std::int64_t batch)
      : GpuAdapterRunner("gpu:adapter:ba (hand-written)", flat_ba_contract(shape),
                         interleaved_ba_contract(shape), batch),
        shape_(shape) {}

 private:
  void enqueue(hipStream_t stream) override {
    kernels::launch_adapt_ba_flat_to_interleaved(input_.data(), producer_stride_, output_.data(),
                                                 consumer_stride_, batch_, shape_.H, shape_.HV,
                                                 stream);
  }
  GdnShape shape_;
};

class Generated : public GpuAdapterRunner {
 public:
  Generated(const Contract& producer, const Contract& consumer, std::int64_t batch)
      : GpuAdapterRunner("gpu:adapter:" + producer.name + "->" + consumer.name + " (generated)",
                         producer, consumer, batch),
        adapter_(producer, consumer) {}

 private:
  void enqueue(hipStream_t stream) override {
    adapter_.enqueue(input_.data(), producer_stride_, output_.data(), consumer_stride_, batch_,
                     stream);
  }
  GeneratedAdapter adapter_;
};

}  // namespace

GpuAdapterRunner::GpuAdapterRunner(std::string name, const Contract& producer,
                                   const Contract& consumer, std::int64_t batch)
    : batch_(batch),
      producer_stride_(row_stride(producer)),
      consumer_stride_(row_stride(consumer)),
      name_(std::move(name)),
      input_size_(span_of_rows(producer, batch)),
      output_size_(span_of_rows(consumer, batch)) {
  if (producer.dtype != DType::bf16 || consumer.dtype != DType::bf16)
    throw std::invalid_argument(name_ + ": the bit-plane runners move bf16 buffers");
  if (batch < 1) throw std::invalid_argument(name_ + ": batch must be positive");
  input_ = DeviceBuffer<bf16_bits>(static_cast<std::size_t>(input_size_));
  output_ = DeviceBuffer<bf16_bits>(static_cast<std::size_t>(output_size_));
}

std::vector<bf16_bits> GpuAdapterRunner::run(const std::vector<bf16_bits>& input) {
  input_.upload(input);
  output_.fill_bytes(0);
  enqueue(stream_.get());
  stream_.synchronize();
  return output_.to_host();
}

std::unique_ptr<GpuAdapterRunner> make_hand_written_qkvz_adapter(const GdnShape& shape,
                                                                 std::int64_t batch) {
  return std::make_unique<HandWrittenQkvz>(shape, batch);
}

std::unique_ptr<GpuAdapterRunner> make_hand_written_ba_adapter(const GdnShape& shape,
                                                               std::int64_t batch) {
  return std::make_unique<HandWrittenBa>(shape, batch);
}

std::unique_ptr<GpuAdapterRunner> make_generated_adapter(const Contract& producer,
                                                         const Contract& consumer,
                                                         std::int64_t batch) {
  return std::make_unique<Generated>(producer, consumer, batch);
}

}  // namespace layoutcheck::gpu

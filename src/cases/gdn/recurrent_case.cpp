#include "cases/gdn/recurrent_case.h"

#include <cmath>
#include <random>
#include <stdexcept>

#include "cases/gdn/layouts.h"
#include "layoutcheck/contract/diagnostic.h"

namespace layoutcheck {
namespace {

struct RecurrentShape {
  std::int64_t H = 0, HV = 0, K = 0, V = 0;
  std::int64_t G() const { return HV / H; }
};

[[noreturn]] void reject(const Contract& contract, std::string_view buffer,
                         const std::string& what) {
  throw InputError(Diagnostic{SourceLocation{contract.file}, Severity::error, "case-layout",
                              "gdn-recurrent buffer '" + std::string(buffer) + "': contract '" +
                                  contract.name + "' " + what,
                              "layoutcheck cases lists what each buffer holds"});
}

// @post the contract has one field `name` of logical shape `shape` and dtype `dtype`.
void require_field(const Contract& contract, std::string_view buffer, const std::string& name,
                   const std::vector<std::int64_t>& shape, DType dtype) {
  if (contract.dtype != dtype)
    reject(contract, buffer,
           "has dtype " + std::string(dtype_name(contract.dtype)) + ", not " +
               std::string(dtype_name(dtype)));
  const Field* field = contract.find_field(name);
  if (contract.fields.size() != 1 || field == nullptr)
    reject(contract, buffer, "must hold exactly one field '" + name + "'");
  if (field->shape() != shape) {
    std::string expected;
    for (std::int64_t size : shape)
      expected += (expected.empty() ? "" : ", ") + std::to_string(size);
    reject(contract, buffer, "field " + name + " must have the shape [" + expected + "]");
  }
}

RecurrentShape shape_of(const CaseLayouts& layouts) {
  const Contract& q = layouts.at("q");
  const Contract& v = layouts.at("v");
  RecurrentShape shape{q.fields.at(0).shape().at(0), v.fields.at(0).shape().at(0),
                       q.fields.at(0).shape().at(1), v.fields.at(0).shape().at(1)};
  if (shape.H <= 0 || shape.HV % shape.H != 0)
    reject(v, "v",
           "has " + std::to_string(shape.HV) + " value heads, not a multiple of the " +
               std::to_string(shape.H) + " key heads of q");
  require_field(layouts.at("k"), "k", "K", {shape.H, shape.K}, DType::bf16);
  require_field(layouts.at("out"), "out", "O", {shape.HV, shape.V}, DType::bf16);
  require_field(layouts.at("state"), "state", "S", {shape.HV, shape.K, shape.V}, DType::fp32);
  return shape;
}

struct Faults {
  bool key_head_modulo = false;   // value head hv reads key head hv % H instead of hv / G
  bool state_transposed = false;  // S[k][v] read and written where the claim puts S[v][k]
};

class RecurrentReference : public CaseRunner {
 public:
  RecurrentReference(const CaseLayouts& layouts, Faults faults, std::string name)
      : shape_(shape_of(layouts)),
        faults_(faults),
        name_(std::move(name)),
        q_(layouts.at("q").fields[0].offsets()),
        k_(layouts.at("k").fields[0].offsets()),
        v_(layouts.at("v").fields[0].offsets()),
        o_(layouts.at("out").fields[0].offsets()),
        s_(layouts.at("state").fields[0].offsets()) {
    if (faults_.state_transposed && shape_.K != shape_.V)
      throw std::invalid_argument("the state_transposed mutant needs K == V");
  }
  std::string name() const override { return name_; }

  void run(BufferSet& buffers) override {
    const HostBuffer &q = buffers.at("q"), &k = buffers.at("k"), &v = buffers.at("v");
    const HostBuffer &g = buffers.at("g"), &beta = buffers.at("beta");
    HostBuffer& state = buffers.at("state");
    HostBuffer& out = buffers.at("out");
    // Plain variables, not a structured binding: clang 15 (hipcc) cannot capture those.
    const std::int64_t H = shape_.H, HV = shape_.HV, K = shape_.K, V = shape_.V;
    const double scale = 1.0 / std::sqrt(static_cast<double>(K));
    std::vector<double> s(static_cast<std::size_t>(K * V)), u(static_cast<std::size_t>(V));
    std::vector<double> qh(static_cast<std::size_t>(K)), kh(static_cast<std::size_t>(K));
    const auto idx = [](std::int64_t i) { return static_cast<std::size_t>(i); };
    for (std::int64_t t = 0; t < q.rows; ++t) {
      for (std::int64_t hv = 0; hv < HV; ++hv) {
        const std::int64_t h = faults_.key_head_modulo ? hv % H : hv / shape_.G();
        // S[hv, i, j] is element (hv*K + i)*V + j of the field; transposed: (hv*K + j)*V + i.
        const auto state_at = [&](std::int64_t i, std::int64_t j) {
          const std::int64_t linear =
              faults_.state_transposed ? (hv * K + j) * V + i : (hv * K + i) * V + j;
          return t * state.row_stride + s_[idx(linear)];
        };
        for (std::int64_t i = 0; i < K; ++i) {
          qh[idx(i)] = q.value(t * q.row_stride + q_[idx(h * K + i)]) * scale;
          kh[idx(i)] = k.value(t * k.row_stride + k_[idx(h * K + i)]);
        }
        const double decay =
            std::exp(static_cast<double>(static_cast<float>(g.value(t * g.row_stride + hv))));
        const double gate = static_cast<float>(beta.value(t * beta.row_stride + hv));
        for (std::int64_t i = 0; i < K; ++i)
          for (std::int64_t j = 0; j < V; ++j)
            s[idx(i * V + j)] = state.value(state_at(i, j)) * decay;
        for (std::int64_t j = 0; j < V; ++j) {
          double kv = 0;
          for (std::int64_t i = 0; i < K; ++i) kv += s[idx(i * V + j)] * kh[idx(i)];
          u[idx(j)] = gate * (v.value(t * v.row_stride + v_[idx(hv * V + j)]) - kv);
        }
        for (std::int64_t i = 0; i < K; ++i)
          for (std::int64_t j = 0; j < V; ++j) s[idx(i * V + j)] += kh[idx(i)] * u[idx(j)];
        for (std::int64_t j = 0; j < V; ++j) {
          double o = 0;
          for (std::int64_t i = 0; i < K; ++i) o += s[idx(i * V + j)] * qh[idx(i)];
          out.set_value(t * out.row_stride + o_[idx(hv * V + j)], o);
        }
        for (std::int64_t i = 0; i < K; ++i)
          for (std::int64_t j = 0; j < V; ++j) state.set_value(state_at(i, j), s[idx(i * V + j)]);
      }
    }
  }

 private:
  RecurrentShape shape_;
  Faults faults_;
  std::string name_;
  std::vector<std::int64_t> q_, k_, v_, o_, s_;  // offsets by logical linear index
};

class RecurrentCase : public Case {
 public:
  std::string name() const override { return "gdn-recurrent"; }
  std::string summary() const override {
    return "the GDN recurrent update and readout alone (q, k, v, g, beta in; state in place; "
           "o out), as most public GDN kernels implement it";
  }
  std::vector<BufferSpec> buffers() const override {
    return {
        {"q", BufferRole::input, DType::bf16, "gdn/recurrent.q.yaml",
         "[H, K] per token, l2-normalised"},
        {"k", BufferRole::input, DType::bf16, "gdn/recurrent.k.yaml",
         "[H, K] per token, l2-normalised"},
        {"v", BufferRole::input, DType::bf16, "gdn/recurrent.v.yaml", "[HV, V] per token"},
        {"g", BufferRole::input, DType::fp32, "", "[HV] log decay per token"},
        {"beta", BufferRole::input, DType::fp32, "", "[HV] gate per token"},
        {"state", BufferRole::in_place, DType::fp32, "gdn/state.hkv.yaml",
         "recurrent state per sequence, [HV, K, V] or [HV, V, K]"},
        {"out", BufferRole::output, DType::bf16, "gdn/gdn_out.yaml", "o, [HV, V] per token"},
    };
  }
  std::vector<AbiSpec> abis() const override {
    return {{"gdn_recurrent_v1",
             "the recurrent update and readout alone: decay, delta rule, state in place, o = S q",
             "gdn_recurrent_abi.h",
             {"q", "k", "v", "g", "beta", "state", "out"}}};
  }
  std::vector<std::string> decoders() const override { return {std::string(kDependenceDecoder)}; }
  std::string default_probe_buffer() const override { return "q"; }
  std::vector<std::string> port_probe_buffers() const override { return {"q", "k", "v", "state"}; }
  std::string buffer_described_by(const Contract& contract) const override {
    return contract.buffer == "ssm_state" ? "state" : contract.buffer;
  }

  BufferSet make_buffers(const CaseLayouts& layouts, std::int64_t batch,
                         std::uint64_t seed) const override {
    const RecurrentShape shape = shape_of(layouts);
    std::mt19937_64 random(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    BufferSet buffers;
    // q and k: l2-normalised per head, as the ABI promises.
    for (const char* name : {"q", "k"}) {
      HostBuffer& buffer = buffers.add(make_host_buffer(name, layouts.at(name), batch));
      const Field& field = layouts.at(name).fields[0];
      for (std::int64_t t = 0; t < batch; ++t)
        for (std::int64_t h = 0; h < shape.H; ++h) {
          std::vector<double> x(static_cast<std::size_t>(shape.K));
          double norm = 0;
          for (double& value : x) {
            value = normal(random);
            norm += value * value;
          }
          for (std::int64_t i = 0; i < shape.K; ++i) {
            const std::int64_t index[2] = {h, i};
            buffer.set_value(t * buffer.row_stride + field.offset_of(index),
                             x[static_cast<std::size_t>(i)] / std::sqrt(norm + 1e-6));
          }
        }
    }
    HostBuffer& v = buffers.add(make_host_buffer("v", layouts.at("v"), batch));
    layouts.at("v").fields[0].for_each_offset([&](std::int64_t, std::int64_t offset) {
      for (std::int64_t t = 0; t < batch; ++t)
        v.set_value(t * v.row_stride + offset, normal(random));
    });
    for (const char* name : {"g", "beta"}) {
      HostBuffer& buffer = buffers.add(make_host_buffer(name, DType::fp32, batch * shape.HV));
      buffer.rows = batch;
      buffer.row_stride = shape.HV;
      for (std::int64_t i = 0; i < buffer.elements(); ++i)
        buffer.set_value(i, name[0] == 'g' ? -3.0 * uniform(random) : 0.05 + 0.9 * uniform(random));
    }
    HostBuffer& state = buffers.add(make_host_buffer("state", layouts.at("state"), batch));
    layouts.at("state").fields[0].for_each_offset([&](std::int64_t, std::int64_t offset) {
      for (std::int64_t t = 0; t < batch; ++t)
        state.set_value(t * state.row_stride + offset, 0.5 * normal(random));
    });
    buffers.add(make_host_buffer("out", layouts.at("out"), batch));
    return buffers;
  }
  std::unique_ptr<CaseRunner> reference(const CaseLayouts& layouts) const override {
    return std::make_unique<RecurrentReference>(
        layouts, Faults{}, "cpu model of a recurrent kernel built for " + layouts.at("state").name);
  }
  std::vector<std::pair<std::string, std::string>> mutants() const override {
    return {{"key_head_modulo", "value head hv reads key head hv % H instead of hv / G"},
            {"state_transposed", "reads and writes the state in the other order than it claims"}};
  }
  std::unique_ptr<CaseRunner> mutant(std::string_view name,
                                     const CaseLayouts& layouts) const override {
    Faults faults;
    if (name == "key_head_modulo")
      faults.key_head_modulo = true;
    else if (name == "state_transposed")
      faults.state_transposed = true;
    else
      return nullptr;
    return std::make_unique<RecurrentReference>(layouts, faults, "cpu:mutant:" + std::string(name));
  }
  void validate_layout(std::string_view buffer, const Contract& contract) const override {
    const std::int64_t H = contract.symbol("H").value_or(0), HV = contract.symbol("HV").value_or(0);
    const std::int64_t K = contract.symbol("K").value_or(0), V = contract.symbol("V").value_or(0);
    if (buffer == "q") require_field(contract, buffer, "Q", {H, K}, DType::bf16);
    if (buffer == "k") require_field(contract, buffer, "K", {H, K}, DType::bf16);
    if (buffer == "v") require_field(contract, buffer, "V", {HV, V}, DType::bf16);
    if (buffer == "out") require_field(contract, buffer, "O", {HV, V}, DType::bf16);
    if (buffer == "state") require_field(contract, buffer, "S", {HV, K, V}, DType::fp32);
  }
};

}  // namespace

std::shared_ptr<const Case> make_gdn_recurrent_case() {
  return std::make_shared<RecurrentCase>();
}

}  // namespace layoutcheck

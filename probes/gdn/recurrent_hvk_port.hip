// A recurrent kernel built for the state transposed, [HV, V, K] (the key dim innermost), as some
// upstream kernels keep it: correct for its own layout, wrong for a model that keeps [HV, K, V].
#include "recurrent_port_body.h"

extern "C" __global__ void gdn_recurrent_port(layoutcheck::GdnRecurrentArgs args) {
  port::gdn_recurrent<port::StateHvk>(args);
}

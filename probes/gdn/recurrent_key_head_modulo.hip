// A mutant: value head hv reads the q and k of key head hv % H (interleaved grouping) where the
// contracts say hv / G (grouped). It claims the model's layouts, so only the probes can tell.
#include "recurrent_port_body.h"

struct ModuloKeyHeads : port::StateHkv {
  __device__ static long long key_head(long long hv, long long H, long long) { return hv % H; }
};

extern "C" __global__ void gdn_recurrent_port(layoutcheck::GdnRecurrentArgs args) {
  port::gdn_recurrent<ModuloKeyHeads>(args);
}

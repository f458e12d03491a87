// The correct gdn_recurrent_v1 port: the state [HV, K, V], value head hv reading key head hv / G.
#include "recurrent_port_body.h"

extern "C" __global__ void gdn_recurrent_port(layoutcheck::GdnRecurrentArgs args) {
  port::gdn_recurrent<port::StateHkv>(args);
}

"""A GDN decode step (T = 1) in Triton, one source for both layouts of the projection outputs: the
layout is a compile-time policy (INTERLEAVED), so the port from Qwen3-Next to Qwen3.5 is that one
flag, as the design brief asks. Built for the interleaved layout and fed flat buffers, it computes
garbage with no error; built for the flat one it is correct.

Two launches: the step reads the conv state and writes out and the state, one program per (value
head, row); then the shifted conv state is written apart and copied over the old one. The G value
heads of a key head share its Q/K conv channels, so shifting in the first launch, or in place,
would race with their reads. Sizes K, V must be powers of two (tl.arange).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _silu(x):
    return x / (1.0 + tl.exp(-x))


@triton.jit
def _causal_conv(qkvz_row, offsets, channels, conv_row, conv_weight, W: tl.constexpr):
    """silu(sum_t w[c, t] * taps[c, t] + w[c, W-1] * x[c]) over the given channels."""
    x = tl.load(qkvz_row + offsets).to(tl.float32)
    total = tl.load(conv_weight + channels * W + (W - 1)).to(tl.float32) * x
    for t in tl.static_range(W - 1):
        tap = tl.load(conv_row + channels * (W - 1) + t).to(tl.float32)
        total += tl.load(conv_weight + channels * W + t).to(tl.float32) * tap
    return _silu(total)


@triton.jit
def _gdn_decode_step(qkvz, ba, state, conv_state, conv_weight, A_log, dt_bias, norm_weight, out,
                     qkvz_stride, ba_stride, state_stride, conv_stride, out_stride, query_scale,
                     H: tl.constexpr, HV: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
                     W: tl.constexpr, INTERLEAVED: tl.constexpr):
    hv = tl.program_id(0)
    row = tl.program_id(1)
    G = HV // H
    h = hv // G
    r = hv % G
    ks = tl.arange(0, K)
    vs = tl.arange(0, V)
    if INTERLEAVED:  # Qwen3-Next: per key head [q k v(G) z(G)], [b(G) a(G)]
        group = h * (2 * K + 2 * G * V)
        q_at = group + ks
        k_at = group + K + ks
        v_at = group + 2 * K + r * V + vs
        z_at = group + 2 * K + G * V + r * V + vs
        b_at = h * 2 * G + r
        a_at = h * 2 * G + G + r
    else:  # Qwen3.5: [Q all][K all][V all][Z all], [B all][A all]
        q_at = h * K + ks
        k_at = H * K + h * K + ks
        v_at = 2 * H * K + hv * V + vs
        z_at = 2 * H * K + HV * V + hv * V + vs
        b_at = hv
        a_at = HV + hv
    qkvz_row = qkvz + row * qkvz_stride
    conv_row = conv_state + row * conv_stride
    # 1. conv over the logical channels [Q | K | V]; 2. l2norm, q scaled by K^-0.5
    q = _causal_conv(qkvz_row, q_at, h * K + ks, conv_row, conv_weight, W)
    k = _causal_conv(qkvz_row, k_at, H * K + h * K + ks, conv_row, conv_weight, W)
    v = _causal_conv(qkvz_row, v_at, 2 * H * K + hv * V + vs, conv_row, conv_weight, W)
    q = q / tl.sqrt(tl.sum(q * q, axis=0) + 1e-6) * query_scale
    k = k / tl.sqrt(tl.sum(k * k, axis=0) + 1e-6)
    # 3. gates in fp32
    a = tl.load(ba + row * ba_stride + a_at).to(tl.float32)
    b = tl.load(ba + row * ba_stride + b_at).to(tl.float32)
    x = a + tl.load(dt_bias + hv)
    softplus = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))
    decay = tl.exp(-tl.exp(tl.load(A_log + hv)) * softplus)
    beta = 1.0 / (1.0 + tl.exp(-b))
    # 4. S *= exp(g); u = beta (v - S^T k); S += k u^T; o = S^T q, state [HV, K, V]
    state_at = state + row * state_stride + hv * K * V + ks[:, None] * V + vs[None, :]
    S = tl.load(state_at) * decay
    u = beta * (v - tl.sum(S * k[:, None], axis=0))
    S = S + k[:, None] * u[None, :]
    tl.store(state_at, S)
    o = tl.sum(S * q[:, None], axis=0)
    # 5. gated RMSNorm over V, weight used directly
    z = tl.load(qkvz_row + z_at).to(tl.float32)
    inverse_rms = 1.0 / tl.sqrt(tl.sum(o * o, axis=0) / V + 1e-6)
    result = o * inverse_rms * tl.load(norm_weight + vs).to(tl.float32) * _silu(z)
    tl.store(out + row * out_stride + hv * V + vs, result.to(tl.bfloat16))


@triton.jit
def _gdn_shifted_conv_state(qkvz, conv_state, shifted, qkvz_stride, conv_stride,
                            H: tl.constexpr, HV: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
                            W: tl.constexpr, BLOCK: tl.constexpr, INTERLEAVED: tl.constexpr):
    row = tl.program_id(0)
    G = HV // H
    C = 2 * H * K + HV * V
    c = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    live = c < C
    if INTERLEAVED:  # where channel c's raw input sits in the group of its key head
        is_q = c < H * K
        is_k = (c >= H * K) & (c < 2 * H * K)
        key_head = tl.where(is_q, c // K,
                            tl.where(is_k, (c - H * K) // K, (c - 2 * H * K) // V // G))
        within = tl.where(is_q, c % K, tl.where(is_k, K + (c - H * K) % K,
                                                  2 * K + (c - 2 * H * K) % (G * V)))
        raw_at = key_head * (2 * K + 2 * G * V) + within
    else:
        raw_at = c
    old_row = conv_state + row * conv_stride + c * (W - 1)
    new_row = shifted + row * conv_stride + c * (W - 1)
    for t in tl.static_range(W - 2):  # drop the oldest tap
        tl.store(new_row + t, tl.load(old_row + t + 1, mask=live), mask=live)
    raw = tl.load(qkvz + row * qkvz_stride + raw_at, mask=live)
    tl.store(new_row + (W - 2), raw, mask=live)


def gdn_step(H, HV, K, V, W=4, interleaved=False):
    """The kernel as a callable of the gdn case's buffers (torch CUDA tensors, bf16 as
    torch.bfloat16), built for the interleaved or the flat layout."""
    C = 2 * H * K + HV * V
    block = min(triton.next_power_of_2(C), 1024)

    def step(qkvz, ba, state, conv_state, conv_weight, A_log, dt_bias, norm_weight, out):
        rows = qkvz.shape[0]
        _gdn_decode_step[(HV, rows)](
            qkvz, ba, state, conv_state, conv_weight, A_log, dt_bias, norm_weight, out,
            qkvz.stride(0), ba.stride(0), state.stride(0), conv_state.stride(0), out.stride(0),
            K ** -0.5, H=H, HV=HV, K=K, V=V, W=W, INTERLEAVED=interleaved)
        shifted = torch.empty_like(conv_state)
        _gdn_shifted_conv_state[(rows, triton.cdiv(C, block))](
            qkvz, conv_state, shifted, qkvz.stride(0), conv_state.stride(0), H=H, HV=HV, K=K,
            V=V, W=W, BLOCK=block, INTERLEAVED=interleaved)
        conv_state.copy_(shifted)

    step.__qualname__ = f"triton gdn_step[{'interleaved' if interleaved else 'flat'}]"
    return step


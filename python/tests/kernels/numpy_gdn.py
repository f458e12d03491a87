"""One Gated-DeltaNet decode step (T = 1) in NumPy, as a kernel: it takes the gdn case's buffers
by name and writes out, state and conv_state in place. It is built for one layout of the
projection outputs, like a real kernel: "flat" (Qwen3.5: [Q all][K all][V all][Z all], [B][A]) or
"interleaved" (Qwen3-Next: per key head [q k v(G) z(G)], [b(G) a(G)]). The maths is the design
brief's section 5, in fp64; the state is [HV, K, V] fp32, activations bf16 bits.
"""

import numpy as np

import layoutcheck

NORM_EPSILON = 1e-6


def _silu(x):
    return x / (1.0 + np.exp(-x))


def _bf16(bits):
    return layoutcheck.bf16_to_float32(bits).astype(np.float64)


def _split_qkvz(row, H, HV, K, V, layout):
    G = HV // H
    if layout == "flat":
        q = row[: H * K].reshape(H, K)
        k = row[H * K: 2 * H * K].reshape(H, K)
        v = row[2 * H * K: 2 * H * K + HV * V].reshape(HV, V)
        z = row[2 * H * K + HV * V:].reshape(HV, V)
    else:  # one group per key head, value head hv = h*G + r
        group = row.reshape(H, 2 * K + 2 * G * V)
        q = group[:, :K]
        k = group[:, K: 2 * K]
        v = group[:, 2 * K: 2 * K + G * V].reshape(HV, V)
        z = group[:, 2 * K + G * V:].reshape(HV, V)
    return q, k, v, z


def _split_ba(row, H, HV, layout):
    if layout == "flat":
        return row[:HV], row[HV:]
    G = HV // H
    group = row.reshape(H, 2 * G)
    return group[:, :G].reshape(HV), group[:, G:].reshape(HV)


def _gates(a, b, A_log, dt_bias):
    """fp32, softplus threshold 20."""
    x = (a.astype(np.float32) + dt_bias).astype(np.float32)
    softplus = np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20)))).astype(np.float32)
    g = (-np.exp(A_log) * softplus).astype(np.float32)
    beta = (1 / (1 + np.exp(-b.astype(np.float32)))).astype(np.float32)
    return g, beta


def gdn_step(H, HV, K, V, W=4, qkvz_layout="flat", ba_layout="flat"):
    """The kernel for these sizes and layouts: fn(**buffers) of the gdn case."""
    G = HV // H
    C = 2 * H * K + HV * V

    def step(qkvz, ba, state, conv_state, conv_weight, A_log, dt_bias, norm_weight, out):
        weight = _bf16(conv_weight).reshape(C, W)
        norm = _bf16(norm_weight)
        for row in range(qkvz.shape[0]):
            q_x, k_x, v_x, z = _split_qkvz(_bf16(qkvz[row]), H, HV, K, V, qkvz_layout)
            b, a = _split_ba(_bf16(ba[row]), H, HV, ba_layout)
            # 1. causal conv over [Q | K | V] and the W-1 stored raw inputs, then silu
            x = np.concatenate([q_x.ravel(), k_x.ravel(), v_x.ravel()])
            taps_bits = conv_state[row].reshape(C, W - 1)
            taps = _bf16(taps_bits)
            y = _silu((weight[:, : W - 1] * taps).sum(axis=1) + weight[:, W - 1] * x)
            new_taps = np.concatenate([taps_bits[:, 1:], layoutcheck.float32_to_bf16(
                x.astype(np.float32))[:, None]], axis=1)
            # 2. l2norm per key head, q scaled by K^-0.5
            q = y[: H * K].reshape(H, K)
            k = y[H * K: 2 * H * K].reshape(H, K)
            v = y[2 * H * K:].reshape(HV, V)
            q = q / np.sqrt((q * q).sum(axis=1, keepdims=True) + NORM_EPSILON) / np.sqrt(K)
            k = k / np.sqrt((k * k).sum(axis=1, keepdims=True) + NORM_EPSILON)
            # 3. gates, 4. the delta rule per value head, 5. gated RMSNorm
            g, beta = _gates(a, b, A_log, dt_bias)
            S = state[row].reshape(HV, K, V).astype(np.float64)
            o = np.empty((HV, V))
            for hv in range(HV):
                key_head = hv // G
                decayed = np.exp(np.float64(g[hv])) * S[hv]
                u = np.float64(beta[hv]) * (v[hv] - decayed.T @ k[key_head])
                S[hv] = decayed + np.outer(k[key_head], u)
                o[hv] = S[hv].T @ q[key_head]
            inverse_rms = 1 / np.sqrt((o * o).mean(axis=1, keepdims=True) + NORM_EPSILON)
            result = o * inverse_rms * norm * _silu(z)
            out[row] = layoutcheck.float32_to_bf16(result.astype(np.float32)).ravel()
            state[row] = S.astype(np.float32).ravel()
            conv_state[row] = new_taps.ravel()

    step.__qualname__ = f"gdn_step[{qkvz_layout} qkvz, {ba_layout} ba]"
    return step

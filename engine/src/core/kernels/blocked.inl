// The blocked sgemm and the tiled online-softmax fused attention, written once for every SIMD back
// end. Each back end includes this file inside its own anonymous namespace, after defining `Target`
// (Highway's re-inclusion per target), so each copy is compiled with that back end's instruction
// flags and has internal linkage: no two back ends can share a symbol.
// What `Target` gives: the vector type V (a compiler vector, so + - * / work lane by lane) and its
// lane count, the tile and cache-block sizes, the scratch alignment, the few operations C++ has no
// operator for, the fast exp of the fused attention and the micro-kernel. Declared before the
// include, with these names: pack_a_panel and pack_b_transposed_panel (the transposes),
// prefetch_rows, and softmax_row (PyTorch's exact row, which may use expf_u10 below).
// Shapes: M,N,K matrix sizes; T tokens; D head dimension; MR x NR micro-tile.
// Not an include guard: this file is meant to be included once per back end.

constexpr int MR = Target::MR;
constexpr int NR = Target::NR;
static_assert(NR % Target::kLanes == 0, "a micro-panel row is whole vectors");

inline int imin(int a, int b) { return a < b ? a : b; }
inline int round_up(int x, int m) { return (x + m - 1) / m * m; }

// A grow-only aligned scratch buffer, one per thread and purpose.
struct Scratch {
    float* data = nullptr;
    size_t capacity = 0;
    float* get(size_t n) {
        if (n > capacity) {
            std::free(data);
            capacity = (n + 15) / 16 * 16;
            data = static_cast<float*>(std::aligned_alloc(Target::kAlign, capacity * sizeof(float)));
            if (!data) std::abort();
        }
        return data;
    }
    ~Scratch() { std::free(data); }
};

// ---------------------------------------------------------------------------------------------
// sgemm: packing, the cut-short tile and the loop nest

// Packs a (mc,kc) block of a into MR-row panels: panel[p*MR + ii]. Rows past mc are zero so the
// micro-kernel can always run full height. Full panels go through the target's transpose as far
// as it reaches; the buffer needs Target::kPackSlack floats past its end for its spills.
void pack_a(float* ap, const float* a, ptrdiff_t lda, int mc, int kc) {
    for (int i = 0; i < mc; i += MR) {
        const int mr = imin(MR, mc - i);
        const float* a_i = a + i * lda;
        int p = mr == MR ? pack_a_panel(ap, a_i, lda, kc) : 0;
        for (; p < kc; p++) {
            for (int ii = 0; ii < MR; ii++) ap[p * MR + ii] = ii < mr ? a_i[ii * lda + p] : 0.0f;
        }
        ap += MR * kc;
    }
}

// Packs a (kc,nc) block of B into NR-column panels: panel[p*NR + jj]. B(p,j) is b[p*ldb + j], or
// b[j*ldb + p] when transposed (the target's transposes turn rows of b into panel columns).
// Columns past nc are zero. Untransposed, full panels are filled up to kPanelGroup at a time, so
// each row of b is read 256 floats at a stretch rather than NR from each of kc rows (4 KiB apart
// at ldb = 1024): that halved the packing time, which was ~3% of sgemm n = 1024 on avx2.
void pack_b(float* bp, const float* b, ptrdiff_t ldb, int kc, int nc, bool transposed) {
    int j0 = 0;
    if (!transposed) {
        for (; j0 + NR <= nc;) {
            const int group = imin(Target::kPanelGroup, (nc - j0) / NR);
            for (int p = 0; p < kc; p++) {
                const float* b_p = b + p * ldb + j0;
                for (int g = 0; g < group; g++) {
                    float* panel_p = bp + static_cast<ptrdiff_t>(g) * NR * kc + p * NR;
                    for (int l = 0; l < NR; l += Target::kLanes)
                        Target::storeu(panel_p + l, Target::loadu(b_p + g * NR + l));
                }
            }
            j0 += group * NR, bp += static_cast<ptrdiff_t>(group) * NR * kc;
        }
    }
    for (int j = j0; j < nc; j += NR) {
        const int nr = imin(NR, nc - j);
        if (!transposed) {
            for (int p = 0; p < kc; p++) {
                for (int jj = 0; jj < NR; jj++) bp[p * NR + jj] = jj < nr ? b[p * ldb + j + jj] : 0.0f;
            }
        } else {
            const int p0 = nr == NR ? pack_b_transposed_panel(bp, b + j * ldb, ldb, kc) : 0;
            for (int p = p0; p < kc; p++) {
                for (int jj = nr; jj < NR; jj++) bp[p * NR + jj] = 0.0f;
            }
            for (int jj = 0; jj < nr; jj++) {
                const float* b_j = b + (j + jj) * ldb;
                for (int p = p0; p < kc; p++) bp[p * NR + jj] = b_j[p];
            }
        }
        bp += NR * kc;
    }
}

// The micro-kernel on a tile that may be cut short (mr <= MR rows, nr <= NR columns of c): the
// full tile goes through an MR x NR buffer and only the valid part of c is read and written.
void gemm_tile(int mr, int nr, int kc, const float* ap, const float* bp, float* c, ptrdiff_t ldc,
               bool accumulate) {
    if (mr == MR && nr == NR) {
        Target::gemm_micro(kc, ap, 1, MR, bp, c, ldc, accumulate);
        return;
    }
    alignas(64) float tile[MR * NR] = {};
    if (accumulate) {
        for (int i = 0; i < mr; i++) std::memcpy(tile + i * NR, c + i * ldc, nr * sizeof(float));
    }
    Target::gemm_micro(kc, ap, 1, MR, bp, tile, NR, accumulate);
    for (int i = 0; i < mr; i++) std::memcpy(c + i * ldc, tile + i * NR, nr * sizeof(float));
}

thread_local Scratch g_pack_a, g_pack_b;

void matmul(float* c, int ldc, const float* a, int lda, const float* b, int ldb, int M, int N, int K,
            bool b_transposed) {
    // c is (M,N), a is (M,K), b is (K,N) or (N,K) read transposed
    constexpr int KC = Target::KC, MC = Target::MC, NC = Target::NC;
    if (M <= 0 || N <= 0) return;
    if (K <= 0) {
        for (int i = 0; i < M; i++) std::memset(c + static_cast<ptrdiff_t>(i) * ldc, 0, N * sizeof(float));
        return;
    }
    float* bp = g_pack_b.get(static_cast<size_t>(KC) * round_up(imin(N, NC), NR));
    float* ap = g_pack_a.get(static_cast<size_t>(round_up(imin(M, MC), MR)) * KC + Target::kPackSlack);
    // loop 5 (jc) over NC-column blocks of B and c
    for (int jc = 0; jc < N; jc += NC) {
        const int nc = imin(NC, N - jc);
        // loop 4 (pc) over the depth: later blocks accumulate onto c, keeping the k order
        for (int pc = 0; pc < K; pc += KC) {
            const int kc = imin(KC, K - pc);
            const float* b_block = b_transposed ? b + static_cast<ptrdiff_t>(jc) * ldb + pc
                                                : b + static_cast<ptrdiff_t>(pc) * ldb + jc;
            pack_b(bp, b_block, ldb, kc, nc, b_transposed);
            // loop 3 (ic) over MC-row blocks of a
            for (int ic = 0; ic < M; ic += MC) {
                const int mc = imin(MC, M - ic);
                pack_a(ap, a + static_cast<ptrdiff_t>(ic) * lda + pc, lda, mc, kc);
                // loops 2 and 1: one B micro-panel stays in L1 while the A panels stream past it
                for (int jr = 0; jr < nc; jr += NR) {
                    for (int ir = 0; ir < mc; ir += MR) {
                        float* c_ij = c + static_cast<ptrdiff_t>(ic + ir) * ldc + jc + jr;
                        // the tile of c computed next (below, or the next panel's first), for
                        // targets that fetch it ahead
                        if (ir + MR < mc) {
                            prefetch_rows(c_ij + MR * static_cast<ptrdiff_t>(ldc), ldc, imin(MR, mc - ir - MR));
                        } else if (jr + NR < nc) {
                            prefetch_rows(c + static_cast<ptrdiff_t>(ic) * ldc + jc + jr + NR, ldc, imin(MR, mc));
                        }
                        gemm_tile(imin(MR, mc - ir), imin(NR, nc - jr), kc, ap + ir * kc,
                                  bp + jr * kc, c_ij, ldc, pc > 0);
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// exp and softmax rows (the row itself, PyTorch's exact kernel, is the target's softmax_row)

// Sleef's expf_u10 on a vector: pytorch_cpu::expf_u10's operations in its order, each vmla one
// multiply-add rounded once (Target::fma), so every lane is the bit PyTorch's
// Vectorized<float>::exp() gives. The target scales by 2^q and fixes the out-of-range lanes.
// (always inlined: it sits in softmax_row's inner loops, and clang otherwise keeps wasm's as a call)
__attribute__((always_inline)) inline Target::V expf_u10(Target::V d) {
    using V = Target::V;
    const V q = Target::round_nearest(d * Target::set1(1.442695040888963407359924681001892137426645954152985934135449406931f));
    V s = Target::fma(q, Target::set1(-0.693145751953125f), d);
    s = Target::fma(q, Target::set1(-1.428606765330187045e-06f), s);
    V u = Target::set1(0.000198527617612853646278381f);
    u = Target::fma(u, s, Target::set1(0.00139304355252534151077271f));
    u = Target::fma(u, s, Target::set1(0.00833336077630519866943359f));
    u = Target::fma(u, s, Target::set1(0.0416664853692054748535156f));
    u = Target::fma(u, s, Target::set1(0.166666671633720397949219f));
    u = Target::fma(u, s, Target::set1(0.5f));
    u = Target::set1(1.0f) + Target::fma(s * s, u, s);
    return Target::expf_u10_finish(u, q, d);
}

void softmax_rows(float* x, int ldx, int rows, int n, float divisor, bool causal, int causal_offset) {
    // x is (rows, n): x / divisor, masked columns -inf (masked_fill), then PyTorch's softmax
    const float neg_inf = -std::numeric_limits<float>::infinity();
    const Target::V div = Target::set1(divisor);
    for (int r = 0; r < rows; r++) {
        float* x_r = x + static_cast<ptrdiff_t>(r) * ldx;
        int visible = n;
        if (causal) visible = imin(n, r + causal_offset + 1 > 0 ? r + causal_offset + 1 : 0);
        int j = 0;
        for (; j + Target::kLanes <= visible; j += Target::kLanes)
            Target::storeu(x_r + j, Target::loadu(x_r + j) / div);
        for (; j < visible; j++) x_r[j] = x_r[j] / divisor;
        for (; j < n; j++) x_r[j] = neg_inf;
        if (n > 0) softmax_row(x_r, n);
    }
}

// ---------------------------------------------------------------------------------------------
// fused attention

thread_local Scratch g_k_packed, g_v_packed, g_q_packed, g_scores, g_acc, g_row_state;

void attention_fused(float* out, int ld_out, const float* q, int ld_q, const float* k, int ld_k,
                     const float* v, int ld_v, int T, int D, float divisor, bool causal) {
    // out, q, k, v are (T,D) with row strides; out = softmax(q kᵀ / divisor) v
    using V = Target::V;
    constexpr int BR = Target::BR, BC = Target::BC, L = Target::kLanes;
    static_assert(BR % MR == 0 && BC % NR == 0, "query and key blocks are whole micro-tiles");
    if (T <= 0 || D <= 0) return;
    const float neg_inf = -std::numeric_limits<float>::infinity();
    const int Dp = round_up(D, NR);
    const V div = Target::set1(divisor), vneg_inf = Target::set1(neg_inf);
    // K as the B operand of q·kᵀ (panels of NR keys, each D deep) and V as the B operand of p·v
    // (panels of NR channels, each T deep): packed once per head, read by every query block.
    float* k_packed = g_k_packed.get(static_cast<size_t>(round_up(T, NR)) * D);
    float* v_packed = g_v_packed.get(static_cast<size_t>(Dp) * T);
    pack_b(k_packed, k, ld_k, D, T, true);
    pack_b(v_packed, v, ld_v, T, D, false);
    float* q_packed = g_q_packed.get(static_cast<size_t>(BR) * D + Target::kPackSlack);
    float* scores = g_scores.get(static_cast<size_t>(BR) * BC);  // (BR, BC), then the weights p
    float* acc = g_acc.get(static_cast<size_t>(BR) * Dp);         // (BR, Dp) unnormalised output
    float* row_max = g_row_state.get(2 * BR);                      // running max and sum per row
    float* row_sum = row_max + BR;

    for (int i0 = 0; i0 < T; i0 += BR) {
        const int br = imin(BR, T - i0);
        pack_a(q_packed, q + static_cast<ptrdiff_t>(i0) * ld_q, ld_q, br, D);
        for (int r = 0; r < br; r++) row_max[r] = neg_inf, row_sum[r] = 0.0f;
        std::memset(acc, 0, static_cast<size_t>(round_up(br, MR)) * Dp * sizeof(float));
        // under the causal mask, key blocks past this block's last query are skipped entirely
        const int j_end = causal ? i0 + br : T;
        for (int j0 = 0; j0 < j_end; j0 += BC) {
            const int bc = imin(BC, j_end - j0);
            // pass 1: scores (br, bc) = q_block · k_blockᵀ; under the causal mask a micro-tile whose
            // keys are all in its MR queries' future is not computed (pass 2 never reads it)
            for (int jr = 0; jr < bc; jr += NR) {
                for (int ir = 0; ir < br; ir += MR) {
                    if (causal && j0 + jr > i0 + ir + MR - 1) continue;
                    Target::gemm_micro(D, q_packed + ir * D, 1, MR, k_packed + (j0 + jr) * D,
                                       scores + ir * BC + jr, BC, false);
                }
            }
            // pass 2: online softmax per row: new max, rescale what was summed so far, e^(s-max)
            for (int r = 0; r < br; r++) {
                float* s_r = scores + r * BC;
                const int visible = causal ? imin(bc, i0 + r - j0 + 1) : bc;
                if (visible <= 0) {  // every key of this block is in this row's future
                    std::memset(s_r, 0, bc * sizeof(float));
                    continue;
                }
                // whole vectors up to round_up(visible, L) <= BC; lanes past visible become -inf
                const int vr = round_up(visible, L);
                V vmax = vneg_inf;
                for (int j = 0; j < vr; j += L) {
                    V s = Target::loadu(s_r + j) / div;
                    if (j + L > visible) s = Target::first_lanes(s, visible - j, vneg_inf);
                    Target::storeu(s_r + j, s);
                    vmax = Target::max(vmax, s);
                }
                const float m_old = row_max[r];
                float m_new = Target::hmax(vmax);
                if (m_old > m_new) m_new = m_old;
                const V vm = Target::set1(m_new);
                V vsum = Target::set1(0.0f);
                for (int j = 0; j < vr; j += L) {
                    const V e = Target::exp_fast(Target::loadu(s_r + j) - vm);
                    Target::storeu(s_r + j, e);
                    vsum = vsum + e;
                }
                for (int j = vr; j < bc; j++) s_r[j] = 0.0f;  // masked keys weigh exactly 0
                const float alpha = expf(m_old - m_new);     // 0 on the first block
                row_sum[r] = row_sum[r] * alpha + Target::hsum(vsum);
                row_max[r] = m_new;
                if (alpha != 1.0f) {
                    float* acc_r = acc + r * Dp;
                    const V va = Target::set1(alpha);
                    for (int d = 0; d < Dp; d += L) Target::storeu(acc_r + d, Target::loadu(acc_r + d) * va);
                }
            }
            // pass 3: acc (br, Dp) += p (br, bc) · v_block (bc, Dp)
            // (p is read in place: its MR rows are MR streams in L1, cheaper than packing it);
            // under the causal mask each tile stops at its last query's last visible key, past
            // which p is 0
            for (int dr = 0; dr < Dp; dr += NR) {
                for (int ir = 0; ir < br; ir += MR) {
                    const int kc = causal ? imin(bc, i0 + ir + MR - j0) : bc;
                    if (kc <= 0) continue;
                    Target::gemm_micro(kc, scores + ir * BC, BC, 1, v_packed + dr * T + j0 * NR,
                                       acc + ir * Dp + dr, Dp, true);
                }
            }
        }
        // pass 4: normalise each row by its sum
        const int DL = D / L * L;
        for (int r = 0; r < br; r++) {
            const float inv = 1.0f / row_sum[r];
            const V vinv = Target::set1(inv);
            const float* acc_r = acc + r * Dp;
            float* out_r = out + static_cast<ptrdiff_t>(i0 + r) * ld_out;
            for (int d = 0; d < DL; d += L) Target::storeu(out_r + d, Target::loadu(acc_r + d) * vinv);
            for (int d = DL; d < D; d++) out_r[d] = acc_r[d] * inv;
        }
    }
}

// The kernel table: the few loops that do the engine's heavy work, behind one interface so that
// scalar, AVX2/FMA and wasm SIMD128 back ends are interchangeable and testable against each other.
// Shapes: M, N, K are matrix sizes; T = tokens, D = head dimension. All matrices are row-major with
// explicit leading dimensions (elements between rows), so heads can be read in place from (B,T,H,D).
#pragma once

#include <string>
#include <vector>

namespace attn::kernels {

struct KernelTable {
    const char* name;          // "scalar", "avx2", "wasm_simd"
    const char* instructions;  // what the CPU (or wasm engine) must support, for `attention-lab kernels`

    // c (M,N) = a (M,K) · b, where b is (K,N), or (N,K) read transposed when b_transposed.
    // c is overwritten. Products accumulate over k in increasing order (avx2 fuses each multiply
    // and add into one FMA rounding; scalar and wasm_simd round both).
    void (*matmul)(float* c, int ldc, const float* a, int lda, const float* b, int ldb,
                   int M, int N, int K, bool b_transposed);

    // Row-wise softmax of x / divisor, in place on x (rows, n) with leading dimension ldx,
    // rounded as PyTorch 1.13's CPU kernel rounds it (pytorch_cpu::softmax_row): every back end
    // gives the same bits. When causal, row r only sees columns 0..r+causal_offset; the rest are
    // masked to -inf first, as masked_fill does. -inf entries become exactly 0; a row of only
    // -inf becomes NaN, as in PyTorch.
    void (*softmax_rows)(float* x, int ldx, int rows, int n, float divisor, bool causal,
                         int causal_offset);

    // Fused causal/non-causal attention for one head, never materialising the (T,T) matrix:
    // out (T,D) = softmax(q kᵀ / divisor, causal) · v, with q, k, v, out given by row strides.
    // SIMD back ends tile it (blocks of queries x blocks of keys) with an online softmax (running
    // max and sum per query) and skip key blocks wholly above the diagonal under the causal mask;
    // scalar goes one query row at a time. Equal to the materialised path within float rounding.
    void (*attention_fused)(float* out, int ld_out, const float* q, int ld_q, const float* k,
                            int ld_k, const float* v, int ld_v, int T, int D, float divisor,
                            bool causal);
};

// The back ends compiled into this binary whose instructions this machine supports, best last.
std::vector<const KernelTable*> available();

// The active back end: ATTN_KERNELS if set (an unknown or unsupported name is an error the caller
// reports), else the best available. Chosen once, on first use.
const KernelTable& active();

// Force a back end by name for tests and benchmarks. Returns an error sentence, or "" on success.
std::string select(const std::string& name);

}  // namespace attn::kernels

// torch.matmul on every pair of ranks 1-4 x 1-4: matching, broadcast and mismatched shapes, against
// a naive double-precision reference. The sanitizer build runs it too (a 1-D a with a 3-D b once read
// past a's shape).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "requests/request.h"
#include "core/tensor.h"

namespace {

using attn::Shape;
using attn::Tensor;

Tensor counting(const Shape& shape, float scale) {
    Tensor t = Tensor::zeros(shape);
    for (int64_t i = 0; i < t.numel(); i++) t.data[i] = scale * static_cast<float>((i * 7) % 11 - 5);
    return t;
}

// torch.matmul's rule written out plainly: a 1-D a is a row (1, K), a 1-D b a column (K, 1); the
// batch dimensions broadcast from the right; the added row or column is dropped again.
Tensor reference_matmul(const Tensor& a, const Tensor& b) {
    const Shape as = a.dim() == 1 ? Shape{1, a.shape[0]} : a.shape;
    const Shape bs = b.dim() == 1 ? Shape{b.shape[0], 1} : b.shape;
    const int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
    Shape a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
    while (a_batch.size() < b_batch.size()) a_batch.insert(a_batch.begin(), 1);
    while (b_batch.size() < a_batch.size()) b_batch.insert(b_batch.begin(), 1);
    Shape batch(a_batch.size());
    for (size_t d = 0; d < batch.size(); d++) batch[d] = std::max(a_batch[d], b_batch[d]);
    int64_t count = 1;
    for (int64_t d : batch) count *= d;
    std::vector<float> out;
    for (int64_t i = 0; i < count; i++) {
        // the batch index, then each operand's own index (0 along a dimension of size 1)
        int64_t rem = i, a_index = 0, b_index = 0, a_step = 1, b_step = 1;
        for (int d = static_cast<int>(batch.size()) - 1; d >= 0; d--) {
            const int64_t idx = rem % batch[d];
            rem /= batch[d];
            a_index += (a_batch[d] == 1 ? 0 : idx) * a_step;
            b_index += (b_batch[d] == 1 ? 0 : idx) * b_step;
            a_step *= a_batch[d];
            b_step *= b_batch[d];
        }
        for (int64_t m = 0; m < M; m++) {
            for (int64_t n = 0; n < N; n++) {
                double acc = 0;
                for (int64_t k = 0; k < K; k++) {
                    acc += double(a.data[a_index * M * K + m * K + k]) * b.data[b_index * K * N + k * N + n];
                }
                out.push_back(static_cast<float>(acc));
            }
        }
    }
    Shape shape = batch;
    if (a.dim() > 1) shape.push_back(M);
    if (b.dim() > 1) shape.push_back(N);
    return Tensor(shape, out);
}

// a's and b's shapes for ranks ra, rb: batch sizes from a_batch / b_batch (rightmost last)
Shape make_shape(int rank, const Shape& batch, int64_t rows, int64_t cols, bool is_a) {
    if (rank == 1) return {is_a ? cols : rows};
    Shape s(batch.end() - (rank - 2), batch.end());
    s.push_back(rows);
    s.push_back(cols);
    return s;
}

std::string str(const Shape& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); i++) out += (i ? "," : "") + std::to_string(s[i]);
    return out + "]";
}

}  // namespace

TEST_CASE("matmul of every rank pair 1-4 x 1-4 matches the naive reference", "[tensor][matmul]") {
    // small products take PyTorch's bmm loop, larger ones the mm path; both are covered
    struct Sizes { int64_t M, K, N; };
    for (Sizes z : {Sizes{2, 3, 2}, Sizes{9, 8, 7}}) {
        for (int ra = 1; ra <= 4; ra++) {
            for (int rb = 1; rb <= 4; rb++) {
                // matching batches, then broadcast ones (a size of 1 against 3, and the reverse)
                for (auto [a_batch, b_batch] : {std::pair<Shape, Shape>{{2, 3}, {2, 3}}, {{2, 1}, {1, 3}}, {{1, 3}, {2, 1}}}) {
                    const Tensor a = counting(make_shape(ra, a_batch, z.M, z.K, true), 0.25f);
                    const Tensor b = counting(make_shape(rb, b_batch, z.K, z.N, false), 0.5f);
                    INFO("a " << str(a.shape) << " @ b " << str(b.shape));
                    const Tensor want = reference_matmul(a, b);
                    const Tensor got = attn::matmul(a, b);
                    REQUIRE(got.shape == want.shape);
                    CHECK(attn::matmul_shape(a.shape, b.shape) == want.shape);
                    for (int64_t i = 0; i < want.numel(); i++) {
                        CHECK(std::fabs(got.data[i] - want.data[i]) <= 1e-5f * (1 + std::fabs(want.data[i])));
                    }
                }
                // the inner dimensions differ: refused with a sentence
                const Tensor a = counting(make_shape(ra, {2, 3}, z.M, z.K, true), 1);
                const Tensor b = counting(make_shape(rb, {2, 3}, z.K + 1, z.N, false), 1);
                INFO("a " << str(a.shape) << " @ b " << str(b.shape));
                CHECK_THROWS_WITH(attn::matmul(a, b), Catch::Contains("the inner dimensions must match"));
                // batch sizes that are neither equal nor 1 (only when both have batch dimensions)
                if (ra >= 3 && rb >= 3) {
                    const Tensor a2 = counting(make_shape(ra, {2, 3}, z.M, z.K, true), 1);
                    const Tensor b2 = counting(make_shape(rb, {2, 4}, z.K, z.N, false), 1);
                    INFO("a " << str(a2.shape) << " @ b " << str(b2.shape));
                    CHECK_THROWS_WITH(attn::matmul(a2, b2), Catch::Contains("the batch dimensions must match or be 1"));
                }
            }
        }
    }
}

TEST_CASE("eval matmul of a 1-D a with a 3-D or 4-D b answers torch.matmul's shape", "[eval][matmul]") {
    attn::EvalResult r = attn::eval_request(R"({"op":"matmul","a":[1],"b":[[[1]]]})");
    CHECK(r.ok);
    CHECK_THAT(r.json, Catch::StartsWith(R"({"shape":[1,1],"values":[1])"));
    r = attn::eval_request(R"({"op":"matmul","a":[1,2],"b":[[[[1],[2]]]]})");
    CHECK(r.ok);
    CHECK_THAT(r.json, Catch::StartsWith(R"({"shape":[1,1,1],"values":[5])"));
}

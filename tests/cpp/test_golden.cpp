// The golden chapter: every cell PyTorch 1.13 printed, reproduced by the library and by the CLI.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "replay/book.h"
#include "requests/request.h"
#include <map>
#include "fixtures.h"

namespace {

std::string expected_book_text() {
    std::string out;
    const auto golden = fixture_json("chapter3.json");
    for (const auto& cell : golden["cells"]) {
        const std::string print = cell["print"].get<std::string>();
        out += "# " + cell["id"].get<std::string>() + "\n" +
               (cell["label"].is_null() ? print : cell["label"].get<std::string>() + " " + print) + "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("every golden cell is computed with PyTorch's exact print, shape and values", "[golden]") {
    const auto golden = fixture_json("chapter3.json")["cells"];
    const std::vector<attn::BookCell> cells = attn::chapter3_cells();
    REQUIRE(cells.size() == golden.size());
    for (size_t i = 0; i < cells.size(); i++) {
        const auto& want = golden[i];
        INFO("cell " << want["id"].get<std::string>());
        CHECK(cells[i].id == want["id"].get<std::string>());
        CHECK(cells[i].print == want["print"].get<std::string>());
        CHECK(cells[i].label.has_value() == !want["label"].is_null());
        if (cells[i].label) CHECK(*cells[i].label == want["label"].get<std::string>());
        CHECK(cells[i].shape == want["shape"].get<attn::Shape>());
        REQUIRE(cells[i].values.size() == want["values"].size());
        for (size_t k = 0; k < cells[i].values.size(); k++) {
            INFO("value " << k);
            CHECK(close(cells[i].values[k], json_value(want["values"][k]), 1e-6));
        }
    }
}

TEST_CASE("the book text is exactly what Python's print shows for every cell", "[golden]") {
    CHECK(attn::book_text() == expected_book_text());
}

#ifdef ATTN_CLI_PATH
TEST_CASE("attention-lab book prints the golden chapter", "[golden][cli]") {
    FILE* p = popen(ATTN_CLI_PATH " book", "r");
    REQUIRE(p != nullptr);
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    CHECK(pclose(p) == 0);
    CHECK(out == expected_book_text());
}
#endif

TEST_CASE("the chapter replayed on other inputs agrees with eval's PyTorch-checked modules", "[golden]") {
    const attn::Tensor x({4, 3}, {0.9f, 0.1f, 0.3f, -0.2f, 0.5f, 0.7f, 0.4f, 0.4f, 0.0f, 1.5f, -0.6f, 0.2f});
    const std::string rows = "[[0.9,0.1,0.3],[-0.2,0.5,0.7],[0.4,0.4,0.0],[1.5,-0.6,0.2]]";
    std::map<std::string, std::string> cells;
    for (const attn::BookCell& c : attn::chapter3_cells(x, 3)) cells[c.id] = c.print;
    auto eval_print = [](const std::string& request) {
        const nlohmann::json answer = nlohmann::json::parse(attn::eval_request(request).json);
        return answer.value("print_with_grad_fn", answer.value("print", std::string("error")));
    };
    CHECK(cells["3.4.2/sa_v1"] == eval_print(R"({"op":"self_attention_v1","seed":123,"d_out":3,"x":)" + rows + "}"));
    CHECK(cells["3.4.2/sa_v2"] == eval_print(R"({"op":"self_attention_v2","seed":789,"d_out":3,"x":)" + rows + "}"));
    CHECK(cells["3.5.3/context_vecs"] ==
          eval_print(R"({"op":"causal_attention","seed":123,"d_out":3,"context_length":4,"dropout":0,"x":[)" + rows + "," + rows + "]}"));
    CHECK(cells["3.5.2/dropout_ones"] == attn::book_text().substr(attn::book_text().find("# 3.5.2/dropout_ones\n") + 21, cells["3.5.2/dropout_ones"].size()));
    CHECK_THROWS_AS(attn::chapter3_cells(attn::Tensor({1, 3}, {1, 2, 3}), 2), attn::Error);
}

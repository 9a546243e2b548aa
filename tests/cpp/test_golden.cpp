// The golden chapter: every cell PyTorch 1.13 printed, reproduced by the library and by the CLI.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

#include "attn/book.h"
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

// The engine's JSON tree (engine/src/requests/json_in.h) as nlohmann's, the reference the engine's
// reader is checked against: by tests/cpp/test_json.cpp and the fuzz target tests/fuzz/fuzz_request.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "requests/json_in.h"

// Numbers as nlohmann types them: unsigned, integer or float.
inline nlohmann::json as_nlohmann(const attn::json::Value& v) {
    using K = attn::json::Value::Kind;
    switch (v.kind()) {
    case K::null: return nullptr;
    case K::boolean: return v.boolean();
    case K::number:
        if (v.uint64()) return *v.uint64();
        if (v.int64()) return *v.int64();
        return v.number();
    case K::string: return v.string();
    case K::array: {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& e : v.items()) out.push_back(as_nlohmann(e));
        return out;
    }
    case K::object: {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [k, e] : v.members()) out[k] = as_nlohmann(e);
        return out;
    }
    }
    return nullptr;
}

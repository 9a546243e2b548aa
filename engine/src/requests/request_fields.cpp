// The request field reader (request_fields.h): every sentence about a field of a request is here.
#include "requests/request_fields.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/limits.h"
#include "rules/checks.h"
#include "requests/json_out.h"

namespace attn {

using json::Value;
namespace lim = attn::limits;

namespace {

double value_of(const Value& v, const std::string& where) {
    if (v.is_number()) return v.number();
    if (v.is_string()) {
        const std::string& s = v.string();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    }
    fail({"\"", where, "\" must be a number (or \"inf\", \"-inf\", \"nan\"), got ", checks::excerpt(v.dump())});
}

void fill(const Value& v, const Shape& shape, size_t dim, const char* name, std::vector<float>& out) {
    if (dim == shape.size()) {
        if (v.is_array()) fail({"\"", name, "\" is ragged: its rows nest to different depths"});
        out.push_back(static_cast<float>(value_of(v, std::string(name) + "\" element \"")));
        return;
    }
    if (!v.is_array() || static_cast<int64_t>(v.size()) != shape[dim]) {
        fail({"\"", name, "\" is ragged: every row at depth ", dim + 1,
                    " must have ", shape[dim], " entries, like the first one"});
    }
    for (const Value& e : v.items()) fill(e, shape, dim + 1, name, out);
}

std::string field_list(const std::vector<std::string>& fields) {
    std::string list;
    for (const std::string& f : fields) list += (list.empty() ? "" : ", ") + f;
    return list;
}

std::string field(const char* name) { return cat({"\"", name, "\""}); }

}  // namespace

std::string quoted(const std::string& s) { return json_quote(checks::excerpt(s)); }

Request::Request(const Value& j, const char* example) : j_(j) {
    if (!j_.is_object()) fail({"the request must be a JSON object like ", example});
}

const Value* Request::find(const char* name) {
    if (std::find(read_.begin(), read_.end(), name) == read_.end()) read_.push_back(name);
    return j_.find(name);
}

void Request::reject_unknown_fields(const std::string& op, const std::vector<const char*>& fields) const {
    reject_unknown_fields_of("op " + quoted(op), fields);
}

void Request::reject_unknown_fields_of(const std::string& owner, const std::vector<const char*>& fields) const {
    for (const auto& member : j_.members()) {
        const std::string& key = member.first;
        if (std::find_if(fields.begin(), fields.end(), [&](const char* f) { return key == f; }) == fields.end()) {
            fail({"unknown field ", quoted(key), " for ", owner,
                        "; the fields it takes are: ", field_list({fields.begin(), fields.end()})});
        }
    }
}

void Request::reject_unread_fields(const std::string& op) const {
    for (const auto& member : j_.members()) {
        const std::string& key = member.first;
        if (std::find(read_.begin(), read_.end(), key) == read_.end()) {
            fail({"unknown field ", quoted(key), " for op ", quoted(op),
                        " with this module; the fields it takes are: ", field_list(read_)});
        }
    }
}

std::string Request::op() {
    const Value* v = find("op");
    if (!v) throw Error("the request needs an \"op\" field, e.g. \"op\": \"softmax\"");
    if (!v->is_string()) throw Error("\"op\" must be a string, e.g. \"softmax\"");
    return v->string();
}

bool Request::given(const char* name) {
    const Value* v = find(name);
    return v && !v->is_null();
}

std::string Request::text(const char* name, std::optional<std::string> def) {
    const Value* v = find(name);
    if (!v && def) return *def;
    if (!v || !v->is_string()) fail({field(name), " must be a string"});
    return v->string();
}

std::string Request::choice(const char* name, const std::vector<std::string>& options, std::optional<std::string> def) {
    const Value* v = find(name);
    if (!v && def) return *def;
    const std::string rule = cat({field(name), " must be one of: ", field_list(options)});
    if (!v || !v->is_string()) throw Error(rule);
    const std::string& got = v->string();
    if (std::find(options.begin(), options.end(), got) == options.end()) fail({rule, "; got ", quoted(got)});
    return got;
}

std::optional<std::vector<std::string>> Request::choices(const char* name, const std::vector<std::string>& keys,
                                                         const std::vector<std::string>& options) {
    const Value* v = find(name);
    if (!v) return std::nullopt;
    std::string rule = field(name) + " must be {";
    for (size_t i = 0; i < keys.size(); i++) rule += cat({(i ? ", " : ""), json_quote(keys[i]), ": ..."});
    rule += "}, each one of " + field_list(options);
    if (!v->is_object() || v->size() != keys.size()) throw Error(rule);
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        const Value* choice = v->find(key);
        if (!choice || !choice->is_string() ||
            std::find(options.begin(), options.end(), choice->string()) == options.end()) {
            throw Error(rule);
        }
        out.push_back(choice->string());
    }
    return out;
}

std::vector<std::string> Request::texts(const char* name, size_t most) {
    const Value* v = find(name);
    const std::string want = cat({"\"", name, "\" must be a list of at most ", most, " strings"});
    if (!v || !v->is_array() || v->size() > most) throw Error(want);
    std::vector<std::string> out;
    for (const Value& e : v->items()) {
        if (!e.is_string()) throw Error(want);
        out.push_back(e.string());
    }
    return out;
}

int64_t Request::integer(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> def) {
    const Value* v = find(name);
    if (!v) {
        if (def) return *def;
        fail({"missing field \"", name, "\": give a whole number from ", lo,
                    " to ", hi});
    }
    int64_t out;
    if (v->int64()) {
        out = *v->int64();
    } else if (v->is_number() && !v->is_integer() && std::floor(v->number()) == v->number() &&
               std::fabs(v->number()) < 9.0e15) {
        out = static_cast<int64_t>(v->number());
    } else {
        throw checks::not_whole(quoted(name), static_cast<double>(lo), static_cast<double>(hi), checks::excerpt(v->dump()));
    }
    if (out < lo || out > hi) {
        throw checks::not_whole(quoted(name), static_cast<double>(lo), static_cast<double>(hi), std::to_string(out));
    }
    return out;
}

uint64_t Request::seed(std::optional<uint64_t> def) {
    const Value* v = find("seed");
    if (!v && def) return *def;
    if (!v) throw Error("missing field \"seed\": give a whole number, e.g. \"seed\": 123");
    if (v->uint64()) return *v->uint64();
    if (v->int64()) return static_cast<uint64_t>(*v->int64());
    throw Error("\"seed\" must be a whole number from -9223372036854775808 to 18446744073709551615");
}

uint64_t Request::seed_of(const char* name) {
    const Value* v = find(name);
    if (v && v->uint64()) return *v->uint64();
    if (v && v->int64()) return static_cast<uint64_t>(*v->int64());
    fail({"\"", name, "\" must be a whole number from -9223372036854775808 to 18446744073709551615"});
}

double Request::number(const char* name, std::optional<double> def) {
    const Value* v = find(name);
    if (!v) {
        if (def) return *def;
        fail({"missing field \"", name, "\": give a number"});
    }
    return value_of(*v, name);
}

double Request::finite_number(const char* name, double lo, std::optional<double> def, std::optional<double> below) {
    const double out = number(name, def);
    if (!std::isfinite(out)) fail({"\"", name, "\" must be a finite number"});
    if (out < lo || (below && out >= *below)) {
        fail({"\"", name, "\" must be at least ", float_text(static_cast<float>(lo)),
                    (below ? " and less than " + float_text(static_cast<float>(*below)) : std::string())});
    }
    return out;
}

double Request::dropout(const char* name, std::optional<double> def) {
    const double p = number(name, def);
    checks::dropout(p, quoted(name));
    return p;
}

bool Request::boolean(const char* name, bool def) {
    const Value* v = find(name);
    if (!v) return def;
    if (!v->is_boolean()) fail({"\"", name, "\" must be true or false"});
    return v->boolean();
}

Shape Request::tensor_shape(const char* name, int dims) {
    const Value* v = find(name);
    const std::string want = dims == 2 ? "a list of rows, e.g. [[0.43, 0.15], [0.55, 0.87]]"
                             : dims == 3 ? "a batch of token rows, e.g. [[[0.43, 0.15], [0.55, 0.87]]]"
                                         : "a (nested) list of numbers, e.g. [1.0, 2.0, 3.0]";
    if (!v) fail({"missing field \"", name, "\": give ", want});
    Shape shape;
    for (const Value* p = v; p->is_array(); p = &(*p)[0]) {
        if (p->empty()) fail({"\"", name, "\" has an empty list; give ", want});
        shape.push_back(static_cast<int64_t>(p->size()));
        if (shape.size() > 4) fail({"\"", name, "\" has more than 4 dimensions"});
    }
    if (shape.empty()) fail({"\"", name, "\" must be ", want});
    if (dims && static_cast<int>(shape.size()) != dims) {
        fail({"\"", name, "\" must be ", dims, "-D (", want, "), but it is ",
                    shape.size(), "-D"});
    }
    if (numel_of(shape) > lim::kMaxElements) {
        fail({"\"", name, "\" has too many numbers (at most ", lim::kMaxElements, ")"});
    }
    return shape;
}

Tensor Request::tensor(const char* name, const Shape& shape, bool finite) {
    std::vector<float> data;
    data.reserve(static_cast<size_t>(numel_of(shape)));
    fill(*find(name), shape, 0, name, data);
    if (finite) {
        for (size_t i = 0; i < data.size(); i++) {
            if (std::isfinite(data[i])) continue;
            std::string at;  // the element's index, as x[i][j] names it
            for (size_t d = shape.size(), rest = i; d-- > 0; rest /= static_cast<size_t>(shape[d])) {
                at = "[" + std::to_string(rest % static_cast<size_t>(shape[d])) + "]" + at;
            }
            fail({field(name), " must hold finite numbers; ", name, at, " is ", float_text(data[i])});
        }
    }
    return Tensor(shape, std::move(data));
}

Shape Request::shape() {
    const Value* v = find("shape");
    if (!v || !v->is_array() || v->size() > 4) throw Error("\"shape\" must be a list of up to 4 sizes, e.g. [2, 3]");
    Shape shape;
    int64_t n = 1;
    for (const Value& d : v->items()) {
        if (!d.is_integer()) throw Error("\"shape\" must hold whole numbers, e.g. [2, 3]");
        // a whole number beyond int64 is not negative (json_in reads it as uint64)
        const int64_t size = d.int64() ? *d.int64() : static_cast<int64_t>(*d.uint64());
        if (d.int64() && size < 0) throw Error("\"shape\" sizes must not be negative");
        if (!d.int64() || size > lim::kMaxElements) n = lim::kMaxElements + 1;
        else n = size == 0 ? 0 : std::min<int64_t>(n * size, lim::kMaxElements + 1);
        shape.push_back(size);
    }
    for (int64_t d : shape) if (d == 0) n = 0;
    if (n > lim::kMaxElements) {
        fail({"\"shape\" asks for more than ", lim::kMaxElements, " numbers; use smaller sizes"});
    }
    return shape;
}

}  // namespace attn

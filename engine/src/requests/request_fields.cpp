// The request field reader (request_fields.h): every sentence about a field of a request is here.
#include "requests/request_fields.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/limits.h"
#include "rules/checks.h"
#include "requests/json_out.h"

namespace attn {

using nlohmann::json;
namespace lim = attn::limits;

namespace {

double value_of(const json& v, const std::string& where) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
        const std::string& s = v.get_ref<const std::string&>();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    }
    throw Error("\"" + where + "\" must be a number (or \"inf\", \"-inf\", \"nan\"), got " + checks::excerpt(v.dump()));
}

void fill(const json& v, const Shape& shape, size_t dim, const char* name, std::vector<float>& out) {
    if (dim == shape.size()) {
        if (v.is_array()) throw Error(std::string("\"") + name + "\" is ragged: its rows nest to different depths");
        out.push_back(static_cast<float>(value_of(v, std::string(name) + "\" element \"")));
        return;
    }
    if (!v.is_array() || static_cast<int64_t>(v.size()) != shape[dim]) {
        throw Error(std::string("\"") + name + "\" is ragged: every row at depth " + std::to_string(dim + 1) +
                    " must have " + std::to_string(shape[dim]) + " entries, like the first one");
    }
    for (const json& e : v) fill(e, shape, dim + 1, name, out);
}

std::string field_list(const std::vector<std::string>& fields) {
    std::string list;
    for (const std::string& f : fields) list += (list.empty() ? "" : ", ") + f;
    return list;
}

}  // namespace

std::string quoted(const std::string& s) { return json_quote(checks::excerpt(s)); }

Request::Request(const json& j) : j_(j) {
    if (!j_.is_object()) throw Error("the request must be a JSON object like {\"op\": \"softmax\", ...}");
}

const json* Request::find(const char* name) {
    if (std::find(read_.begin(), read_.end(), name) == read_.end()) read_.push_back(name);
    auto it = j_.find(name);
    return it == j_.end() ? nullptr : &*it;
}

void Request::reject_unknown_fields(const std::string& op, const std::vector<const char*>& fields) const {
    for (auto it = j_.begin(); it != j_.end(); ++it) {
        if (std::find_if(fields.begin(), fields.end(), [&](const char* f) { return it.key() == f; }) == fields.end()) {
            throw Error("unknown field " + quoted(it.key()) + " for op " + quoted(op) +
                        "; the fields it takes are: " + field_list({fields.begin(), fields.end()}));
        }
    }
}

void Request::reject_unread_fields(const std::string& op) const {
    for (auto it = j_.begin(); it != j_.end(); ++it) {
        if (std::find(read_.begin(), read_.end(), it.key()) == read_.end()) {
            throw Error("unknown field " + quoted(it.key()) + " for op " + quoted(op) +
                        " with this module; the fields it takes are: " + field_list(read_));
        }
    }
}

std::string Request::op() {
    const json* v = find("op");
    if (!v) throw Error("the request needs an \"op\" field, e.g. \"op\": \"softmax\"");
    if (!v->is_string()) throw Error("\"op\" must be a string, e.g. \"softmax\"");
    return v->get<std::string>();
}

std::string Request::text(const char* name) {
    const json* v = find(name);
    if (!v || !v->is_string()) throw Error(std::string("\"") + name + "\" must be a string");
    return v->get<std::string>();
}

int64_t Request::integer(const char* name, int64_t lo, int64_t hi, std::optional<int64_t> def) {
    const json* v = find(name);
    if (!v) {
        if (def) return *def;
        throw Error(std::string("missing field \"") + name + "\": give a whole number from " + std::to_string(lo) +
                    " to " + std::to_string(hi));
    }
    int64_t out;
    if (v->is_number_integer() && !(v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(INT64_MAX))) {
        out = v->get<int64_t>();
    } else if (v->is_number_float() && std::floor(v->get<double>()) == v->get<double>() &&
               std::fabs(v->get<double>()) < 9.0e15) {
        out = static_cast<int64_t>(v->get<double>());
    } else {
        throw checks::not_whole(quoted(name), static_cast<double>(lo), static_cast<double>(hi), checks::excerpt(v->dump()));
    }
    if (out < lo || out > hi) {
        throw checks::not_whole(quoted(name), static_cast<double>(lo), static_cast<double>(hi), std::to_string(out));
    }
    return out;
}

uint64_t Request::seed() {
    const json* v = find("seed");
    if (!v) throw Error("missing field \"seed\": give a whole number, e.g. \"seed\": 123");
    if (v->is_number_unsigned()) return v->get<uint64_t>();
    if (v->is_number_integer()) return static_cast<uint64_t>(v->get<int64_t>());
    throw Error("\"seed\" must be a whole number from -9223372036854775808 to 18446744073709551615");
}

double Request::number(const char* name, std::optional<double> def) {
    const json* v = find(name);
    if (!v) {
        if (def) return *def;
        throw Error(std::string("missing field \"") + name + "\": give a number");
    }
    return value_of(*v, name);
}

double Request::finite_number(const char* name, double lo, std::optional<double> def, std::optional<double> below) {
    const double out = number(name, def);
    if (!std::isfinite(out)) throw Error(std::string("\"") + name + "\" must be a finite number");
    if (out < lo || (below && out >= *below)) {
        throw Error(std::string("\"") + name + "\" must be at least " + float_text(static_cast<float>(lo)) +
                    (below ? " and less than " + float_text(static_cast<float>(*below)) : std::string()));
    }
    return out;
}

double Request::dropout(const char* name, std::optional<double> def) {
    const double p = number(name, def);
    checks::dropout(p, quoted(name));
    return p;
}

bool Request::boolean(const char* name, bool def) {
    const json* v = find(name);
    if (!v) return def;
    if (!v->is_boolean()) throw Error(std::string("\"") + name + "\" must be true or false");
    return v->get<bool>();
}

Shape Request::tensor_shape(const char* name, int dims) {
    const json* v = find(name);
    const std::string want = dims == 2 ? "a list of rows, e.g. [[0.43, 0.15], [0.55, 0.87]]"
                             : dims == 3 ? "a batch of token rows, e.g. [[[0.43, 0.15], [0.55, 0.87]]]"
                                         : "a (nested) list of numbers, e.g. [1.0, 2.0, 3.0]";
    if (!v) throw Error(std::string("missing field \"") + name + "\": give " + want);
    Shape shape;
    for (const json* p = v; p->is_array(); p = &(*p)[0]) {
        if (p->empty()) throw Error(std::string("\"") + name + "\" has an empty list; give " + want);
        shape.push_back(static_cast<int64_t>(p->size()));
        if (shape.size() > 4) throw Error(std::string("\"") + name + "\" has more than 4 dimensions");
    }
    if (shape.empty()) throw Error(std::string("\"") + name + "\" must be " + want);
    if (dims && static_cast<int>(shape.size()) != dims) {
        throw Error(std::string("\"") + name + "\" must be " + std::to_string(dims) + "-D (" + want + "), but it is " +
                    std::to_string(shape.size()) + "-D");
    }
    if (numel_of(shape) > lim::kMaxElements) {
        throw Error(std::string("\"") + name + "\" has too many numbers (at most " + std::to_string(lim::kMaxElements) + ")");
    }
    return shape;
}

Tensor Request::tensor(const char* name, const Shape& shape) {
    std::vector<float> data;
    data.reserve(static_cast<size_t>(numel_of(shape)));
    fill(*find(name), shape, 0, name, data);
    return Tensor(shape, std::move(data));
}

Shape Request::shape() {
    const json* v = find("shape");
    if (!v || !v->is_array() || v->size() > 4) throw Error("\"shape\" must be a list of up to 4 sizes, e.g. [2, 3]");
    Shape shape;
    int64_t n = 1;
    for (const json& d : *v) {
        if (!d.is_number_integer()) throw Error("\"shape\" must hold whole numbers, e.g. [2, 3]");
        if (!d.is_number_unsigned() && d.get<int64_t>() < 0) throw Error("\"shape\" sizes must not be negative");
        if (d.is_number_unsigned() && d.get<uint64_t>() > uint64_t(lim::kMaxElements)) n = lim::kMaxElements + 1;
        else n = d.get<int64_t>() == 0 ? 0 : std::min<int64_t>(n * d.get<int64_t>(), lim::kMaxElements + 1);
        shape.push_back(d.get<int64_t>());
    }
    for (int64_t d : shape) if (d == 0) n = 0;
    if (n > lim::kMaxElements) {
        throw Error("\"shape\" asks for more than " + std::to_string(lim::kMaxElements) + " numbers; use smaller sizes");
    }
    return shape;
}

}  // namespace attn

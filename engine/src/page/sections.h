// The page's one data path: for one section of the page and the learner's inputs, seed and d_out,
// every value, shape and print the section shows, in one JSON answer. The page composes no tensor,
// torch.Size or grad_fn text of its own; it arranges what this returns.
#pragma once

#include <string>

#include "requests/answer.h"

namespace attn {

// The sections sectionData serves, in the page's order (web/src/sections/order.js, PAGE_ORDER, the home
// of the page's ids; tests/node/engine_sections.test.js checks this list against it). The page's
// train section is not here: its numbers come from TrainRun (requests/train_run.h).
inline constexpr const char* kSectionIds[] = {"batched", "step-by-step", "temperature", "why-sqrt-dk", "classes",
                                              "causal", "multi-head", "bug-hunt"};

// request: {"section": id, "inputs": [[...], ...] (tokens × d_in; absent: the book's), "d_out": n,
//           "seed": n or null (null or absent: the book's seeds, 123 and 789 where the book has them;
//                    a number replaces the seed of every torch.manual_seed(...) in the section's code),
//           "temperature": T (temperature only; default √d_k),
//           "d_k": 2..1024 (why-sqrt-dk only; default 64: the experiment of replay/dk_experiment.h),
//           "corrupt": "none" | "row" | "inputs", "corrupt_row": 1..tokens (batched only: row reverses that
//                      row of the weights; debug/attn_weights and debug/all_context_vecs are what it used),
//           "bug": a name of replay/bug_hunt.h's kBugNames (bug-hunt only; default the first: its cells are
//                  bug/correct, bug/buggy and bug/diff, or bug/raised (PyTorch's error line) for the last two,
//                  bug/keep (the causal program's keep mask), bug/tensor and bug/program as text),
//           "weights": a reader's module's state_dict as lists (requests/request_weights.h): the sections
//                      that draw that module use it instead of the seed's draws, d_out follows from it,
//                      and weights/<name> cells give it back in both layouts}
// answer:  {"section": id, "results": {name: R, ...}}, "inputs" among them, with R as eval's result (shape, values, print
//           without grad_fn, grad_fn and print_with_grad_fn when it has one) plus "line", exactly what
//           Python's print writes, and "label" when print has one; or R = {"error": sentence} for a
//           statement that cannot run on these sizes. A bad request: !ok, {"error": sentence} and the
//           sentence (EvalResult, as eval's). Never throws.
// Fields are read by eval's reader (requests/request_fields.h) and checked by the same rules, so a
// bad field gets the same sentence as in an `eval` request; sizes within the replay's limits.
EvalResult section_data(const std::string& request_json);

// The engine's table of limits for the page, as JSON: {"page": {...}, "replay": {...}, "sections": [...]}.
// "page" is what the editor lets a learner type (core/limits.h's attn::limits::page, web/src/model.js's
// LIMITS: value, word, seedMax, tokensMin, tokensMax, dInMax, dOutMax, temperatureMin, temperatureMax),
// "replay" what sectionData and bookCellsFor accept (tokensMin, tokensMax, dimMax), "sections" kSectionIds.
std::string limits_json();

}  // namespace attn

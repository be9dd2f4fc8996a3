// The `memplan` Python module: properties/oracle.h through pybind11.
//
//   import memplan
//   verdict = memplan.verify_program(prog.buffer)  # ExecuTorch .pte bytes
//   if not verdict.ok: raise SystemExit(verdict.text())
//
// Reports come back as objects carrying codes, allocation ids and ranges;
// unreadable input raises memplan.Error (a ValueError) with the oracle's
// message.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "properties/oracle.h"

namespace py = pybind11;

namespace memplan {
namespace python {
namespace {

// Carries an Error's message into Python as memplan.Error.
class OracleError : public std::runtime_error {
 public:
  explicit OracleError(const Error& error)
      : std::runtime_error(error.ToString()) {}
};

template <typename T>
T Take(Result<T> result) {
  if (!result.ok()) throw OracleError(result.error());
  return std::move(*result);
}

// One method's (or one plan's) report, with the name of what it judges.
struct PyReport {
  std::string name;
  oracle::Report report;
};

struct PyVerdict {
  std::vector<PyReport> reports;
  bool ok() const {
    for (const PyReport& r : reports) {
      if (!r.report.ok()) return false;
    }
    return true;
  }
};

PyVerdict ToPython(oracle::Verdict verdict) {
  PyVerdict out;
  for (size_t i = 0; i < verdict.reports.size(); ++i) {
    out.reports.push_back(
        {verdict.plans[i].name, std::move(verdict.reports[i])});
  }
  return out;
}

oracle::Offset Alignment(const std::optional<int64_t>& align) {
  if (!align) return 1;
  if (*align < 1 || (*align & (*align - 1)) != 0) {
    throw py::value_error("align = " + std::to_string(*align) +
                          ", must be a power of two >= 1");
  }
  return *align;
}

PyVerdict VerifyProgram(const py::bytes& data, std::optional<int64_t> align,
                        std::optional<std::string> method,
                        std::vector<std::string> alias_ops) {
  oracle::ReadOptions options;
  options.alignment = Alignment(align);
  options.method = method.value_or("");
  options.alias_ops = std::move(alias_ops);
  std::string bytes = data;
  py::gil_scoped_release release;
  return ToPython(
      Take(oracle::Verify(oracle::PlanFormat::kProgram, bytes, options)));
}

// A plan given as a dict (memplan.plan.v1, or ExecuTorch's memory trace
// when it has "traceEvents") or as its JSON text: read by the one JSON
// reader, so the errors are the file format's.
PyVerdict VerifyPlan(const py::object& plan, std::optional<int64_t> align) {
  std::string text;
  if (py::isinstance<py::str>(plan) || py::isinstance<py::bytes>(plan)) {
    text = plan.cast<std::string>();
  } else {
    text = py::module_::import("json").attr("dumps")(plan).cast<std::string>();
  }
  oracle::ReadOptions options;
  options.alignment = Alignment(align);
  oracle::PlanFormat format =
      oracle::DetectFormat(".json", text).value_or(oracle::PlanFormat::kJson);
  py::gil_scoped_release release;
  return ToPython(Take(oracle::Verify(format, text, options)));
}

template <typename T>
T Field(const py::dict& row, const char* key, size_t index) {
  if (!row.contains(key)) {
    throw py::key_error("problem[" + std::to_string(index) + "] lacks '" + key +
                        "'");
  }
  try {
    return row[key].cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error("problem[" + std::to_string(index) + "]['" + key +
                         "'] must be a non-negative integer");
  }
}

// problem: rows like MiniMalloc's CSV (id, lower, upper, size, optional
// alignment; [lower, upper) half-open), or the CSV text itself.
py::dict Plan(const py::object& problem, const std::string& algo,
              std::optional<int64_t> align, double max_seconds) {
  uint64_t alignment = static_cast<uint64_t>(Alignment(align));
  oracle::Problem parsed;
  if (py::isinstance<py::str>(problem)) {
    parsed =
        Take(oracle::ReadProblemCsv(problem.cast<std::string>(), alignment));
  } else {
    size_t index = 0;
    for (const py::handle& item : problem) {
      py::dict row = py::reinterpret_borrow<py::object>(item).cast<py::dict>();
      oracle::ProblemBuffer buffer;
      buffer.id = row.contains("id") ? py::str(row["id"]).cast<std::string>()
                                     : std::to_string(index);
      buffer.lower = Field<int64_t>(row, "lower", index);
      buffer.upper = Field<int64_t>(row, "upper", index);
      buffer.size = Field<uint64_t>(row, "size", index);
      buffer.alignment = row.contains("alignment")
                             ? Field<uint64_t>(row, "alignment", index)
                             : alignment;
      parsed.buffers.push_back(std::move(buffer));
      ++index;
    }
  }
  oracle::SolveOptions options;
  options.max_seconds = max_seconds;
  oracle::Solution solution;
  {
    py::gil_scoped_release release;
    solution = Take(oracle::Solve(parsed, algo, options));
  }
  py::dict out;
  py::dict offsets_by_id;
  for (size_t i = 0; i < parsed.buffers.size(); ++i) {
    offsets_by_id[py::str(parsed.buffers[i].id)] = solution.offsets[i];
  }
  out["offsets"] = solution.offsets;
  out["offsets_by_id"] = offsets_by_id;
  out["height"] = solution.height;
  out["algorithm"] = solution.algorithm;
  out["proven_optimal"] = solution.proven_optimal;
  return out;
}

std::vector<oracle::MethodLoad> LoadCheck(const py::bytes& data, bool use_gpu) {
  std::string bytes = data;
  oracle::LoadOptions options;
  options.use_gpu = use_gpu;
  py::gil_scoped_release release;
  return Take(oracle::LoadAndCheck(bytes, options));
}

py::object OptionalRange(const std::optional<oracle::ByteRange>& range) {
  if (!range) return py::none();
  return py::make_tuple(range->begin, range->end);
}

py::object OptionalLifetime(const std::optional<oracle::Lifetime>& lifetime) {
  if (!lifetime) return py::none();
  return py::make_tuple(lifetime->first, lifetime->last);
}

}  // namespace
}  // namespace python
}  // namespace memplan

PYBIND11_MODULE(memplan, m) {
  using namespace memplan;          // NOLINT: the module body only.
  using namespace memplan::python;  // NOLINT
  m.doc() =
      "memplan's plan oracle: verify ExecuTorch programs and memory plans, "
      "plan MiniMalloc problems, load programs onto simulated devices.";
  py::register_exception<OracleError>(m, "Error", PyExc_ValueError);

  py::class_<oracle::Violation>(m, "Violation")
      .def_property_readonly(
          "code",
          [](const oracle::Violation& v) {
            return std::string(oracle::ViolationCodeName(v.code));
          })
      .def_readonly("message", &oracle::Violation::message)
      .def_readonly("allocation_ids", &oracle::Violation::allocation_ids)
      .def_readonly("mem_id", &oracle::Violation::mem_id)
      .def_property_readonly(
          "bytes",
          [](const oracle::Violation& v) { return OptionalRange(v.bytes); },
          "(begin, end) half-open, or None")
      .def_property_readonly(
          "lifetime",
          [](const oracle::Violation& v) {
            return OptionalLifetime(v.lifetime);
          },
          "(first, last) inclusive, or None")
      .def("__repr__", [](const oracle::Violation& v) {
        return "<memplan.Violation " + v.message + ">";
      });

  py::class_<oracle::BufferQuality>(m, "BufferQuality")
      .def_readonly("mem_id", &oracle::BufferQuality::mem_id)
      .def_property_readonly(
          "device",
          [](const oracle::BufferQuality& q) { return q.device.ToString(); })
      .def_readonly("size", &oracle::BufferQuality::size)
      .def_readonly("lower_bound",
                    &oracle::BufferQuality::live_bytes_lower_bound)
      .def_readonly("high_water", &oracle::BufferQuality::high_water)
      .def_readonly("num_allocations", &oracle::BufferQuality::num_allocations)
      .def_property_readonly("ratio", &oracle::BufferQuality::ratio);

  py::class_<PyReport>(m, "Report")
      .def_readonly("name", &PyReport::name, "the method's name; '' for a plan")
      .def_property_readonly("ok",
                             [](const PyReport& r) { return r.report.ok(); })
      .def_property_readonly(
          "violations", [](const PyReport& r) { return r.report.violations; },
          "the kept violations (at most 100 per code)")
      .def_property_readonly(
          "counts",
          [](const PyReport& r) {
            py::dict counts;
            for (int c = 0; c < oracle::kNumViolationCodes; ++c) {
              counts[oracle::ViolationCodeName(
                  static_cast<oracle::ViolationCode>(c))] = r.report.counts[c];
            }
            return counts;
          })
      .def_property_readonly(
          "total_violations",
          [](const PyReport& r) { return r.report.total_violations(); })
      .def_property_readonly("buffers",
                             [](const PyReport& r) { return r.report.buffers; })
      .def("text",
           [](const PyReport& r) { return oracle::FormatText(r.report); })
      .def("json",
           [](const PyReport& r) { return oracle::FormatJson(r.report); })
      .def("__repr__", [](const PyReport& r) {
        return "<memplan.Report " + r.name + ": " +
               std::to_string(r.report.total_violations()) + " violation(s)>";
      });

  py::class_<PyVerdict>(m, "Verdict")
      .def_property_readonly("ok", &PyVerdict::ok)
      .def_readonly("reports", &PyVerdict::reports)
      .def_property_readonly("violations",
                             [](const PyVerdict& v) {
                               std::vector<oracle::Violation> all;
                               for (const PyReport& r : v.reports) {
                                 all.insert(all.end(),
                                            r.report.violations.begin(),
                                            r.report.violations.end());
                               }
                               return all;
                             })
      .def("text",
           [](const PyVerdict& v) {
             std::string out;
             for (const PyReport& r : v.reports) {
               if (!r.name.empty()) out += r.name + ":\n";
               out += oracle::FormatText(r.report);
             }
             return out;
           })
      .def("__bool__", &PyVerdict::ok)
      .def("__repr__", [](const PyVerdict& v) {
        return std::string("<memplan.Verdict ") + (v.ok() ? "ok" : "INVALID") +
               ", " + std::to_string(v.reports.size()) + " report(s)>";
      });

  py::class_<oracle::MethodLoad>(m, "MethodLoad")
      .def_readonly("method", &oracle::MethodLoad::method)
      .def_property_readonly("ok", &oracle::MethodLoad::ok)
      .def_readonly("allocators", &oracle::MethodLoad::allocators)
      .def_property_readonly("error",
                             [](const oracle::MethodLoad& l) -> py::object {
                               if (l.ok()) return py::none();
                               return py::str(l.error.ToString());
                             })
      .def("__repr__", [](const oracle::MethodLoad& l) {
        return "<memplan.MethodLoad " + l.method + ": " +
               (l.ok() ? "ok on " + l.allocators : l.error.ToString()) + ">";
      });

  m.def("verify_program", &VerifyProgram, py::arg("data"),
        py::arg("align") = py::none(), py::arg("method") = py::none(),
        py::arg("alias_ops") = std::vector<std::string>{},
        "Judges every method of an ExecuTorch program (.pte or .bpte bytes). "
        "Raises memplan.Error when the bytes are not a readable program.");
  m.def("verify_plan", &VerifyPlan, py::arg("plan"),
        py::arg("align") = py::none(),
        "Judges a memplan.plan.v1 plan (a dict or its JSON text; an "
        "ExecuTorch memory trace when it has 'traceEvents').");
  m.def("plan", &Plan, py::arg("problem"), py::arg("algo") = "suite",
        py::arg("align") = py::none(), py::arg("max_seconds") = 10.0,
        "Places a MiniMalloc-style problem (rows with id, lower, upper, size, "
        "alignment) with one algorithm or 'suite'; returns offsets and "
        "height.");
  m.def("load_check", &LoadCheck, py::arg("data"), py::arg("use_gpu") = true,
        "Loads every method onto the device allocators (CUDA simulated where "
        "no GPU is) and checks every tensor pointer; one MethodLoad each.");
  m.attr("ALGORITHMS") = oracle::AlgorithmNames();
}

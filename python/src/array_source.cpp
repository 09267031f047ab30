#include "array_source.hpp"

#include <cmath>
#include <cstring>
#include <string>

#include "base/errors.hpp"
#include "base/format_names.hpp"
#include "formats/block_graph.hpp"
#include "formats/writers.hpp"
#include "programs/command_line.hpp"

namespace sluice::python {

namespace {

template <class V>
class ArraySource : public formats::GraphSource {
 public:
  // The arrays stay owned (and alive) on the Python side.
  ArraySource(const uint64_t* indptr, const V* indices, const float* weights, uint64_t vertices, bool symmetric)
      : indptr_(indptr), indices_(indices), weights_(weights), vertices_(vertices), symmetric_(symmetric) {}

  base::GraphInfo info() const override {
    return base::GraphInfo{vertices_, indptr_[vertices_], weights_ != nullptr, unsigned(sizeof(V)), symmetric_};
  }
  std::string format_name() const override { return "arrays"; }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override {
    std::memcpy(out, indptr_ + begin, (end - begin + 1) * sizeof(uint64_t));
  }
  void read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const override {
    const uint64_t first = indptr_[begin], count = indptr_[end] - first;
    if (count == 0) return;  // the buffers may be null then
    std::memcpy(targets, indices_ + first, count * sizeof(V));
    if (weights && weights_) std::memcpy(weights, weights_ + first, count * sizeof(float));
  }

 private:
  const uint64_t* indptr_;
  const V* indices_;
  const float* weights_;
  uint64_t vertices_;
  bool symmetric_;  // the caller vouches that every edge is stored both ways
};

// The CSR's invariants, checked before any writer trusts them.
template <class V>
void check_csr(const uint64_t* indptr, const V* indices, const float* weights, uint64_t count, uint64_t n) {
  const std::string what = "the arrays";
  if (indptr[0] != 0) throw base::InputError(what, "indptr[0]", "expected 0, found " + std::to_string(indptr[0]));
  for (uint64_t v = 0; v < n; ++v) {
    if (indptr[v + 1] < indptr[v]) {
      throw base::InputError(what, "indptr[" + std::to_string(v + 1) + "]",
                       "offsets must not decrease (" + std::to_string(indptr[v + 1]) + " after " + std::to_string(indptr[v]) + ")");
    }
  }
  if (indptr[n] != count) {
    throw base::InputError(what, "indptr[" + std::to_string(n) + "]",
                     "expected the number of indices, " + std::to_string(count) + ", found " + std::to_string(indptr[n]));
  }
  for (uint64_t e = 0; e < count; ++e) {
    if (uint64_t(indices[e]) >= n) {
      throw base::InputError(what, "indices[" + std::to_string(e) + "]",
                       "vertex id " + std::to_string(uint64_t(indices[e])) + " is not below the " + std::to_string(n) + " vertices");
    }
  }
  // sluice.from_arrays refuses them first, with the value as given.
  for (uint64_t e = 0; weights && e < count; ++e) {
    if (!std::isfinite(weights[e])) {
      throw base::InputError(what, "weights[" + std::to_string(e) + "]", "the weight is nan or infinite; weights must be finite numbers");
    }
  }
}

template <class V>
void write_arrays(const py::array_t<uint64_t, py::array::c_style>& indptr, const py::array_t<V, py::array::c_style>& indices,
                  const py::object& weights,
                  uint64_t vertices, const std::string& path, const std::vector<std::string>& flags) {
  namespace po = boost::program_options;
  po::options_description options("write");
  options.add_options()
    ("to", po::value<std::string>()->default_value(""), "output format (default: from the extension)")
    ("drives", po::value<std::string>()->default_value(""), "comma-separated drive directories (layouts only)")
    ("transpose", po::bool_switch(), "also store the transpose (sluice layout)")
    ("force", po::bool_switch(), "overwrite drive files that belong to another layout")
    ("symmetric", po::bool_switch(), "every edge is stored both ways (an undirected graph): a layout records it, and the "
                                     "programs then need no transpose");
  programs::add_page_options(options);
  programs::add_threads_option(options);
  const po::variables_map v = parse_flags("sluice.write", options, flags);
  std::string to = v["to"].as<std::string>();
  if (to.empty()) to = base::format_from_extension(path);
  if (to.empty()) throw po::error("cannot tell the output format from '" + path + "'; give to=");
  if (v["transpose"].as<bool>() && to != "sluice") throw po::error("transpose is stored only in sluice's layout");
  formats::WriteOptions write;
  write.drive_dirs = programs::split_list(v["drives"].as<std::string>());
  if (!write.drive_dirs.empty() && to != "sluice" && to != "blaze") throw po::error("drives apply to sluice and blaze layouts");
  write.force = v["force"].as<bool>();
  programs::page_options_from(v, to, write, "compress=True", "compress=False");
  write.progress = true;  // on a terminal only
  if (uint64_t(indptr.size()) != vertices + 1) {
    throw base::InputError("the arrays", "indptr", "expected " + std::to_string(vertices + 1) + " offsets, found " + std::to_string(indptr.size()));
  }
  const float* weight_data = nullptr;
  py::array_t<float, py::array::c_style | py::array::forcecast> weight_array;
  if (!weights.is_none()) {
    weight_array = weights.cast<py::array_t<float, py::array::c_style | py::array::forcecast>>();
    if (weight_array.size() != indices.size()) {
      throw base::InputError("the arrays", "weights", "expected one weight per index (" + std::to_string(indices.size()) + "), found " +
                                                     std::to_string(weight_array.size()));
    }
    weight_data = weight_array.data();
  }
  const uint64_t* offsets = indptr.data();
  const V* ids = indices.data();
  const uint64_t count = uint64_t(indices.size());
  const int threads = programs::threads_option(v);
  run_released([&] {
    check_csr(offsets, ids, weight_data, count, vertices);
    formats::BlockOptions blocks;
    blocks.threads = threads;
    formats::BlockGraph graph(std::make_unique<ArraySource<V>>(offsets, ids, weight_data, vertices, v["symmetric"].as<bool>()), blocks);
    std::unique_ptr<formats::BlockGraph> transpose;
    if (v["transpose"].as<bool>()) transpose = formats::transpose_of(graph, threads);
    write.transpose = transpose.get();
    formats::write_graph(graph, path, to, write);
  });
}

}  // namespace

void bind_array_writer(py::module_& m) {
  m.def("write_arrays32", &write_arrays<uint32_t>, py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("weights"),
        py::arg("vertices"), py::arg("path"), py::arg("flags"));
  m.def("write_arrays64", &write_arrays<uint64_t>, py::arg("indptr").noconvert(), py::arg("indices").noconvert(), py::arg("weights"),
        py::arg("vertices"), py::arg("path"), py::arg("flags"));
}

}  // namespace sluice::python

// What every format implements to be served through the block API: the
// counts, the CSR offsets of any vertex range and the edges of any vertex
// range. Implementations are thread-safe for concurrent reads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/id_map.hpp"
#include "formats/csr.hpp"

namespace sluice::formats {

struct EdgeBlock;  // formats/block_graph.hpp

class GraphSource {
 public:
  virtual ~GraphSource() = default;
  virtual base::GraphInfo info() const = 0;
  virtual std::string format_name() const = 0;
  // out[i] = offset of vertex begin + i, for i in [0, end - begin].
  virtual void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const = 0;
  // Targets (info().id_bytes wide) and, when weighted and `weights` is not
  // null, weights of the edges of vertices [begin, end), in CSR order.
  virtual void read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const = 0;
  // The input's ids of a relabelled graph (convert --relabel); empty when
  // the ids are the input's own.
  virtual const base::IdMap& ids() const;
  // The transpose, where it was built beside the graph (a bounded build
  // with BuildOptions::transpose_alongside, formats/external_csr.hpp):
  // the first call places it, later calls return null.
  virtual std::unique_ptr<GraphSource> built_transpose() const { return nullptr; }
  // A source whose lists are made in vertex order and kept nowhere until
  // read (a bounded build that has not placed its ranges yet) may hand
  // them over once, as they are made: then it calls `consume` with blocks
  // that cover every vertex in order, and returns true, and its edges
  // cannot be read again. Otherwise it returns false: read it by range.
  virtual bool stream_once(const std::function<void(const EdgeBlock&)>&) const { return false; }
};

// A CSR held in memory: what the text and binary edge-list formats load to.
template <class V>
class InMemorySource : public GraphSource {
 public:
  InMemorySource(Csr<V> csr, std::string format, base::IdMap ids = {})
      : csr_(std::move(csr)), format_(std::move(format)), ids_(std::move(ids)) {}
  base::GraphInfo info() const override { return csr_.info(); }
  std::string format_name() const override { return format_; }
  void read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const override;
  void read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const override;
  const base::IdMap& ids() const override { return ids_; }
  const Csr<V>& csr() const { return csr_; }

 private:
  Csr<V> csr_;
  std::string format_;
  base::IdMap ids_;
};

}  // namespace sluice::formats

#include <algorithm>
#include <cstring>

#include "formats/graph_source.hpp"

namespace sluice::formats {

const base::IdMap& GraphSource::ids() const {
  static const base::IdMap none;
  return none;
}

template <class V>
void InMemorySource<V>::read_offsets(uint64_t begin, uint64_t end, uint64_t* out) const {
  std::copy(csr_.offsets.data() + begin, csr_.offsets.data() + end + 1, out);
}

template <class V>
void InMemorySource<V>::read_edges(uint64_t begin, uint64_t end, void* targets, float* weights) const {
  uint64_t first = csr_.offsets[begin], last = csr_.offsets[end];
  if (last == first) return;  // the arrays may be empty (null)
  std::memcpy(targets, csr_.targets.data() + first, (last - first) * sizeof(V));
  if (weights && csr_.weighted) std::memcpy(weights, csr_.weights.data() + first, (last - first) * sizeof(float));
}

template class InMemorySource<uint32_t>;
template class InMemorySource<uint64_t>;

}  // namespace sluice::formats

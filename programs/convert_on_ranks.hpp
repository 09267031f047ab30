// `mpirun -np R sluice convert IN OUT.sluice --ranks R`: the ranks convert
// together, and each writes only its own part, on its own drives, the
// same part, byte for byte, as the one-machine `sluice convert --ranks R`.
//
// Each rank reads a share of IN: of one edge list, its share of the lines
// (the file cut at line ends) or of the binary pairs; of another input every rank can
// read, the sources whose edges make its share of the edge count, through
// the block API (a layout, Blaze or WebGraph graph is read in place; other
// formats, and any input built with an option that needs the whole graph,
// are loaded whole by every rank); with `{rank}` in IN, the whole of its
// own file (the shares, concatenated in rank order, are the graph). The ranges come from
// the in-degrees summed over the ranks. The edges then go to the ranks
// that own their destinations (and, with --transpose, their sources) in
// all-to-all rounds of bounded size, and each rank keeps what it
// receives by sender, in memory up to an eighth of --memory-limit for
// each kind, then on a scratch file per sender. Read back in rank order,
// that is every edge of its part in the input's order; the part is built
// in memory or, past half the limit, on scratch files
// (formats/external_csr.hpp), and staged. Once every rank has staged its part, the parts are put in
// place, then rank 0 writes the top manifest; a rank whose manifest
// directory rank 0 does not share writes its own copy.
#pragma once

#include <cstdint>
#include <string>

#include "base/graph_info.hpp"
#include "engine/communicator.hpp"
#include "formats/block_graph.hpp"
#include "formats/ranked_writer.hpp"

namespace sluice::programs {

struct ConvertedOnRanks {
  base::GraphInfo info;  // the whole graph's
  std::string format;    // the input's
  uint64_t routed_bytes = 0;  // the edge bytes this rank sent to the others
};

// `input` may name "{rank}"; `options.ranks` must be the job's size.
ConvertedOnRanks convert_on_ranks(const std::string& input, const formats::OpenOptions& open, const std::string& manifest_path,
                                  const formats::RankedWriteOptions& options, engine::Communicator& ranks);

}  // namespace sluice::programs

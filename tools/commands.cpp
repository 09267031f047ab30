#include "tools/commands.hpp"

namespace sluice::tools {

const Command algorithm_commands[6] = {
    {"bfs", "breadth-first search: depth and parent of every vertex", cmd_bfs},
    {"pagerank", "PageRank, delta (Ligra/Blaze) or classic (GAPBS)", cmd_pagerank},
    {"wcc", "weakly connected components by Afforest over the engine (uses the transpose)", cmd_wcc},
    {"jtcc", "connected components by concurrent union-find, one pass through the block API", cmd_jtcc},
    {"spmv", "sparse matrix-vector product over the edge weights", cmd_spmv},
    {"bc", "betweenness centrality (Brandes) from one or more sources (uses the transpose)", cmd_bc},
};

}  // namespace sluice::tools

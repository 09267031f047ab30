#include "layout/ranked_layout.hpp"

#include "base/errors.hpp"
#include "layout/manifest.hpp"

namespace sluice::layout {

namespace {

base::InputError part_alone(const std::string& path, const PartOf& part) {
  const std::string whole = path_in_layout(path, part.whole);
  return base::InputError(path, "", "is part " + std::to_string(part.rank) + " of " + std::to_string(part.ranks) +
                                        " of the ranked layout " + whole + ": run " + whole + " under `mpirun -np " +
                                        std::to_string(part.ranks) + "`, or inspect this part with `sluice info " + whole +
                                        " --rank " + std::to_string(part.rank) + "`");
}

}  // namespace

std::string manifest_to_open(const std::string& path, std::optional<RankChoice> rank) {
  const Manifest top = Manifest::read(path);
  if (!top.is_ranked()) {
    if (top.part) throw part_alone(path, *top.part);
    if (rank && rank->ranks > 1) {
      throw base::InputError(path, "", "is not split into ranks, and this job runs " + std::to_string(rank->ranks) +
                                           ": convert it with `sluice convert " + path + " OUT.sluice --ranks " +
                                           std::to_string(rank->ranks) + "`, or run it without mpirun");
    }
    return path;
  }
  const unsigned ranks = unsigned(top.parts.size());
  if (!rank && ranks > 1) {
    throw base::InputError(path, "", "is a layout split for " + std::to_string(ranks) + " ranks: run it under `mpirun -np " +
                                         std::to_string(ranks) + "` (a sluice built with MPI), or inspect one part with `sluice info " +
                                         path + " --rank N`");
  }
  const RankChoice choice = rank.value_or(RankChoice{});
  if (choice.ranks != ranks) {
    throw base::InputError(path, "", "was split for " + std::to_string(ranks) + " ranks, and this job runs " +
                                         std::to_string(choice.ranks) + ": launch it with `mpirun -np " + std::to_string(ranks) +
                                         "`, or convert again with --ranks " + std::to_string(choice.ranks));
  }
  const RankPart& expected = top.parts[choice.rank];
  if (choice.transpose_graph && expected.transpose.empty()) {
    throw base::InputError(path, "", "was split without the transpose's parts: convert it again with --transpose");
  }
  const std::string part_path = path_in_layout(path, choice.transpose_graph ? expected.transpose : expected.manifest);
  const Manifest part = Manifest::read(part_path);
  if (!part.part || part.part->whole_layout != top.layout_id) {
    throw base::InputError(part_path, "", "is not a part of " + path + " (layout " + top.layout_id + ")" +
                                              (part.part ? ": it belongs to layout " + part.part->whole_layout : "") +
                                              "; convert the graph again");
  }
  if (part.part->rank != choice.rank || part.part->ranks != ranks || part.part->begin != expected.begin ||
      part.part->transpose_graph != choice.transpose_graph ||
      part.part->end != expected.end || part.info.vertices != top.info.vertices) {
    auto name = [](bool transposed, unsigned rank, unsigned ranks) {
      return std::string(transposed ? "the transpose's part " : "part ") + std::to_string(rank) + " of " + std::to_string(ranks);
    };
    throw base::InputError(part_path, "", "says it is " + name(part.part->transpose_graph, part.part->rank, part.part->ranks) +
                                              ", where " + path + " expects " + name(choice.transpose_graph, choice.rank, ranks) +
                                              "; convert the graph again");
  }
  return part_path;
}

}  // namespace sluice::layout

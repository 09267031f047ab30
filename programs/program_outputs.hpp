// The files a program writes (--output, --stats, --parents, ...), guarded
// against its inputs and committed together; on ranks, each value file
// written by every rank, its own share.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "base/id_map.hpp"
#include "base/output_guard.hpp"
#include "engine/communicator.hpp"
#include "programs/command_line.hpp"

namespace sluice::programs {

// The files a program writes: each checked before the work starts (so an
// unwritable path fails at once, not after the run, and no output may be
// a file the program reads, or another output), all written after it and
// committed together (so a failed run leaves none of them, and a failed
// write is an error, never a silent loss). Paths as AtomicFile takes them:
// "-" is standard output, devices and FIFOs are written in place.
class ProgramOutputs {
 public:
  // The files the program reads, then its --output and --stats, if it has them.
  ProgramOutputs(const po::variables_map& values, const std::vector<base::NamedFile>& inputs);
  // One more file the program reads (spmv's --x).
  void read(const std::string& path, const std::string& what);
  // One more output, the value of `option` (--parents): checked, unless
  // the option was left out; given as "", it is an error.
  void expect(const po::variables_map& values, const char* option);
  // One value per vertex in --output-format (ignores an empty path). On a
  // relabelled graph (name_vertices_by), each value with its vertex's
  // input id, in the input's id order: "ID VALUE" lines, or binary
  // records of a uint64 id and the value.
  template <class T>
  void values(const std::string& path, std::span<const T> data);
  void text(const std::string& path, const std::string& text);
  void commit();
  // Whether an output is standard output (summaries then go to stderr).
  bool writes_stdout() const { return writes_stdout_; }
  // On ranks (every rank calls values, text and commit in the same order,
  // each array's values valid over the rank's own range [begin, end) of
  // vertices): this rank writes the records at positions [begin, end) of
  // each value file's order, at its offset (MPI-IO; text records' offsets
  // from an exclusive scan of their lengths). Where that order is not the
  // layout's (a reordered layout lists values in the input's order), the
  // ranks first send each value to the rank whose positions hold it. The
  // first rank creates each file, writes the text files alone, and
  // commits them all once every rank has written its share. Standard
  // output, a device or a FIFO is written by the first rank alone, sent
  // the other ranks' shares one rank at a time.
  void write_by_ranks(engine::Communicator& ranks, uint64_t begin, uint64_t end);
  // The layout's id map (empty: values are written by position alone).
  void name_vertices_by(const base::IdMap* ids) { ids_ = ids; }

 private:
  // Hands `sink` the bytes of the records at positions [begin, end), in
  // pieces: the value at position i is data[the vertex listed there], or
  // with `by_position`, by_position[i - begin].
  template <class T, class Sink>
  void records(std::span<const T> data, uint64_t begin, uint64_t end, const T* by_position, Sink&& sink) const;
  template <class T>
  void shares(const std::string& path, std::span<const T> data);
  // The values of this rank's positions, sent by the ranks owning their
  // vertices; empty where the positions are the rank's own vertices.
  template <class T>
  std::vector<T> routed_share(std::span<const T> data) const;
  bool leads() const { return !ranks_ || ranks_->rank() == 0; }

  std::string format_;
  base::OutputGuard guard_;
  std::vector<base::AtomicFile> files_;
  bool writes_stdout_ = false;
  const base::IdMap* ids_ = nullptr;
  engine::Communicator* ranks_ = nullptr;  // null: one process writes everything
  uint64_t begin_ = 0, end_ = 0;           // this rank's positions
  std::vector<uint64_t> bounds_;           // every rank's first position, then the last rank's end
};

// --output FILE and --output-format text|binary (add_program_options adds
// them; jtcc, which has no engine, adds them alone).
void add_output_options(po::options_description& options, const char* output_help);
// --output-format, checked: "text" or "binary".
std::string output_format(const po::variables_map& values);

}  // namespace sluice::programs

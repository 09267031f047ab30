#include "cluster/mpi_communicator.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

namespace sluice::cluster {

namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(what) + ": " + std::string(text, size_t(length)));
}

// MPI counts are ints: larger arrays go in pieces of this many elements.
constexpr uint64_t piece = uint64_t(1) << 28;

// An all-reduce of `bytes` on `ranks` ranks moves 2 (P - 1) / P of them
// each way (a reduce-scatter, then an all-gather).
void count_all_reduce(uint64_t bytes, int ranks, engine::CommunicationCounters& counters) {
  const uint64_t moved = bytes * 2 * uint64_t(ranks - 1) / uint64_t(ranks);
  counters.sent_bytes += moved;
  counters.received_bytes += moved;
}

template <class T>
void all_reduce(std::span<T> values, MPI_Datatype type, MPI_Op op, int ranks, engine::CommunicationCounters& counters) {
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t at = 0; at < values.size(); at += piece) {
    const int count = int(std::min<uint64_t>(piece, values.size() - at));
    check(MPI_Allreduce(MPI_IN_PLACE, values.data() + at, count, type, op, MPI_COMM_WORLD), "MPI_Allreduce");
    ++counters.collectives;
  }
  count_all_reduce(values.size_bytes(), ranks, counters);
  counters.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Component labels as a union-find, the smaller id the root: the labels of
// the union of two partitions, each given by its labels (every label the
// smallest vertex of its component).
template <class Id>
void merge_labels(const Id* in, Id* inout, uint64_t n) {
  auto find = [&](Id v) {
    while (inout[v] != v) {
      inout[v] = inout[inout[v]];
      v = inout[v];
    }
    return v;
  };
  for (uint64_t v = 0; v < n; ++v) {
    Id a = find(Id(v)), b = find(in[v]);
    if (a == b) continue;
    if (a < b) std::swap(a, b);
    inout[a] = b;
  }
  for (uint64_t v = 0; v < n; ++v) inout[v] = find(Id(v));
}

// The user operation sees one element of a contiguous type of n labels; n
// is fixed for the duration of one merge.
uint64_t merge_length = 0;
template <class Id>
void merge_operation(void* in, void* inout, int* count, MPI_Datatype*) {
  for (int i = 0; i < *count; ++i) {
    merge_labels(static_cast<const Id*>(in) + uint64_t(i) * merge_length, static_cast<Id*>(inout) + uint64_t(i) * merge_length,
                 merge_length);
  }
}

template <class Id>
void merge(std::span<Id> labels, MPI_Datatype element, int ranks, engine::CommunicationCounters& counters) {
  if (labels.empty()) return;
  if (labels.size() > uint64_t(INT_MAX)) throw std::runtime_error("merging components across ranks takes at most 2^31 - 1 vertices");
  const auto start = std::chrono::steady_clock::now();
  merge_length = labels.size();
  MPI_Datatype all;
  check(MPI_Type_contiguous(int(labels.size()), element, &all), "MPI_Type_contiguous");
  MPI_Type_commit(&all);
  MPI_Op op;
  MPI_Op_create(&merge_operation<Id>, 1, &op);
  const int code = MPI_Allreduce(MPI_IN_PLACE, labels.data(), 1, all, op, MPI_COMM_WORLD);
  MPI_Op_free(&op);
  MPI_Type_free(&all);
  check(code, "MPI_Allreduce (merging components)");
  ++counters.collectives;
  count_all_reduce(labels.size_bytes(), ranks, counters);
  counters.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

MpiCommunicator::MpiCommunicator() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

void MpiCommunicator::gather(const char* mine, std::span<char> all, std::span<const uint64_t> counts) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<uint64_t> at(counts.size() + 1, 0);
  for (size_t r = 0; r < counts.size(); ++r) at[r + 1] = at[r] + counts[r];
  if (at.back() > all.size()) throw std::logic_error("all_gather: the pieces exceed the buffer");
  // In rounds of at most `piece` bytes from each rank, for int counts.
  std::vector<int> round_counts(counts.size()), displacements(counts.size());
  for (uint64_t done = 0;; done += piece) {
    bool more = false;
    for (size_t r = 0; r < counts.size(); ++r) {
      round_counts[r] = int(counts[r] > done ? std::min<uint64_t>(piece, counts[r] - done) : 0);
      displacements[r] = 0;
      more = more || round_counts[r] > 0;
    }
    if (!more) break;
    // Displacements are ints too: each round gathers into a scratch buffer.
    std::vector<char> scratch;
    uint64_t total = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
      displacements[r] = int(total);
      total += uint64_t(round_counts[r]);
    }
    if (total > uint64_t(INT_MAX)) throw std::runtime_error("all_gather: a round exceeds 2 GiB; use fewer ranks per gather");
    scratch.resize(total);
    const char* send = mine ? mine + done : all.data() + at[size_t(rank_)] + done;
    check(MPI_Allgatherv(round_counts[size_t(rank_)] ? send : scratch.data(), round_counts[size_t(rank_)], MPI_BYTE, scratch.data(),
                         round_counts.data(), displacements.data(), MPI_BYTE, MPI_COMM_WORLD),
          "MPI_Allgatherv");
    ++counters_.collectives;
    for (size_t r = 0; r < counts.size(); ++r) {
      if (round_counts[r]) std::copy_n(scratch.data() + displacements[r], round_counts[r], all.data() + at[r] + done);
    }
  }
  counters_.sent_bytes += counts[size_t(rank_)];
  counters_.received_bytes += at.back() - counts[size_t(rank_)];
  counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void MpiCommunicator::all_gather(std::span<const char> mine, std::span<char> all, std::span<const uint64_t> counts) {
  if (mine.size() != counts[size_t(rank_)]) throw std::logic_error("all_gather: this rank's piece is not the size counted");
  static const char nothing = 0;
  gather(mine.empty() ? &nothing : mine.data(), all, counts);
}

void MpiCommunicator::all_gather_in_place(std::span<char> all, std::span<const uint64_t> counts) { gather(nullptr, all, counts); }

namespace {

// An all-to-all's pieces as MPI takes them, in one array: the send counts,
// their displacements, the receive counts, theirs (every total known to
// fit an int).
std::vector<int> int_counts(std::span<const uint64_t> send_counts, std::span<const uint64_t> receive_counts) {
  const size_t ranks = send_counts.size();
  std::vector<int> c(4 * ranks);
  int sent = 0, received = 0;
  for (size_t r = 0; r < ranks; ++r) {
    c[r] = int(send_counts[r]);
    c[ranks + r] = sent;
    sent += c[r];
    c[2 * ranks + r] = int(receive_counts[r]);
    c[3 * ranks + r] = received;
    received += c[2 * ranks + r];
  }
  return c;
}

// Valid addresses for no bytes, and distinct: OpenMPI's libnbc takes
// equal send and receive buffers for MPI_IN_PLACE, and its in-place
// schedule then posts messages the other ranks never match (a hang).
char nothing_out = 0, nothing_in = 0;

}  // namespace

void MpiCommunicator::direct_all_to_all(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                                        std::span<const uint64_t> receive_counts) {
  const auto start = std::chrono::steady_clock::now();
  const size_t ranks = size_t(size_);
  uint64_t sent = 0, received = 0;
  for (size_t r = 0; r < ranks; ++r) {
    sent += send_counts[r];
    received += receive_counts[r];
  }
  if (sent > send.size() || received > receive.size()) throw std::logic_error("all_to_all: the pieces exceed the buffers");
  if (sent > uint64_t(INT_MAX) || received > uint64_t(INT_MAX)) throw std::logic_error("all_to_all: the pieces exceed an int");
  const std::vector<int> c = int_counts(send_counts, receive_counts);
  check(MPI_Alltoallv(send.empty() ? &nothing_out : send.data(), c.data(), c.data() + ranks, MPI_BYTE,
                      receive.empty() ? &nothing_in : receive.data(), c.data() + 2 * ranks, c.data() + 3 * ranks, MPI_BYTE,
                      MPI_COMM_WORLD),
        "MPI_Alltoallv");
  ++counters_.collectives;
  // A rank's piece to itself does not cross its link.
  counters_.sent_bytes += sent - send_counts[size_t(rank_)];
  counters_.received_bytes += received - receive_counts[size_t(rank_)];
  counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void MpiCommunicator::all_to_all_fitting(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                                         std::span<const uint64_t> receive_counts) {
  direct_all_to_all(send, send_counts, receive, receive_counts);
}

void MpiCommunicator::all_to_all(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                                 std::span<const uint64_t> receive_counts) {
  const auto start = std::chrono::steady_clock::now();
  const size_t ranks = size_t(size_);
  std::vector<uint64_t> send_at(ranks + 1, 0), receive_at(ranks + 1, 0);
  for (size_t r = 0; r < ranks; ++r) {
    send_at[r + 1] = send_at[r] + send_counts[r];
    receive_at[r + 1] = receive_at[r] + receive_counts[r];
  }
  if (send_at.back() > send.size() || receive_at.back() > receive.size()) throw std::logic_error("all_to_all: the pieces exceed the buffers");
  // One MPI_Alltoallv straight from `send` into `receive` where every
  // rank's totals fit its int displacements; else in rounds of at most
  // `step` bytes per pair through buffers of a round's size.
  const uint64_t step = std::max<uint64_t>(1, (uint64_t(1) << 30) / ranks);
  uint64_t largest[2] = {std::max(send_at.back(), receive_at.back()), 0};
  for (size_t r = 0; r < ranks; ++r) largest[1] = std::max({largest[1], send_counts[r], receive_counts[r]});
  check(MPI_Allreduce(MPI_IN_PLACE, largest, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  ++counters_.collectives;
  counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (largest[0] <= uint64_t(INT_MAX)) return direct_all_to_all(send, send_counts, receive, receive_counts);
  const auto rounds_start = std::chrono::steady_clock::now();
  std::vector<int> out_counts(ranks), out_at(ranks), in_counts(ranks), in_at(ranks);
  std::vector<char> out, in;
  for (uint64_t done = 0; done < largest[1]; done += step) {
    int out_total = 0, in_total = 0;
    for (size_t r = 0; r < ranks; ++r) {
      out_counts[r] = int(send_counts[r] > done ? std::min(step, send_counts[r] - done) : 0);
      in_counts[r] = int(receive_counts[r] > done ? std::min(step, receive_counts[r] - done) : 0);
      out_at[r] = out_total;
      in_at[r] = in_total;
      out_total += out_counts[r];
      in_total += in_counts[r];
    }
    out.resize(size_t(out_total) + 1);
    in.resize(size_t(in_total) + 1);
    for (size_t r = 0; r < ranks; ++r) std::copy_n(send.data() + send_at[r] + done, out_counts[r], out.data() + out_at[r]);
    check(MPI_Alltoallv(out.data(), out_counts.data(), out_at.data(), MPI_BYTE, in.data(), in_counts.data(), in_at.data(), MPI_BYTE,
                        MPI_COMM_WORLD),
          "MPI_Alltoallv");
    ++counters_.collectives;
    for (size_t r = 0; r < ranks; ++r) std::copy_n(in.data() + in_at[r], in_counts[r], receive.data() + receive_at[r] + done);
  }
  // A rank's piece to itself does not cross its link.
  counters_.sent_bytes += send_at.back() - send_counts[size_t(rank_)];
  counters_.received_bytes += receive_at.back() - receive_counts[size_t(rank_)];
  counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - rounds_start).count();
}

namespace {

// An MPI_Ialltoallv under way; wait() completes it and counts the seconds.
class StartedAllToAll final : public engine::Communicator::Started {
 public:
  StartedAllToAll(engine::CommunicationCounters& counters, std::vector<int> counts) : counters_(counters), counts_(std::move(counts)) {}
  ~StartedAllToAll() override {
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);  // only on an error path: never leave it running
  }
  MPI_Request* request() { return &request_; }
  std::vector<int>& counts() { return counts_; }
  void wait() override {
    const auto start = std::chrono::steady_clock::now();
    check(MPI_Wait(&request_, MPI_STATUS_IGNORE), "MPI_Wait (MPI_Ialltoallv)");
    counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

 private:
  engine::CommunicationCounters& counters_;
  std::vector<int> counts_;  // send counts and displacements, then receive's: alive until the exchange ends
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace

std::unique_ptr<engine::Communicator::Started> MpiCommunicator::start(std::span<const char> send, std::span<const uint64_t> send_counts,
                                                                      std::span<char> receive,
                                                                      std::span<const uint64_t> receive_counts, bool fits) {
  const auto start = std::chrono::steady_clock::now();
  const size_t ranks = size_t(size_);
  uint64_t sent = 0, received = 0;
  for (size_t r = 0; r < ranks; ++r) {
    sent += send_counts[r];
    received += receive_counts[r];
  }
  // One MPI_Ialltoallv takes int counts and displacements: unless the
  // caller knows they fit, every rank must agree that theirs do, else all
  // take the blocking rounds.
  uint64_t largest = std::max(sent, received);
  sent -= send_counts[size_t(rank_)];  // what crosses the link: not the piece a rank sends itself
  received -= receive_counts[size_t(rank_)];
  if (!fits) {
    check(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
    ++counters_.collectives;
    counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (largest > uint64_t(INT_MAX)) {
      all_to_all(send, send_counts, receive, receive_counts);
      return nullptr;
    }
  } else if (largest > uint64_t(INT_MAX)) {
    throw std::logic_error("all_to_all: pieces said to fit an int do not");
  }
  const auto started_at = std::chrono::steady_clock::now();
  auto started = std::make_unique<StartedAllToAll>(counters_, int_counts(send_counts, receive_counts));
  const int* c = started->counts().data();
  check(MPI_Ialltoallv(send.empty() ? &nothing_out : send.data(), c, c + ranks, MPI_BYTE, receive.empty() ? &nothing_in : receive.data(),
                       c + 2 * ranks, c + 3 * ranks, MPI_BYTE, MPI_COMM_WORLD, started->request()),
        "MPI_Ialltoallv");
  ++counters_.collectives;
  counters_.sent_bytes += sent;
  counters_.received_bytes += received;
  counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at).count();
  return started;
}

void MpiCommunicator::sum(std::span<double> values) { all_reduce(values, MPI_DOUBLE, MPI_SUM, size_, counters_); }
void MpiCommunicator::sum(std::span<uint64_t> values) { all_reduce(values, MPI_UINT64_T, MPI_SUM, size_, counters_); }
void MpiCommunicator::sum(std::span<uint32_t> values) { all_reduce(values, MPI_UINT32_T, MPI_SUM, size_, counters_); }
void MpiCommunicator::max(std::span<uint64_t> values) { all_reduce(values, MPI_UINT64_T, MPI_MAX, size_, counters_); }
void MpiCommunicator::min(std::span<uint64_t> values) { all_reduce(values, MPI_UINT64_T, MPI_MIN, size_, counters_); }
void MpiCommunicator::merge_components(std::span<uint64_t> labels) { merge(labels, MPI_UINT64_T, size_, counters_); }

uint64_t MpiCommunicator::sum_before(uint64_t mine) {
  const auto start = std::chrono::steady_clock::now();
  uint64_t before = 0;
  check(MPI_Exscan(&mine, &before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Exscan");
  ++counters_.collectives;
  counters_.sent_bytes += sizeof(uint64_t);
  counters_.received_bytes += sizeof(uint64_t);
  counters_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rank_ == 0 ? 0 : before;  // undefined on the first rank
}

namespace {

// Left open when an error ends the job: closing is collective, and
// MPI_Abort follows.
class MpiSharedFile final : public engine::SharedFile {
 public:
  MpiSharedFile(const std::string& path, int rank) : path_(path) {
    const int code = MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &file_);
    if (code != MPI_SUCCESS) {
      file_ = MPI_FILE_NULL;
      check(code, (path + ": cannot be opened for writing on rank " + std::to_string(rank) +
                   " (every rank writes its share of the output: it must be on a file system every machine of the job sees)").c_str());
    }
  }
  void write_at(uint64_t offset, std::span<const char> bytes) override {
    for (uint64_t at = 0; at < bytes.size(); at += piece) {
      const int count = int(std::min<uint64_t>(piece, bytes.size() - at));
      MPI_Status status;
      check(MPI_File_write_at(file_, MPI_Offset(offset + at), bytes.data() + at, count, MPI_BYTE, &status),
            (path_ + ": MPI_File_write_at").c_str());
      int written = 0;
      MPI_Get_count(&status, MPI_BYTE, &written);
      if (written != count) {
        throw std::runtime_error(path_ + ": MPI_File_write_at wrote " + std::to_string(written) + " of " + std::to_string(count) + " bytes");
      }
    }
  }
  void close() override {
    check(MPI_File_sync(file_), (path_ + ": MPI_File_sync").c_str());
    check(MPI_File_close(&file_), (path_ + ": MPI_File_close").c_str());
  }

 private:
  std::string path_;
  MPI_File file_ = MPI_FILE_NULL;
};

}  // namespace

std::unique_ptr<engine::SharedFile> MpiCommunicator::open_shared(const std::string& path) {
  return std::make_unique<MpiSharedFile>(path, rank_);
}

}  // namespace sluice::cluster

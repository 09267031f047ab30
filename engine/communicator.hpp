// The ranks of a distributed run as the engine and the algorithms see them:
// a few collective operations, each called by every rank in the same order.
// One process is the communicator of size 1, whose operations do nothing
// (SingleProcess below); cluster/ implements it over MPI. The engine stays
// free of MPI, so the Python module and programs built without it link
// no MPI at all.
//
// Every operation counts the bytes it sent and received and the seconds it
// took, for the per-EDGEMAP statistics.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sluice::engine {

// Bytes are what crosses this rank's link each way, as the collective's
// bandwidth-optimal algorithm moves them: an all-to-all its pieces, an
// all-gather this rank's piece out and the others' in, an all-reduce of
// b bytes 2 (P - 1) / P x b each way (reduce-scatter, then all-gather).
struct CommunicationCounters {
  uint64_t sent_bytes = 0, received_bytes = 0;
  // Of those, the frontiers' (RankExchange::frontier: O(V) bits a dense
  // level, where the rest is keyed by mirrors): the scaling model
  // projects the two parts apart.
  uint64_t frontier_sent_bytes = 0, frontier_received_bytes = 0;
  uint64_t collectives = 0;  // collective calls (each a round of latency)
  double seconds = 0;
};

// One file that every rank writes pieces of, at offsets that do not
// overlap (MPI-IO on ranks): the ranks' outputs, each rank its share.
class SharedFile {
 public:
  virtual ~SharedFile() = default;
  // This rank's piece; other ranks need not write at the same time.
  virtual void write_at(uint64_t offset, std::span<const char> bytes) = 0;
  // Every rank together: once it returns, what every rank wrote is on
  // the file's storage.
  virtual void close() = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Each rank gives `mine`; every rank receives all the contributions,
  // concatenated in rank order (`counts[r]` bytes from rank r, which the
  // caller knows: MPI's allgatherv).
  virtual void all_gather(std::span<const char> mine, std::span<char> all, std::span<const uint64_t> counts) = 0;
  // The same with each rank's piece already in place in `all`.
  virtual void all_gather_in_place(std::span<char> all, std::span<const uint64_t> counts) = 0;
  // Each rank sends `send_counts[r]` bytes to rank r (its pieces
  // concatenated in rank order in `send`) and receives `receive_counts[r]`
  // bytes from rank r, likewise: MPI's alltoallv.
  virtual void all_to_all(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                          std::span<const uint64_t> receive_counts) = 0;
  // Element-wise over all ranks, in place.
  virtual void sum(std::span<double> values) = 0;
  virtual void sum(std::span<uint64_t> values) = 0;
  virtual void sum(std::span<uint32_t> values) = 0;
  virtual void max(std::span<uint64_t> values) = 0;
  virtual void min(std::span<uint64_t> values) = 0;
  // Component labels (each the smallest vertex of its component, as a
  // union-find with the smaller id as root leaves them): in place, the
  // labels of the union of every rank's partition of the vertices.
  virtual void merge_components(std::span<uint64_t> labels) = 0;
  // The sum of `mine` over the ranks before this one; 0 on the first
  // (MPI's exclusive scan): where this rank's piece of a file begins.
  virtual uint64_t sum_before(uint64_t mine) = 0;
  // `path`, a file that exists, opened for writing by every rank together.
  virtual std::unique_ptr<SharedFile> open_shared(const std::string& path) = 0;

  const CommunicationCounters& counters() const { return counters_; }
  // What was exchanged since the last call, by any engine of the run: each
  // step's record counts its bytes once (a run's trial start calls it too).
  CommunicationCounters take_step() {
    CommunicationCounters step = counters_;
    step.sent_bytes -= step_start_.sent_bytes;
    step.received_bytes -= step_start_.received_bytes;
    step.frontier_sent_bytes -= step_start_.frontier_sent_bytes;
    step.frontier_received_bytes -= step_start_.frontier_received_bytes;
    step.collectives -= step_start_.collectives;
    step.seconds -= step_start_.seconds;
    step_start_ = counters_;
    return step;
  }
  // Counts what was exchanged since `before` (a copy of counters()) as a
  // frontier's.
  void count_as_frontier(const CommunicationCounters& before) {
    counters_.frontier_sent_bytes += counters_.sent_bytes - before.sent_bytes;
    counters_.frontier_received_bytes += counters_.received_bytes - before.received_bytes;
  }

  // An all-to-all in `count` rounds, so that what one holds at once stays
  // bounded: fill(send, send_counts, receive_counts) makes the next
  // round's pieces (the buffers reused, the counts zeroed, one per rank),
  // land(received) takes what came, in rank order as all_to_all. Every
  // rank runs the same number of rounds.
  // `round_bytes`: what a round's pieces total each way on any rank, at
  // most (0: not known); where that fits MPI's int counts, the ranks need
  // not first agree that a round does (an all-reduce a round saved).
  struct Rounds {
    uint64_t count = 0;
    uint64_t round_bytes = 0;
    std::function<void(std::vector<char>& send, std::vector<uint64_t>& send_counts, std::vector<uint64_t>& receive_counts)> fill;
    std::function<void(const std::vector<char>& received)> land;
  };
  // Nonblocking: the first round is started now, the others run in
  // finish_pending(), which completes every started exchange in the order
  // started. The engine finishes them once an EDGEMAP's reads are queued,
  // so the drives fill buffers while the values cross the network.
  // Blocking calls may run in between: every rank makes the same calls in
  // the same order.
  void start_rounds(Rounds rounds) {
    if (!rounds.count) return;
    auto p = std::make_unique<Pending>();
    p->rounds = std::move(rounds);
    fill_round(*p);
    p->started = start(p->send, p->send_counts, p->receive, p->receive_counts, fits_int(p->rounds));
    pending_.push_back(std::move(p));
  }
  // One started nonblocking exchange (start() below).
  class Started {
   public:
    virtual ~Started() = default;
    virtual void wait() = 0;
  };

  void finish_pending() {
    while (!pending_.empty()) {
      std::unique_ptr<Pending> p = std::move(pending_.front());
      pending_.pop_front();
      if (p->started) p->started->wait();
      p->rounds.land(p->receive);
      // The other rounds, blocking.
      for (uint64_t round = 1; round < p->rounds.count; ++round) {
        fill_round(*p);
        all_to_all_knowing(p->send, p->send_counts, p->receive, p->receive_counts, fits_int(p->rounds));
        p->rounds.land(p->receive);
      }
    }
  }

  // Conveniences over the above.
  double sum(double value) {
    sum(std::span<double>(&value, 1));
    return value;
  }
  uint64_t sum(uint64_t value) {
    sum(std::span<uint64_t>(&value, 1));
    return value;
  }
  // Each rank's `mine`, concatenated in rank order, on every rank.
  template <class T>
  std::vector<T> all_gather(std::span<const T> mine) {
    std::vector<uint64_t> counts(size_t(size()), 0);
    counts[size_t(rank())] = mine.size() * sizeof(T);
    sum(std::span<uint64_t>(counts));
    uint64_t total = 0;
    for (uint64_t c : counts) total += c;
    std::vector<T> all(total / sizeof(T));
    all_gather(std::span<const char>(reinterpret_cast<const char*>(mine.data()), mine.size_bytes()),
               std::span<char>(reinterpret_cast<char*>(all.data()), all.size() * sizeof(T)), counts);
    return all;
  }
  // One value from each rank, in rank order, on every rank: as
  // all_gather, without first summing counts every rank knows.
  template <class T>
  std::vector<T> all_gather_one(const T& mine) {
    std::vector<T> all(static_cast<size_t>(size()));
    const std::vector<uint64_t> counts(size_t(size()), sizeof(T));
    all_gather(std::span<const char>(reinterpret_cast<const char*>(&mine), sizeof(T)),
               std::span<char>(reinterpret_cast<char*>(all.data()), all.size() * sizeof(T)), counts);
    return all;
  }
  // Every rank's `mine` folded in rank order by `combine`: the same value
  // on every rank, whatever order the MPI library reduces in (a sum of
  // doubles then rounds alike on every rank, and as one process summing
  // the ranges in turn would).
  template <class T, class Combine>
  T fold(const T& mine, Combine&& combine) {
    const std::vector<T> all = all_gather_one(mine);
    T folded = all.front();
    for (size_t r = 1; r < all.size(); ++r) folded = combine(folded, all[r]);
    return folded;
  }
  // A sparse all-to-all: pieces[r] goes to rank r (this rank's own piece
  // included); returns what every rank sent here, concatenated in rank
  // order. The counts go first, as the receivers do not know them. With
  // `from`, how many of what arrived each rank sent.
  template <class T>
  std::vector<T> exchange_pieces(const std::vector<std::vector<T>>& pieces, std::vector<uint64_t>* from = nullptr) {
    const size_t ranks = size_t(size());
    std::vector<uint64_t> send_counts(ranks), receive_counts(ranks);
    std::vector<T> send;
    for (size_t r = 0; r < ranks; ++r) {
      send_counts[r] = pieces[r].size() * sizeof(T);
      send.insert(send.end(), pieces[r].begin(), pieces[r].end());
    }
    const std::vector<uint64_t> eights(ranks, sizeof(uint64_t));
    all_to_all(std::span<const char>(reinterpret_cast<const char*>(send_counts.data()), ranks * sizeof(uint64_t)), eights,
               std::span<char>(reinterpret_cast<char*>(receive_counts.data()), ranks * sizeof(uint64_t)), eights);
    uint64_t total = 0;
    for (uint64_t c : receive_counts) total += c;
    std::vector<T> received(total / sizeof(T));
    all_to_all(std::span<const char>(reinterpret_cast<const char*>(send.data()), send.size() * sizeof(T)), send_counts,
               std::span<char>(reinterpret_cast<char*>(received.data()), total), receive_counts);
    if (from) {
      from->clear();
      for (uint64_t c : receive_counts) from->push_back(c / sizeof(T));
    }
    return received;
  }

 protected:
  // Starts an all-to-all into `receive`; null when it is already done
  // (as this default does it, blocking). `fits`: every rank's totals are
  // known to fit MPI's int counts.
  virtual std::unique_ptr<Started> start(std::span<const char> send, std::span<const uint64_t> send_counts,
                                         std::span<char> receive, std::span<const uint64_t> receive_counts, bool fits) {
    all_to_all_knowing(send, send_counts, receive, receive_counts, fits);
    return nullptr;
  }
  // all_to_all where every rank's totals are known to fit MPI's int counts.
  virtual void all_to_all_fitting(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                                  std::span<const uint64_t> receive_counts) {
    all_to_all(send, send_counts, receive, receive_counts);
  }
  // A blocking all_to_all, the fitting one where `fits` says it may.
  void all_to_all_knowing(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                          std::span<const uint64_t> receive_counts, bool fits) {
    if (fits) all_to_all_fitting(send, send_counts, receive, receive_counts);
    else all_to_all(send, send_counts, receive, receive_counts);
  }

  CommunicationCounters counters_;
  CommunicationCounters step_start_;

 private:
  struct Pending {
    Rounds rounds;
    std::vector<char> send, receive;
    std::vector<uint64_t> send_counts, receive_counts;
    std::unique_ptr<Started> started;
  };
  void fill_round(Pending& p) {
    p.send.clear();
    p.send_counts.assign(size_t(size()), 0);
    p.receive_counts.assign(size_t(size()), 0);
    p.rounds.fill(p.send, p.send_counts, p.receive_counts);
    uint64_t total = 0;
    for (uint64_t c : p.receive_counts) total += c;
    p.receive.resize(total);
  }
  static bool fits_int(const Rounds& rounds) { return rounds.round_bytes && rounds.round_bytes <= uint64_t(INT32_MAX); }
  std::deque<std::unique_ptr<Pending>> pending_;
};

// One process: every operation is the identity.
class SingleProcess final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void all_gather(std::span<const char> mine, std::span<char> all, std::span<const uint64_t>) override {
    std::copy(mine.begin(), mine.end(), all.begin());
  }
  void all_gather_in_place(std::span<char>, std::span<const uint64_t>) override {}
  void all_to_all(std::span<const char> send, std::span<const uint64_t>, std::span<char> receive,
                  std::span<const uint64_t>) override {
    std::copy(send.begin(), send.end(), receive.begin());
  }
  void sum(std::span<double>) override {}
  void sum(std::span<uint64_t>) override {}
  void sum(std::span<uint32_t>) override {}
  void max(std::span<uint64_t>) override {}
  void min(std::span<uint64_t>) override {}
  void merge_components(std::span<uint64_t>) override {}
  uint64_t sum_before(uint64_t) override { return 0; }
  // The file written with pwrite, synced at close.
  std::unique_ptr<SharedFile> open_shared(const std::string& path) override;
  using Communicator::sum;
};

}  // namespace sluice::engine

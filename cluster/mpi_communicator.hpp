// engine::Communicator over MPI's collectives (MPI_COMM_WORLD): allgatherv
// for the frontier's ids and the values remote ranks read, allreduce for
// sums, the frontier's bitmap and the merge of component labels (a user
// operation). Only the thread that initialized MPI calls these; the
// engine's compute and IO threads never do.
//
// Bytes are counted as engine/communicator.hpp says: what crosses this
// rank's link each way as the collective's bandwidth-optimal algorithm
// moves it. Nonblocking all-to-alls are MPI_Ialltoallv, waited for by
// the same thread. A shared file is MPI-IO's: opened and closed by every
// rank together, each rank writing its pieces with MPI_File_write_at.
#pragma once

#include "engine/communicator.hpp"

namespace sluice::cluster {

class MpiCommunicator final : public engine::Communicator {
 public:
  MpiCommunicator();  // MPI must be initialized
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void all_gather(std::span<const char> mine, std::span<char> all, std::span<const uint64_t> counts) override;
  void all_gather_in_place(std::span<char> all, std::span<const uint64_t> counts) override;
  void all_to_all(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                  std::span<const uint64_t> receive_counts) override;
  void sum(std::span<double> values) override;
  void sum(std::span<uint64_t> values) override;
  void sum(std::span<uint32_t> values) override;
  void max(std::span<uint64_t> values) override;
  void min(std::span<uint64_t> values) override;
  void merge_components(std::span<uint64_t> labels) override;
  uint64_t sum_before(uint64_t mine) override;
  std::unique_ptr<engine::SharedFile> open_shared(const std::string& path) override;
  using engine::Communicator::sum;

 protected:
  std::unique_ptr<Started> start(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                                 std::span<const uint64_t> receive_counts, bool fits) override;
  void all_to_all_fitting(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                          std::span<const uint64_t> receive_counts) override;

 private:
  void gather(const char* mine, std::span<char> all, std::span<const uint64_t> counts);
  // One MPI_Alltoallv between the buffers, every rank's totals fitting an int.
  void direct_all_to_all(std::span<const char> send, std::span<const uint64_t> send_counts, std::span<char> receive,
                         std::span<const uint64_t> receive_counts);
  int rank_ = 0, size_ = 1;
};

}  // namespace sluice::cluster

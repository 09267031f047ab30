#include "engine/page_cache.hpp"

namespace sluice::engine {

PageCache::PageCache(uint64_t pages, uint64_t read_bytes, uint64_t budget_bytes) {
  const uint64_t table = pages * sizeof(uint64_t);
  capacity_ = budget_bytes > table ? (budget_bytes - table) / alignment * alignment : 0;
  if (!capacity_) return;
  const uint64_t as_read = bytes_to_hold(pages, read_bytes) - table;
  spare_.store(capacity_ > as_read ? int64_t(capacity_ - as_read) : 0, std::memory_order_relaxed);
  bytes_ = base::Array<char>(capacity_, "the page cache");
  at_.assign(pages, none);
}

bool PageCache::may_decode(uint64_t decoded_bytes, uint64_t read_bytes) {
  if (decoded_bytes <= read_bytes) {
    spare_.fetch_add(int64_t(read_bytes - decoded_bytes), std::memory_order_relaxed);
    return true;
  }
  const int64_t more = int64_t(decoded_bytes - read_bytes);
  if (spare_.load(std::memory_order_relaxed) < more) return false;
  if (spare_.fetch_sub(more, std::memory_order_relaxed) >= more) return true;
  spare_.fetch_add(more, std::memory_order_relaxed);  // another thread took it first
  return false;
}

char* PageCache::room(uint64_t bytes) {
  bytes = (bytes + alignment - 1) / alignment * alignment;
  // Full: one relaxed load a page, and no room taken past the budget.
  if (used_.load(std::memory_order_relaxed) + bytes > capacity_) return nullptr;
  const uint64_t at = used_.fetch_add(bytes, std::memory_order_relaxed);
  if (at + bytes > capacity_) return nullptr;
  return bytes_.data() + at;
}

}  // namespace sluice::engine

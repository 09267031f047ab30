#include "engine/page_cache.hpp"

namespace sluice::engine {

PageCache::PageCache(uint64_t pages, uint64_t budget_bytes) {
  const uint64_t table = pages * sizeof(uint64_t);
  capacity_ = budget_bytes > table ? (budget_bytes - table) / alignment * alignment : 0;
  if (!capacity_) return;
  bytes_ = base::Array<char>(capacity_, "the page cache");
  at_.assign(pages, none);
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

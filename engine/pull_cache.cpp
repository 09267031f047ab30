#include "engine/pull_cache.hpp"

#include <algorithm>

namespace sluice::engine {

PullCache::PullCache(uint64_t vertices, int threads, uint64_t budget_bytes)
    : budget_(budget_bytes), held_parts_(size_t(threads)), kept_parts_(size_t(threads)), held_(vertices) {}

bool PullCache::keep(int t, uint64_t dst, const char* records, uint64_t count, unsigned record_bytes) {
  Part& part = kept_parts_[size_t(t)];
  const uint64_t record_words = (count * record_bytes + 7) / 8;
  const uint64_t bytes = (3 + record_words) * 8;
  if (part.quota < bytes) {
    // Budget is handed out in steps, so that threads rarely meet on the
    // counter; a step that would pass the budget is not taken.
    const uint64_t step = std::max(bytes, std::min(quota_step, budget_ / 16));
    if (taken_.fetch_add(step, std::memory_order_relaxed) + step > budget_) {
      taken_.fetch_sub(step, std::memory_order_relaxed);
      return false;
    }
    part.quota += step;
  }
  part.quota -= bytes;
  if (part.words.capacity() == 0) part.words.reserve(budget_ / 8);  // address space only: pages fault in as written
  if (part.lists % lists_per_segment == 0) part.segment_starts.push_back(part.words.size());
  const uint64_t at = part.words.size();
  part.words.resize(at + 3 + record_words);  // zeros: the padding is defined
  part.words[at] = dst;
  part.words[at + 1] = count;
  part.words[at + 2] = record_words;
  std::memcpy(part.words.data() + at + 3, records, count * record_bytes);
  ++part.lists;
  return true;
}

void PullCache::publish() {
  held_.clear();
  segments_.clear();
  lists_ = 0;
  std::swap(held_parts_, kept_parts_);
  for (Part& part : held_parts_) {
    for (size_t s = 0; s < part.segment_starts.size(); ++s) {
      const uint64_t end = s + 1 < part.segment_starts.size() ? part.segment_starts[s + 1] : part.words.size();
      segments_.push_back({&part, part.segment_starts[s], end});
    }
    for (uint64_t w = 0; w < part.words.size(); w += 3 + part.words[w + 2]) held_.set(part.words[w]);
    lists_ += part.lists;
  }
  for (Part& part : kept_parts_) part.reset();
  // The budget now holds what the cache holds.
  uint64_t held_bytes = 0;
  for (Part& part : held_parts_) {
    held_bytes += part.words.size() * 8;
    part.quota = 0;
  }
  taken_ = held_bytes;
}

void PullCache::clear() {
  held_.clear();
  segments_.clear();
  lists_ = 0;
  for (Part& part : held_parts_) part.reset();
  for (Part& part : kept_parts_) part.reset();
  taken_ = 0;
}

}  // namespace sluice::engine

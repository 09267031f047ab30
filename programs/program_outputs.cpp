#include "programs/program_outputs.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace sluice::programs {

void add_output_options(po::options_description& options, const char* output_help) {
  options.add_options()
    ("output,o", po::value<std::string>()->default_value(""), output_help)
    ("output-format", po::value<std::string>()->default_value("text"), "text (one value per line) or binary (little-endian)");
}

std::string output_format(const po::variables_map& v) {
  std::string format = v["output-format"].as<std::string>();
  if (format != "text" && format != "binary") throw po::error("--output-format must be text or binary");
  return format;
}

ProgramOutputs::ProgramOutputs(const po::variables_map& v, const std::vector<base::NamedFile>& inputs)
    : format_(v.count("output-format") ? output_format(v) : "text") {
  guard_.inputs(inputs);
  for (const char* option : {"output", "stats"}) expect(v, option);
}

void ProgramOutputs::read(const std::string& path, const std::string& what) { guard_.input(path, what); }

void ProgramOutputs::expect(const po::variables_map& v, const char* option) {
  if (!v.count(option)) return;
  const std::string& path = v[option].as<std::string>();
  if (path.empty()) {
    if (v[option].defaulted()) return;
    throw po::error(std::string("--") + option + " was given an empty file name");
  }
  base::check_writable(path);
  guard_.output(path, std::string("--") + option);
  writes_stdout_ = writes_stdout_ || path == "-";
}

void ProgramOutputs::write_by_ranks(engine::Communicator& ranks, uint64_t begin, uint64_t end) {
  ranks_ = &ranks;
  begin_ = begin;
  end_ = end;
  // Every rank's first position, then the last rank's end: one gather.
  const std::vector<std::array<uint64_t, 2>> ranges = ranks.all_gather_one(std::array<uint64_t, 2>{begin, end});
  bounds_.clear();
  for (const auto& range : ranges) bounds_.push_back(range[0]);
  bounds_.push_back(ranges.back()[1]);
}

template <class T>
void ProgramOutputs::values(const std::string& path, std::span<const T> data) {
  if (path.empty()) return;
  if (ranks_) return shares(path, data);
  base::AtomicFile& file = files_.emplace_back(path);
  records(data, 0, data.size(), static_cast<const T*>(nullptr), [&](const char* bytes, size_t length) { file.write(bytes, length); });
}

template <class T>
std::vector<T> ProgramOutputs::routed_share(std::span<const T> data) const {
  if (!ids_ || ids_->empty() || ids_->in_layout_order()) return {};
  // (position, value) records, to the rank whose positions hold each.
  constexpr size_t record = sizeof(uint64_t) + sizeof(T);
  std::vector<std::vector<char>> pieces(bounds_.size() - 1);
  for (uint64_t v = begin_; v < std::min<uint64_t>(end_, data.size()); ++v) {
    const uint64_t at = ids_->position_in_original_order(v);
    const size_t rank = size_t(std::upper_bound(bounds_.begin(), bounds_.end() - 1, at) - bounds_.begin()) - 1;
    char bytes[record];
    std::memcpy(bytes, &at, sizeof(at));
    std::memcpy(bytes + sizeof(at), &data[v], sizeof(T));
    pieces[rank].insert(pieces[rank].end(), bytes, bytes + record);
  }
  const std::vector<char> arrived = ranks_->exchange_pieces(pieces);
  std::vector<T> share(end_ - begin_);
  for (size_t i = 0; i + record <= arrived.size(); i += record) {
    uint64_t at;
    std::memcpy(&at, arrived.data() + i, sizeof(at));
    if (at < begin_ || at >= end_) throw std::logic_error("a rank was sent a value of another rank's positions");
    std::memcpy(&share[at - begin_], arrived.data() + i + sizeof(at), sizeof(T));
  }
  return share;
}

template <class T>
void ProgramOutputs::shares(const std::string& path, std::span<const T> data) {
  const std::vector<T> routed = routed_share(data);
  const T* by_position = routed.empty() ? nullptr : routed.data();
  const uint64_t begin = std::min<uint64_t>(begin_, data.size()), end = std::min<uint64_t>(end_, data.size());
  // The first rank's temporary, by name, to every rank.
  std::string temporary;
  if (leads()) temporary = files_.emplace_back(path).temp_path();
  const std::vector<char> named = ranks_->all_gather(std::span<const char>(temporary.data(), leads() ? temporary.size() : 0));
  temporary.assign(named.begin(), named.end());
  if (temporary.empty()) {  // written in place: by the first rank alone, each rank's share in turn
    std::vector<char> mine;
    records(data, begin, end, by_position, [&](const char* bytes, size_t n) { mine.insert(mine.end(), bytes, bytes + n); });
    for (int from = 0; from < ranks_->size(); ++from) {
      std::vector<std::vector<char>> pieces(size_t(ranks_->size()));
      if (from == ranks_->rank() && from != 0) pieces[0] = std::move(mine);
      const std::vector<char> arrived = from == 0 ? std::vector<char>() : ranks_->exchange_pieces(pieces);
      if (leads()) files_.back().write(from == 0 ? std::string_view(mine.data(), mine.size()) : std::string_view(arrived.data(), arrived.size()));
    }
    return;
  }
  uint64_t length = 0;
  records(data, begin, end, by_position, [&](const char*, size_t n) { length += n; });
  uint64_t at = ranks_->sum_before(length);
  std::unique_ptr<engine::SharedFile> file = ranks_->open_shared(temporary);
  records(data, begin, end, by_position, [&](const char* bytes, size_t n) {
    file->write_at(at, std::span<const char>(bytes, n));
    at += n;
  });
  file->close();
}

template <class T, class Sink>
void ProgramOutputs::records(std::span<const T> data, uint64_t begin, uint64_t end, const T* by_position, Sink&& sink) const {
  const bool named = ids_ && !ids_->empty();  // in input order, with ids unless they are positions
  if (!named && format_ == "binary") {
    sink(reinterpret_cast<const char*>(data.data() + begin), size_t(end - begin) * sizeof(T));
    return;
  }
  auto value_at = [&](uint64_t i, uint64_t v) -> const T& { return by_position ? by_position[i - begin] : data[v]; };
  const bool with_id = named && !ids_->permutes();  // a reordering's ids are the line numbers
  std::vector<char> buffer;
  buffer.reserve(1 << 16);
  for (uint64_t i = begin; i < end; ++i) {
    const uint64_t v = named ? ids_->in_original_order(i) : i;
    const uint64_t id = named ? ids_->original(v) : v;
    if (format_ == "binary") {
      const char* bytes = reinterpret_cast<const char*>(&id);
      if (with_id) buffer.insert(buffer.end(), bytes, bytes + 8);
      bytes = reinterpret_cast<const char*>(&value_at(i, v));
      buffer.insert(buffer.end(), bytes, bytes + sizeof(T));
    } else {
      char line[96];
      char* at = line;
      if (with_id) {
        at = std::to_chars(line, line + 32, id).ptr;
        *at++ = ' ';
      }
      at = std::to_chars(at, line + sizeof(line) - 1, value_at(i, v)).ptr;
      *at++ = '\n';
      buffer.insert(buffer.end(), line, at);
    }
    if (buffer.size() > (1 << 16) - 128) {
      sink(buffer.data(), buffer.size());
      buffer.clear();
    }
  }
  if (!buffer.empty()) sink(buffer.data(), buffer.size());
}

template void ProgramOutputs::values(const std::string&, std::span<const int64_t>);
template void ProgramOutputs::values(const std::string&, std::span<const uint64_t>);
template void ProgramOutputs::values(const std::string&, std::span<const double>);
template void ProgramOutputs::values(const std::string&, std::span<const int32_t>);
template void ProgramOutputs::values(const std::string&, std::span<const uint32_t>);
template void ProgramOutputs::values(const std::string&, std::span<const float>);

void ProgramOutputs::text(const std::string& path, const std::string& text) {
  if (path.empty() || !leads()) return;
  files_.emplace_back(path).write(text);
}

void ProgramOutputs::commit() {
  // Every rank has closed its shares (synced) before the first renames
  // them into place.
  if (ranks_) ranks_->sum(uint64_t(0));
  base::commit_all(files_);
  files_.clear();
}

}  // namespace sluice::programs

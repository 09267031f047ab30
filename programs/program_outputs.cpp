#include "programs/program_outputs.hpp"

#include <charconv>

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

template <class T>
void ProgramOutputs::values(const std::string& path, std::span<const T> data) {
  if (path.empty() || !writing_) return;
  base::AtomicFile& file = files_.emplace_back(path);
  if (ids_ && !ids_->empty()) return named_values(file, data);  // in input order, with ids unless they are positions
  if (format_ == "binary") {
    file.write(data.data(), data.size_bytes());
    return;
  }
  char line[64];
  for (const T& value : data) {
    auto [end, ec] = std::to_chars(line, line + sizeof(line) - 1, value);
    *end++ = '\n';
    file.write(line, size_t(end - line));
  }
}
template <class T>
void ProgramOutputs::named_values(base::AtomicFile& file, std::span<const T> data) {
  std::vector<char> buffer;
  buffer.reserve(1 << 16);
  const bool with_id = !ids_->permutes();  // a reordering's ids are the line numbers
  for (uint64_t i = 0; i < data.size(); ++i) {
    const uint64_t v = ids_->in_original_order(i);
    const uint64_t id = ids_->original(v);
    if (format_ == "binary") {
      const char* bytes = reinterpret_cast<const char*>(&id);
      if (with_id) buffer.insert(buffer.end(), bytes, bytes + 8);
      bytes = reinterpret_cast<const char*>(&data[v]);
      buffer.insert(buffer.end(), bytes, bytes + sizeof(T));
    } else {
      char line[96];
      char* end = line;
      if (with_id) {
        end = std::to_chars(line, line + 32, id).ptr;
        *end++ = ' ';
      }
      end = std::to_chars(end, line + sizeof(line) - 1, data[v]).ptr;
      *end++ = '\n';
      buffer.insert(buffer.end(), line, end);
    }
    if (buffer.size() > (1 << 16) - 128) {
      file.write(buffer.data(), buffer.size());
      buffer.clear();
    }
  }
  file.write(buffer.data(), buffer.size());
}

template void ProgramOutputs::values(const std::string&, std::span<const int64_t>);
template void ProgramOutputs::values(const std::string&, std::span<const uint64_t>);
template void ProgramOutputs::values(const std::string&, std::span<const double>);
template void ProgramOutputs::values(const std::string&, std::span<const int32_t>);
template void ProgramOutputs::values(const std::string&, std::span<const uint32_t>);
template void ProgramOutputs::values(const std::string&, std::span<const float>);

void ProgramOutputs::text(const std::string& path, const std::string& text) {
  if (path.empty() || !writing_) return;
  files_.emplace_back(path).write(text);
}

void ProgramOutputs::commit() {
  base::commit_all(files_);
  files_.clear();
}

}  // namespace sluice::programs

// The ranks' exchanges of labelled vertices, in fewer bytes than raw
// (vertex, label) records: a piece's vertices ascending, each as its gap
// from the one before; its labels, where few are distinct (the vertices
// of one component share a label), as indexes into a table of them. WCC's
// label agreement sends most of its bytes this way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "base/varint.hpp"
#include "engine/communicator.hpp"

namespace sluice::engine {

template <class Id>
struct LabelledVertex {
  Id vertex, label;
};

namespace labelled_codec {

// Labels: a flag, then either each label as a varint, or a table of the
// distinct ones (ascending, as gaps) and each label's index in it.
template <class Id>
void put_labels(std::vector<char>& out, std::span<const Id> labels) {
  std::vector<Id> table(labels.begin(), labels.end());
  std::sort(table.begin(), table.end());
  table.erase(std::unique(table.begin(), table.end()), table.end());
  const bool tabled = table.size() * 2 <= labels.size();
  out.push_back(char(tabled));
  if (!tabled) {
    for (Id l : labels) base::put_varint(out, uint64_t(l));
    return;
  }
  base::put_varint(out, table.size());
  Id previous = 0;
  for (Id l : table) base::put_varint(out, uint64_t(l - previous)), previous = l;
  for (Id l : labels) base::put_varint(out, uint64_t(std::lower_bound(table.begin(), table.end(), l) - table.begin()));
}

template <class Id>
void get_labels(const char*& at, const char* end, uint64_t count, std::vector<Id>& out) {
  if (at == end) throw std::runtime_error("labelled vertices: the labels are missing");
  const bool tabled = *at++ != 0;
  if (!tabled) {
    for (uint64_t i = 0; i < count; ++i) out.push_back(Id(base::get_varint(at, end)));
    return;
  }
  std::vector<Id> table(base::get_varint(at, end));
  Id previous = 0;
  for (Id& l : table) l = previous = Id(previous + base::get_varint(at, end));
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t index = base::get_varint(at, end);
    if (index >= table.size()) throw std::runtime_error("labelled vertices: a label's index is past its table");
    out.push_back(table[index]);
  }
}

// A piece of labelled vertices, ascending by vertex.
template <class Id>
void put_piece(std::vector<char>& out, std::span<const LabelledVertex<Id>> piece) {
  base::put_varint(out, piece.size());
  Id previous = 0;
  std::vector<Id> labels;
  labels.reserve(piece.size());
  for (const LabelledVertex<Id>& m : piece) {
    if (m.vertex < previous) throw std::logic_error("labelled vertices: a piece must be sorted by vertex");
    base::put_varint(out, uint64_t(m.vertex - previous));
    previous = m.vertex;
    labels.push_back(m.label);
  }
  put_labels(out, std::span<const Id>(labels));
}

template <class Id>
void get_piece(const char*& at, const char* end, std::vector<LabelledVertex<Id>>& out) {
  const uint64_t count = base::get_varint(at, end);
  const size_t first = out.size();
  Id previous = 0;
  for (uint64_t i = 0; i < count; ++i) out.push_back({previous = Id(previous + base::get_varint(at, end)), 0});
  std::vector<Id> labels;
  get_labels(at, end, count, labels);
  for (uint64_t i = 0; i < count; ++i) out[first + i].label = labels[i];
}

}  // namespace labelled_codec

// pieces[r] (ascending by vertex) to rank r; what every rank sent here,
// in rank order, and with `from`, how many each sent.
template <class Id>
std::vector<LabelledVertex<Id>> exchange_labelled(Communicator& communicator, const std::vector<std::vector<LabelledVertex<Id>>>& pieces,
                                                  std::vector<uint64_t>* from = nullptr) {
  std::vector<std::vector<char>> bytes(pieces.size());
  for (size_t r = 0; r < pieces.size(); ++r) {
    if (!pieces[r].empty()) labelled_codec::put_piece(bytes[r], std::span<const LabelledVertex<Id>>(pieces[r]));
  }
  std::vector<uint64_t> sizes;
  const std::vector<char> arrived = communicator.exchange_pieces(bytes, &sizes);
  std::vector<LabelledVertex<Id>> received;
  const char* at = arrived.data();
  if (from) from->clear();
  for (uint64_t size : sizes) {
    const size_t before = received.size();
    const char* end = at + size;
    if (size) labelled_codec::get_piece(at, end, received);
    if (at != end) throw std::runtime_error("labelled vertices: a piece has bytes past its end");
    if (from) from->push_back(received.size() - before);
  }
  return received;
}

// pieces[r], labels alone in an order both sides know, to rank r; what
// every rank sent here, in rank order.
template <class Id>
std::vector<Id> exchange_labels(Communicator& communicator, const std::vector<std::vector<Id>>& pieces) {
  std::vector<std::vector<char>> bytes(pieces.size());
  for (size_t r = 0; r < pieces.size(); ++r) {
    if (pieces[r].empty()) continue;
    base::put_varint(bytes[r], pieces[r].size());
    labelled_codec::put_labels(bytes[r], std::span<const Id>(pieces[r]));
  }
  std::vector<uint64_t> sizes;
  const std::vector<char> arrived = communicator.exchange_pieces(bytes, &sizes);
  std::vector<Id> received;
  const char* at = arrived.data();
  for (uint64_t size : sizes) {
    const char* end = at + size;
    if (size) labelled_codec::get_labels(at, end, base::get_varint(at, end), received);
    if (at != end) throw std::runtime_error("labels: a piece has bytes past its end");
  }
  return received;
}

}  // namespace sluice::engine

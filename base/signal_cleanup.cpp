#include "base/signal_cleanup.hpp"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atomic>

namespace sluice::base {

namespace {

// A layout of 1024 ranks with their transposes on 2 drives stages about
// 18,000 files at once. Each entry is "f" or "d" (file or directory)
// followed by the path.
constexpr size_t slots = 1 << 16;
std::atomic<char*> entries[slots];
std::atomic<size_t> next_free{0};  // where the search for a free slot starts: O(1) while paths come and go in order
// The thread that installed the handlers, which creates the outputs: the
// cleanup runs there, so that no file is created while it runs.
pthread_t main_thread;

extern "C" void remove_and_reraise(int signal) {
  if (!pthread_equal(pthread_self(), main_thread)) {
    ::pthread_kill(main_thread, signal);
    return;
  }
  for (char kind : {'f', 'd'}) {  // files first: a directory goes only once empty
    for (auto& e : entries) {
      const char* entry = e.load();
      if (!entry || entry[0] != kind) continue;
      if (kind == 'f') ::unlink(entry + 1);
      else ::rmdir(entry + 1);
    }
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

}  // namespace

size_t remove_on_signals(const std::string& path, bool directory) {
  char* entry = static_cast<char*>(::malloc(path.size() + 2));
  if (!entry) return no_ticket;
  entry[0] = directory ? 'd' : 'f';
  ::memcpy(entry + 1, path.c_str(), path.size() + 1);
  const size_t start = next_free.load();
  for (size_t i = 0; i < slots; ++i) {
    const size_t slot = (start + i) % slots;
    char* empty = nullptr;
    if (entries[slot].compare_exchange_strong(empty, entry)) {
      next_free.store((slot + 1) % slots);
      return slot;
    }
  }
  ::free(entry);
  return no_ticket;
}

void forget_on_signals(size_t ticket) {
  if (ticket >= slots) return;
  ::free(entries[ticket].exchange(nullptr));
}

void remove_temporaries_on_signals() {
  main_thread = pthread_self();
  struct sigaction action {};
  action.sa_handler = remove_and_reraise;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGINT, SIGTERM}) {
    // A signal the process was started ignoring (a background job of a
    // script ignores SIGINT) stays ignored: a handler would make it fatal.
    struct sigaction before {};
    if (::sigaction(signal, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace sluice::base

// The MPMC queue every hand-off uses: moodycamel's blocking queue with a
// short spin before sleeping. Its default spins 10,000 times in
// wait_dequeue, so an idle gather or IO thread burns a core that the scatter
// threads need (on 2 cores, half the machine).
#pragma once

#include <concurrentqueue/blockingconcurrentqueue.h>

namespace sluice::io {

struct ShortSpinTraits : moodycamel::ConcurrentQueueDefaultTraits {
  static const int MAX_SEMA_SPINS = 64;
};

template <class T>
using BlockingQueue = moodycamel::BlockingConcurrentQueue<T, ShortSpinTraits>;

}  // namespace sluice::io

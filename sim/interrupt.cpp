// The SIGINT flag of simulate_all; see interrupt.hpp.
#include "sim/interrupt.hpp"

#include <atomic>

namespace a2a::sim {

namespace {

// Atomic rather than volatile sig_atomic_t: the scale engine's worker threads read it too
// (sim/scale/rank_batch.cpp). A lock-free atomic may be set in a signal handler.
std::atomic<bool> interrupt_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_interrupt(int) {
  interrupt_flag.store(true, std::memory_order_relaxed);
}

}  // namespace

bool interrupt_requested() {
  return interrupt_flag.load(std::memory_order_relaxed);
}

InterruptCatcher::InterruptCatcher() {
  interrupt_flag.store(false, std::memory_order_relaxed);
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &action, &previous_);
}

InterruptCatcher::~InterruptCatcher() {
  sigaction(SIGINT, &previous_, nullptr);
}

}  // namespace a2a::sim

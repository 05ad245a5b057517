// The SIGINT flag of simulate_all; see interrupt.hpp.
#include "sim/interrupt.hpp"

namespace a2a::sim {

namespace {

volatile std::sig_atomic_t interrupt_flag = 0;

extern "C" void on_interrupt(int) {
  interrupt_flag = 1;
}

}  // namespace

bool interrupt_requested() {
  return interrupt_flag != 0;
}

InterruptCatcher::InterruptCatcher() {
  interrupt_flag = 0;
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

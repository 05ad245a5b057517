// Ctrl-C during `a2a run` and `a2a model` (docs/scenarios.md): while simulate_all runs, a SIGINT
// sets a flag instead of ending the process. The scale engine polls it between its batches of
// ranks and abandons the configuration in flight (a configuration at 10^5 ranks takes minutes);
// the SimGrid engine cannot be stopped inside its run, so there the configuration in flight
// finishes. Either way simulate_all then starts no other.
#pragma once

#include <csignal>

#include "algorithms/errors.hpp"

namespace a2a::sim {

// Whether a SIGINT arrived since catching began (InterruptCatcher in scenario_setup.cpp).
bool interrupt_requested();

// What an engine throws when it abandons a configuration because interrupt_requested().
class Interrupted : public Error {
 public:
  explicit Interrupted(const std::string& label) : Error(label + ": interrupted") {}
};

// Catches SIGINT while it lives (the previous handler, SimGrid's, comes back after): the first
// Ctrl-C sets interrupt_requested(), a second one (SA_RESETHAND: the default action again) ends
// the process at once.
class InterruptCatcher {
 public:
  InterruptCatcher();
  ~InterruptCatcher();
  InterruptCatcher(const InterruptCatcher&) = delete;
  InterruptCatcher& operator=(const InterruptCatcher&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace a2a::sim

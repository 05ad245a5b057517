// Typed errors thrown by library code. Command-line tools turn each into one clear line and a
// non-zero exit; nothing in the library prints or exits by itself.
#pragma once

#include <stdexcept>
#include <string>

namespace a2a {

// Base of every a2a error; what() is a complete one-line message.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A user-supplied parameter (algorithm parameter, workload option, command-line flag) is invalid.
// The message names the parameter, the value and the accepted range.
class InvalidParameter : public Error {
 public:
  using Error::Error;
};

// The algorithm cannot run on this exchange (e.g. a uniform-only algorithm on unequal blocks).
// Tools report it as "skipped" with this reason; it is never counted as a pass.
class NotApplicable : public Error {
 public:
  using Error::Error;
};

// An algorithm broke the comm interface contract (read past a block, asked the size of a block it
// was never told about, wrote the send buffer). Always a bug in a2a, never the user's fault.
class ContractViolation : public Error {
 public:
  using Error::Error;
};

// Input data (a file, a workload matrix) is malformed; the message names the file and line.
class InputError : public Error {
 public:
  using Error::Error;
};

}  // namespace a2a

// Quantities with units as written in platform YAML files: bandwidths ("25GBps", "200Gbps") and
// times ("1us", "0.5 ms"). A plain number is in SI base units (bytes per second, seconds).
#pragma once

#include <string>

namespace a2a {

// Bytes per second. Byte units: Bps, kBps (= KBps), MBps, GBps, TBps (powers of 1000) and KiBps,
// MiBps, GiBps, TiBps (powers of 1024); bit units: bps, kbps (= Kbps), Mbps, Gbps, Tbps.
// Throws std::invalid_argument naming what is wrong (bad number, unknown unit, not finite);
// the value may be zero or negative: range checks are the caller's.
double parse_bandwidth(const std::string& text);

// Seconds. Units: s, ms, us (= µs), ns.
double parse_time(const std::string& text);

// Bytes. Units: B, kB (= KB), MB, GB (powers of 1000), KiB, MiB, GiB (powers of 1024).
double parse_bytes(const std::string& text);

}  // namespace a2a

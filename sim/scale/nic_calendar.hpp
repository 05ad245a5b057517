// One direction of one node's NIC (docs/simulation.md, machine term `nic_message_time`): it
// handles one message at a time, each for the same time, and a message waits until the NIC is
// free. Messages reach it in the order the event loop matches them, which is not the order of
// their times: a receiving NIC hears of a message once its sending NIC has handled it, and with
// deep send queues (ParLinNa's staggered exchange posts 1,024 messages per rank at once) those
// times differ by milliseconds between senders. Serving in call order ("free at max(begin, last)
// + time") left the NIC idle while messages that had reached it waited behind one that had not:
// twice its real work at P = 1,024 on Fugaku. So the calendar books each message into the
// earliest free stretch at or after its time. That keeps the NIC busy whatever order messages are
// booked in, but not which message it serves first: booked rank after rank, a rank's later
// message can take a stretch that another rank's earlier one would have had. So the event loop
// matches each batch of posts in time order on every platform with a NIC time (scale_engine.cpp),
// so that the sending NICs' free stretches go to messages in the order they were posted. Not
// exactly in the order they reach a NIC: a receiving NIC hears of a message when the sending one
// has handled it (so one booked earlier may still come later), a rendezvous message adds route
// latencies, and between batches a rank woken later may post a message that reaches the NIC
// before messages deep in another rank's queue, booked earlier.
//
// Busy stretches are kept sorted; a gap shorter than one message can never be used, so it is
// booked as busy at once: every gap left is long enough for a message, and a booking looks at
// most two stretches after a binary search. Stretches that end before every future booking
// (forget_before) are dropped, so the calendar holds only the future.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace a2a::sim::scale {

class NicCalendar {
  struct Stretch {
    double start, end;
  };
  using Iterator = std::vector<Stretch>::const_iterator;

 public:
  // Books one message of `length` seconds at or after `begin`; returns when it starts.
  double book(double begin, double length) {
    begin = std::max(begin, floor_);
    // The first stretch that ends after `begin`: the message starts at `begin` if it fits in the
    // gap before that stretch, else right after it (the next gap is at least `length` long).
    const auto first = first_ending_after(begin);
    const double start =
        first == busy_.end() || begin + length <= first->start ? begin : first->end;
    const auto at = first == busy_.end() || start < first->start ? first : first + 1;
    insert(static_cast<std::size_t>(at - busy_.begin()), Stretch{start, start + length}, length);
    return start;
  }

  // The earliest start at or after `begin` of a free stretch `length` long, which may be longer
  // than one message (an engine held until another NIC takes its message, nic_backpressure), so
  // unlike book() it may have to pass several gaps. Books nothing.
  double fit(double begin, double length) const {
    double start = std::max(begin, floor_);
    for (auto s = first_ending_after(start); s != busy_.end() && s->start < start + length; ++s)
      start = std::max(start, s->end);
    return start;
  }

  // The end of the first busy stretch in [start, start + length), or `start` if that is free.
  double blocked_until(double start, double length) const {
    const auto s = first_ending_after(start);
    return s != busy_.end() && s->start < start + length ? s->end : start;
  }

  // Books [start, start + length), free by fit(); `message` is one message's time, the shortest
  // gap worth keeping.
  void book_at(double start, double length, double message) {
    const auto at = first_ending_after(start);
    insert(static_cast<std::size_t>(at - busy_.begin()), Stretch{start, start + length}, message);
  }

  // No booking will begin before `t`: stretches that end by then are dropped, and a booking asked
  // for earlier is moved to `t`.
  void forget_before(double t) {
    floor_ = std::max(floor_, t);
    while (head_ < busy_.size() && busy_[head_].end <= floor_)
      ++head_;
    // Compact once the dropped prefix is as long as what is kept.
    if (head_ > 64 && head_ * 2 > busy_.size()) {
      busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  // Busy stretches kept (for tests and memory estimates).
  std::size_t stretches() const { return busy_.size() - head_; }

 private:
  // The first kept stretch that ends after `t`.
  Iterator first_ending_after(double t) const {
    return std::upper_bound(busy_.begin() + static_cast<std::ptrdiff_t>(head_), busy_.end(), t,
                            [](double x, const Stretch& s) { return x < s.end; });
  }

  // Inserts `s` before index `i`, merged with a neighbour when the gap between them is shorter
  // than one message (such a gap would never be used).
  void insert(std::size_t i, Stretch s, double length) {
    const bool joins_previous = i > head_ && s.start - busy_[i - 1].end < length;
    const bool joins_next = i < busy_.size() && busy_[i].start - s.end < length;
    if (joins_previous && joins_next) {
      busy_[i - 1].end = busy_[i].end;
      busy_.erase(busy_.begin() + static_cast<std::ptrdiff_t>(i));
    } else if (joins_previous) {
      busy_[i - 1].end = s.end;
    } else if (joins_next) {
      busy_[i].start = std::min(busy_[i].start, s.start);
    } else {
      busy_.insert(busy_.begin() + static_cast<std::ptrdiff_t>(i), s);
    }
  }

  std::vector<Stretch> busy_;  // sorted, disjoint; [head_, end) is kept
  std::size_t head_ = 0;
  double floor_ = 0;
};

// A message through a sending and a receiving engine, the sending one held until the receiving
// one starts it (nic_backpressure): the receiving engine takes it in its earliest free time at or
// after start + `held` (`held`: 0 for a pipelined engine, else `length`), and the sending one must
// be free from `start` until then less `slack` (the time the receiving engine takes for the
// messages it may hold waiting, nic_receive_buffers), and for at least `length`. Finds the
// earliest such start at or after `begin`, books both, and returns when the receiving engine
// starts the message.
inline double book_held(NicCalendar& sending, NicCalendar& receiving, double begin, double length,
                        double held, double slack = 0) {
  double start = sending.fit(begin, length);
  for (;;) {
    const double received = receiving.fit(start + held, length);
    const double hold = std::max(length, received - slack - start);
    const double blocked = sending.blocked_until(start, hold);
    if (blocked == start) {
      sending.book_at(start, hold, length);
      receiving.book_at(received, length, length);
      return received;
    }
    // No start before that stretch ends can do: a later start is received no earlier, so its
    // hold (at least `length`) would reach the stretch too. Try the first free time after it.
    start = sending.fit(blocked, length);
  }
}

}  // namespace a2a::sim::scale

// A node NIC's calendar (sim/scale/nic_calendar.hpp): each message is served in the earliest free
// time at or after it reaches the NIC, whatever order the messages are booked in.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "sim/scale/nic_calendar.hpp"
#include "tests/approx.hpp"

namespace a2a::sim::scale {

namespace {

// The earliest start at or after `begin` where [start, start + length) overlaps no booking: the
// answer is `begin` or the end of a booking.
double earliest_free(const std::vector<std::pair<double, double>>& booked, double begin,
                     double length) {
  std::vector<double> candidates{begin};
  for (const auto& [start, end] : booked)
    if (end > begin) candidates.push_back(end);
  std::sort(candidates.begin(), candidates.end());
  for (const double t : candidates) {
    const bool overlaps = std::any_of(booked.begin(), booked.end(), [&](const auto& b) {
      return t < b.second && b.first < t + length;
    });
    if (!overlaps) return t;
  }
  return candidates.back();
}

}  // namespace

TEST_CASE("NIC calendar: messages booked in time order are served one after another") {
  NicCalendar nic;
  CHECK(nic.book(0, 1) == 0);
  CHECK(nic.book(0, 1) == 1);
  CHECK(nic.book(0.5, 1) == 2);
  CHECK(nic.book(10, 1) == 10);
  CHECK(nic.book(10, 1) == 11);
  CHECK(nic.stretches() == 2);
}

TEST_CASE("NIC calendar: a message booked late is served in an earlier free time") {
  // A message reaching the NIC at 10 is booked first; one reaching it at 0 does not wait for it.
  NicCalendar nic;
  CHECK(nic.book(10, 1) == 10);
  CHECK(nic.book(0, 1) == 0);
  CHECK(nic.book(0, 1) == 1);
  CHECK(nic.book(8.5, 1) == 8.5);  // [8.5, 9.5) fits before 10
  CHECK(nic.book(9, 1) == 11);     // [9.5, 10) is too short: after the stretch [8.5, 11)
}

TEST_CASE("NIC calendar: a gap shorter than one message is never used") {
  NicCalendar nic;
  CHECK(nic.book(0, 1) == 0);
  CHECK(nic.book(2.5, 1) == 2.5);
  CHECK(nic.stretches() == 2);
  CHECK(nic.book(1.2, 1) == 1.2);  // [1, 2.5) holds one: the gap left, [2.2, 2.5), is booked
  CHECK(nic.stretches() == 1);
  CHECK(nic.book(1.9, 1) == 3.5);
}

TEST_CASE("NIC calendar: the same starts as the earliest free time, in any booking order") {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> arrival(0, 50);
  for (int trial = 0; trial < 20; ++trial) {
    NicCalendar nic;
    std::vector<std::pair<double, double>> booked;
    for (int i = 0; i < 60; ++i) {
      const double begin = arrival(random);
      const double expected = earliest_free(booked, begin, 1.0);
      const double start = nic.book(begin, 1.0);
      REQUIRE(start == a2a::testing::approx(expected));
      booked.emplace_back(start, start + 1.0);
    }
  }
}

TEST_CASE("NIC calendar: a stretch longer than one message passes gaps too short for it") {
  // An engine held until another NIC takes its message (nic_backpressure) needs a longer stretch.
  NicCalendar nic;
  nic.book(2, 1);               // [2, 3)
  nic.book(5, 1);               // [5, 6)
  CHECK(nic.fit(0, 2) == 0);    // [0, 2) before the first
  CHECK(nic.fit(0.5, 2) == 3);  // [0.5, 2.5) overlaps [2, 3); [3, 5) fits
  CHECK(nic.fit(0.5, 3) == 6);  // no gap of 3 before the last stretch
  CHECK(nic.fit(4, 1) == 4);
  nic.book_at(3, 2, 1);  // [3, 5) joins both neighbours: one stretch [2, 6)
  CHECK(nic.stretches() == 1);
  CHECK(nic.fit(0, 1) == 0);
  CHECK(nic.fit(1.5, 1) == 6);
}

TEST_CASE("NIC calendar: fit finds the earliest free stretch of any length, book_at books it") {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> arrival(0, 50), hold(1, 4);
  for (int trial = 0; trial < 20; ++trial) {
    NicCalendar nic;
    std::vector<std::pair<double, double>> booked;
    for (int i = 0; i < 40; ++i) {
      const double begin = arrival(random), length = hold(random);
      const double start = nic.fit(begin, length);
      REQUIRE(start == a2a::testing::approx(earliest_free(booked, begin, length)));
      nic.book_at(start, length, 1.0);
      booked.emplace_back(start, start + length);
    }
  }
}

TEST_CASE("NIC calendar: a held message starts as early as both engines allow") {
  // Sending busy [1.5, 3) and [11.5, 13), receiving [0, 10): from 0 the hold [0, 10) meets
  // [1.5, 3); from 3 it is [3, 10), free. Not 13, after the second stretch.
  NicCalendar sending, receiving;
  sending.book_at(1.5, 1.5, 1);
  sending.book_at(11.5, 1.5, 1);
  receiving.book_at(0, 10, 1);
  CHECK(book_held(sending, receiving, 0, 1, 0) == 10);
  CHECK(sending.fit(3, 1) == 10);  // held over [3, 10)
  CHECK(receiving.fit(0, 1) == 11);
}

TEST_CASE("NIC calendar: a receive buffer shortens the hold") {
  // Receiving busy [0, 10): held until the start, the sender is busy [0, 10); with 3 messages'
  // slack (buffers for 3 at 1 s each) only [0, 7), so its next message starts at 7, not 10.
  for (const auto& [slack, next] : {std::pair{0.0, 10.0}, std::pair{3.0, 7.0}}) {
    NicCalendar sending, receiving;
    receiving.book_at(0, 10, 1);
    CHECK(book_held(sending, receiving, 0, 1, 0, slack) == 10);
    CHECK(sending.fit(0, 1) == next);
  }
}

TEST_CASE("NIC calendar: held messages against a search of every start") {
  // The earliest start is `begin` or the end of a sending stretch (an earlier start would do as
  // well otherwise), so trying those in order finds it.
  using Stretches = std::vector<std::pair<double, double>>;
  const auto free_over = [](const Stretches& busy, double start, double length) {
    return std::none_of(busy.begin(), busy.end(), [&](const auto& b) {
      return start < b.second && b.first < start + length;
    });
  };
  std::mt19937 random(5);
  std::uniform_real_distribution<double> arrival(0, 40);
  for (int trial = 0; trial < 30; ++trial) {
    NicCalendar sending, receiving;
    Stretches sent, received;
    for (int i = 0; i < 8; ++i) {
      const double s = sending.book(arrival(random), 1.0), r = receiving.book(arrival(random), 1.0);
      sent.emplace_back(s, s + 1.0);
      received.emplace_back(r, r + 1.0);
    }
    for (int i = 0; i < 12; ++i) {
      // Pipelined or not, and held until the start or (receive buffers) 2.5 messages before it.
      const double begin = arrival(random), held = i % 2 == 0 ? 0.0 : 1.0;
      const double slack = i % 4 < 2 ? 0.0 : 2.5;
      std::vector<double> starts{begin};
      for (const auto& [from, to] : sent)
        if (to > begin) starts.push_back(to);
      std::sort(starts.begin(), starts.end());
      double start = -1, taken = -1, hold = 0;
      for (const double s : starts) {
        if (!free_over(sent, s, 1.0)) continue;
        taken = earliest_free(received, s + held, 1.0);
        hold = std::max(1.0, taken - slack - s);
        if (free_over(sent, s, hold)) {
          start = s;
          break;
        }
      }
      REQUIRE(start >= 0);
      REQUIRE(book_held(sending, receiving, begin, 1.0, held, slack) ==
              a2a::testing::approx(taken));
      sent.emplace_back(start, start + hold);
      received.emplace_back(taken, taken + 1.0);
    }
  }
}

TEST_CASE("NIC calendar: what ends before every future booking is dropped") {
  NicCalendar nic;
  for (int i = 0; i < 200; ++i)
    nic.book(3.0 * i, 1);  // 200 stretches, gaps of 2
  CHECK(nic.stretches() == 200);
  nic.forget_before(300);
  CHECK(nic.stretches() == 100);
  CHECK(nic.book(0, 1) == 301);  // moved to 300, which [300, 301) holds
  CHECK(nic.book(299, 1) == 302);
}

TEST_CASE("NIC calendar: bookings and searches after stretches were dropped, against brute force") {
  // forget_before drops what ends before the floor and compacts its list now and then: bookings
  // and searches (book, fit, book_at) mixed with it must find what a search of every stretch
  // ever booked finds from the floor on.
  std::mt19937 random(17);
  std::uniform_real_distribution<double> ahead(0, 30), step(0, 10), hold(1, 4);
  for (int trial = 0; trial < 20; ++trial) {
    NicCalendar nic;
    std::vector<std::pair<double, double>> booked;
    double floor = 0;
    for (int i = 0; i < 400; ++i) {
      if (i % 25 == 24) {
        floor += step(random);
        nic.forget_before(floor);
      }
      const double begin = floor + ahead(random) - 5;  // sometimes before the floor
      if (i % 2 == 0) {
        const double start = nic.book(begin, 1.0);
        REQUIRE(start == a2a::testing::approx(earliest_free(booked, std::max(begin, floor), 1.0)));
        booked.emplace_back(start, start + 1.0);
      } else {
        const double length = hold(random);
        const double start = nic.fit(begin, length);
        REQUIRE(start ==
                a2a::testing::approx(earliest_free(booked, std::max(begin, floor), length)));
        nic.book_at(start, length, 1.0);
        booked.emplace_back(start, start + length);
      }
    }
    // What ended by the floor is gone: at most the stretches ending after it are left (fewer when
    // back-to-back bookings merged).
    const auto after_floor = std::count_if(booked.begin(), booked.end(),
                                           [&](const auto& b) { return b.second > floor; });
    CHECK(nic.stretches() <= static_cast<std::size_t>(after_floor));
  }
}

}  // namespace a2a::sim::scale

#include "mpi/nonblocking.hpp"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "algorithms/errors.hpp"
#include "mpi/comm_contexts.hpp"
#include "mpi/log.hpp"
#include "mpi/mpi_error.hpp"

namespace a2a::mpi {

namespace {

// One queued call and the generalized request the application holds for it. Shared by the queue
// and the request (free_state releases the request's share), so neither outlives the other's use.
struct Operation {
  AlltoallCall call;
  const AlgorithmChoice* choice = nullptr;
  std::function<int(MPI_Comm)> vendor;
  MPI_Request request = MPI_REQUEST_NULL;
  int result = MPI_SUCCESS;
};
using Shared = std::shared_ptr<Operation>;

int query_state(void* state, MPI_Status* status) {
  const Operation& op = **static_cast<Shared*>(state);
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  status->MPI_ERROR = op.result;
  return op.result;
}

int free_state(void* state) {
  delete static_cast<Shared*>(state);
  return MPI_SUCCESS;
}

// A collective cannot be cancelled (MPI 4.0 §6.12): the call completes as if not asked to.
int cancel_state(void*, int) {
  return MPI_SUCCESS;
}

// A communicator's helper thread and its queue.
class Lane {
 public:
  explicit Lane(MPI_Comm comm) {
    check_mpi(PMPI_Comm_idup(comm, &dup_, &dup_request_), "MPI_Comm_idup");
    thread_ = std::thread([this] { work(); });
  }

  // Runs what is queued, then stops. Called by MPI_Comm_free or MPI_Finalize.
  ~Lane() {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      stopping_ = true;
    }
    ready_.notify_one();
    thread_.join();
  }

  void push(Shared op) {
    {
      std::lock_guard<std::mutex> guard(mutex_);
      queue_.push_back(std::move(op));
    }
    ready_.notify_one();
  }

 private:
  void work() {
    PMPI_Wait(&dup_request_, MPI_STATUS_IGNORE);
    // Collective over the duplicate, which only the helpers of this communicator use, in order.
    context_ = std::make_unique<Context>(dup_, 0, pool_cap_setting());
    PMPI_Comm_free(&dup_);
    while (Shared op = next()) {
      op->result = run_call(
          op->call, *op->choice, [&] { return op->vendor(context_->comm()); }, context_.get());
      const MPI_Request request = op->request;
      op.reset();  // the application may free the state as soon as the request completes
      PMPI_Grequest_complete(request);
    }
    context_.reset();
  }

  // The next call, or null once stopping with nothing queued.
  Shared next() {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return nullptr;
    Shared op = std::move(queue_.front());
    queue_.pop_front();
    return op;
  }

  MPI_Comm dup_ = MPI_COMM_NULL;
  MPI_Request dup_request_ = MPI_REQUEST_NULL;
  std::unique_ptr<Context> context_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Shared> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

std::mutex& lanes_lock() {
  static std::mutex mutex;
  return mutex;
}

// Communicators that carry a Lane, so that MPI_Finalize can stop them all.
std::set<MPI_Comm>& live_lanes() {
  static std::set<MPI_Comm> comms;
  return comms;
}

int delete_lane(MPI_Comm comm, int, void* value, void*) {
  {
    std::lock_guard<std::mutex> guard(lanes_lock());
    live_lanes().erase(comm);
  }
  delete static_cast<Lane*>(value);
  return MPI_SUCCESS;
}

int lane_keyval() {
  static const int keyval = [] {
    int key = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_lane, &key, nullptr);
    return key;
  }();
  return keyval;
}

void stop_all_lanes() {
  std::set<MPI_Comm> comms;
  {
    std::lock_guard<std::mutex> guard(lanes_lock());
    comms = live_lanes();
  }
  for (MPI_Comm comm : comms)
    PMPI_Comm_delete_attr(comm, lane_keyval());
}

// The communicator's lane, made at its first non-blocking call (in call order on every rank).
Lane& lane_for(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, lane_keyval(), &value, &found);
  if (found) return *static_cast<Lane*>(value);
  static const bool hooked = [] {
    at_finalize(stop_all_lanes);
    return true;
  }();
  (void)hooked;
  auto* lane = new Lane(comm);
  PMPI_Comm_set_attr(comm, lane_keyval(), lane);
  std::lock_guard<std::mutex> guard(lanes_lock());
  live_lanes().insert(comm);
  return *lane;
}

}  // namespace

int start_nonblocking(AlltoallCall call, const AlgorithmChoice& choice,
                      std::function<int(MPI_Comm)> vendor, MPI_Request* request) {
  call.nonblocking = true;
  Lane* lane = nullptr;
  try {
    lane = &lane_for(call.comm);
  } catch (const Error& error) {  // MPI_Comm_idup failed: nothing was started
    log(LogLevel::error, call_name(call) + ": " + error.what());
    return MPI_ERR_OTHER;
  }
  auto op = std::make_shared<Operation>();
  op->call = std::move(call);
  op->choice = &choice;
  op->vendor = std::move(vendor);
  const int code =
      PMPI_Grequest_start(query_state, free_state, cancel_state, new Shared(op), &op->request);
  if (code != MPI_SUCCESS) return code;
  *request = op->request;
  lane->push(std::move(op));
  return MPI_SUCCESS;
}

}  // namespace a2a::mpi

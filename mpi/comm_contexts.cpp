#include "mpi/comm_contexts.hpp"

#include <cstdlib>
#include <mutex>
#include <set>
#include <vector>

#include "algorithms/errors.hpp"

namespace a2a::mpi {

namespace {

std::mutex& lock() {
  static std::mutex mutex;
  return mutex;
}

// Communicators that carry a Context, so that MPI_Finalize can free them all.
std::set<MPI_Comm>& live() {
  static std::set<MPI_Comm> comms;
  return comms;
}

std::vector<void (*)()>& hooks() {
  static std::vector<void (*)()> list;
  return list;
}

int delete_context(MPI_Comm comm, int, void* value, void*) {
  {
    std::lock_guard<std::mutex> guard(lock());
    live().erase(comm);
  }
  delete static_cast<Context*>(value);  // frees the private duplicate
  return MPI_SUCCESS;
}

int context_keyval() {
  static const int keyval = [] {
    int key = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_context, &key, nullptr);
    return key;
  }();
  return keyval;
}

int run_finalize_hooks(MPI_Comm, int, void*, void*) {
  std::vector<void (*)()> list;
  {
    std::lock_guard<std::mutex> guard(lock());
    list = hooks();
  }
  for (auto it = list.rbegin(); it != list.rend(); ++it)
    (*it)();
  // Free every cached context now: later in MPI_Finalize freeing a communicator may not work.
  const std::set<MPI_Comm> comms = live();
  for (MPI_Comm comm : comms) {
    MPI_Comm handle = comm;
    PMPI_Comm_delete_attr(handle, context_keyval());
  }
  return MPI_SUCCESS;
}

void install_finalize_attribute() {
  static const bool installed = [] {
    int key = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, run_finalize_hooks, &key, nullptr);
    PMPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
    return true;
  }();
  (void)installed;
}

}  // namespace

const Context& context_for(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  PMPI_Comm_get_attr(comm, context_keyval(), &value, &found);
  if (found) return *static_cast<Context*>(value);
  install_finalize_attribute();
  auto* context = new Context(comm, 0, pool_cap_setting());
  PMPI_Comm_set_attr(comm, context_keyval(), context);
  std::lock_guard<std::mutex> guard(lock());
  live().insert(comm);
  return *context;
}

Bytes pool_cap_setting() {
  const char* text = std::getenv("A2A_POOL_MAX");
  if (text == nullptr) return kDefaultPoolCap;
  try {
    return parse_pool_cap(text);
  } catch (const Error& error) {
    throw InvalidParameter(std::string("A2A_POOL_MAX=") + text + ": " + error.what());
  }
}

void at_finalize(void (*hook)()) {
  install_finalize_attribute();
  std::lock_guard<std::mutex> guard(lock());
  hooks().push_back(hook);
}

}  // namespace a2a::mpi

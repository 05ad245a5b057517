#include "mpi/alltoall_call.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "algorithms/errors.hpp"
#include "algorithms/exchange.hpp"
#include "mpi/call_ledger.hpp"
#include "mpi/comm_contexts.hpp"
#include "mpi/datatype_blocks.hpp"
#include "mpi/log.hpp"
#include "mpi/mpi_comm.hpp"

namespace a2a::mpi {

namespace {

// Length of the count arrays: the communicator's size, or the remote group's for an
// inter-communicator.
int peers(MPI_Comm comm) {
  int inter = 0, P = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    PMPI_Comm_remote_size(comm, &P);
  } else {
    PMPI_Comm_size(comm, &P);
  }
  return P;
}

// Everything of a call but its counts and displacements.
AlltoallCall call_without_counts(Collective collective, const void* sendbuf, MPI_Datatype sendtype,
                                 void* recvbuf, MPI_Datatype recvtype, MPI_Comm comm) {
  AlltoallCall call;
  call.collective = collective;
  call.sendbuf = sendbuf;
  call.sendtype = sendtype;
  call.recvbuf = recvbuf;
  call.recvtype = recvtype;
  call.comm = comm;
  return call;
}

}  // namespace

AlltoallCall alltoallv_call(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  AlltoallCall call =
      call_without_counts(Collective::alltoallv, sendbuf, sendtype, recvbuf, recvtype, comm);
  const int P = peers(comm);
  call.recvcounts.assign(recvcounts, recvcounts + P);
  call.rdispls.assign(rdispls, rdispls + P);
  if (sendbuf != MPI_IN_PLACE) {
    call.sendcounts.assign(sendcounts, sendcounts + P);
    call.sdispls.assign(sdispls, sdispls + P);
  }
  return call;
}

AlltoallCall alltoall_call(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  AlltoallCall call =
      call_without_counts(Collective::alltoall, sendbuf, sendtype, recvbuf, recvtype, comm);
  const int P = peers(comm);
  for (int i = 0; i < P; ++i) {
    call.recvcounts.push_back(recvcount);
    call.rdispls.push_back(static_cast<std::int64_t>(i) * recvcount);
    if (sendbuf != MPI_IN_PLACE) {
      call.sendcounts.push_back(sendcount);
      call.sdispls.push_back(static_cast<std::int64_t>(i) * sendcount);
    }
  }
  return call;
}

std::string call_name(const AlltoallCall& call) {
  const std::string name = collective_name(call.collective);  // "MPI_Alltoall(v)"
  return call.nonblocking ? "MPI_Ia" + name.substr(5) : name;
}

namespace {

// One side of the exchange as the caller described it.
struct Side {
  const std::byte* base = nullptr;
  const std::vector<std::int64_t>* counts = nullptr;
  const std::vector<std::int64_t>* displs = nullptr;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  TypeShape shape;
  bool staged = false;  // exchanged through a packed staging buffer
};

// The exchange in bytes: counts × size; displacements × extent (shifted so none is negative), or
// running offsets in rank order when the side is staged.
std::vector<std::int64_t> byte_counts(const Side& side, int rank, const char* which) {
  std::vector<std::int64_t> out(side.counts->size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t count = (*side.counts)[i];
    if (count < 0) {
      throw InvalidParameter(std::string(which) + "[" + std::to_string(i) +
                             "] = " + std::to_string(count) + " is negative on rank " +
                             std::to_string(rank));
    }
    out[i] = count * side.shape.size;
  }
  return out;
}

std::vector<std::int64_t> byte_displs(Side& side, const std::vector<std::int64_t>& bytes) {
  std::vector<std::int64_t> out(bytes.size());
  if (side.staged) {
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i] = offset;
      offset += bytes[i];
    }
    return out;
  }
  std::int64_t lowest = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = (*side.displs)[i] * side.shape.extent;
    if (bytes[i] > 0) lowest = std::min(lowest, out[i]);
  }
  // Negative displacements are legal MPI: address the blocks from the lowest one instead (an
  // empty block's displacement means nothing).
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = bytes[i] > 0 ? out[i] - lowest : 0;
  side.base += lowest;
  return out;
}

bool packed_in_rank_order(const std::vector<std::int64_t>& bytes,
                          const std::vector<std::int64_t>& displs) {
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] > 0 && displs[i] != offset) return false;
    offset += bytes[i];
  }
  return true;
}

std::int64_t total(const std::vector<std::int64_t>& v) {
  std::int64_t sum = 0;
  for (std::int64_t x : v)
    sum += x;
  return sum;
}

// Uniform, balanced and packed as agreed by every rank (one allreduce of 7 integers).
ExchangeShape agreed_shape(const Context& context, const ExchangeLayout& layout) {
  const int P = layout.ranks();
  std::int64_t block = P > 0 ? layout.sendcounts[0] : 0;
  for (int i = 0; i < P && block >= 0; ++i) {
    if (layout.sendcounts[i] != block || layout.recvcounts[i] != block) block = -1;
  }
  const std::int64_t sent = total(layout.sendcounts), received = total(layout.recvcounts);
  const bool packed = packed_in_rank_order(layout.sendcounts, layout.sdispls) &&
                      packed_in_rank_order(layout.recvcounts, layout.rdispls);
  std::int64_t v[7] = {block, -block, sent, -sent, received, -received, packed ? 1 : 0};
  PMPI_Allreduce(MPI_IN_PLACE, v, 7, MPI_INT64_T, MPI_MIN, context.comm());
  ExchangeShape shape;
  shape.ranks = P;
  shape.ranks_per_node = context.ranks_per_node();
  shape.uniform = v[0] >= 0 && v[0] == -v[1];
  shape.balanced = v[2] == -v[3] && v[4] == -v[5] && v[2] == v[4];
  shape.contiguous_in_order = v[6] == 1;
  return shape;
}

class CallRunner {
 public:
  CallRunner(const AlltoallCall& call, const AlgorithmChoice& choice, FunctionRef<int()> vendor,
             const Context* context)
      : call_(call), choice_(choice), vendor_(vendor), context_(context) {}

  int run() {
    int inter = 0;
    PMPI_Comm_test_inter(call_.comm, &inter);
    if (inter) return fallback("inter-communicators are not supported");
    const Context& context = context_ ? *context_ : context_for(call_.comm);
    try {
      describe(context);
    } catch (const Error& error) {
      return argument_error(error.what());
    }
    const Configuration* config = choose(context);
    if (config == nullptr) return fallback_result_;
    if (config->algorithm->family == Family::vendor) {
      note_run(call_name(call_), "vendor");
      return vendor_();
    }
    if (auto reason = not_applicable(context, *config)) {
      return fallback(config->label() + ": " + *reason);
    }
    execute(context, *config);
    note_run(call_name(call_), config->label());
    return MPI_SUCCESS;
  }

 private:
  void describe(const Context& context) {
    const bool in_place = call_.sendbuf == MPI_IN_PLACE;
    recv_ = {static_cast<const std::byte*>(call_.recvbuf),
             &call_.recvcounts,
             &call_.rdispls,
             call_.recvtype,
             type_shape(call_.recvtype),
             false};
    send_ = in_place ? recv_
                     : Side{static_cast<const std::byte*>(call_.sendbuf),
                            &call_.sendcounts,
                            &call_.sdispls,
                            call_.sendtype,
                            type_shape(call_.sendtype),
                            false};
    send_.staged = in_place || !send_.shape.contiguous;
    recv_.staged = !recv_.shape.contiguous;
    layout_.extent = 1;  // counts and displacements in bytes
    layout_.sendcounts = byte_counts(send_, context.rank(), in_place ? "recvcounts" : "sendcounts");
    layout_.recvcounts = byte_counts(recv_, context.rank(), "recvcounts");
    layout_.sdispls = byte_displs(send_, layout_.sendcounts);
    layout_.rdispls = byte_displs(recv_, layout_.recvcounts);
    if (call_.collective == Collective::alltoall && !layout_.sendcounts.empty()) {
      layout_.uniform_block = layout_.sendcounts[0];
    }
    validate_layout(layout_, context.rank());
  }

  // The configuration for this call (cached by configured()), or null after setting
  // fallback_result_.
  const Configuration* choose(const Context& context) {
    std::int64_t block = 0;
    if (choice_.depends_on_block(call_.collective, context.size())) {
      if (layout_.uniform_block) {
        block = *layout_.uniform_block;
      } else {
        std::int64_t sent = total(layout_.sendcounts);
        PMPI_Allreduce(MPI_IN_PLACE, &sent, 1, MPI_INT64_T, MPI_SUM, context.comm());
        block = sent / (static_cast<std::int64_t>(context.size()) * context.size());
      }
    }
    std::string why;
    const std::string spec = choice_.spec_for(call_.collective, context.size(), block, why);
    if (!why.empty()) {
      fallback_result_ = fallback(why);
      return nullptr;
    }
    const Resolved resolved = configured(spec, context.size(), context.ranks_per_node());
    if (!resolved.config) {
      fallback_result_ = fallback(resolved.problem);
      return nullptr;
    }
    return resolved.config;
  }

  std::optional<std::string> not_applicable(const Context& context, const Configuration& config) {
    ExchangeShape shape;
    shape.ranks = context.size();
    shape.ranks_per_node = context.ranks_per_node();
    if (call_.collective == Collective::alltoall) {
      // Equal blocks everywhere (the standard's type-signature rule) laid out in rank order
      // (MPI_Alltoall's own layout, or the staging buffer's).
      shape.uniform = shape.balanced = true;
      shape.contiguous_in_order = packed_in_rank_order(layout_.sendcounts, layout_.sdispls) &&
                                  packed_in_rank_order(layout_.recvcounts, layout_.rdispls);
      return not_applicable_reason(config, shape);
    }
    // The checks only ever demand properties, so one that passes on the least favourable shape
    // passes on every exchange: no allreduce needed.
    if (!not_applicable_reason(config, shape)) return std::nullopt;
    shape = agreed_shape(context, layout_);
    if (shape.uniform && !layout_.sendcounts.empty()) layout_.uniform_block = layout_.sendcounts[0];
    return not_applicable_reason(config, shape);
  }

  void execute(const Context& context, const Configuration& config) {
    // Staging buffers come from the communicator's pool, like the algorithm's temporaries.
    TempLease send_stage, recv_stage;
    const std::byte* send = send_.base;
    std::byte* recv = const_cast<std::byte*>(recv_.base);
    if (send_.staged) {
      send_stage = context.pool().acquire(layout_.send_buffer_bytes());
      copy_blocks(send_, layout_.sendcounts, layout_.sdispls, send_stage.data());
      send = send_stage.data();
    }
    if (recv_.staged) {
      recv_stage = context.pool().acquire(layout_.recv_buffer_bytes());
      recv = recv_stage.data();
    }
    try {
      MpiComm comm(context, layout_, send, recv);
      config.algorithm->run(comm, config.params);
      if (comm.outstanding() != 0) {
        throw ContractViolation(std::to_string(comm.outstanding()) +
                                " requests were never waited for");
      }
      if (recv_.staged) unpack_blocks(recv_stage.data());
    } catch (const Error& error) {
      fatal(context.comm(), call_name(call_) + " via " + config.label() + ": " + error.what());
    }
  }

  // The caller's blocks of `side` into the staging buffer, in rank order.
  static void copy_blocks(const Side& side, const std::vector<std::int64_t>& bytes,
                          const std::vector<std::int64_t>& staged_displs, std::byte* out) {
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      if (bytes[i] == 0) continue;
      const std::byte* from = side.base + (*side.displs)[i] * side.shape.extent;
      if (side.shape.contiguous) {
        std::memcpy(out + staged_displs[i], from, static_cast<std::size_t>(bytes[i]));
      } else {
        pack_elements(from, (*side.counts)[i], side.type, side.shape, out + staged_displs[i]);
      }
    }
  }

  void unpack_blocks(const std::byte* stage) const {
    auto* base = const_cast<std::byte*>(recv_.base);
    for (std::size_t i = 0; i < layout_.recvcounts.size(); ++i) {
      if (layout_.recvcounts[i] == 0) continue;
      unpack_elements(stage + layout_.rdispls[i], (*recv_.counts)[i], recv_.type, recv_.shape,
                      base + (*recv_.displs)[i] * recv_.shape.extent);
    }
  }

  int fallback(const std::string& reason) {
    note_fallback(call_name(call_), reason, call_.comm);
    return vendor_();
  }

  int argument_error(const std::string& what) {
    log(LogLevel::error, call_name(call_) + ": " + what);
    PMPI_Comm_call_errhandler(call_.comm, MPI_ERR_ARG);
    return MPI_ERR_ARG;
  }

  const AlltoallCall& call_;
  const AlgorithmChoice& choice_;
  FunctionRef<int()> vendor_;
  const Context* context_;
  Side send_, recv_;
  ExchangeLayout layout_;
  int fallback_result_ = MPI_SUCCESS;
};

}  // namespace

int run_call(const AlltoallCall& call, const AlgorithmChoice& choice, FunctionRef<int()> vendor,
             const Context* context) {
  return CallRunner(call, choice, vendor, context).run();
}

}  // namespace a2a::mpi

"""Alltoall and Alltoallv from Python (mpi4py, Debian's python3-mpi4py), for the interposer tests.

Run under mpirun with liba2a_pmpi.so preloaded (tests/apps/intercepted.sh): every exchange goes
through MPI_Alltoall / MPI_Alltoallv of the C library, so through a2a. Each case checks the exact
values every rank must receive (computed here, independently of any MPI) and that the gaps between
receive blocks keep their sentinel: plain and in-place Alltoall and Alltoallv, a vector type, a
resized vector ("column") type, mpi4py's pickle-based comm.alltoall of Python objects, Alltoall on
sub-communicators, and the non-blocking Ialltoall and Ialltoallv, one of them completing while a
rank blocks elsewhere.
Prints "mpi4py_check: N passed, M failed" on rank 0; exit code 1 if anything failed.

Usage: mpi4py_check.py [--thread-level=LEVEL]   (mpi4py's default: multiple)
"""
import sys
from array import array

import mpi4py

for argument in sys.argv[1:]:
    if argument.startswith("--thread-level="):
        mpi4py.rc.thread_level = argument.split("=", 1)[1]
from mpi4py import MPI  # noqa: E402 (after the thread level is chosen)

comm = MPI.COMM_WORLD
P, me = comm.Get_size(), comm.Get_rank()
SENTINEL = -7
results = []


def value(src, dst, k):
    return src * 100000 + dst * 100 + k


def count(src, dst):
    return (src * 7 + dst * 3 + 1) % 5


def symmetric_count(src, dst):
    return (src + dst) % 4 + (src == dst)


def layout(counts, unit=1):
    """Displacements in reverse rank order with one-element gaps; returns (displs, length)."""
    displs, offset = [0] * len(counts), 1
    for i in reversed(range(len(counts))):
        displs[i] = offset
        offset += counts[i] * unit + 1
    return displs, offset + 1


def check(name, ok):
    results.append((name, comm.allreduce(0 if ok else 1, op=MPI.SUM)))


def expect_blocks(buf, counts, displs, of, length):
    """buf holds block i (counts[i] values of(i, k)) at displs[i], sentinel elsewhere."""
    expected = array("i", [SENTINEL] * length)
    for i in range(P):
        for k in range(counts[i]):
            expected[displs[i] + k] = of(i, k)
    return buf == expected


# Alltoall, three ints per block.
send = array("i", [value(me, d, k) for d in range(P) for k in range(3)])
recv = array("i", [SENTINEL] * (3 * P))
comm.Alltoall([send, MPI.INT], [recv, MPI.INT])
check("Alltoall", list(recv) == [value(s, me, k) for s in range(P) for k in range(3)])

# Alltoall in place: the receive buffer holds what is sent.
buf = array("i", [value(me, d, k) for d in range(P) for k in range(2)])
comm.Alltoall(MPI.IN_PLACE, [buf, MPI.INT])
check("Alltoall in place", list(buf) == [value(s, me, k) for s in range(P) for k in range(2)])

# Alltoallv with unequal counts, gaps and a rank-dependent block order.
sc = [count(me, d) for d in range(P)]
rc = [count(s, me) for s in range(P)]
sd, slen = layout(sc)
rd, rlen = layout(rc)
send = array("i", [SENTINEL] * slen)
for d in range(P):
    for k in range(sc[d]):
        send[sd[d] + k] = value(me, d, k)
recv = array("i", [SENTINEL] * rlen)
comm.Alltoallv([send, sc, sd, MPI.INT], [recv, rc, rd, MPI.INT])
check("Alltoallv", expect_blocks(recv, rc, rd, lambda s, k: value(s, me, k), rlen))

# Alltoallv in place (symmetric counts: rank s sends recvcounts[d] to d).
rc = [symmetric_count(s, me) for s in range(P)]
rd, rlen = layout(rc)
buf = array("i", [SENTINEL] * rlen)
for d in range(P):
    for k in range(rc[d]):
        buf[rd[d] + k] = value(me, d, k)
comm.Alltoallv(MPI.IN_PLACE, [buf, rc, rd, MPI.INT])
check("Alltoallv in place", expect_blocks(buf, rc, rd, lambda s, k: value(s, me, k), rlen))

# A vector type on the send side: each element is ints 0 and 3 of a 4-int extent.
vector = MPI.INT.Create_vector(2, 1, 3).Commit()
sc = [count(me, d) for d in range(P)]
rc = [2 * count(s, me) for s in range(P)]
sd, slen = layout(sc)
rd, rlen = layout(rc)
send = array("i", [SENTINEL] * (4 * slen))
for d in range(P):
    for k in range(sc[d]):
        at = 4 * (sd[d] + k)
        send[at], send[at + 3] = value(me, d, 2 * k), value(me, d, 2 * k + 1)
recv = array("i", [SENTINEL] * rlen)
comm.Alltoallv([send, sc, sd, vector], [recv, rc, rd, MPI.INT])
check("Alltoallv vector type", expect_blocks(recv, rc, rd, lambda s, k: value(s, me, k), rlen))

# A resized vector ("column" of a P x 2 row-major matrix, extent one int) on the receive side:
# block s lands in column s; row k of column s holds element k of the block from s.
column = MPI.INT.Create_vector(2, 1, P).Create_resized(0, 4).Commit()
send = array("i", [value(me, d, k) for d in range(P) for k in range(2)])
recv = array("i", [SENTINEL] * (2 * P))
comm.Alltoallv([send, [2] * P, [2 * d for d in range(P)], MPI.INT],
               [recv, [1] * P, list(range(P)), column])
check("Alltoallv resized column type",
      list(recv) == [value(s, me, k) for k in range(2) for s in range(P)])
vector.Free()
column.Free()

# mpi4py's object all-to-all (pickles; MPI_Alltoall for sizes, MPI_Alltoallv for the bytes).
got = comm.alltoall([{"from": me, "to": d, "pad": "x" * (d * 37 + me)} for d in range(P)])
check("alltoall of Python objects",
      got == [{"from": s, "to": me, "pad": "x" * (me * 37 + s)} for s in range(P)])

# Alltoall on sub-communicators of 2 ranks (and 1 for an odd P): an algorithm the world's size
# does not suit (bitonic_inplace on P = 3) runs there, and falls back on the world.
sub = comm.Split(me // 2, me)
Q, q = sub.Get_size(), sub.Get_rank()
send = array("i", [value(me, d, k) for d in range(Q) for k in range(2)])
recv = array("i", [SENTINEL] * (2 * Q))
sub.Alltoall([send, MPI.INT], [recv, MPI.INT])
base = me - q  # world rank of the sub-communicator's rank 0
check("Alltoall on a sub-communicator",
      list(recv) == [value(base + s, q, k) for s in range(Q) for k in range(2)])
sub.Free()

# Non-blocking Ialltoall, three ints per block.
send = array("i", [value(me, d, k) for d in range(P) for k in range(3)])
recv = array("i", [SENTINEL] * (3 * P))
comm.Ialltoall([send, MPI.INT], [recv, MPI.INT]).Wait()
check("Ialltoall", list(recv) == [value(s, me, k) for s in range(P) for k in range(3)])

# Non-blocking Ialltoallv that must progress while rank 0 is blocked in a receive from rank 1,
# which rank 1 sends only after its own Wait returned (MPI's progress rule): an implementation that
# ran the exchange only inside MPI_Wait would hang here.
sc = [count(me, d) for d in range(P)]
rc = [count(s, me) for s in range(P)]
sd, slen = layout(sc)
rd, rlen = layout(rc)
send = array("i", [SENTINEL] * slen)
for d in range(P):
    for k in range(sc[d]):
        send[sd[d] + k] = value(me, d, k)
recv = array("i", [SENTINEL] * rlen)
other = comm.Dup()
request = comm.Ialltoallv([send, sc, sd, MPI.INT], [recv, rc, rd, MPI.INT])
if P > 1 and me == 0:
    other.recv(source=1, tag=5)
    request.Wait()
else:
    request.Wait()
    if P > 1 and me == 1:
        other.send("after my Wait", dest=0, tag=5)
other.Free()
check("Ialltoallv progressing while a rank blocks elsewhere",
      expect_blocks(recv, rc, rd, lambda s, k: value(s, me, k), rlen))

failed = [name for name, bad in results if bad]
if me == 0:
    for name in failed:
        print(f"FAIL {name}")
    print(f"mpi4py_check: {len(results) - len(failed)} passed, {len(failed)} failed")
sys.exit(1 if failed else 0)

// Every rank of an a2a-mpi job must run the same command with the same arguments: an MPMD launch
// (`mpirun -np 2 a2a-mpi verify --batch 1 : -np 2 a2a-mpi verify --batch 4`) would otherwise
// report rank 0's configuration as a pass, or hang when the ranks run different exchanges.
#pragma once

#include <string>

namespace a2a::mpi {

// The arguments after the program name, each ended by '\0', as the check compares them (so that
// `-w "a b"` and `-w a b` differ).
std::string joined_arguments(int argc, char** argv);

// Collective over MPI_COMM_WORLD: empty when every rank got `arguments`; else, on rank 0 (the one
// that prints it), one line naming the first rank that differs from rank 0 and both argument
// lists; other ranks get a line without the other rank's arguments.
std::string argument_mismatch(const std::string& arguments);

}  // namespace a2a::mpi

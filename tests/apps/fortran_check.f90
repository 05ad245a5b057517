! MPI_Alltoall and MPI_Alltoallv from Fortran, for the interposer tests (fortran_check.sh): the
! same exchanges through `use mpi` (mpi_alltoall(v)_ of libmpi_mpifh) and through `use mpi_f08`
! (mpi_alltoall(v)_f08_ of libmpi_usempif08), plain, with MPI_IN_PLACE and non-blocking
! (MPI_Ialltoall(v) and MPI_Wait). Every element of every
! receive buffer is compared with the value it must hold, computed here independently of any MPI:
! received blocks, and the sentinel in the gaps between blocks (unequal counts, some zero, blocks
! in reverse rank order with one-element gaps). Prints "fortran_check: N passed, M failed" on
! rank 0; exit code 1 if anything failed.
module exchange_values
  implicit none
  integer, parameter :: sentinel = -7
contains
  integer function val(src, dst, k)
    integer, intent(in) :: src, dst, k
    val = src * 100000 + dst * 100 + k
  end function
  integer function cnt(src, dst)
    integer, intent(in) :: src, dst
    cnt = mod(src * 7 + dst * 3 + 1, 5)
  end function
  integer function symmetric_cnt(src, dst)  ! in place: rank s sends recvcounts(d) to d
    integer, intent(in) :: src, dst
    symmetric_cnt = mod(src + dst, 4)
    if (src == dst) symmetric_cnt = symmetric_cnt + 1
  end function
  ! Displacements in reverse rank order with one-element gaps; returns the buffer length.
  integer function layout(counts, displs, p)
    integer, intent(in) :: p, counts(0:p - 1)
    integer, intent(out) :: displs(0:p - 1)
    integer :: i, offset
    offset = 1
    do i = p - 1, 0, -1
      displs(i) = offset
      offset = offset + counts(i) + 1
    end do
    layout = offset + 1
  end function
  ! buf(0:) holds counts(i) values of(i -> me) at displs(i) and the sentinel elsewhere.
  logical function blocks_ok(buf, counts, displs, p, me)
    integer, intent(in) :: p, me, buf(0:), counts(0:p - 1), displs(0:p - 1)
    integer, allocatable :: expected(:)
    integer :: i, k
    allocate (expected(0:size(buf) - 1))
    expected = sentinel
    do i = 0, p - 1
      do k = 0, counts(i) - 1
        expected(displs(i) + k) = val(i, me, k)
      end do
    end do
    blocks_ok = all(buf == expected)
  end function
  ! Fills the send side: counts(d) values of(me -> d) at displs(d), sentinel elsewhere.
  subroutine fill(buf, counts, displs, p, me)
    integer, intent(in) :: p, me, counts(0:p - 1), displs(0:p - 1)
    integer, intent(out) :: buf(0:)
    integer :: d, k
    buf = sentinel
    do d = 0, p - 1
      do k = 0, counts(d) - 1
        buf(displs(d) + k) = val(me, d, k)
      end do
    end do
  end subroutine
end module

! The exchanges through `use mpi`; returns how many failed on this rank.
integer function legacy_cases(names, nnames) result(failed)
  use mpi
  use exchange_values
  implicit none
  character(len=40), intent(inout) :: names(*)
  integer, intent(inout) :: nnames
  integer :: p, me, ierr, s, d, k, slen, rlen, request
  integer, allocatable :: sc(:), sd(:), rc(:), rd(:), sbuf(:), rbuf(:), expected(:)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  allocate (sc(0:p - 1), sd(0:p - 1), rc(0:p - 1), rd(0:p - 1))
  failed = 0
  ! Alltoall, three integers per block.
  allocate (sbuf(0:3 * p - 1), rbuf(0:3 * p - 1), expected(0:3 * p - 1))
  do d = 0, p - 1
    do k = 0, 2
      sbuf(3 * d + k) = val(me, d, k)
      expected(3 * d + k) = val(d, me, k)
    end do
  end do
  rbuf = sentinel
  call MPI_Alltoall(sbuf, 3, MPI_INTEGER, rbuf, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call note("use mpi: MPI_Alltoall", ierr == MPI_SUCCESS .and. all(rbuf == expected))
  ! Alltoall in place: the receive buffer holds what is sent.
  rbuf = sbuf
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call note("use mpi: MPI_Alltoall in place", ierr == MPI_SUCCESS .and. all(rbuf == expected))
  ! Ialltoall: the same exchange, non-blocking.
  rbuf = sentinel
  call MPI_Ialltoall(sbuf, 3, MPI_INTEGER, rbuf, 3, MPI_INTEGER, MPI_COMM_WORLD, request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  call note("use mpi: MPI_Ialltoall", ierr == MPI_SUCCESS .and. all(rbuf == expected))
  deallocate (sbuf, rbuf)
  ! Alltoallv with unequal counts and gaps.
  do d = 0, p - 1
    sc(d) = cnt(me, d)
    rc(d) = cnt(d, me)
  end do
  slen = layout(sc, sd, p)
  rlen = layout(rc, rd, p)
  allocate (sbuf(0:slen - 1), rbuf(0:rlen - 1))
  call fill(sbuf, sc, sd, p, me)
  rbuf = sentinel
  call MPI_Alltoallv(sbuf, sc, sd, MPI_INTEGER, rbuf, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call note("use mpi: MPI_Alltoallv", ierr == MPI_SUCCESS .and. blocks_ok(rbuf, rc, rd, p, me))
  rbuf = sentinel
  call MPI_Ialltoallv(sbuf, sc, sd, MPI_INTEGER, rbuf, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, &
                      request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  call note("use mpi: MPI_Ialltoallv", ierr == MPI_SUCCESS .and. blocks_ok(rbuf, rc, rd, p, me))
  deallocate (rbuf)
  ! Alltoallv in place (symmetric counts).
  do s = 0, p - 1
    rc(s) = symmetric_cnt(s, me)
  end do
  rlen = layout(rc, rd, p)
  allocate (rbuf(0:rlen - 1))
  call fill(rbuf, rc, rd, p, me)
  call MPI_Alltoallv(MPI_IN_PLACE, sc, sd, MPI_DATATYPE_NULL, rbuf, rc, rd, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  call note("use mpi: MPI_Alltoallv in place", &
            ierr == MPI_SUCCESS .and. blocks_ok(rbuf, rc, rd, p, me))
contains
  subroutine note(name, ok)
    character(len=*), intent(in) :: name
    logical, intent(in) :: ok
    integer :: bad, ierr2
    bad = merge(0, 1, ok)
    call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr2)
    if (bad /= 0) then
      failed = failed + 1
      nnames = nnames + 1
      names(nnames) = name
    end if
  end subroutine
end function

! The same exchanges through `use mpi_f08`.
integer function f08_cases(names, nnames) result(failed)
  use mpi_f08
  use exchange_values
  implicit none
  character(len=40), intent(inout) :: names(*)
  integer, intent(inout) :: nnames
  integer :: p, me, ierr, s, d, k, slen, rlen
  type(MPI_Request) :: request
  integer, allocatable :: sc(:), sd(:), rc(:), rd(:), sbuf(:), rbuf(:), expected(:)
  call MPI_Comm_size(MPI_COMM_WORLD, p)
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  allocate (sc(0:p - 1), sd(0:p - 1), rc(0:p - 1), rd(0:p - 1))
  failed = 0
  allocate (sbuf(0:2 * p - 1), rbuf(0:2 * p - 1), expected(0:2 * p - 1))
  do d = 0, p - 1
    do k = 0, 1
      sbuf(2 * d + k) = val(me, d, k)
      expected(2 * d + k) = val(d, me, k)
    end do
  end do
  rbuf = sentinel
  call MPI_Alltoall(sbuf, 2, MPI_INTEGER, rbuf, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call note("use mpi_f08: MPI_Alltoall", ierr == MPI_SUCCESS .and. all(rbuf == expected))
  rbuf = sbuf
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 2, MPI_INTEGER, MPI_COMM_WORLD)
  call note("use mpi_f08: MPI_Alltoall in place", all(rbuf == expected))
  rbuf = sentinel
  call MPI_Ialltoall(sbuf, 2, MPI_INTEGER, rbuf, 2, MPI_INTEGER, MPI_COMM_WORLD, request)
  call MPI_Wait(request, MPI_STATUS_IGNORE)
  call note("use mpi_f08: MPI_Ialltoall", all(rbuf == expected))
  deallocate (sbuf, rbuf)
  do d = 0, p - 1  ! another pattern than the `use mpi` case's
    sc(d) = cnt(me, d) + mod(me + d, 2)
    rc(d) = cnt(d, me) + mod(me + d, 2)
  end do
  slen = layout(sc, sd, p)
  rlen = layout(rc, rd, p)
  allocate (sbuf(0:slen - 1), rbuf(0:rlen - 1))
  call fill(sbuf, sc, sd, p, me)
  rbuf = sentinel
  call MPI_Alltoallv(sbuf, sc, sd, MPI_INTEGER, rbuf, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call note("use mpi_f08: MPI_Alltoallv", ierr == MPI_SUCCESS .and. blocks_ok(rbuf, rc, rd, p, me))
  rbuf = sentinel
  call MPI_Ialltoallv(sbuf, sc, sd, MPI_INTEGER, rbuf, rc, rd, MPI_INTEGER, MPI_COMM_WORLD, &
                      request, ierr)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
  call note("use mpi_f08: MPI_Ialltoallv", &
            ierr == MPI_SUCCESS .and. blocks_ok(rbuf, rc, rd, p, me))
  deallocate (rbuf)
  do s = 0, p - 1
    rc(s) = symmetric_cnt(s, me)
  end do
  rlen = layout(rc, rd, p)
  allocate (rbuf(0:rlen - 1))
  call fill(rbuf, rc, rd, p, me)
  call MPI_Alltoallv(MPI_IN_PLACE, sc, sd, MPI_DATATYPE_NULL, rbuf, rc, rd, MPI_INTEGER, &
                     MPI_COMM_WORLD)
  call note("use mpi_f08: MPI_Alltoallv in place", blocks_ok(rbuf, rc, rd, p, me))
contains
  subroutine note(name, ok)
    character(len=*), intent(in) :: name
    logical, intent(in) :: ok
    integer :: bad
    bad = merge(0, 1, ok)
    call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (bad /= 0) then
      failed = failed + 1
      nnames = nnames + 1
      names(nnames) = name
    end if
  end subroutine
end function

! MPI_Init_thread through `use mpi` (mpi_init_thread_), for the argument "mpi": with
! MPI_THREAD_MULTIPLE, under which a2a runs the non-blocking calls on a helper thread (with MPI_Init,
! below it, they go to the vendor).
subroutine legacy_init()
  use mpi
  implicit none
  integer :: provided, ierr
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided, ierr)
end subroutine

! Usage: fortran_check [mpi|mpi_f08]: which binding initialises MPI (default mpi_f08: MPI_Init).
program fortran_check
  use mpi_f08, only: MPI_Init, MPI_Finalize, MPI_Comm_rank, MPI_COMM_WORLD
  implicit none
  integer, external :: legacy_cases, f08_cases
  character(len=40) :: names(12), binding
  integer :: nnames, failed, me, i
  nnames = 0
  call get_command_argument(1, binding)
  if (binding == 'mpi') then
    call legacy_init()
  else
    call MPI_Init()
  end if
  call MPI_Comm_rank(MPI_COMM_WORLD, me)
  failed = legacy_cases(names, nnames) + f08_cases(names, nnames)
  if (me == 0) then
    do i = 1, nnames
      print '(2a)', 'FAIL ', trim(names(i))
    end do
    print '(a, i0, a, i0, a)', 'fortran_check: ', 12 - failed, ' passed, ', failed, ' failed'
  end if
  call MPI_Finalize()
  if (failed > 0) stop 1
end program

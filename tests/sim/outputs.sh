#!/usr/bin/env bash
# Usage: outputs.sh A2A CASE
# Outputs are written to what their path names, never over it (algorithms/output_file.hpp):
#   symlink  a symlink given as --csv: its target gets the rows, the link stays a link
#   fifo     a FIFO given as --csv: a reader gets the rows, the FIFO stays a FIFO
#   stdout   --csv - and --csv /dev/stdout: the rows on standard output
#   device   a character device (a /dev/null node made in a scratch directory) stays a device
#   sweep    a FIFO given as `a2a sweep --out` is refused (a sweep reads its output back)
#   shm      a regular file under /dev/shm (a tmpfs, not a device) is replaced atomically like any
#            other regular file, not written through as a stream
set -u
a2a=$1
case_name=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run=("$a2a" run --set platform=tiny --set ranks=4 --set "algorithms=[spread_out]")
header='^platform,engine,ranks,ranks_per_node,'
fail() { echo "FAIL: $*"; exit 1; }

case $case_name in
  symlink)
    echo old >"$work/target.csv"
    ln -s target.csv "$work/link.csv"
    "${run[@]}" --csv "$work/link.csv" >/dev/null || fail "a2a run failed"
    [ -L "$work/link.csv" ] || fail "the symlink was replaced by a file"
    grep -Eq "$header" "$work/target.csv" || fail "the link's target did not get the rows"
    ;;
  fifo)
    mkfifo "$work/pipe"
    cat "$work/pipe" >"$work/read.csv" &
    reader=$!
    timeout 60 "${run[@]}" --csv "$work/pipe" >/dev/null || fail "a2a run failed"
    wait $reader
    [ -p "$work/pipe" ] || fail "the FIFO was replaced by a file"
    grep -Eq "$header" "$work/read.csv" || fail "the reader did not get the rows"
    ;;
  stdout)
    "${run[@]}" --csv - | grep -Eq "$header" || fail "--csv - wrote no rows on standard output"
    "${run[@]}" --csv /dev/stdout | grep -Eq "$header" || fail "--csv /dev/stdout wrote no rows"
    [ -z "$(ls -A "$work")" ] || fail "files were left: $(ls -A "$work")"
    # Standard output redirected to a file: the table printed first is kept, the rows follow it.
    "${run[@]}" --csv /dev/stdout >"$work/both.txt" || fail "a2a run failed"
    grep -q '^# a2a run' "$work/both.txt" || fail "the table was overwritten by the rows"
    grep -Eq "$header" "$work/both.txt" || fail "no rows after the table"
    ;;
  device)
    if ! mknod "$work/null" c 1 3 2>/dev/null; then
      echo "SKIP: cannot make a device node here (needs root and CAP_MKNOD)"
      exit 77
    fi
    "${run[@]}" --csv "$work/null" >/dev/null || fail "a2a run failed"
    [ -c "$work/null" ] || fail "the device node was replaced by a regular file"
    ;;
  sweep)
    mkfifo "$work/rows.csv"
    message=$(timeout 60 "$a2a" sweep "$(dirname "$0")/../sweep/grid.yaml" --out "$work/rows.csv" 2>&1)
    code=$?
    echo "$message"
    [ $code -eq 2 ] || fail "expected exit code 2, got $code"
    grep -q "rows.csv: cannot write: not a regular file" <<<"$message" || fail "unexpected message"
    [ -p "$work/rows.csv" ] || fail "the FIFO was replaced"
    ;;
  shm)
    [ -d /dev/shm ] && [ -w /dev/shm ] || { echo "SKIP: no writable /dev/shm"; exit 77; }
    shm=$(mktemp -d /dev/shm/a2a-outputs.XXXXXX)
    trap 'rm -rf "$work" "$shm"' EXIT
    echo old >"$shm/rows.csv"
    before=$(stat -c %i "$shm/rows.csv")
    "${run[@]}" --csv "$shm/rows.csv" >/dev/null || fail "a2a run failed"
    grep -Eq "$header" "$shm/rows.csv" || fail "no rows in $shm/rows.csv"
    [ "$(stat -c %i "$shm/rows.csv")" != "$before" ] || fail "written through, not replaced atomically"
    "${run[@]}" --csv "$shm/new.csv" >/dev/null || fail "a2a run failed on a new file"
    grep -Eq "$header" "$shm/new.csv" || fail "no rows in a new file under /dev/shm"
    ;;
  *)
    fail "unknown case $case_name"
    ;;
esac
echo ok

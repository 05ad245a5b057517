#!/usr/bin/python3
"""Usage: expect_output.py REGEX COMMAND...

Passes when COMMAND exits 0 and its output (stdout and stderr together) matches REGEX, where "."
also matches a newline, as in CMake's regular expressions. CTest's PASS_REGULAR_EXPRESSION ignores
the exit code, so a run that printed the expected line and then failed would pass under it; this
wrapper checks both.
"""
import re
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print("usage: expect_output.py REGEX COMMAND...", file=sys.stderr)
        return 2
    pattern, command = sys.argv[1], sys.argv[2:]
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, errors="replace", timeout=600)
    except subprocess.TimeoutExpired:
        print("FAIL: timed out after 600 s")
        return 1
    print(run.stdout, end="")
    print(f"[exit code {run.returncode}]")
    if run.returncode != 0:
        print("FAIL: expected exit code 0")
        return 1
    if not re.search(pattern, run.stdout, re.DOTALL):
        print(f"FAIL: output does not match /{pattern}/")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

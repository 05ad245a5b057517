#!/usr/bin/env bash
# Installs a2a's build and run dependencies from Debian 12's packages (idempotent: apt runs only
# when something is missing). Uses sudo when not root.
set -euo pipefail
packages=(
  cmake g++ make pkg-config git python3 time strace
  clang libclang-rt-14-dev clang-format-14
  libopenmpi-dev openmpi-bin gfortran
  libcli11-dev doctest-dev libspdlog-dev libyaml-cpp-dev nlohmann-json3-dev libsimgrid-dev
  libboost-context-dev robin-map-dev
  libfftw3-dev libfftw3-mpi-dev python3-mpi4py
  chromium
  python3-matplotlib python3-pandas python3-ipykernel jupyter-nbconvert
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}"

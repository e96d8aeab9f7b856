#!/usr/bin/env bash
# Installs the C libraries when they are missing: LMDB and zlib (the library), and SQLite
# when TRENDSTORE_BENCHMARKS is set (the benchmark harness compares against it).
# Debian and Ubuntu only; elsewhere install liblmdb and zlib with their pkg-config files yourself.
set -euo pipefail

missing=()
packages=(liblmdb-dev zlib1g-dev pkg-config)
[ -z "${TRENDSTORE_BENCHMARKS:-}" ] || packages+=(libsqlite3-dev)
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

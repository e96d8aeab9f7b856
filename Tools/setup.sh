#!/usr/bin/env bash
# Installs the C libraries when they are missing: LMDB and zlib (the library), SQLite (the
# benchmark that compares against it).
# Debian and Ubuntu only; elsewhere install liblmdb and zlib with their pkg-config files yourself.
set -euo pipefail

missing=()
for package in liblmdb-dev zlib1g-dev libsqlite3-dev pkg-config; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

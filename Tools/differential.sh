#!/usr/bin/env bash
# The differential test's long mode: random cases in every time zone the toolchain knows,
# each compared with the wall-clock reference (Tests/TestSupport/ReferenceAggregator.swift),
# until the time is up. Prints how many cases ran; any mismatch fails the run and prints a
# minimized repro (the zone, the instants asked and the samples as CSV lines).
#
#   bash Tools/differential.sh --seconds 600
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=600
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --seconds=*) seconds="${1#--seconds=}"; shift ;;
        *) echo "usage: bash Tools/differential.sh [--seconds N]" >&2; exit 2 ;;
    esac
done
bash Tools/setup.sh
# A build folder of its own, so a long run does not lock the one you work in.
TRENDSTORE_DIFFERENTIAL_SECONDS="$seconds" swift test --scratch-path .build-differential --filter "DifferentialTests/longMode" 2>&1 \
    | grep -E "differential long mode|recorded an issue|↳|^  |Test run"

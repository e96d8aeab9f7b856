#!/usr/bin/env bash
# The long mode of the sources merge test: N random trials (default 600) of overlapping
# sources around an offset change of a zone, every zone the toolchain knows after CI's 16,
# years 2000-2026, both rollup grids, the priority order set before, between or after the
# writes; each compared with the slow merge reference (Tests/TestSupport/ReferenceMerge.swift)
# and the wall-clock reference. Any mismatch fails the run, naming the zone, trial and order.
#
#   bash Tools/source-merge.sh --trials 600
set -euo pipefail
cd "$(dirname "$0")/.."
trials=600
while [ $# -gt 0 ]; do
    case "$1" in
        --trials) trials="$2"; shift 2 ;;
        --trials=*) trials="${1#--trials=}"; shift ;;
        *) echo "usage: bash Tools/source-merge.sh [--trials N]" >&2; exit 2 ;;
    esac
done
bash Tools/setup.sh
# A build folder of its own, so a long run does not lock the one you work in.
TRENDSTORE_SOURCE_TRIALS="$trials" swift test --scratch-path .build-source-merge \
    --filter "SourceMergeTests/randomSources" 2>&1 | grep -E "✘|passed|failed" | tail -20

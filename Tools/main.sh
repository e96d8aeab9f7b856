#!/usr/bin/env bash
# The main job: installs what is missing, builds the CLI in release, generates 120 days of
# minute-cadence energy and activities ending today, imports them (with a progress bar on a
# terminal) into the default store, and prints today's curve, this weekday's 70-day average,
# a 12-week activity heatmap, the store's contents and its integrity check.
#
# Environment: TRENDSTORE_STORE (store directory), TRENDSTORE_TZ (zone, default America/Los_Angeles).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Tools/setup.sh
swift build -c release --product trendstore
bin=.build/release/trendstore
store="${TRENDSTORE_STORE:-${XDG_DATA_HOME:-$HOME/.local/share}/trendstore/default}"
zone="${TRENDSTORE_TZ:-America/Los_Angeles}"
today=$(TZ="$zone" date +%F)
mkdir -p .build/demo
csv=".build/demo/generated-120-days-to-$today.csv"

# A demo store left by a development build before 1.0 cannot be opened (CHANGELOG.md): set it
# aside, never delete it, and let the demo make a new one.
if [ -e "$store/data.mdb" ] \
    && [[ "$("$bin" info --store "$store" 2>&1 || true)" == *"development build of TrendStore"* ]]; then
    aside="$store.development-$(date +%Y%m%d-%H%M%S)"
    mv "$store" "$aside"
    echo "== $store was written by a development build before 1.0: moved to $aside (export its samples with that build); the demo makes a new store"
fi
echo "== generate 120 days ending $today in $zone"
"$bin" generate --days 120 --seed 42 --tz "$zone" --end "$today" --out "$csv"
echo "== import into $store"
"$bin" import "$csv" --store "$store" --tz "$zone"
echo "== today's curve"
"$bin" query today --series activeEnergy --store "$store" --tz "$zone"
echo "== this weekday's average over the last 70 days"
"$bin" query weekday-average --series activeEnergy --store "$store" --tz "$zone"
echo "== activities, last 12 weeks"
"$bin" query heatmap --series Hike,Ride,Run,Swim,Walk --from "$(date -d "$today -83 days" +%F)" --to "$today" \
    --store "$store" --tz "$zone"
echo "== store"
"$bin" info --store "$store"
"$bin" verify --store "$store"

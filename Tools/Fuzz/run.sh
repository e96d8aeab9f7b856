#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for a bounded time.
#
#   bash Tools/Fuzz/run.sh [seconds per target, default 60]
#
# storage: the decoders of stored blocks, rollup rows of both layouts, hour summaries,
#          cached payloads, and an encrypted store's opened entries (without the Encryption
#          trait's cipher, which the tests drive with random sealed values).
# import:  the CSV, NDJSON, Apple Health, Strava and legacy cache readers, timestamps, numbers.
# write:   the write path: random batches (any finite double, mixed magnitudes) written through
#          the engine, read back bit for bit, the store verified.
# Inputs that crash are written to .build-fuzz/<target>/ and should become regression tests
# with their bytes under Fixtures/fuzz/. Seeds come from Fixtures/.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Tools/setup.sh
seconds="${1:-60}"
out=.build-fuzz
mkdir -p "$out/storage" "$out/import" "$out/write" "$out/corpus-storage" "$out/corpus-import" \
    "$out/corpus-write"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -package-name trendstore)
export SWIFT_BACKTRACE=enable=no  # the runtime's backtracer would hang on the fuzzer's crash reports

clang -c -O2 -g -fsanitize=address -I Sources/CCRC32C/include -o "$out/crc32c.o" \
    Sources/CCRC32C/crc32c.c
crc=(-I Sources/CCRC32C/include "$out/crc32c.o")
swiftc "${flags[@]}" -emit-module -emit-library -static -module-name LMDB -I Sources/CLMDB \
    -emit-module-path "$out/LMDB.swiftmodule" -o "$out/libLMDB.a" Sources/LMDB/*.swift
swiftc "${flags[@]}" -module-name FuzzStorage -I "$out" -I Sources/CLMDB -I Sources/CZlibSystem \
    $(find Sources/TrendStore -name '*.swift') Tools/Fuzz/StorageDecoders.swift "$out/libLMDB.a" "${crc[@]}" -llmdb -lz \
    -o "$out/fuzz-storage"
swiftc "${flags[@]}" -module-name FuzzWrite -I "$out" -I Sources/CLMDB -I Sources/CZlibSystem \
    $(find Sources/TrendStore -name '*.swift') Tools/Fuzz/WritePath.swift "$out/libLMDB.a" "${crc[@]}" -llmdb -lz \
    -o "$out/fuzz-write"
swiftc "${flags[@]}" -emit-module -emit-library -static -module-name TrendStore -I "$out" -I Sources/CLMDB -I Sources/CZlibSystem \
    -emit-module-path "$out/TrendStore.swiftmodule" -o "$out/libTrendStore.a" -I Sources/CCRC32C/include \
    $(find Sources/TrendStore -name '*.swift')
swiftc "${flags[@]}" -module-name FuzzImport -I "$out" -I Sources/CLMDB -I Sources/CZlibSystem \
    $(find Sources/TrendStoreImport -name '*.swift' ! -name Importer.swift ! -name 'Importer+AppleHealth.swift' \
        ! -name 'Importer+Priorities.swift' \
        ! -name AppleHealthArchive.swift \
        ! -name ZipEntrySource.swift) \
    Tools/Fuzz/ImportParsers.swift "$out/libTrendStore.a" "$out/libLMDB.a" "${crc[@]}" -llmdb -lz \
    -o "$out/fuzz-import"

find Fixtures -type f \( -name '*.csv' -o -name '*.ndjson' -o -name '*.json' -o -name '*.xml' \) -size -100k \
    -exec cp {} "$out/corpus-import/" \;
for target in storage import write; do
    echo "== fuzz-$target for $seconds s"
    (cd "$out/$target" && ../fuzz-$target -max_total_time="$seconds" -print_final_stats=1 ../corpus-$target 2>&1 \
        | grep -E "stat::number_of_executed_units|stat::peak_rss_mb|ERROR|Test unit written|Done" || true)
done
ls "$out"/storage/crash-* "$out"/import/crash-* "$out"/write/crash-* 2>/dev/null && { echo "crashes found"; exit 1; } || echo "no crashes"

// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// The benchmark harness and its SQLite dependency are opt-in: `TRENDSTORE_BENCHMARKS=1 swift
/// build --product trendstore-benchmarks`. Without it nothing needs `libsqlite3-dev`.
let withBenchmarks = ProcessInfo.processInfo.environment["TRENDSTORE_BENCHMARKS"] != nil

// LMDB and zlib. On Linux, Debian's liblmdb-dev and zlib1g-dev through pkg-config (what CI
// builds). On Apple platforms, whose SDKs have zlib but neither LMDB nor pkg-config, LMDB's C
// source from tannerdsilva/CLMDB (LMDB 0.9.31 as released, nothing else; QuickLMDB builds on it),
// whose module is named CLMDB as this package's Linux one; zlib from the SDK.
#if os(Linux)
    let lmdbPackages: [Package.Dependency] = []
    let lmdbLibrary: Target.Dependency = "CLMDB"
    let cLibraryTargets: [Target] = [
        .systemLibrary(
            name: "CLMDB", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"]), .brew(["lmdb"])]),
        .systemLibrary(
            name: "CZlibSystem", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
    ]
#else
    let lmdbPackages: [Package.Dependency] = [
        .package(url: "https://github.com/tannerdsilva/CLMDB", from: "0.9.31")
    ]
    let lmdbLibrary: Target.Dependency = .product(name: "CLMDB", package: "CLMDB")
    let cLibraryTargets: [Target] = [.systemLibrary(name: "CZlibSystem")]
#endif

let package = Package(
    name: "TrendStore",
    // Synchronization.Mutex, used throughout, needs these releases.
    platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "TrendStore", targets: ["TrendStore"]),
        .library(name: "TrendStoreImport", targets: ["TrendStoreImport"]),
        .library(name: "TrendStoreGenerator", targets: ["TrendStoreGenerator"]),
        .library(name: "TrendStoreTesting", targets: ["TrendStoreTesting"]),
        .executable(name: "trendstore", targets: ["trendstore"]),
        .executable(name: "host-app-example", targets: ["HostApp"]),
        .executable(name: "sync-example", targets: ["SyncDevices"]),
    ],
    traits: [
        .trait(
            name: "Encryption",
            description:
                "Encryption at rest (StoreOptions.encryptionKey), with swift-crypto's AES-GCM and scrypt; without it swift-crypto is not built."
        ),
        .default(enabledTraits: ["Encryption"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ] + lmdbPackages,
    targets: [
        .target(name: "CCRC32C"),
        .target(name: "CAllocatorTuning"),
        .target(name: "CParentDeath"),
        .target(name: "LMDB", dependencies: [lmdbLibrary]),
    ] + cLibraryTargets + [
        .target(
            name: "TrendStore",
            dependencies: [
                "LMDB", "CZlibSystem", "CCRC32C",
                .product(
                    name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Encryption"])),
                .product(
                    name: "_CryptoExtras", package: "swift-crypto",
                    condition: .when(traits: ["Encryption"])),
            ]),
        .target(name: "TrendStoreImport", dependencies: ["TrendStore", "ZIPFoundation"]),
        .target(name: "TrendStoreGenerator", dependencies: ["TrendStore"]),
        .target(name: "TrendStoreTesting", dependencies: ["TrendStore"]),
        .executableTarget(
            name: "trendstore",
            dependencies: [
                "TrendStore",
                "TrendStoreImport",
                "TrendStoreGenerator",
                "CAllocatorTuning",
                "CParentDeath",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/trendstore"
        ),
        .executableTarget(name: "HostApp", dependencies: ["TrendStore"], path: "Examples/HostApp"),
        .executableTarget(
            name: "SyncDevices", dependencies: ["TrendStore"], path: "Examples/SyncDevices"),
        // A second process the tests drive line by line (their commits between its reads).
        .executableTarget(
            name: "trendstore-test-peer", dependencies: ["TrendStore", "LMDB"], path: "Tests/Peer"),
        .target(
            name: "TestSupport",
            dependencies: ["TrendStore", "TrendStoreImport", "TrendStoreGenerator", "TrendStoreTesting"],
            path: "Tests/TestSupport"),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB"]),
        .testTarget(
            name: "TrendStoreTests",
            dependencies: ["TrendStore", "TrendStoreImport", "TrendStoreGenerator", "TestSupport"]),
        // The `trendstore` tool run as a user runs it: exit codes, messages, files, keys.
        .testTarget(
            name: "TrendStoreCLITests",
            dependencies: ["trendstore", "TrendStore", "TrendStoreTesting", "LMDB", "TestSupport"]),
        .testTarget(
            name: "TrendStoreImportTests",
            dependencies: [
                "TrendStoreImport", "TrendStore", "TrendStoreGenerator", "TestSupport", "ZIPFoundation",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

if withBenchmarks {
    package.products.append(
        .executable(name: "trendstore-benchmarks", targets: ["trendstore-benchmarks"]))
    package.targets += [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .executableTarget(
            name: "trendstore-benchmarks",
            dependencies: [
                "TrendStore",
                "TrendStoreImport",
                "TrendStoreGenerator",
                "CSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/Benchmarks/TrendStoreBenchmarks"
        ),
    ]
}

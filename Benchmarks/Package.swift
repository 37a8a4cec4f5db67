// swift-tools-version:6.1
import PackageDescription

// The benchmark suite, a package of its own so that the main build and `swift test` never build it.
// Run from this directory: swift package benchmark
// Check against the stored thresholds: swift package benchmark thresholds check
let package = Package(
    name: "CheckoutBenchmarks",
    dependencies: [
        .package(name: "Checkout", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        // package-benchmark finds suites under Benchmarks/NAME.
        .executableTarget(
            name: "CheckoutBenchmarks",
            dependencies: [
                .product(name: "CheckoutKit", package: "Checkout"),
                .product(name: "CheckoutWorkloads", package: "Checkout"),
                .product(name: "Benchmark", package: "benchmark"),
                "FoundationPeers"
            ],
            path: "Benchmarks/CheckoutBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // The code a Foundation user would write, shared by the suite and the whole-process peers.
        .target(name: "FoundationPeers"),
        // Whole-process peers for compare.sh.
        .executableTarget(name: "FoundationCartPeer", dependencies: ["FoundationPeers"]),
        .executableTarget(name: "FoundationPlistPeer", dependencies: ["FoundationPeers"])
    ]
)

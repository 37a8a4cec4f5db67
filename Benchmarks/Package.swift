// swift-tools-version:6.0
import PackageDescription

// The benchmark suite, a package of its own so that `swift test` never builds it.
// Run: swift run -c release --package-path Benchmarks CheckoutBenchmarks
let package = Package(
    name: "CheckoutBenchmarks",
    dependencies: [
        .package(name: "Checkout", path: ".."),
        .package(url: "https://github.com/google/swift-benchmark", from: "0.1.2")
    ],
    targets: [
        .executableTarget(
            name: "CheckoutBenchmarks",
            dependencies: [
                .product(name: "CheckoutKit", package: "Checkout"),
                .product(name: "Benchmark", package: "swift-benchmark"),
                "FoundationPeers"
            ]),
        // The code a Foundation user would write, shared by the suite and the whole-process peers.
        .target(name: "FoundationPeers"),
        // Whole-process peers for compare.sh.
        .executableTarget(name: "FoundationCartPeer", dependencies: ["FoundationPeers"]),
        .executableTarget(name: "FoundationPlistPeer", dependencies: ["FoundationPeers"])
    ]
)

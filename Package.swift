// swift-tools-version:6.0
import PackageDescription

// Data flows one way: plist bytes → PlistReader → Promotions (definitions, diagnostics, RuleSet)
// → Pricing ← carts (CheckoutFiles, on StrictJSON) → receipts → the `checkout` command.
let package = Package(
    name: "Checkout",
    products: [
        .executable(name: "checkout", targets: ["checkout"]),
        // The layers as a library, for Benchmarks/ (its own package, out of the main build).
        .library(name: "CheckoutKit", targets: ["PlistReader", "Promotions", "Pricing", "StrictJSON", "CheckoutFiles", "Workloads"]),
        // The fuzz targets' bodies, for Fuzz/ (libFuzzer) and for replaying corpora in the tests.
        .library(name: "FuzzHarness", targets: ["FuzzHarness"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // libxml2, seen only by PlistReader.
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        // Growable buffers of plain values for the hot paths (the reader's nodes, receipt bytes).
        .target(name: "Buffers"),
        .testTarget(name: "BuffersTests", dependencies: ["Buffers"]),
        .target(name: "PlistReader", dependencies: ["CLibXML2", "Buffers"]),
        .testTarget(name: "PlistReaderTests", dependencies: ["PlistReader"]),
        // The pricing core: the standard library only.
        .target(name: "Pricing"),
        .testTarget(name: "PricingTests", dependencies: ["Pricing", "Workloads"]),
        // Promotion files: plist values → promotion definitions + diagnostics.
        .target(name: "Promotions", dependencies: ["PlistReader", "Pricing"]),
        .testTarget(name: "PromotionsTests", dependencies: ["Promotions"]),
        // Strict JSON reading and writing, for catalogs, carts, receipts and reports.
        .target(name: "StrictJSON"),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        // The files users hand us and get back: catalogs, carts, batches, receipts.
        .target(name: "CheckoutFiles", dependencies: ["Pricing", "Promotions", "StrictJSON", "PlistReader", "Buffers"]),
        .testTarget(name: "CheckoutFilesTests", dependencies: ["CheckoutFiles", "Workloads"]),
        // Generated catalogs, promotions and carts for `checkout bench` and Benchmarks/.
        .target(name: "Workloads", dependencies: ["CheckoutFiles", "Pricing", "Promotions"]),
        // The shopping flow: its ports, card checks, the simulated gateway, the purchase.
        .target(name: "Shopping", dependencies: ["Pricing", "CheckoutFiles"]),
        .testTarget(name: "ShoppingTests", dependencies: ["Shopping"]),
        // MVP presenters of the four screens: no terminal code.
        .target(name: "Presenters", dependencies: ["Shopping", "Pricing"]),
        .testTarget(name: "PresentersTests", dependencies: ["Presenters"]),
        // The cart and orders in SQLite, through GRDB.
        .target(name: "ShopStore", dependencies: ["Shopping", "Pricing", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ShopStoreTests", dependencies: ["ShopStore"]),
        .target(name: "FuzzHarness", dependencies: ["CheckoutFiles", "PlistReader", "Pricing", "Promotions"]),
        .testTarget(name: "FuzzHarnessTests", dependencies: ["FuzzHarness"]),
        // Diagnostics as CI systems read them.
        .target(name: "DiagnosticReporters", dependencies: ["Promotions", "StrictJSON"]),
        .testTarget(name: "DiagnosticReportersTests", dependencies: ["DiagnosticReporters"]),
        // The command line: parse arguments, compose the layers, render.
        .executableTarget(
            name: "checkout",
            dependencies: [
                "CheckoutFiles", "DiagnosticReporters", "PlistReader", "Pricing", "Promotions", "StrictJSON", "Workloads",
                "Shopping", "Presenters", "ShopStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "CheckoutCLITests", dependencies: ["checkout"]),
        // Pricing invariants over thousands of random catalogs, rule sets and carts.
        .testTarget(
            name: "PropertyTests",
            dependencies: [
                "CheckoutFiles", "Pricing", "Promotions", "StrictJSON", "Workloads",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
    ]
)

// swift-tools-version:6.2
import PackageDescription

// Data flows one way: plist bytes → PlistReader → Promotions (definitions, diagnostics) → the
// compiled RuleSet in Pricing ← carts (InputFiles, on StrictJSON) → receipts (Receipts) → the
// `checkout` command. Platform is the one place that calls the C library.
let package = Package(
    name: "Checkout",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "checkout", targets: ["checkout"]),
        // The layers as a library, for Benchmarks/ (its own package, out of the main build).
        .library(
            name: "CheckoutKit",
            targets: [
                "PlistReader", "Promotions", "Pricing", "Explanations", "StrictJSON", "InputFiles", "Receipts",
                "BatchPricing", "Platform", "Workloads", "Suggestions"
            ]),
        // The fuzz targets' bodies, for Fuzz/ (libFuzzer) and for replaying corpora in the tests.
        .library(name: "FuzzHarness", targets: ["FuzzHarness"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0")
    ],
    targets: [
        // System calls (file descriptors, mmap, clocks, processor count, terminals): the only code
        // that imports the C library.
        .target(name: "Platform"),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        // libxml2, seen only by PlistReader.
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        // Growable buffers of plain values for the hot paths (the reader's nodes, receipt bytes).
        .target(name: "Buffers"),
        .testTarget(name: "BuffersTests", dependencies: ["Buffers"]),
        .target(name: "PlistReader", dependencies: ["CLibXML2", "Buffers", "Platform"]),
        .testTarget(name: "PlistReaderTests", dependencies: ["PlistReader"]),
        // "Did you mean" for codes, keys and command names: the standard library only.
        .target(name: "Suggestions"),
        .testTarget(name: "SuggestionsTests", dependencies: ["Suggestions"]),
        // The pricing core: the standard library only.
        .target(name: "Pricing"),
        .testTarget(name: "PricingTests", dependencies: ["Pricing", "Workloads", "ReferenceModels"]),
        // SPEC §10–§12 written the plain way (units expanded, everything recomputed), for differential tests.
        .target(name: "ReferenceModels", dependencies: ["Pricing", "Workloads"], path: "Tests/ReferenceModels"),
        // Promotion files: plist values → promotion definitions + diagnostics.
        .target(name: "Promotions", dependencies: ["PlistReader", "Pricing", "Platform", "Suggestions"]),
        .testTarget(name: "PromotionsTests", dependencies: ["Promotions", "Workloads", "ReferenceModels"]),
        // Strict JSON reading and writing, for catalogs, carts and reports.
        .target(name: "StrictJSON"),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        // Why each promotion did or did not apply to a cart, and near-miss hints: on the pricing core only.
        .target(name: "Explanations", dependencies: ["Pricing"]),
        .testTarget(name: "ExplanationsTests", dependencies: ["Explanations", "ReferenceModels", "Workloads"]),
        // Receipts as JSON (the one writer) and as text.
        .target(name: "Receipts", dependencies: ["Pricing", "Explanations", "StrictJSON", "Buffers"]),
        .testTarget(
            name: "ReceiptsTests", dependencies: ["Receipts", "InputFiles", "Promotions", "Workloads", "StrictJSON"]),
        // The files users hand us: catalogs, carts, the promotions compiled for pricing, the
        // built-in shipped store.
        .target(
            name: "InputFiles",
            dependencies: ["Pricing", "Promotions", "StrictJSON", "PlistReader", "Platform", "Suggestions"]),
        .testTarget(name: "InputFilesTests", dependencies: ["InputFiles", "Workloads"]),
        // What a promotions change does to real carts: the tally and the report (text, JSON, markdown).
        .target(name: "PromotionDiff", dependencies: ["Pricing", "StrictJSON"]),
        .testTarget(name: "PromotionDiffTests", dependencies: ["PromotionDiff", "ReferenceModels", "Workloads"]),
        // Pricing runs: one cart, several, batches in parallel blocks; diffs of two promotion files.
        .target(
            name: "BatchPricing",
            dependencies: [
                "InputFiles", "Receipts", "Explanations", "PromotionDiff", "Pricing", "Platform", "Buffers",
                "PlistReader"
            ]),
        .testTarget(
            name: "BatchPricingTests",
            dependencies: ["BatchPricing", "Workloads", "InputFiles", "Receipts", "Promotions"]),
        // Generated catalogs, promotions and carts for `checkout bench` and Benchmarks/.
        .target(
            name: "Workloads",
            dependencies: ["InputFiles", "BatchPricing", "Receipts", "Pricing", "Promotions", "Platform", "StrictJSON"]),
        .testTarget(name: "WorkloadsTests", dependencies: ["Workloads"]),
        // The shopping flow: its ports, card checks, the simulated gateway, the purchase.
        .target(name: "Shopping", dependencies: ["Pricing", "Explanations", "Receipts", "StrictJSON", "Suggestions"]),
        .testTarget(name: "ShoppingTests", dependencies: ["Shopping"]),
        // MVP presenters of the four screens and their navigation: no terminal code.
        .target(name: "Presenters", dependencies: ["Shopping", "Pricing", "Explanations", "Receipts"]),
        .testTarget(name: "PresentersTests", dependencies: ["Presenters", "Explanations"]),
        // The cart and orders in SQLite, through GRDB.
        .target(
            name: "ShopStore",
            dependencies: ["Shopping", "Pricing", "Platform", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ShopStoreTests", dependencies: ["ShopStore"]),
        .target(name: "FuzzHarness", dependencies: ["InputFiles", "PlistReader", "Pricing", "Promotions"]),
        .testTarget(name: "FuzzHarnessTests", dependencies: ["FuzzHarness"]),
        // Diagnostics as CI systems read them.
        .target(name: "DiagnosticReporters", dependencies: ["Promotions", "StrictJSON"]),
        .testTarget(name: "DiagnosticReportersTests", dependencies: ["DiagnosticReporters"]),
        // The command line: parse arguments, compose the layers, render.
        .executableTarget(
            name: "checkout",
            dependencies: [
                "InputFiles", "BatchPricing", "Receipts", "Explanations", "PromotionDiff", "DiagnosticReporters",
                "PlistReader", "Pricing", "Promotions", "Suggestions",
                "StrictJSON", "Workloads", "Platform", "Shopping", "Presenters", "ShopStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            // Release builds link the Swift runtime and Foundation in: a process then starts in about
            // 5 ms instead of 11 (no symbol lookups across two dozen shared libraries), a quarter of
            // pricing a 1,000,000-line cart and most of pricing a small one. (Debug builds link them
            // dynamically: the test bundles, which link this target's code, need XCTest and Testing.)
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-static-stdlib", "-Xlinker", "--start-group", "-lFoundation", "-lFoundationEssentials",
                        "-lFoundationInternationalization", "-lCoreFoundation", "-l_FoundationICU",
                        "-l_FoundationCShims",
                        "-l_FoundationCollections", "-Xlinker", "--end-group"
                    ], .when(configuration: .release))
            ]),
        .testTarget(name: "CheckoutCLITests", dependencies: ["checkout"], exclude: ["Fixtures"]),
        // Pricing invariants over thousands of random catalogs, rule sets and carts.
        .testTarget(
            name: "PropertyTests",
            dependencies: [
                "InputFiles", "BatchPricing", "Receipts", "Pricing", "Promotions", "StrictJSON", "Workloads",
                "Platform",
                .product(name: "PropertyBased", package: "swift-property-based")
            ])
    ]
)

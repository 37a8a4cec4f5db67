// swift-tools-version:6.2
import PackageDescription

// Data flows one way: plist bytes → PlistReader → Promotions (definitions, diagnostics) → the
// compiled RuleSet in Pricing ← carts (InputFiles, on StrictJSON) → receipts (Receipts) → the
// application (runs, batches, the shopping service and its store) → delivery (the `checkout`
// command, presenters, reporters). docs/architecture.md draws it.
//
// Sources/ holds one folder per layer; a module depends only on modules of its own layer or below:
//   Domain          Pricing (the engine and the promotion kinds), Explanations, Suggestions
//   Infrastructure  Platform (system calls), Buffers, CLibXML2
//   Formats         PlistReader, StrictJSON, Promotions, InputFiles, Receipts
//   Application     BatchPricing (rules, runs, batches), PromotionDiff, Shopping, ShopStore, CheckoutKit
//   Delivery        checkout (the command line), Presenters, Reporters
//   Support         generators and fuzz bodies, outside the library: Workloads, SeededRandom, FuzzHarness

/// `Sources/<layer>/<module>`.
func layer(_ name: String, _ module: String) -> String { "Sources/\(name)/\(module)" }

let package = Package(
    name: "Checkout",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "checkout", targets: ["checkout"]),
        // The engine to embed in a Swift server or app: the layers' public API, without generators.
        .library(name: "CheckoutKit", targets: ["CheckoutKit"]),
        // Generated catalogs, promotions and carts, for Benchmarks/ (its own package).
        .library(name: "CheckoutWorkloads", targets: ["Workloads"]),
        // The fuzz targets' bodies, for Fuzz/ (libFuzzer) and for replaying corpora in the tests.
        .library(name: "FuzzHarness", targets: ["FuzzHarness"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `swift package generate-documentation --target CheckoutKit` (the DocC catalog).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")
    ],
    targets: [
        // MARK: Domain: the standard library only.

        // The pricing core: money, catalogs, promotions and their kinds (Kinds/), the compiled rule
        // set, the engine, receipts.
        .target(name: "Pricing", path: layer("Domain", "Pricing")),
        .testTarget(name: "PricingTests", dependencies: ["Pricing", "SeededRandom", "ReferenceModels"]),
        // Why each promotion did or did not apply to a cart, and near-miss hints.
        .target(name: "Explanations", dependencies: ["Pricing"], path: layer("Domain", "Explanations")),
        .testTarget(name: "ExplanationsTests", dependencies: ["Explanations", "ReferenceModels", "SeededRandom"]),
        // "Did you mean": codes, keys, attributes, command names.
        .target(name: "Suggestions", path: layer("Domain", "Suggestions")),
        .testTarget(name: "SuggestionsTests", dependencies: ["Suggestions", "SeededRandom"]),

        // MARK: Infrastructure

        // System calls (file descriptors, mmap, clocks, processor count, terminals, locks): the only
        // code that imports the C library.
        .target(name: "Platform", path: layer("Infrastructure", "Platform")),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        // Growable buffers of plain values for the hot paths (the reader's nodes, receipt bytes).
        .target(name: "Buffers", path: layer("Infrastructure", "Buffers")),
        .testTarget(name: "BuffersTests", dependencies: ["Buffers"]),
        // libxml2, seen only by PlistReader.
        .systemLibrary(
            name: "CLibXML2", path: layer("Infrastructure", "CLibXML2"), pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),

        // MARK: Formats

        // Property lists, read safely and fast; no C pointer leaves it.
        .target(
            name: "PlistReader", dependencies: ["CLibXML2", "Buffers", "Platform"],
            path: layer("Formats", "PlistReader")),
        .testTarget(name: "PlistReaderTests", dependencies: ["PlistReader", "SeededRandom"]),
        // Strict JSON reading and writing, for catalogs, carts and reports.
        .target(name: "StrictJSON", path: layer("Formats", "StrictJSON")),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        // Promotion files: plist values → promotion definitions + diagnostics.
        .target(
            name: "Promotions", dependencies: ["PlistReader", "Pricing", "Platform", "Suggestions"],
            path: layer("Formats", "Promotions")),
        .testTarget(
            name: "PromotionsTests", dependencies: ["Promotions", "SeededRandom", "ReferenceModels", "Workloads"]),
        // The files users hand us: catalogs, carts, batch lines.
        .target(
            name: "InputFiles", dependencies: ["Pricing", "StrictJSON", "Platform", "Suggestions"],
            path: layer("Formats", "InputFiles")),
        .testTarget(
            name: "InputFilesTests", dependencies: ["InputFiles", "BatchPricing", "SeededRandom", "Workloads"]),
        // Receipts as JSON (the one writer) and as text.
        .target(
            name: "Receipts", dependencies: ["Pricing", "Explanations", "StrictJSON", "Buffers"],
            path: layer("Formats", "Receipts")),
        .testTarget(
            name: "ReceiptsTests",
            dependencies: ["Receipts", "InputFiles", "BatchPricing", "Promotions", "Workloads", "StrictJSON"]),

        // MARK: Application

        // The rules loaded and compiled (from files or the built-in store), and the runs of `price`
        // and `diff`: one cart, several, batches in parallel blocks.
        .target(
            name: "BatchPricing",
            dependencies: [
                "InputFiles", "Promotions", "PlistReader", "Receipts", "Explanations", "PromotionDiff", "Pricing",
                "Platform", "Buffers"
            ],
            path: layer("Application", "BatchPricing")),
        .testTarget(
            name: "BatchPricingTests",
            dependencies: ["BatchPricing", "SeededRandom", "Workloads", "InputFiles", "Receipts", "Promotions"]),
        // What a promotions change does to real carts: the tally and the report.
        .target(
            name: "PromotionDiff", dependencies: ["Pricing", "StrictJSON"], path: layer("Application", "PromotionDiff")),
        .testTarget(name: "PromotionDiffTests", dependencies: ["PromotionDiff", "ReferenceModels", "SeededRandom"]),
        // The shopping flow: its ports, card checks, the simulated gateway, the purchase.
        .target(
            name: "Shopping", dependencies: ["Pricing", "Explanations", "Receipts", "StrictJSON", "Suggestions"],
            path: layer("Application", "Shopping")),
        .testTarget(name: "ShoppingTests", dependencies: ["Shopping"]),
        // The cart and orders in SQLite, through GRDB: records, migrations, the order locks.
        .target(
            name: "ShopStore",
            dependencies: ["Shopping", "Pricing", "Platform", .product(name: "GRDB", package: "GRDB.swift")],
            path: layer("Application", "ShopStore")),
        .testTarget(name: "ShopStoreTests", dependencies: ["ShopStore"]),
        // The engine as a library: the layers' public API, and pricing a cart in a few lines.
        .target(
            name: "CheckoutKit",
            dependencies: [
                "Pricing", "Explanations", "Promotions", "InputFiles", "Receipts", "StrictJSON", "BatchPricing",
                "PromotionDiff"
            ],
            path: layer("Application", "CheckoutKit")),
        .testTarget(name: "CheckoutKitTests", dependencies: ["CheckoutKit"]),

        // MARK: Delivery

        // MVP presenters of the four screens and their navigation: no terminal code.
        .target(
            name: "Presenters", dependencies: ["Shopping", "Pricing", "Explanations", "Receipts"],
            path: layer("Delivery", "Presenters")),
        .testTarget(name: "PresentersTests", dependencies: ["Presenters", "Explanations"]),
        // Diagnostics as CI systems read them, and orders as scripts read them.
        .target(
            name: "Reporters", dependencies: ["Promotions", "Shopping", "Pricing", "Receipts", "StrictJSON"],
            path: layer("Delivery", "Reporters")),
        .testTarget(name: "ReportersTests", dependencies: ["Reporters"]),
        // The command line: parse arguments, compose the layers, render.
        .executableTarget(
            name: "checkout",
            dependencies: [
                "InputFiles", "BatchPricing", "Receipts", "Explanations", "PromotionDiff", "Reporters",
                "PlistReader", "Pricing", "Promotions", "Suggestions",
                "StrictJSON", "Workloads", "Platform", "Shopping", "Presenters", "ShopStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ],
            path: layer("Delivery", "checkout"),
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

        // MARK: Support, outside the library

        // A seedable random generator: the same seed gives the same workload everywhere.
        .target(name: "SeededRandom", path: layer("Support", "SeededRandom")),
        // Generated catalogs, promotions and carts for `checkout bench` and Benchmarks/.
        .target(
            name: "Workloads",
            dependencies: [
                "SeededRandom", "InputFiles", "BatchPricing", "Receipts", "Pricing", "Promotions", "Platform",
                "StrictJSON"
            ],
            path: layer("Support", "Workloads")),
        .testTarget(name: "WorkloadsTests", dependencies: ["Workloads"]),
        .target(
            name: "FuzzHarness", dependencies: ["InputFiles", "PlistReader", "Pricing", "Promotions"],
            path: layer("Support", "FuzzHarness")),
        .testTarget(name: "FuzzHarnessTests", dependencies: ["FuzzHarness"]),
        // The contract written the plain way (units expanded, everything recomputed), for
        // differential tests.
        .target(name: "ReferenceModels", dependencies: ["Pricing", "SeededRandom"], path: "Tests/ReferenceModels"),
        // Pricing invariants over thousands of random catalogs, rule sets and carts.
        .testTarget(
            name: "PropertyTests",
            dependencies: [
                "InputFiles", "BatchPricing", "Receipts", "Pricing", "Promotions", "StrictJSON", "Workloads",
                "SeededRandom", "Platform",
                .product(name: "PropertyBased", package: "swift-property-based")
            ])
    ]
)

// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets, a package of their own (they need the fuzzer sanitizer to link).
// Build and run: Fuzz/run.sh SECONDS [TARGET...]
let package = Package(
    name: "CheckoutFuzz",
    dependencies: [.package(name: "Checkout", path: "..")],
    targets: ["FuzzPlistReader", "FuzzPromotions", "FuzzCart", "FuzzCatalog"].map { name in
        .executableTarget(name: name, dependencies: [.product(name: "FuzzHarness", package: "Checkout")])
    }
)

// swift-tools-version:6.2
import PackageDescription

// A Swift program that embeds the engine: it depends on CheckoutKit as a server or an app would
// (here by path; elsewhere by the repository's URL and a version).
let package = Package(
    name: "PriceACart",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Checkout", path: "../..")],
    targets: [
        .executableTarget(name: "PriceACart", dependencies: [.product(name: "CheckoutKit", package: "Checkout")])
    ]
)

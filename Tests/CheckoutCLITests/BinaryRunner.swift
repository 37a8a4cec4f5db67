import Foundation

/// Runs the built `checkout` binary, as a user's shell or CI would.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The package root, from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The directory holding the built products, next to the test bundle.
let productsDirectory: URL = {
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
}()

let checkoutBinary = productsDirectory.appendingPathComponent("checkout")

@discardableResult
func checkout(
    _ arguments: [String], stdin: String? = nil, in directory: URL = packageRoot, environment: [String: String] = [:]
) throws -> Run {
    // Output goes to files, so that a large output can never block the child.
    try start(arguments, stdin: stdin, environment: environment, in: directory).wait()
}

/// A fresh temporary directory with the given files.
func temporaryDirectory(_ files: [String: String] = [:]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (name, content) in files {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(content.utf8).write(to: file)
    }
    return url
}

/// A JSON document's member, for assertions on receipts.
func json(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
}

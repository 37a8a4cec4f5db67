import FuzzHarness
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every seed and every input that ever crashed a fuzz target, through the targets' bodies.
@Suite("Fuzz corpora replayed")
struct CorpusReplayTests {
    static let fuzz: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        while let last = parts.popLast(), last != "Tests" {}
        return parts.joined(separator: "/") + "/Fuzz"
    }()

    static func files(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(directory + "/" + name) }
        }
        return names.sorted()
    }

    static func contents(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[..<count])
        }
    }

    @Test("plist reader", arguments: ["Corpus", "Regressions"])
    func plistReader(set: String) {
        let inputs = Self.files("\(Self.fuzz)/\(set)/plist")
        if set == "Corpus" { #expect(inputs.count >= 5) }
        for path in inputs { Self.contents(path).withUnsafeBytes { FuzzHarness.plistReader($0) } }
    }

    @Test("promotion decoder", arguments: ["Corpus", "Regressions"])
    func promotions(set: String) {
        let inputs = Self.files("\(Self.fuzz)/\(set)/promotions")
        if set == "Corpus" { #expect(inputs.count >= 5) }
        for path in inputs { Self.contents(path).withUnsafeBytes { FuzzHarness.promotions($0) } }
    }

    @Test("catalog readers", arguments: ["Corpus", "Regressions"])
    func catalog(set: String) {
        let inputs = Self.files("\(Self.fuzz)/\(set)/catalog")
        if set == "Corpus" { #expect(inputs.count >= 8) }
        for path in inputs { Self.contents(path).withUnsafeBytes { FuzzHarness.catalog($0) } }
    }

    @Test("cart readers", arguments: ["Corpus", "Regressions"])
    func cart(set: String) {
        let inputs = Self.files("\(Self.fuzz)/\(set)/cart")
        if set == "Corpus" { #expect(inputs.count >= 8) }
        for path in inputs { Self.contents(path).withUnsafeBytes { FuzzHarness.cart($0) } }
    }
}

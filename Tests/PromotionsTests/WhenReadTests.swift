import Platform
import PlistReader
import Pricing
import Testing

@testable import Promotions

/// `whenRead` tells a caller the moment a file's bytes are parsed, so that it can start other work
/// on the core the merging of two halves leaves idle.
@Suite("Told when a file is read")
struct WhenReadTests {
    /// `count` cart promotions, one per line.
    func plist(_ count: Int, currencyAfter: String? = nil) -> [UInt8] {
        var lines = [#"<plist><dict><key>promotions</key><array>"#]
        for i in 0..<count {
            lines.append(
                "<dict><key>id</key><string>p\(i)</string><key>name</key><string>N</string><key>type</key><string>cart</string><key>percent</key><integer>5</integer></dict>"
            )
        }
        lines.append("</array>")
        if let currencyAfter { lines.append("<key>currency</key><string>\(currencyAfter)</string>") }
        lines.append("</dict></plist>")
        return Array(lines.joined(separator: "\n").utf8)
    }

    /// Loads `bytes` from a file, counting the calls of `whenRead` and the promotions already
    /// there when it was called (none: it is called before the file's findings are gathered).
    func load(_ bytes: [UInt8], halvingFrom: Int?) throws -> (calls: Int, file: PromotionFile, halves: Bool) {
        let path = "/tmp/checkout-when-read-\(Machine.monotonicNanoseconds()).plist"
        try FileSystem.write(bytes, to: path)
        defer { FileSystem.remove(path) }
        var calls = 0
        let reading = PromotionReading(
            secondThreadFrom: PromotionReading.default.secondThreadFrom, halvingFrom: halvingFrom)
        let file = try PromotionFile.load(
            contentsOf: path, checks: PromotionChecks(reading: reading), whenRead: { calls += 1 })
        return (calls, file, file.readInHalves)
    }

    @Test("once for a file read whole, and once for a file read in two halves")
    func once() throws {
        let whole = try load(plist(40), halvingFrom: nil)
        #expect(whole.calls == 1)
        #expect(!whole.halves)
        #expect(whole.file.promotions.count == 40)

        // Over a megabyte: decoded in parallel, so read in halves.
        let large = plist(10_000)
        #expect(large.count > 1 << 20)
        let halves = try load(large, halvingFrom: 0)
        #expect(halves.calls == 1)
        let readInHalves = halves.halves
        #expect(readInHalves)
        #expect(halves.file.promotions.count == 10_000)
    }

    @Test("once for a file read twice, its currency stated after its promotions")
    func onceForTwoPasses() throws {
        let loaded = try load(plist(10_000, currencyAfter: "JPY"), halvingFrom: 0)
        #expect(loaded.calls == 1)
        let currency = loaded.file.currency.code
        #expect(currency == "JPY")
        #expect(loaded.file.promotions.count == 10_000)
    }

    @Test("never for a file that cannot be opened")
    func neverUnreadable() {
        var calls = 0
        #expect(throws: PlistFileError.self) {
            _ = try PromotionFile.load(contentsOf: "/nonexistent/Promotions.plist", whenRead: { calls += 1 })
        }
        #expect(calls == 0)
    }
}

import Platform
import PlistReader
import Pricing
import Testing

@testable import Promotions

@Suite("Decoding on a second thread")
struct ParallelDecodingTests {
    /// Thousands of promotions, one in seven broken in a different way, with duplicate ids,
    /// unknown keys and elements that are not promotions.
    static func plist() -> String {
        var body = ""
        for i in 0..<3_000 {
            let id = i % 11 == 0 ? "dup\(i % 3)" : "p\(i)"
            switch i % 7 {
            case 0:
                body +=
                    "<dict><key>id</key><string>\(id)</string><key>name</key><string>N\(i)</string><key>type</key><string>combo</string><key>code</key><string>A</string><key>quantity</key><integer>2</integer><key>paid</key><integer>\(i % 3)</integer></dict>\n"
            case 1:
                body +=
                    "<dict><key>id</key><string>\(id)</string><key>name</key><string>N\(i)</string><key>type</key><string>bulk</string><key>codes</key><array><string>A</string><string>B</string></array><key>quantity</key><integer>3</integer><key>price</key><real>1.\(i % 1000)</real></dict>\n"
            case 2:
                body +=
                    "<dict><key>id</key><string>\(id)</string><key>name</key><string>N\(i)</string><key>type</key><string>cart</string><key>percent</key><real>\(i % 120).5</real><key>colour</key><true/></dict>\n"
            case 3: body += "<string>not a promotion \(i)</string>\n"
            case 4:
                body +=
                    "<dict><key>id</key><string>\(id)</string><key>type</key><string>bogo</string><key>code</key><string>A</string></dict>\n"
            case 5:
                body +=
                    "<dict><key>id</key><string>\(id)</string><key>name</key><string>N\(i)</string><key>type</key><string>amount</string><key>code</key><string>A</string><key>amount</key><string>0.25</string><key>end</key><date>2026-0\(1 + i % 9)-01T00:00:00Z</date></dict>\n"
            default:
                body +=
                    "<dict><key>name</key><string>N\(i)</string><key>type</key><string>percent</string><key>code</key><string>A</string><key>percent</key><integer>10</integer><key>percent</key><integer>20</integer></dict>\n"
            }
        }
        return "<plist><array>\n" + body + "</array></plist>"
    }

    @Test("a reading given up (the scanner met what libxml2 reads) leaves no decoding thread behind")
    func givenUpReadingEndsItsThread() throws {
        // A misspelt element after the first promotions: the scanner leaves the file to libxml2
        // once the decoding thread has started (on one line, so the file is not read in halves).
        let xml = Self.plist().split(separator: "\n").joined()
            .replacing("<string>not a promotion 10</string>", with: "<strin>x</strin>")
        let bytes = Array(xml.utf8)
        var checks = PromotionChecks(expiryInstant: try! Instant(rfc3339: "2026-05-01T00:00:00Z"))
        checks.reading = PromotionReading(secondThreadFrom: 0, halvingFrom: 0)
        var inline = checks
        inline.reading = .oneThread
        let expected = PromotionFile.load(bytes: bytes, name: "big.plist", checks: inline)
        #expect(expected.diagnostics.contains { $0.message.contains("unknown element <strin>") })
        let before = try threads()
        for _ in 0..<40 {
            let file = PromotionFile.load(bytes: bytes, name: "big.plist", checks: checks)
            #expect(file.diagnostics == expected.diagnostics)
        }
        // Each load given up left a thread waiting for promotions forever (40 more); the
        // dispatch pool itself keeps a few.
        #expect(try threads() - before < 10)
    }

    /// The threads of this process, from the kernel. (Not through Foundation: imported in one file,
    /// its `contains` would answer for `String.contains` in this module's other files.)
    private func threads() throws -> Int {
        let fd = try FileDescriptor.open(forReading: "/proc/self/status")
        defer { fd.close() }
        var bytes = [UInt8](repeating: 0, count: 16_384)
        let count = try bytes.withUnsafeMutableBytes { buffer throws(SystemError) in try fd.read(into: buffer) }
        let status = String(decoding: bytes[..<count], as: UTF8.self)
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }!
        return Int(line.dropFirst("Threads:".count).drop { $0 == " " || $0 == "\t" })!
    }

    @Test("gives exactly what decoding inline gives")
    func sameResult() {
        let bytes = Array(Self.plist().utf8)
        let checks = PromotionChecks(expiryInstant: try! Instant(rfc3339: "2026-05-01T00:00:00Z"))
        var inlineChecks = checks
        inlineChecks.reading = .oneThread
        var parallelChecks = checks
        parallelChecks.reading = PromotionReading(secondThreadFrom: 0, halvingFrom: PlistHalves.threshold)
        let inline = PromotionFile.load(bytes: bytes, name: "big.plist", checks: inlineChecks)
        let parallel = PromotionFile.load(bytes: bytes, name: "big.plist", checks: parallelChecks)
        #expect(inline.diagnostics.count > 2_000)
        #expect(inline.promotions.count > 500)
        #expect(parallel.diagnostics == inline.diagnostics)
        #expect(parallel.promotions == inline.promotions)
        #expect(parallel.entries == inline.entries)
        #expect(
            Set(inline.diagnostics.map(\.id)) == [
                "promotion.invalid-value", "promotion.unknown-key", "plist.structure", "promotion.unknown-type",
                "promotion.missing-key", "promotion.duplicate-id", "promotion.expired", "promotion.duplicate-key"
            ])
    }
}

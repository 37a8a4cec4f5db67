import Dispatch
import PlistReader
import Pricing
import Promotions
import Testing

@testable import Reporters

/// The text and JSON reports written as bytes (``ReportBytes``) against their plain forms: the
/// text report a `String` at a time, the JSON one through `JSONWriter`. Random diagnostics whose
/// texts hold every character either escapes or passes through.
@Suite("Reports written as bytes")
struct ReportBytesTests {
    /// Characters each escaping treats differently: quotes, backslashes, control characters, DEL,
    /// U+2028/U+2029 (escaped in JSON), other characters of U+2000…U+2FFF (same lead byte 0xE2,
    /// not escaped), and two-, three- and four-byte characters.
    static let pieces: [String] = [
        "a", "Z", "0", " ", "`", ":", "%", ",", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{8}", "\u{C}", "\u{1B}",
        "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}", "é", "€", "😀", "\u{2026}", "\u{2027}", "\u{2028}", "\u{2029}",
        "\u{202A}", "\u{202E}", "\u{2060}", "\u{2FFF}", "\u{E2}", "\r\n", "promotion", "did you mean `P0001`?"
    ]

    struct Random {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func text(upTo length: Int) -> String {
            (0..<next(length + 1)).map { _ in ReportBytesTests.pieces[next(ReportBytesTests.pieces.count)] }.joined()
        }

        mutating func location() -> PlistReader.SourceLocation {
            let sizes = [0, 1, 9, 10, 99, 12_345, Int(Int32.max), Int.max]
            return PlistReader.SourceLocation(line: sizes[next(sizes.count)] - next(2), column: next(200))
        }
    }

    /// Files read from a plist (so that they are real `PromotionFile`s), their diagnostics replaced
    /// by random ones, and files that could not be read.
    static func randomFiles(_ random: inout Random) -> [CheckedFile] {
        let base = PromotionFile.load(bytes: Array("<plist><array/></plist>".utf8), name: "base.plist")
        return (0..<random.next(4)).map { _ in
            if random.next(4) == 0 {
                return .unreadable(path: random.text(upTo: 6), reason: random.text(upTo: 6))
            }
            var file = base
            file.name = random.text(upTo: 8)
            file.diagnostics = (0..<random.next(40)).map { _ in
                let rules = DiagnosticRule.allCases
                var diagnostic = Diagnostic(
                    rules[random.next(rules.count)], random.text(upTo: 12), at: random.location(),
                    promotion: random.next(3) == 0 ? nil : random.text(upTo: 5))
                if random.next(2) == 0 { diagnostic.severity = random.next(2) == 0 ? .error : .warning }
                diagnostic.notes = (0..<random.next(3)).map { _ in
                    Diagnostic.Note(random.text(upTo: 8), at: random.location())
                }
                return diagnostic
            }
            return .read(file)
        }
    }

    @Test("text and JSON reports: the same bytes as their plain forms, on 3,000 random sets of files")
    func sameBytes() {
        var random = Random(state: 25)
        var diagnostics = 0
        for _ in 0..<3_000 {
            let files = Self.randomFiles(&random)
            diagnostics += files.reduce(0) { $0 + $1.diagnostics.count }
            #expect(JSONReporter.render(files) == JSONReporter.renderPlain(files))
            var plain = ""
            TextReporter.render(files) { plain += $0 }
            var bytes: [UInt8] = []
            TextReporter.render(files, bytesInto: { bytes.append(contentsOf: $0) })
            #expect(String(decoding: bytes, as: UTF8.self) == plain)
        }
        #expect(diagnostics > 40_000)
    }

    /// Files of up to 40,000 diagnostics (blocks of them are written on parts), and small ones.
    static func largeFiles(_ random: inout Random) -> [CheckedFile] {
        var files = randomFiles(&random)
        var large: [Diagnostic] = []
        while large.count < 2_000 + random.next(38_000) { large += randomFiles(&random).flatMap(\.diagnostics) }
        var file = PromotionFile.load(bytes: Array("<plist><array/></plist>".utf8), name: "large.plist")
        file.diagnostics = large
        files.insert(.read(file), at: random.next(files.count + 1))
        return files
    }

    @Test("large reports: the same bytes one after the other, on parts in any order, or at once")
    func parts() {
        let reversed = PartRunner(width: 1) { count, body in for part in (0..<count).reversed() { body(part) } }
        let atOnce = PartRunner(width: 2) { count, body in
            DispatchQueue.concurrentPerform(iterations: count, execute: body)
        }
        var random = Random(state: 7)
        for _ in 0..<6 {
            let files = Self.largeFiles(&random)
            let plain = JSONReporter.renderPlain(files)
            var text = ""
            TextReporter.render(files) { text += $0 }
            for parts in [nil, PartRunner.oneAfterAnother, reversed, atOnce] {
                var pieces = 0
                var bytes: [UInt8] = []
                JSONReporter.render(files, parts: parts) { chunk in
                    pieces += 1
                    bytes.append(contentsOf: chunk)
                }
                #expect(pieces > 1)
                #expect(String(decoding: bytes, as: UTF8.self) == plain)
                bytes = []
                TextReporter.render(files, parts: parts, bytesInto: { bytes.append(contentsOf: $0) })
                #expect(String(decoding: bytes, as: UTF8.self) == text)
            }
        }
    }

    @Test("numbers are written as String(n) writes them")
    func decimals() {
        for n in [0, 1, 9, 10, 99, 100, -1, -10, 1_234_567_890, Int.max, Int.min, Int(Int32.max)] {
            var bytes: [UInt8] = []
            var out = ReportBytes(chunk: 1) { bytes.append(contentsOf: $0) }
            out.append(decimal: n)
            out.finish()
            #expect(String(decoding: bytes, as: UTF8.self) == String(n))
        }
    }
}

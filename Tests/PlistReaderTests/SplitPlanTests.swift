import Testing

@testable import PlistReader

@Suite("Cutting a file for two parsers")
struct SplitPlanTests {
    @Test("line breaks are counted exactly, whatever the length and alignment")
    func lineBreaks() {
        var state: UInt64 = 1
        for length in [0, 1, 15, 16, 17, 255 * 16 - 1, 255 * 16, 255 * 16 + 17, 70_000] {
            let bytes = (0..<length).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1
                return (state >> 60) < 9 ? 0x0A : UInt8(truncatingIfNeeded: state >> 40)
            }
            for start in [0, 1, 7] where start <= length {
                let slice = Array(bytes[start...])
                let expected = slice.count { $0 == 0x0A }
                slice.withUnsafeBytes { #expect(countLineBreaks($0) == expected, "\(length) from \(start)") }
            }
        }
        // All line breaks: more than a lane's byte can count in one pass.
        let all = [UInt8](repeating: 0x0A, count: 100_000)
        all.withUnsafeBytes { #expect(countLineBreaks($0) == 100_000) }
    }

    @Test("the cut is at the start of the line where a <dict> follows a </dict>, nothing else between")
    func plan() {
        let text = Array("<array>\n<dict><key>a</key></dict> <dict/>\n</dict>\n\t <dict>\n</array>".utf8)
        let plan = text.withUnsafeBytes { SplitPlan.find(in: $0, at: 100) }
        // The first `</dict>` is followed by `<dict/>`, not `<dict>`; the second one counts.
        let close = text.indices.filter { text[$0...].starts(with: Array("</dict>\n".utf8)) }.first!
        #expect(plan == SplitPlan(firstEnd: 100 + close + 7, secondStart: 100 + close + 8))
        let oneLine = Array("</dict> <dict>".utf8)
        #expect(oneLine.withUnsafeBytes { SplitPlan.find(in: $0, at: 0) } == nil)
    }
}

import Testing

@testable import Receipts

/// Piped text receipts fit 80 columns by continuing lines, never by cutting them.
@Suite("Text that continues on the next line")
struct ReceiptWrapTests {
    @Test("lines break at spaces; a word longer than a line is split; nothing but the breaking spaces is lost")
    func wrap() {
        #expect(ReceiptText.wrap("abc defgh ij", 5) == ["abc", "defgh", "ij"])
        #expect(ReceiptText.wrap("  x abcdefghijk", 6, continuation: "  ") == ["  x", "  abcd", "  efgh", "  ijk"])
        // Indentation is kept on every line unless told otherwise; text that fits is as it was.
        #expect(ReceiptText.wrap("    one two three", 12) == ["    one two", "    three"])
        #expect(ReceiptText.wrap("short enough", 12) == ["short enough"])
        for width in 1...30 {
            let text = "Any 3 of shirts, hoodies and caps for 50 € (bundle, 6 units)"
            let lines = ReceiptText.wrap(text, width)
            #expect(lines.allSatisfy { $0.count <= width }, "\(width): \(lines)")
            #expect(lines.joined(separator: " ").split(separator: " ").joined() == text.split(separator: " ").joined())
        }
    }
}

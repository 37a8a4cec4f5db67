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

/// Text laid out by the columns it takes on a terminal: a Chinese, Japanese or Korean character, a
/// full-width form or an emoji takes two.
@Suite("Columns on a terminal")
struct ColumnTests {
    @Test("wide characters take two columns; accents, composed or not, one")
    func columns() {
        // T, then シ ャ ツ at two each.
        #expect("Tシャツ".columns == 7)
        #expect("Mug ☕".columns == 6)
        #expect("한글".columns == 4)
        #expect("ＡＢ".columns == 4)  // full-width Latin
        #expect("Casquette été".columns == 13)
        #expect("e\u{301}t\u{E9}".columns == 3)
        #expect("🎁 gift".columns == 7)
    }

    @Test("names are cut and padded by columns, so that the columns after them stay aligned")
    func fitAndPad() {
        // T + シ + ャ is 5 columns, and "…" the sixth; ツ would make 7.
        #expect(TextTable.fit("Tシャツ 日本製", 6) == "Tシャ…")
        #expect(TextTable.fit("Tシャツ", 7) == "Tシャツ")
        #expect(TextTable.pad("日本", 6) == "日本  ")
        var table = TextTable([.left, .right], stretchable: 0)
        table.add(["Tシャツ 日本製", "20.00 €"])
        table.add(["Mug", "7.50 €"])
        table.add(["Casquette été", "12.00 €"])
        #expect(table.render(width: nil) == ["Tシャツ 日本製  20.00 €", "Mug              7.50 €", "Casquette été   12.00 €"])
        // 14 + 2 + 7 = 23 columns in 18: the names' column gives 5 and keeps 9, "Tシャツ " (8) and "…".
        #expect(table.render(width: 18) == ["Tシャツ …  20.00 €", "Mug         7.50 €", "Casquett…  12.00 €"])
        // A wide word longer than a line is split by columns too.
        #expect(ReceiptText.wrap("日本製日本製", 5) == ["日本", "製日", "本製"])
    }

    @Test("a stretchable column narrower than four is never widened to fit: the next one gives way instead")
    func narrowColumnNotWidened() {
        // Customer "a" (1) + 2 + reference (30) + 2 + "12.00 €" (7) = 42 columns, to fit 39: the
        // customers' column cannot give (it was widened to 4, making it 45 and cutting the
        // reference by 6), so the reference gives 3 and keeps 27.
        var table = TextTable([.left, .left, .right], stretchable: 0, 1)
        table.add(["a", String(repeating: "r", count: 30), "12.00 €"])
        #expect(table.widths(fitting: 39) == [1, 27, 7])
        #expect(table.render(width: 39) == ["a  " + String(repeating: "r", count: 26) + "…  12.00 €"])
    }
}

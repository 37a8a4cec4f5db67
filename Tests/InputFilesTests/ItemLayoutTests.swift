import Pricing
import SeededRandom
import Testing
import Workloads

@testable import InputFiles

/// Items read through the layout learned from an earlier item must be exactly the items the
/// key-by-key path reads: the same cart or the same message, whatever the spelling.
@Suite("Items read through their learned layout")
struct ItemLayoutTests {
    static let catalog = CartReaderDifferentialTests.catalog
    static let codes = catalog.codes.bytes

    /// A layout learned from `item` (an item object with both keys, read by hand here: the values
    /// are the first string and the first run of digits after a colon).
    ///
    /// A layout's long pieces point into the document it was learned from, which a scan keeps
    /// alive; here the item's bytes are kept for the rest of the test run.
    static func layout(learnedFrom item: String) -> ItemLayout {
        let bytes = Array(item.utf8)
        let kept = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = kept.initialize(from: bytes)
        var layout = ItemLayout()
        do {
            let buffer = UnsafeBufferPointer(kept)
            let base = buffer.baseAddress!
            var values: [(Int, Int)] = []
            var i = 0
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: ":") {
                    var j = i + 1
                    while bytes[j] == 0x20 || bytes[j] == 0x0A || bytes[j] == 0x0D || bytes[j] == 0x09 { j += 1 }
                    var k = j + 1
                    if bytes[j] == UInt8(ascii: "\"") {
                        while bytes[k] != UInt8(ascii: "\"") { k += 1 }
                        k += 1
                    } else {
                        while bytes[k] >= 0x30 && bytes[k] <= 0x39 { k += 1 }
                    }
                    values.append((j, k))
                    i = k
                } else {
                    i += 1
                }
            }
            layout.learnItem(
                start: base, first: (base + values[0].0, base + values[0].1),
                second: (base + values[1].0, base + values[1].1), end: base + bytes.count,
                codeFirst: bytes[values[0].0] == UInt8(ascii: "\""))
        }
        return layout
    }

    /// What the layout reads at the start of `text`: the product, the quantity and the bytes taken.
    static func read(_ text: String, with layout: ItemLayout) -> (ScannedCode, Int64, Int)? {
        var layout = layout
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> (ScannedCode, Int64, Int)? in
            var cursor = Cursor(p: buffer.baseAddress!, end: buffer.baseAddress! + buffer.count)
            guard let (id, quantity) = layout.item(&cursor, codes) else {
                #expect(cursor.p == buffer.baseAddress!, "a refused item leaves the cursor where it was")
                return nil
            }
            return (id, quantity, cursor.p - buffer.baseAddress!)
        }
    }

    @Test("an indented CRLF item with the quantity first teaches the next items")
    func learnsIndentedItems() {
        let layout = Self.layout(learnedFrom: "{\r\n      \"quantity\": 4,\r\n      \"code\": \"MUG\"\r\n    }")
        #expect(layout.head.count == 21)  // {␍␊ + 6 spaces + "quantity": + space
        #expect(layout.middle.count == 17)  // ,␍␊ + 6 spaces + "code": + space
        #expect(layout.tail.count == 7)  // ␍␊ + 4 spaces + }
        #expect(!layout.codeFirst)
        // Catalog ids: VOUCHER 0, TSHIRT 1, MUG 2, é 3. Texts are padded so whole words can be read.
        let padding = String(repeating: " ", count: 16)
        let cases: [(String, (ScannedCode, Int64, Int)?)] = [
            ("{\r\n      \"quantity\": 12,\r\n      \"code\": \"TSHIRT\"\r\n    }", (.product(1), 12, 55)),
            (
                "{\r\n      \"quantity\": 1000000000,\r\n      \"code\": \"\\u004dUG\"\r\n    }",
                (.product(2), 1_000_000_000, 65)
            ),
            ("{\r\n      \"quantity\": 1,\r\n      \"code\": \"HAT\"\r\n    }", (.unknown, 1, 51)),
            // Any other spelling is left to the key-by-key path.
            ("{\r\n      \"quantity\": 1 ,\r\n      \"code\": \"MUG\"\r\n    }", nil),
            ("{\n      \"quantity\": 1,\r\n      \"code\": \"MUG\"\r\n    }", nil),
            ("{\r\n      \"quantity\": 1,\r\n      \"code\": \"MUG\"\r\n   }", nil),
            ("{\r\n      \"quantity\": 0,\r\n      \"code\": \"MUG\"\r\n    }", nil),
            ("{\r\n      \"quantity\": 01,\r\n      \"code\": \"MUG\"\r\n    }", nil),
            ("{\r\n      \"quantity\": 1.0,\r\n      \"code\": \"MUG\"\r\n    }", nil),
            ("{\r\n      \"quantity\": 1e2,\r\n      \"code\": \"MUG\"\r\n    }", nil),
            ("{\r\n      \"quantity\": \"1\",\r\n      \"code\": \"MUG\"\r\n    }", nil),
            ("{\r\n      \"quantity\": 1,\r\n      \"code\": \"M\tUG\"\r\n    }", nil),
            ("{\r\n      \"quantity\": 1,\r\n      \"code\": MUG\r\n    }", nil),
            ("{\r\n      \"code\": \"MUG\",\r\n      \"quantity\": 1\r\n    }", nil)
        ]
        for (text, expected) in cases {
            let item = Self.read(text + padding, with: layout)
            #expect(item?.0 == expected?.0 && item?.1 == expected?.1 && item?.2 == expected?.2, "\(text)")
        }
        // Too close to the end of the document to read whole words: the key-by-key path reads it.
        #expect(Self.read("{\r\n      \"quantity\": 12,\r\n      \"code\": \"TSHIRT\"\r\n    }", with: layout) == nil)
        #expect(Self.read("{\r\n      \"quantity\": 12", with: layout) == nil)
    }

    @Test("deep indentation: pieces longer than three words compare their last bytes one by one")
    func longPieces() {
        let indent = String(repeating: " ", count: 24)
        let layout = Self.layout(learnedFrom: "{\r\n\(indent)\"code\": \"MUG\",\r\n\(indent)\"quantity\": 4\r\n}")
        #expect(layout.head.count == 35 && layout.middle.count == 39 && layout.codeFirst)
        let padding = String(repeating: " ", count: 16)
        let item = Self.read("{\r\n\(indent)\"code\": \"é\",\r\n\(indent)\"quantity\": 7\r\n}" + padding, with: layout)
        #expect(item?.0 == .product(3) && item?.1 == 7 && item?.2 == 82)
        var shifted = indent
        shifted.removeLast()
        #expect(
            Self.read("{\r\n\(indent)\"code\": \"é\",\r\n\(shifted)x\"quantity\": 7\r\n}" + padding, with: layout)
                == nil)
        // Pieces longer than 64 bytes are not learned.
        let deep = String(repeating: " ", count: 70)
        let unlearned = Self.layout(learnedFrom: "{\(deep)\"code\": \"MUG\", \"quantity\": 4}")
        #expect(unlearned.head.count == 0)
        #expect(Self.read("{\(deep)\"code\": \"MUG\", \"quantity\": 4}" + padding, with: unlearned) == nil)
    }

    /// Random carts whose items mostly share one random spelling, with some spelled otherwise and
    /// some invalid; with `damage`, some documents are cut short or changed in a byte.
    static func randomCarts(count: Int, seed: UInt64, damage: Bool = true) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        let blanks = [
            "", " ", "\n", "\r\n", "\t", "\n  ", "\n    ", "\r\n      ", "\n\t\t", " \n ",
            "\r\n" + String(repeating: " ", count: 20)
        ]
        let codes = [#""MUG""#, #""TSHIRT""#, #""VOUCHER""#, #""é""#, #""\u004dUG""#, #""\u00e9""#]
        let badCodes = [#""HAT""#, #""mug""#, #""M\tUG""#, "5", #""\ud800""#, #""MUG"#]
        let quantities = ["1", "3", "12", "1000000000"]
        let badQuantities = ["0", "01", "1.0", "-1", #""1""#, "1000000001", "2e1", ""]
        struct Spelling {
            var blanks: [String]
            var codeFirst: Bool
            var gap: (String, String)
        }
        func spelling() -> Spelling {
            Spelling(
                blanks: (0..<6).map { _ in pick(blanks) }, codeFirst: chance(50), gap: (pick(blanks), pick(blanks)))
        }
        return (0..<count).map { _ in
            let base = spelling()
            var items: [String] = []
            var gaps: [String] = []
            for _ in 0..<(1 + random.next() % 30) {
                let s = chance(85) ? base : spelling()
                let code = chance(3) ? pick(badCodes) : pick(codes)
                let quantity = chance(3) ? pick(badQuantities) : pick(quantities)
                let b = s.blanks
                let pairs =
                    s.codeFirst
                    ? [(#""code""#, code), (#""quantity""#, quantity)]
                    : [(#""quantity""#, quantity), (#""code""#, code)]
                var item = "{" + b[0] + pairs[0].0 + b[1] + ":" + b[2] + pairs[0].1
                switch random.next() % 40 {
                case 0: item += b[3] + "}"  // one key
                case 1: item += "," + b[3] + pairs[1].0 + ":" + pairs[1].1 + "," + #""gift": true"# + b[5] + "}"
                case 2: item = code
                default: item += b[3] + "," + b[4] + pairs[1].0 + ":" + b[2] + pairs[1].1 + b[5] + "}"
                }
                items.append(item)
                let gap = chance(90) ? base.gap : (pick(blanks), pick(blanks))
                gaps.append(gap.0 + (chance(1) ? "" : ",") + gap.1)
            }
            var body = items[0]
            for (item, gap) in zip(items.dropFirst(), gaps) { body += gap + item }
            let array = "[" + pick(blanks) + body + pick(blanks) + "]"
            let document: String
            switch random.next() % 3 {
            case 0: document = array
            case 1: document = "{" + pick(blanks) + #""items": "# + array + #", "currency": "EUR"}"#
            default: document = #"{"id": 7,"# + pick(blanks) + #""items":"# + array + pick(blanks) + "}" + pick(blanks)
            }
            var bytes = Array(document.utf8)
            if damage, chance(5) { bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count)))) }
            if damage, chance(5), !bytes.isEmpty {
                bytes[Int(random.next() % UInt64(bytes.count))] = pick(Array(#" "{}:,0\"#.utf8) + [0x0A, 0x0D])
            }
            return bytes
        }
    }

    @Test("random spellings: the fast reader agrees with the tree reader on thousands of carts")
    func randomSpellings() {
        var agreed = 0
        var valid = 0
        for bytes in Self.randomCarts(count: 4_000, seed: 12) {
            let fast = CartReaderDifferentialTests.outcome(bytes, tree: false)
            let tree = CartReaderDifferentialTests.outcome(bytes, tree: true)
            #expect(fast == tree, "\(String(decoding: bytes, as: UTF8.self))")
            if fast == tree { agreed += 1 }
            if !tree.hasPrefix("error") { valid += 1 }
        }
        #expect(agreed == 4_000)
        // A third are valid: whole carts read through their layouts.
        #expect(valid > 1_000)
    }

    @Test("valid random spellings are read by the fast path, without falling back")
    func fastPathTaken() {
        let scanner = CartScanner(codes: Self.codes)
        var merger = CartLineMerger(productCount: Self.catalog.products.count)
        var read = 0
        for bytes in Self.randomCarts(count: 2_000, seed: 99, damage: false)
        where !CartReaderDifferentialTests.outcome(bytes, tree: true).hasPrefix("error") {
            let cart = bytes.withUnsafeBufferPointer { scanner.scan($0, merger: &merger) }
            // Only an item with a third key is refused by the scanner (the tree reader decides).
            let text = String(decoding: bytes, as: UTF8.self)
            #expect((cart != nil) == !text.contains("gift"), "\(text)")
            if cart != nil { read += 1 }
        }
        #expect(read > 500)
    }
}

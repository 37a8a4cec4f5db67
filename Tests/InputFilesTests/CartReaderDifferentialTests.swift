import Dispatch
import Pricing
import SeededRandom
import Testing
import Workloads

@testable import InputFiles

/// The fast reader (byte scanner, falling back to the tree parser) must agree with the tree reader
/// on every input: the same cart, or the same message.
@Suite("Fast and tree cart readers agree")
struct CartReaderDifferentialTests {
    static let catalog = try! CatalogFile.decode(
        Array(
            #"{"products": [{"code": "VOUCHER", "price": 5}, {"code": "TSHIRT", "price": 20}, {"code": "MUG", "price": 7.5}, {"code": "é", "price": 1}]}"#
                .utf8), name: "c")

    static func outcome(_ bytes: [UInt8], tree: Bool) -> String {
        readOutcome(bytes, reader: CartReader(catalog: catalog), tree: tree) { "\($0)" }
    }

    static let corpus: [String] = [
        #"["VOUCHER", "TSHIRT", "VOUCHER"]"#, "[]", " [ ] ", "{\"items\": []}", #"{"items":["MUG"]}"#,
        #"[{"code": "MUG", "quantity": 3}, "MUG", {"quantity": 2, "code": "TSHIRT"}]"#,
        // Compact items, as serializers without indentation write them.
        #"[{"code":"MUG","quantity":3},{"code":"TSHIRT","quantity":2},"MUG"]"#,
        #"{"currency": "EUR", "at": "2026-11-21T10:00:00Z", "coupons": ["A", "b"], "items": ["MUG"]}"#,
        #"{"items": ["MUG"], "coupons": [], "at": "2026-11-21T11:00:00+01:00"}"#,
        "[\n\t\"MUG\" ,\r\n \"MUG\"\n]\n", #"["\u004dUG"]"#, #"["é"]"#, #"["\u00e9"]"#,
        #"{"note": {"x": [1, {"y": null}]}, "items": ["MUG"]}"#,
        #"[{"code": "MUG", "quantity": 1000000000}]"#, #"[{"code": "MUG", "quantity": 1, "gift": true}]"#,
        // Cart ids: strings and integer literals are echoed; anything else is an error of the cart.
        #"{"id": "A-1", "items": ["MUG"]}"#, #"{"items": ["MUG"], "id": 17}"#, #"{"id": -0, "items": []}"#,
        #"{"id": 123456789012345678901234567890, "items": []}"#,
        #"{"id": "\u00e9\n", "items": []}"#, #"{"id": "", "items": ["MUG"]}"#, #"{"id": 1.5, "items": []}"#,
        #"{"id": 1e3, "items": []}"#,
        #"{"id": null, "items": []}"#, #"{"id": {"a": 1}, "items": []}"#, #"{"id": true, "items": []}"#,
        #"{"id": "x", "id": "y", "items": []}"#,
        #"{"id": 01, "items": []}"#, #"{"id": "A", "items": ["HAT"]}"#,
        #"{"id": 9, "items": [{"code": "MUG", "quantity": 0}]}"#,
        // Invalid, in every way the readers refuse.
        "", " ", "[", "]", "[,]", "[\"MUG\",]", "[\"MUG\" \"MUG\"]", "{\"items\": [\"MUG\"]", "[\"MUG\"] x",
        "[\"MUG\"]]",
        #"["HAT"]"#, #"["mug"]"#, #"[{"code": "HAT", "quantity": 2}]"#, #"[{"code": "MUG", "quantity": 0}]"#,
        #"[{"code": "MUG", "quantity": 01}]"#, #"[{"code": "MUG", "quantity": -1}]"#,
        #"[{"code": "MUG", "quantity": 1.0}]"#,
        #"[{"code": "MUG", "quantity": 1e0}]"#, #"[{"code": "MUG", "quantity": 1000000001}]"#,
        #"[{"code": "MUG", "quantity": "1"}]"#,
        #"[{"code": "MUG", "code": "MUG"}]"#, #"[{"code": "MUG", "quantity": 1, "quantity": 2}]"#,
        #"[{"quantity": 1}]"#,
        #"[{"code":"MUG","quantity":01}]"#, #"[{"code":"MUG","quantity":3,"gift":1}]"#,
        #"[{"code":"M\u0055G","quantity":3}]"#, #"[{"code":"HAT","quantity":3}]"#, #"[{"code":"MUG","quantity":0}]"#,
        #"[{"code":"MUG","quantity":1e2}]"#, #"[{"code":"MUG","quantity":}]"#, #"[{"code":"MUG","quantit"#,
        #"[{"code":"MUG","quantity":2 }]"#, #"[{"code":"MUG","quantity":2}"#,
        #"[{"code": "MUG", "price": 1}]"#, #"[{"code": "MUG", "unit_price": 1}]"#, #"[{"code": 5}]"#, "[5]", "[null]",
        "[[\"MUG\"]]",
        #"{}"#, #"{"items": "MUG"}"#, #"{"items": [], "items": []}"#, #"{"currency": "usd", "items": []}"#,
        #"{"currency": "USD", "items": []}"#, #"{"at": "tomorrow", "items": []}"#, #"{"at": 5, "items": []}"#,
        #"{"coupons": "A", "items": []}"#, #"{"coupons": [1], "items": []}"#, #"{"coupons": ["A",], "items": []}"#,
        #"{"items": ["HAT"], "at": "never"}"#, #"{"items": ["HAT"], "currency": "x"}"#, #"["HAT", ]"#,
        #"["HAT"] ["MUG"]"#,
        "\"MUG\"", "5", "null", "[\"M\tUG\"]", "[\"MUG\\\"]", "[\"\\ud800\"]", "{\"a\": 1, \"a\": 2, \"items\": []}",
        String(repeating: "[", count: 200), "[\"MUG\"\u{0}]"
    ]

    @Test("on a corpus of valid and invalid carts")
    func corpus() {
        for text in Self.corpus {
            let bytes = Array(text.utf8)
            #expect(Self.outcome(bytes, tree: false) == Self.outcome(bytes, tree: true), "\(text)")
        }
    }

    @Test("on invalid UTF-8 and byte order marks (one is dropped, a second is an error)")
    func invalidUTF8() {
        for bytes: [UInt8] in [
            [0x5B, 0x22, 0xFF, 0x22, 0x5D], [0x5B, 0x22, 0x4D, 0xC3, 0x22, 0x5D], [0xEF, 0xBB, 0xBF, 0x5B, 0x5D],
            [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x5B, 0x5D]
        ] {
            #expect(Self.outcome(bytes, tree: false) == Self.outcome(bytes, tree: true))
        }
    }

    @Test("on thousands of mutations of valid carts")
    func mutations() {
        let seeds = Self.corpus.prefix(15).map { Array($0.utf8) }
        let alphabet = Array(#"[]{}",:0123456789 -.eE\"MUGHATcodequantity"#.utf8) + [0x0A, 0xC3, 0xA9, 0xFF]
        var agreed = 0
        for bytes in randomEdits(of: seeds, alphabet: alphabet, count: 5_000, seed: 7) {
            let fast = Self.outcome(bytes, tree: false)
            let tree = Self.outcome(bytes, tree: true)
            #expect(fast == tree, "\(String(decoding: bytes, as: UTF8.self))")
            if fast == tree { agreed += 1 }
        }
        #expect(agreed == 5_000)
    }

    @Test("on thousands of codes spelled with escapes, short and long, ASCII and not, valid or not")
    func escapedCodes() {
        // Codes with the characters escapes are for; one longer than the short path's 32 bytes.
        let codes = ["MUG", "A\"B", "C\\D", "E/F", "é1", "G\u{1F600}", "TAB\tX", String(repeating: "L", count: 40)]
        let catalogJSON =
            #"{"products": ["#
            + codes.map { #"{"code": "\#(escaped($0, style: 0))", "price": 1}"# }.joined(separator: ", ")
            + "]}"
        let catalog = try! CatalogFile.decode(Array(catalogJSON.utf8), name: "c")
        #expect(catalog.products.map(\.code) == codes)
        var random = SplitMix64(seed: 11)
        let scanner = CartScanner(codes: catalog.codes.bytes)
        var known = 0
        for round in 0..<3_000 {
            var items: [String] = []
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let code = codes[Int(random.next() % UInt64(codes.count))]
                var text = escaped(code, style: random.next())
                // Now and then something the tree reader refuses: a bad escape, a raw control character,
                // a lone surrogate, an unknown code.
                switch random.next() % 12 {
                case 0: text += "\\x"
                case 1: text += "\u{01}"
                case 2: text += "\\ud800"
                case 3: text += "Z"
                default: break
                }
                items.append(random.next() % 2 == 0 ? "\"\(text)\"" : #"{"code": "\#(text)", "quantity": 2}"#)
            }
            let bytes = Array(("[" + items.joined(separator: ", ") + "]").utf8)
            let reader = CartReader(catalog: catalog)
            let fast = readOutcome(bytes, reader: reader, tree: false) { "\($0)" }
            let tree = readOutcome(bytes, reader: reader, tree: true) { "\($0)" }
            #expect(fast == tree, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
            guard !tree.hasPrefix("error") else { continue }
            known += 1
            // A cart the tree reads, the scanner reads too, without falling back to the tree (which
            // would hide a code decoded wrongly into no code at all).
            var merger = CartLineMerger(productCount: catalog.products.count)
            let scanned = bytes.withUnsafeBufferPointer { scanner.scan($0, merger: &merger) }
            #expect(scanned.map { "\($0)" } == tree, "round \(round): \(String(decoding: bytes, as: UTF8.self))")
        }
        // Both outcomes are well represented.
        #expect(known > 1_000 && known < 2_800)
    }

    /// `code` as a JSON string's content: each character raw where JSON allows it, or escaped in one
    /// of the ways JSON allows (`\uXXXX` in either case, a surrogate pair, a short escape), by `style`.
    func escaped(_ code: String, style: UInt64) -> String {
        var out = ""
        var bits = style
        for scalar in code.unicodeScalars {
            let choice = bits % 4
            bits = bits / 4 | (bits << 60)
            let mustEscape = scalar == "\"" || scalar == "\\" || scalar.value < 0x20
            if !mustEscape && choice < 2 {
                out.unicodeScalars.append(scalar)
            } else if choice == 2, let short = ["\"": "\\\"", "\\": "\\\\", "/": "\\/", "\t": "\\t"][Character(scalar)]
            {
                out += short
            } else if scalar.value > 0xFFFF {
                let v = scalar.value - 0x10000
                out +=
                    String(format16: 0xD800 + (v >> 10), upper: choice == 3)
                    + String(format16: 0xDC00 + (v & 0x3FF), upper: choice == 3)
            } else {
                out += String(format16: scalar.value, upper: choice == 3)
            }
        }
        return out
    }

    @Test("on every prefix and every one-byte change of items spelled the canonical way")
    func canonicalItems() {
        let text =
            #"[{"code": "MUG", "quantity": 3}, {"code": "VOUCHER", "quantity": 2}, {"code": "TSHIRT", "quantity": 1000000000}, {"code": "MUG", "quantity": 12}]"#
        let bytes = Array(text.utf8)
        #expect(Self.outcome(bytes, tree: false) == Self.outcome(bytes, tree: true))
        let replacements = Array(#" "{}:,0"#.utf8) + [0x0A, 0x5C, 0xC3]
        var compared = 0
        for position in bytes.indices {
            var variants = [Array(bytes[..<position])]
            for byte in replacements where byte != bytes[position] {
                var changed = bytes
                changed[position] = byte
                variants.append(changed)
            }
            for variant in variants {
                #expect(
                    Self.outcome(variant, tree: false) == Self.outcome(variant, tree: true),
                    "\(String(decoding: variant, as: UTF8.self))")
                compared += 1
            }
        }
        #expect(compared == bytes.count * 11 - bytes.filter { replacements.contains($0) }.count)
    }

    @Test("the fast path takes the shapes carts have, without falling back")
    func fastPathTaken() {
        let scanner = CartScanner(codes: Self.catalog.codes.bytes)
        var merger = CartLineMerger(productCount: Self.catalog.products.count)
        for text in [
            #"["VOUCHER", "TSHIRT"]"#, #"[{"code": "MUG", "quantity": 3}]"#,
            #"{"coupons": ["X"], "at": "2026-11-21T10:00:00Z", "currency": "EUR", "items": [{"quantity": 2, "code": "MUG"}]}"#,
            #"{"items":[{"code":"MUG","quantity":2},"\u0054SHIRT","é","\u00e9"],"id":"\u00c9-1","coupons":["\/"]}"#,
            "{\r\n\t\"items\": [\r\n\t\t{\r\n\t\t\t\"quantity\": 2,\r\n\t\t\t\"code\": \"MUG\"\r\n\t\t}\r\n\t],\r\n\t\"currency\": \"EUR\"\r\n}\r\n"
        ] {
            let cart = Array(text.utf8).withUnsafeBufferPointer { scanner.scan($0, merger: &merger) }
            #expect(cart != nil, "\(text)")
        }
        // Items spelled the canonical way are read a word at a time; other spellings are left to the key-by-key path.
        let codes = Self.catalog.codes.bytes
        let items: [(String, (code: ScannedCode, quantity: Int64, consumed: Int)?)] = [
            (#"{"code": "MUG", "quantity": 12}, "#, (.product(2), 12, 31)),
            (#"{"code": "TSHIRT", "quantity": 1}"#, (.product(1), 1, 33)),
            (#"{"code": "HAT", "quantity": 1}"#, (.unknown, 1, 30)), (#"{"code": "MUG", "quantity": 12 }"#, nil),
            (#"{"code":"MUG", "quantity": 12}"#, nil), (#"{"quantity": 12, "code": "MUG"}"#, nil),
            (#"{"code": "MUG", "quantity": 1"#, nil)
        ]
        for (text, expected) in items {
            let bytes = Array(text.utf8)
            let item = bytes.withUnsafeBufferPointer { buffer -> (ScannedCode, Int64, Int)? in
                var cursor = Cursor(p: buffer.baseAddress!, end: buffer.baseAddress! + buffer.count)
                guard let (id, quantity) = cursor.canonicalItem(codes) else { return nil }
                return (id, quantity, cursor.p - buffer.baseAddress!)
            }
            #expect(
                item?.0 == expected?.code && item?.1 == expected?.quantity && item?.2 == expected?.consumed, "\(text)")
        }
        let workload = Workload(.init(products: 50, promotions: 0, lines: 2_000))
        let catalog = try! CatalogFile.decode(workload.catalogJSON(), name: "Products.json")
        let generated = CartScanner(codes: catalog.codes.bytes)
        var big = CartLineMerger(productCount: catalog.products.count)
        let cart = workload.cartJSON().withUnsafeBufferPointer { generated.scan($0, merger: &big) }
        #expect(cart?.lines.count == 50)
    }
}

@Suite("Large carts scanned on two cores")
struct ParallelScanTests {
    /// A cart above the (lowered) parallel threshold, from the generator.
    static let workload = Workload(.init(products: 200, promotions: 0, lines: 20_000, seed: 3))
    static let threshold = 64 << 10
    /// Carts above the threshold scanned on two threads.
    static let halves = CartHalves(from: threshold) { body in
        DispatchQueue.concurrentPerform(iterations: 2, execute: body)
    }
    static let catalog = try! CatalogFile.decode(workload.catalogJSON(), name: "Products.json")
    static let cart = workload.cartJSON()

    static func outcome(_ bytes: [UInt8], tree: Bool) -> String {
        readOutcome(
            bytes, reader: CartReader(catalog: catalog, halves: halves), name: "big.json",
            tree: tree
        ) { "\($0.lines)" }
    }

    @Test("the generated cart is above the threshold and splits cleanly")
    func splits() {
        #expect(Self.cart.count >= Self.threshold)
        let scanner = CartScanner(codes: Self.catalog.codes.bytes)
        let outcome = Self.cart.withUnsafeBufferPointer {
            scanner.scanInTwo($0, productCount: Self.catalog.products.count, run: Self.halves.run)
        }
        guard case .cart(let cart) = outcome else {
            Issue.record("expected a cart from the two halves, got \(outcome)")
            return
        }
        #expect("\(cart.lines)" == Self.outcome(Self.cart, tree: true))
    }

    @Test("agrees with the tree reader when the split lands inside an item, or an error sits in either half")
    func variants() {
        // A code that contains `}, {` offers a split point inside a string. Shift the text until
        // the split point lands there; the first half then passes it mid-item and the cart is
        // scanned in one piece.
        let tricky = try! CatalogFile.decode(
            Array(#"{"products": [{"code": "A}, {B", "price": 1}, {"code": "C", "price": 2}]}"#.utf8), name: "c")
        let trickyScanner = CartScanner(codes: tricky.codes.bytes)
        let items = Array(repeating: #"{"code": "A}, {B", "quantity": 2}, {"code": "C"}"#, count: 3_000)
            .joined(separator: ", ")
        var nested: [UInt8] = []
        for shift in 0..<100 {
            nested = Array(("[" + String(repeating: " ", count: shift) + items + "]").utf8)
            let inside = nested.withUnsafeBufferPointer { bytes in
                trickyScanner.splitPoint(bytes).map {
                    $0[-1] == UInt8(ascii: " ") && $0[-2] == UInt8(ascii: ",") && $0[-3] == UInt8(ascii: "}")
                        && $0[-4] == UInt8(ascii: "A")
                }
            }
            if inside == true { break }
        }
        let nestedOutcome = nested.withUnsafeBufferPointer {
            trickyScanner.scanInTwo($0, productCount: tricky.products.count, run: Self.halves.run)
        }
        guard case .sequential = nestedOutcome else {
            Issue.record("the split should land inside a code and be refused, got \(nestedOutcome)")
            return
        }
        let trickyRead = readOutcome(
            nested, reader: CartReader(catalog: tricky, halves: Self.halves), tree: false
        ) { "\($0.lines)" }
        #expect(
            trickyRead
                == "[Pricing.Cart.Line(product: 0, quantity: 6000), Pricing.Cart.Line(product: 1, quantity: 3000)]")
        // Unknown codes inserted as whole items at the start of a line, early and late.
        func lineStart(before offset: Int) -> Int { Self.cart[..<offset].lastIndex(of: UInt8(ascii: "\n"))! + 1 }
        var unknownFirst = Self.cart
        unknownFirst.insert(contentsOf: Array(#"  "HAT","#.utf8) + [0x0A], at: lineStart(before: 100))
        var unknownSecond = Self.cart
        unknownSecond.insert(
            contentsOf: Array(#"  "HAT","#.utf8) + [0x0A], at: lineStart(before: Self.cart.count - 200))
        var trailing = Self.cart
        trailing.append(contentsOf: Array("x".utf8))
        var badQuantity = Self.cart
        let late = badQuantity[(badQuantity.count * 3 / 4)...].firstIndex(of: UInt8(ascii: "q"))!
        badQuantity.replaceSubrange(late..<(late + 11), with: Array(#"quantity": 0"#.utf8))
        var duplicateKey = Self.cart
        duplicateKey.replaceSubrange(late..<late, with: Array(#"code": "P0001", ""#.utf8))
        for variant in [unknownFirst, unknownSecond, trailing, badQuantity, duplicateKey] {
            #expect(Self.outcome(variant, tree: false) == Self.outcome(variant, tree: true))
        }
        #expect(Self.outcome(unknownFirst, tree: false) == "error: big.json: items[2]: unknown product code \"HAT\"")
        #expect(
            Self.outcome(unknownSecond, tree: false).hasPrefix("error: big.json: items[19994]: unknown product code"))
    }

    /// The generated cart respelled the ways other writers spell carts.
    static func respelled(_ layout: Int) -> [UInt8] {
        let text = String(decoding: cart, as: UTF8.self)
        let items = text.split(separator: "\n").compactMap { line -> (code: String, quantity: String)? in
            guard let code = line.firstRange(of: "\"P") else { return nil }
            let rest = line[code.lowerBound...].dropFirst()
            let name = rest.prefix { $0 != "\"" }
            let quantity = line.split(separator: ": ").last!.prefix { $0.isNumber }
            return (String(name), String(quantity))
        }
        switch layout {
        case 0:  // compact object, fields before the items
            return Array(
                (#"{"id":"c-1","currency":"EUR","items":["#
                    + items.map { #"{"code":"\#($0.code)","quantity":\#($0.quantity)}"# }.joined(separator: ",") + "]}")
                    .utf8)
        case 1:  // CRLF, indented, keys in the other order, fields after the items
            let body = items.map {
                "    {\r\n      \"quantity\": \($0.quantity),\r\n      \"code\": \"\($0.code)\"\r\n    }"
            }
            return Array(
                ("{\r\n  \"items\": [\r\n" + body.joined(separator: ",\r\n")
                    + "\r\n  ],\r\n  \"coupons\": [\"SPRING\", \"\\u00c9T\u{c9}\"],\r\n  \"currency\": \"EUR\",\r\n  \"at\": \"2026-06-01T00:00:00Z\",\r\n  \"id\": 42\r\n}\r\n")
                    .utf8)
        case 2:  // a byte order mark, codes alone, tabs
            let body = items.flatMap { item in Array(repeating: "\t\"\(item.code)\"", count: Int(item.quantity)!) }
            return [0xEF, 0xBB, 0xBF] + Array(("[\n" + body.joined(separator: ",\n") + "\n]").utf8)
        default:  // every code escaped, one line
            return Array(
                ("["
                    + items.map { #"{"code": "\u0050\#($0.code.dropFirst())", "quantity": \#($0.quantity)}"# }
                    .joined(separator: ", ") + "]").utf8)
        }
    }

    @Test("every spelling splits in two and agrees with the tree reader", arguments: 0..<4)
    func spellings(layout: Int) {
        let bytes = Self.respelled(layout)
        #expect(bytes.count >= Self.threshold)
        let scanner = CartScanner(codes: Self.catalog.codes.bytes)
        let outcome = bytes.withUnsafeBufferPointer {
            scanner.scanInTwo(
                UnsafeBufferPointer(rebasing: $0.droppingByteOrderMark[...]), productCount: Self.catalog.products.count,
                run: Self.halves.run)
        }
        guard case .cart(let cart) = outcome else {
            Issue.record("expected a cart from the two halves, got \(outcome)")
            return
        }
        let tree = readOutcome(bytes, reader: CartReader(catalog: Self.catalog), tree: true) { "\($0)" }
        #expect("\(cart)" == tree)
        #expect(cart.lines.map(\.quantity).reduce(0, +) > 20_000)
        if layout == 1 {
            #expect(cart.coupons == ["SPRING", "ÉTÉ"] && cart.id == .integer("42") && cart.currency?.code == "EUR")
        }
    }
}

/// What `reader` makes of `bytes`, read fast or as a tree: the cart as `describe` shows it, or the message.
func readOutcome(
    _ bytes: [UInt8], reader: CartReader, name: String = "cart.json", tree: Bool, describe: (Cart) -> String
) -> String {
    var reader = reader
    do {
        let cart = try bytes.withUnsafeBufferPointer { (buffer) throws(InputError) -> Cart in
            tree ? try reader.readTree(buffer, name: name) : try reader.read(buffer, name: name)
        }
        return describe(cart)
    } catch {
        return "error: \(error)"
    }
}

@Suite("Carts recycled in a batch")
struct CartRecyclingTests {
    @Test("the next cart's lines and coupons take the storage of the cart recycled, and only its own content")
    func recycled() throws {
        var reader = CartReader(catalog: CartReaderDifferentialTests.catalog)
        func base<T>(_ array: [T]) -> UnsafeRawPointer? {
            array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        var couponBases: [UnsafeRawPointer?] = []
        var lineBases: [UnsafeRawPointer?] = []
        // The third cart's 40 coupons outgrow any storage the first two could have had (malloc may
        // give a small buffer room for a few more than asked).
        let many = (0..<40).map { "D\($0)" }
        let documents = [
            #"{"coupons": ["A", "B"], "items": ["MUG", "TSHIRT", "MUG"]}"#, #"{"coupons": ["C"], "items": ["TSHIRT"]}"#,
            #"{"items": ["VOUCHER", "MUG"], "coupons": ["# + many.map { "\"\($0)\"" }.joined(separator: ", ") + "]}",
            #"{"coupons": ["G"], "items": ["MUG"]}"#
        ]
        let expected: [([String], [Cart.Line])] = [
            (["A", "B"], [Cart.Line(product: 2, quantity: 2), Cart.Line(product: 1, quantity: 1)]),
            (["C"], [Cart.Line(product: 1, quantity: 1)]),
            (many, [Cart.Line(product: 0, quantity: 1), Cart.Line(product: 2, quantity: 1)]),
            (["G"], [Cart.Line(product: 2, quantity: 1)])
        ]
        for (text, (coupons, lines)) in zip(documents, expected) {
            let cart = try reader.read(Array(text.utf8), name: "c")
            #expect(cart.coupons == coupons && cart.lines == lines, "\(text)")
            couponBases.append(base(cart.coupons))
            lineBases.append(base(cart.lines))
        }
        // Coupons are read into the last cart's storage (the third cart's outgrow it); lines alternate
        // between two buffers.
        #expect(
            couponBases[1] == couponBases[0] && couponBases[2] != couponBases[1] && couponBases[3] == couponBases[2])
        #expect(lineBases[2] == lineBases[0] && lineBases[3] == lineBases[1])
    }
}

extension String {
    /// `\uXXXX` for `value`, its hex digits upper- or lower-case.
    fileprivate init(format16 value: UInt32, upper: Bool) {
        let digits = String(value, radix: 16, uppercase: upper)
        self = "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}

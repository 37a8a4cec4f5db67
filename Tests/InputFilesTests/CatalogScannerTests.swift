import Pricing
import Testing
import Workloads

@testable import InputFiles

/// The catalog scanner must agree with the tree reader on every input: the same catalog, or (after
/// giving up) the same message.
@Suite("Fast and tree catalog readers agree")
struct CatalogScannerTests {
    static func outcome(_ bytes: [UInt8], tree: Bool) -> String {
        do {
            let catalog =
                tree ? try CatalogFile.decodeTree(bytes, name: "c.json") : try CatalogFile.decode(bytes, name: "c.json")
            return "\(catalog.currency.code) \(catalog.pricesIncludeTax) \(catalog.isTaxed) \(catalog.products)"
        } catch {
            return "error: \(error)"
        }
    }

    static let corpus: [String] = [
        #"{"products": []}"#, #"{"currency": "USD", "products": [{"code": "A", "price": 1.5}]}"#,
        #"{"products": [{"price": "2.50", "name": "Mug", "code": "MUG"}], "currency": "GBP"}"#,
        "{\r\n\t\"products\": [\r\n\t\t{\"code\": \"A\", \"price\": 0}\r\n\t]\r\n}\r\n",
        #"{"products": [{"code": "\u00c9T\u00c9", "name": "\ud83d\ude00 \"x\"", "price": 1e2}]}"#,
        #"{"products": [{"code": "A", "price": 1, "stock": 3, "active": true, "label": null, "note": "x"}], "v": 2}"#,
        // Attributes and taxes (docs/catalog.md, docs/taxes.md), read by the scanner too.
        #"{"products": [{"code": "A", "price": 1, "category": " A\t> B ", "brand": "b", "tags": ["x", "y", "x"]}]}"#,
        #"{"tax_rate": 21, "products": [{"code": "A", "price": 1}, {"code": "B", "price": 1, "tax_rate": "7.25"}]}"#,
        #"{"products": [{"tags": [], "tax_rate": 0, "code": "A", "price": 1}], "prices_include_tax": false}"#,
        #"{"products": [{"code": "A", "price": 1, "category": "\u00c9 \u003e \t\u0041", "tags": ["\u0078", "x"]}]}"#,
        #"{"products": [{"code": "A", "price": 1, "labels": ["x"]}]}"#, #"{"meta": {"a": 1}, "products": []}"#,
        #"{"currency": "JPY", "products": [{"code": "A", "price": 100}]}"#,
        // Invalid, in the ways the readers refuse.
        "", "{}", "[]", #"{"products": {}}"#, #"{"products": [], "products": []}"#,
        #"{"products": [{"code": "A", "price": 1, "code": "B"}]}"#,
        #"{"products": [{"code": "A", "price": 1, "x": 1, "x": 2}]}"#,
        #"{"products": [{"code": "A", "price": 1}, {"code": "A", "price": 2}]}"#,
        #"{"products": [{"code": "", "price": 1}]}"#, #"{"products": [{"code": "A", "price": -1}]}"#,
        #"{"products": [{"code": "A", "price": 1.001}]}"#, #"{"products": [{"code": "A", "price": 01}]}"#,
        #"{"products": [{"code": "A", "price": "abc"}]}"#, #"{"products": [{"code": "A"}]}"#,
        #"{"products": [{"price": 1}]}"#, #"{"products": [{"code": 5, "price": 1}]}"#,
        #"{"products": [{"code": "A", "name": 5, "price": 1}]}"#, #"{"currency": "eur", "products": []}"#,
        #"{"currency": "JPY", "products": [{"code": "A", "price": 1.5}]}"#,
        #"{"products": [{"code": "A", "price": 1, "x": tru}]}"#, #"{"products": [{"code": "A", "price": 1,}]}"#,
        #"{"products": [{"code": "A", "price": 1}] x"#, #"{"products": [{"code": "\ud800", "price": 1}]}"#,
        #"{"products": [{"code": "A", "price": 1, "tags": null}]}"#,
        #"{"products": [{"code": "A", "price": 1, "tags": ["x", ""]}]}"#,
        #"{"products": [{"code": "A", "price": 1, "tags": ["x",]}]}"#,
        #"{"products": [{"code": "A", "price": 1, "tags": ["x"], "tags": ["y"]}]}"#,
        #"{"products": [{"code": "A", "price": 1, "category": "A >> B"}]}"#,
        #"{"products": [{"code": "A", "price": 1, "category": ["A"]}]}"#,
        #"{"products": [{"code": "A", "price": 1, "brand": ""}]}"#,
        #"{"products": [{"code": "A", "price": 1, "brand": "x", "brand": "x"}]}"#,
        #"{"products": [{"code": "A", "price": 1, "tax_rate": 21}, {"code": "B", "price": 1}]}"#,
        #"{"products": [{"code": "A", "price": 1, "tax_rate": 100.5}]}"#,
        #"{"products": [{"code": "A", "price": 1, "tax_rate": "\u0032"}]}"#,
        #"{"tax_rate": 21, "tax_rate": 21, "products": []}"#,
        #"{"prices_include_tax": 1, "products": []}"#, #"{"prices_include_tax": null, "products": []}"#,
        #"{"products": [{"code": "A", "price": 99999999999999999999}]}"#,
        #"{"products": [{"code": "A", "price": 1.}]}"#,
        #"{"products": [{"code": "A", "price": -0}]}"#, #"{"products": [{"code": "A", "price": 1E+2}]}"#
    ]

    @Test("on a corpus of valid and invalid catalogs")
    func corpus() {
        for text in Self.corpus {
            let bytes = Array(text.utf8)
            #expect(Self.outcome(bytes, tree: false) == Self.outcome(bytes, tree: true), "\(text)")
        }
        // A byte order mark, invalid UTF-8 in a name.
        for bytes: [UInt8] in [
            [0xEF, 0xBB, 0xBF] + Array(#"{"products": []}"#.utf8),
            Array(#"{"products": [{"code": "A", "name": ""#.utf8) + [0xFF] + Array(#"", "price": 1}]}"#.utf8)
        ] {
            #expect(Self.outcome(bytes, tree: false) == Self.outcome(bytes, tree: true))
        }
    }

    @Test("the scanner reads the catalogs users write, without falling back")
    func fastPathTaken() throws {
        for text in Self.corpus.prefix(10) {
            let catalog = Array(text.utf8).withUnsafeBufferPointer { CatalogScanner.scan($0) }
            #expect(catalog != nil, "\(text)")
        }
        let generated = Workload(.init(products: 3_000, promotions: 0, lines: 0)).catalogJSON()
        let scanned = try #require(generated.withUnsafeBufferPointer { CatalogScanner.scan($0) })
        #expect(scanned.products.count == 3_000)
        #expect("\(scanned.products)" == "\(try CatalogFile.decodeTree(generated, name: "c").products)")
    }

    @Test("on thousands of mutations of valid catalogs")
    func mutations() {
        let seeds = Self.corpus.prefix(13).map { Array($0.utf8) }
        let alphabet =
            Array(#"[]{}",:0123456789 -.eE\"Acodepricename>\ttagsbrandcategorytax_rate"#.utf8) + [
                0x0A, 0x09, 0xC3, 0xA9, 0xFF
            ]
        var agreed = 0
        for bytes in randomEdits(of: seeds, alphabet: alphabet, count: 5_000, seed: 11) {
            let fast = Self.outcome(bytes, tree: false)
            let tree = Self.outcome(bytes, tree: true)
            #expect(fast == tree, "\(String(decoding: bytes, as: UTF8.self))")
            if fast == tree { agreed += 1 }
        }
        #expect(agreed == 5_000)
    }

    @Test("on thousands of random catalogs with attributes and rates, spelled every way JSON allows")
    func attributeCatalogs() throws {
        var random = SplitMix64(seed: 14_1)
        func draw(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        /// A string literal of `text`, with escapes now and then.
        func literal(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch draw(6) {
                case 0 where scalar.value < 0x10000: out += String(format4: scalar.value)
                default:
                    switch scalar {
                    case "\t": out += "\\t"
                    case "\"": out += "\\\""
                    default: out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        let names = ["Clothing", "Shirts", "Home", "Kitchen", "É", "e\u{301}", "A B", ""]
        let blanks = ["", " ", "\t", "  "]
        var scannedCount = 0
        var taxed = 0
        for round in 0..<3_000 {
            var products: [String] = []
            let hasRoot = draw(3) == 0
            for index in 0..<(1 + draw(5)) {
                var fields = [#""code": \#(literal("P\(index)"))"#, #""price": \#(draw(2) == 0 ? "\"1.50\"" : "2")"#]
                if draw(2) == 0 {
                    let path = (0..<(1 + draw(3))).map { _ in
                        blanks[draw(4)] + names[draw(round % 7 == 0 ? names.count : names.count - 1)] + blanks[draw(4)]
                    }
                    fields.append(#""category": \#(literal(path.joined(separator: ">")))"#)
                }
                if draw(3) == 0 { fields.append(#""brand": \#(literal(names[draw(names.count)]))"#) }
                if draw(3) == 0 {
                    let tags = (0..<draw(4)).map { _ in literal(["sale", "new", "É", ""][draw(round % 5 == 0 ? 4 : 3)])
                    }
                    fields.append(#""tags": [\#(tags.joined(separator: ", "))]"#)
                }
                if draw(3) == 0 || (hasRoot && draw(2) == 0) {
                    fields.append(
                        #""tax_rate": \#(["21", "\"7.25\"", "0", "10.0", "1e2", "100.01"][draw(round % 9 == 0 ? 6 : 5)])"#
                    )
                }
                fields.shuffle(using: &random)
                products.append("{" + fields.joined(separator: draw(2) == 0 ? "," : ",\n  ") + "}")
            }
            var root = [#""products": [\#(products.joined(separator: ", "))]"#]
            if hasRoot { root.append(#""tax_rate": \#(["21", "\"5.5\""][draw(2)])"#) }
            if draw(4) == 0 { root.append(#""prices_include_tax": \#(draw(2) == 0 ? "true" : "false")"#) }
            root.shuffle(using: &random)
            let bytes = Array(("{" + root.joined(separator: ", ") + "}").utf8)
            let fast = Self.outcome(bytes, tree: false)
            let tree = Self.outcome(bytes, tree: true)
            #expect(fast == tree, "\(String(decoding: bytes, as: UTF8.self))")
            // Every catalog the tree reader takes, the scanner takes too: no fallback.
            if !tree.hasPrefix("error") {
                let scanned = bytes.withUnsafeBufferPointer { CatalogScanner.scan($0) }
                #expect(scanned != nil, "\(String(decoding: bytes, as: UTF8.self))")
                if let scanned {
                    scannedCount += 1
                    if scanned.isTaxed { taxed += 1 }
                }
            }
        }
        #expect(scannedCount > 1_000)
        #expect(taxed > 300)
    }
}

extension String {
    /// `\\u00e9`: a scalar of the basic plane as a JSON escape.
    init(format4 value: UInt32) {
        let hex = String(value, radix: 16)
        self = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

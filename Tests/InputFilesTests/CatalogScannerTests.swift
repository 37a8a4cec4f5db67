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
            return "\(catalog.currency.code) \(catalog.products)"
        } catch {
            return "error: \(error)"
        }
    }

    static let corpus: [String] = [
        #"{"products": []}"#, #"{"currency": "USD", "products": [{"code": "A", "price": 1.5}]}"#,
        #"{"products": [{"price": "2.50", "name": "Mug", "code": "MUG"}], "currency": "GBP"}"#,
        "{\r\n\t\"products\": [\r\n\t\t{\"code\": \"A\", \"price\": 0}\r\n\t]\r\n}\r\n",
        #"{"products": [{"code": "\u00c9T\u00c9", "name": "\ud83d\ude00 \"x\"", "price": 1e2}]}"#,
        #"{"products": [{"code": "A", "price": 1, "stock": 3, "active": true, "tags": null, "note": "x"}], "v": 2}"#,
        #"{"products": [{"code": "A", "price": 1, "tags": ["x"]}]}"#, #"{"meta": {"a": 1}, "products": []}"#,
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
        for text in Self.corpus.prefix(6) {
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
        let seeds = Self.corpus.prefix(9).map { Array($0.utf8) }
        let alphabet = Array(#"[]{}",:0123456789 -.eE\"Acodepricename"#.utf8) + [0x0A, 0xC3, 0xA9, 0xFF]
        var agreed = 0
        for bytes in randomEdits(of: seeds, alphabet: alphabet, count: 5_000, seed: 11) {
            let fast = Self.outcome(bytes, tree: false)
            let tree = Self.outcome(bytes, tree: true)
            #expect(fast == tree, "\(String(decoding: bytes, as: UTF8.self))")
            if fast == tree { agreed += 1 }
        }
        #expect(agreed == 5_000)
    }
}

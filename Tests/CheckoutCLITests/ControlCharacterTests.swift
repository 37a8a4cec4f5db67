import Foundation
import Testing

/// No text output carries a raw control character that came from input: codes, names, ids,
/// coupons, cart ids and file contents full of newlines, escape sequences, NUL, C1 controls, line
/// separators and bidirectional overrides reach receipts, batch lines, explanations, errors,
/// `diff` (text and markdown), `validate` and the shop's screens only as escapes.
@Suite("Control characters from input never reach text output")
struct ControlCharacterTests {
    /// Scalars that must never appear raw in text output (besides the line breaks output makes).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A: false
        case 0..<0x20, 0x7F..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Pieces hostile input is made of; those an XML file may hold are marked.
    static let pieces: [(text: String, xml: Bool)] = [
        ("\n", true), ("\r", true), ("\t", true), ("\u{1B}[31m", false), ("\u{0}", false), ("\u{7}", false),
        ("\u{9B}2J", true), ("\u{85}", true), ("\u{2028}", true), ("\u{202E}", true), ("\u{2067}", true),
        ("\\", true), ("`", true), ("![x](http://e.example/i.png)", true), ("|", true), ("total 7.50 €", true),
        ("b.ndjson:2: ", true), ("A", true), ("é", true)
    ]

    static func hostile(_ generator: inout some RandomNumberGenerator, xml: Bool) -> String {
        let usable = pieces.filter { !xml || $0.xml }
        return "Z"
            + (0..<Int.random(in: 1...5, using: &generator)).map { _ in usable.randomElement(using: &generator)!.text }
            .joined()
    }

    static func json(_ text: String) -> String {
        String(
            decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes]),
            as: UTF8.self
        )
        .dropFirst().dropLast().description
    }

    static func xml(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\r", "\n", "\t", "\u{85}", "\u{2028}": "&#\(scalar.value);"
            default: String(scalar)
            }
        }.joined()
    }

    @Test(
        "30 random shops: every text output of price, --explain, batches, diff, validate, cart, products and shop is free of them"
    )
    func randomShops() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<30 {
            let code = Self.hostile(&generator, xml: true)
            let name = Self.hostile(&generator, xml: true)
            let promotionName = Self.hostile(&generator, xml: true)
            let cartID = Self.hostile(&generator, xml: false)
            let coupon = Self.hostile(&generator, xml: false)
            let unknown = Self.hostile(&generator, xml: false)
            let category = Self.hostile(&generator, xml: false)
            let catalog =
                #"{"currency": "EUR", "products": [{"code": \#(Self.json(code)), "name": \#(Self.json(name)), "price": 7.5, "category": \#(Self.json(category))}, {"code": "MUG", "name": "Mug", "price": 2}]}"#
            let plist = { (percent: Int) in
                """
                <plist><array><dict><key>name</key><string>\(Self.xml(promotionName))</string><key>type</key><string>percent</string>
                <key>code</key><string>\(Self.xml(code))</string><key>percent</key><integer>\(percent)</integer></dict>
                <dict><key>id</key><string>cart-5</string><key>name</key><string>\(Self.xml(promotionName))</string><key>type</key><string>cart</string><key>percent</key><integer>5</integer><key>coupon</key><string>\(Self.xml(code))</string></dict>
                <dict><key>id</key><string>other</string><key>name</key><string>x</string><key>type</key><string>amount</string><key>code</key><string>MUG</string><key>amount</key><real>0.5</real><key>zz\(Self.xml(name))</key><string>1</string></dict></array></plist>
                """
            }
            let cart =
                #"{"id": \#(Self.json(cartID)), "coupons": [\#(Self.json(coupon))], "items": [{"code": \#(Self.json(code)), "quantity": 2}, "MUG"]}"#
            let bad = #"{"id": \#(Self.json(cartID)), "items": [{"code": \#(Self.json(unknown)), "quantity": 1}]}"#
            let dir = try temporaryDirectory([
                "Products.json": catalog, "old.plist": plist(10), "new.plist": plist(20), "cart.json": cart,
                "day.ndjson": [cart, bad, cart].joined(separator: "\n") + "\n", "bad.json": bad
            ])
            let rules = ["--catalog", "Products.json", "--promotions", "new.plist"]
            let store = ["--store", dir.appendingPathComponent("store.sqlite").path]
            let runs: [[String]] = [
                ["price", "cart.json"] + rules, ["price", "cart.json", "--explain"] + rules,
                ["price", "bad.json"] + rules,
                ["price", "day.ndjson"] + rules, ["price", "day.ndjson", "--explain"] + rules,
                ["price", "cart.json", "bad.json"] + rules,
                ["diff", "old.plist", "new.plist", "--catalog", "Products.json", "--carts", "day.ndjson"],
                [
                    "diff", "old.plist", "new.plist", "--catalog", "Products.json", "--carts", "day.ndjson", "--format",
                    "markdown"
                ],
                ["validate", "new.plist", "--catalog", "Products.json"], ["cart", "add", code] + rules + store,
                ["cart", "add", unknown] + rules + store, ["cart", "show"] + rules + store,
                ["cart", "remove", unknown] + rules + store, ["cart", "coupon", "add", coupon] + rules + store,
                // The promotions' coupon is `code`: adding it says what it unlocks, by name.
                ["cart", "coupon", "add", code] + rules + store, ["cart", "coupon", "list"] + store,
                ["products", "--catalog", "Products.json", "--promotions", "new.plist"]
            ]
            for arguments in runs + [["shop"] + rules + store] {
                // The shop reads its choices from standard input: list, add both products, cart,
                // checkout, then quit.
                let run = try checkout(arguments, stdin: arguments[0] == "shop" ? "1\n2\nc\nk\nq\n" : nil, in: dir)
                let found = (run.stdout + run.stderr).unicodeScalars.filter(Self.isForbidden)
                #expect(
                    found.isEmpty,
                    "round \(round), \(arguments.prefix(3).map(\.debugDescription)): \(found.map { String($0.value, radix: 16) }) in \(run.stdout.debugDescription) \(run.stderr.debugDescription)"
                )
                if arguments.contains("day.ndjson"), arguments[0] == "price", !arguments.contains("--explain") {
                    // One line per cart: no line forged from input.
                    #expect(
                        run.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 4, "round \(round)"
                    )
                }
                if arguments.contains("markdown") {
                    // Input never closes a code span: every line has its backticks in pairs.
                    for line in run.stdout.split(separator: "\n") {
                        #expect(line.count { $0 == "`" } % 2 == 0, "round \(round): \(line)")
                    }
                }
            }
        }
    }

    @Test("cart coupon add escapes the names of the promotions the coupon unlocks")
    func unlockedNames() throws {
        let dir = try temporaryDirectory([
            "p.plist": """
            <plist><array><dict><key>name</key><string>Spring&#13;&#10;\u{9B}2J\u{202E}sale</string><key>type</key>
            <string>cart</string><key>percent</key><integer>10</integer><key>coupon</key><string>SPRING</string></dict></array></plist>
            """
        ])
        let store = ["--store", dir.appendingPathComponent("s.sqlite").path, "--promotions", "p.plist"]
        #expect(try checkout(["cart", "add", "MUG"] + store, in: dir).status == 0)
        let run = try checkout(["cart", "coupon", "add", "spring"] + store, in: dir)
        #expect(run.status == 0)
        #expect(run.stdout == #"Coupon added: it unlocks "Spring\r\n\u{9b}2J\u{202e}sale"."# + "\n")
    }

    @Test("validate's text report and price's diagnostics name a file whose name holds control characters escaped")
    func fileNames() throws {
        let name = "new\nline\u{1B}[31m\\.plist"
        let dir = try temporaryDirectory([
            name: "<plist><array><dict><key>name</key><string>x</string></dict></array></plist>",
            "mug.json": #"["MUG"]"#
        ])
        let shown = #"new\nline\u{1b}[31m\.plist"#
        let missingType =
            ":1:15: error: missing key `type`: `type` is one of combo, bulk, percent, amount, cart, bundle, bxgy [promotion.missing-key]\n"
        let validate = try checkout(["validate", name, "gone\r.plist"], in: dir)
        #expect(validate.status == 66)
        #expect(
            validate.stdout
                == shown + missingType + #"gone\r.plist: error: cannot read: No such file or directory"# + "\n"
                + "1 error, 0 warnings in 2 files; 1 file could not be read\n")
        // GitHub's own escapes for CR and LF, then the others.
        let github = try checkout(["validate", name, "--format", "github"], in: dir)
        #expect(
            github.stdout.hasPrefix(
                #"::error file=new%0Aline\u{1b}[31m\.plist,line=1,col=15,title=promotion.missing-key::missing key `type`"#
            ))
        let price = try checkout(["price", "mug.json", "--promotions", name], in: dir)
        #expect(price.status == 65)
        #expect(price.stderr.hasPrefix(shown + missingType))
    }

    @Test("a 1 MB unknown code gives a short message")
    func longValuesCut() throws {
        let code = String(repeating: "X", count: 1_000_000)
        let dir = try temporaryDirectory(["cart.json": #"{"items": ["\#(code)"]}"#])
        let run = try checkout(["price", "cart.json"], in: dir)
        #expect(run.status == 65)
        #expect(run.stderr.utf8.count < 600)
        #expect(run.stderr.contains("… (999800 more characters)"))
    }
}

import Foundation
import Testing

/// `checkout diff` through the binary, on a corpus whose every figure is worked out by hand (docs/diff.md).
@Suite("checkout diff, end to end", .serialized)
struct DiffCommandTests {
    static func dict(_ body: String) -> String { "<dict>\(body)</dict>" }
    static let voucher =
        "<key>name</key><string>VOUCHER 2x1</string><key>type</key><string>combo</string><key>code</key><string>VOUCHER</string><key>quantity</key><integer>2</integer><key>paid</key><integer>1</integer>"
    static func shirts(_ price: String) -> String {
        "<key>name</key><string>TSHIRT 3+</string><key>type</key><string>bulk</string><key>code</key><string>TSHIRT</string><key>quantity</key><integer>3</integer><key>price</key><real>\(price)</real>"
    }
    static let old =
        "<plist><array>"
        + [
            voucher, shirts("19"),
            "<key>id</key><string>gone</string><key>name</key><string>Mugs 10</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>10</integer>"
        ].map(dict).joined() + "</array></plist>"
    static let new =
        "<plist><array>"
        + [
            voucher, shirts("18"),
            "<key>id</key><string>mugs</string><key>name</key><string>Mugs 20</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>20</integer>",
            "<key>id</key><string>big</string><key>name</key><string>Big</string><key>type</key><string>cart</string><key>percent</key><integer>10</integer><key>minimum</key><real>100</real>"
        ].map(dict).joined() + "</array></plist>"
    /// Line by line, old → new: 5.00 → 5.00; 57.00 → 54.00; 6.75 → 6.00; HAT fails; 114.00 → 97.20 (108.00 − 10 %);
    /// blank; malformed; 27.00 → 24.00.
    static let day =
        [
            #"["VOUCHER", "VOUCHER"]"#, #"["TSHIRT", "TSHIRT", "TSHIRT"]"#, #"["MUG"]"#, #"["HAT"]"#,
            #"{"items": [{"code": "TSHIRT", "quantity": 6}]}"#, "", #"{"items": ["#, #"["MUG", "MUG", "MUG", "MUG"]"#
        ].joined(separator: "\n") + "\n"

    /// Writes `carts`, one per line, to `name` in `dir`.
    func write(_ carts: [String], to name: String, in dir: URL) throws {
        try Data(carts.map { $0 + "\n" }.joined().utf8).write(to: dir.appendingPathComponent(name))
    }

    func files() throws -> URL {
        try temporaryDirectory([
            "old.plist": Self.old, "new.plist": Self.new, "day.ndjson": Self.day, "extra.json": #"["VOUCHER"]"#
        ])
    }

    @Test("every figure of the report, in JSON")
    func json() throws {
        let run = try checkout(
            ["diff", "old.plist", "new.plist", "--carts", "day.ndjson", "extra.json", "--format", "json"],
            in: try files())
        #expect(run.status == 1)  // two carts failed
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(report["carts"] as? Int == 8)
        #expect(report["failed"] as? Int == 2)
        #expect(report["changed"] as? Int == 4)
        let failures = report["failures"] as? [[String: Any]] ?? []
        #expect(failures.map { "\($0["file"]!):\($0["line"]!)" } == ["day.ndjson:4", "day.ndjson:7"])
        #expect(failures.first?["error"] as? String == #"items[0]: unknown product code "HAT""#)
        #expect((failures.last?["error"] as? String)?.hasPrefix("line 7, column 12: malformed JSON") == true)
        // 5.00 + 57.00 + 6.75 + 114.00 + 27.00 + 5.00 = 214.75 → 5.00 + 54.00 + 6.00 + 97.20 + 24.00 + 5.00 = 191.20:
        // −23.55, −10.966… % → −10.97.
        let revenue = report["revenue"] as? [String: Any] ?? [:]
        #expect(revenue["before"] as? String == "214.75")
        #expect(revenue["after"] as? String == "191.20")
        #expect(revenue["difference"] as? String == "-23.55")
        #expect(revenue["percent"] as? String == "-10.97")
        let promotions = (report["promotions"] as? [[String: Any]] ?? []).map { p -> String in
            func side(_ value: Any?) -> String {
                guard let effect = value as? [String: Any] else { return "null" }
                return "\(effect["carts"]!) \(effect["discount"]!)"
            }
            return "\(p["id"]!): \(side(p["before"])) → \(side(p["after"]))"
        }
        #expect(
            promotions == [
                "TSHIRT 3+: 2 9.00 → 2 18.00", "VOUCHER 2x1: 1 5.00 → 1 5.00", "big: null → 1 10.80",
                "gone: 2 3.75 → null", "mugs: null → 2 7.50"
            ])
        let largest = (report["largest_changes"] as? [[String: Any]] ?? []).map {
            "\($0["file"]!):\($0["line"]!) \($0["before"]!) \($0["after"]!) \($0["difference"]!)"
        }
        #expect(
            largest == [
                "day.ndjson:5 114.00 97.20 -16.80", "day.ndjson:2 57.00 54.00 -3.00", "day.ndjson:8 27.00 24.00 -3.00",
                "day.ndjson:3 6.75 6.00 -0.75"
            ])
    }

    @Test("the same report whether the carts come in one file or in several, but for file and line")
    func oneOrSeveral() throws {
        let dir = try files()
        let lines = Self.day.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter {
            !$0.isEmpty
        }
        var names: [String] = []
        for (index, line) in lines.enumerated() {
            let name = "cart\(index).json"
            try Data(line.utf8).write(to: dir.appendingPathComponent(name))
            names.append(name)
        }
        let one = try checkout(
            ["diff", "old.plist", "new.plist", "--carts", "day.ndjson", "extra.json", "--format", "json"], in: dir)
        let several = try checkout(
            ["diff", "old.plist", "new.plist", "--carts"] + names + ["extra.json", "--format", "json"], in: dir)
        func stripped(_ text: String) throws -> String {
            var report = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
            for key in ["failures", "largest_changes"] {
                report[key] = (report[key] as? [[String: Any]] ?? []).map { entry in
                    // A malformed cart's error names its line in its file, as "line" does.
                    entry.filter { $0.key != "file" && $0.key != "line" }.mapValues { value in
                        (value as? String)?.replacingOccurrences(
                            of: "^line [0-9]+, ", with: "", options: .regularExpression) ?? value
                    }
                }
            }
            return String(
                decoding: try JSONSerialization.data(withJSONObject: report, options: .sortedKeys), as: UTF8.self)
        }
        #expect(one.status == several.status)
        #expect(try stripped(one.stdout) == stripped(several.stdout))
        #expect(several.stdout.contains(#""file" : "cart4.json""#) || several.stdout.contains(#""file": "cart4.json""#))
    }

    @Test("the gate: exit 1 only beyond the given change; text and markdown summaries")
    func gate() throws {
        let dir = try files()
        try write(["[\"TSHIRT\", \"TSHIRT\", \"TSHIRT\"]", "[\"MUG\"]"], to: "ok.ndjson", in: dir)
        // 57.00 + 6.75 = 63.75 → 60.00: −3.75, −5.882… %.
        let within = try checkout(
            ["diff", "old.plist", "new.plist", "--carts", "ok.ndjson", "--fail-on-revenue-change", "5.89"], in: dir)
        #expect(within.status == 0)
        #expect(
            within.stdout == """
                Carts: 2 (0 failed, 2 changed)
                Revenue: 63.75 € → 60.00 € (-3.75 €, -5.88 %)
                Promotions that changed:
                  TSHIRT 3+: 1 cart, 3.00 € → 1 cart, 6.00 €
                  big: absent → 0 carts, 0.00 €
                  gone: 1 cart, 0.75 € → absent
                  mugs: absent → 1 cart, 1.50 €
                Largest changes:
                  ok.ndjson:1: 57.00 € → 54.00 € (-3.00 €)
                  ok.ndjson:2: 6.75 € → 6.00 € (-0.75 €)

                """)
        let beyond = try checkout(
            ["diff", "old.plist", "new.plist", "--carts", "ok.ndjson", "--fail-on-revenue-change", "5.88"], in: dir)
        #expect(beyond.status == 1)
        #expect(beyond.stderr == "error: revenue changed by -5.88 %, beyond --fail-on-revenue-change 5.88\n")
        let markdown = try checkout(
            ["diff", "old.plist", "new.plist", "--carts", "ok.ndjson", "--format", "markdown"], in: dir)
        #expect(markdown.stdout.hasPrefix("### Promotions change: revenue -5.88 %\n"))
        #expect(markdown.stdout.contains("| revenue | 63.75 € | 60.00 € | -3.75 € |"))
        #expect(markdown.stdout.contains("| `TSHIRT 3+` | 1 | 3.00 € | 1 | 6.00 € |"))
    }

    @Test("markdown: the carts priced under both files, not counting one that could not be priced")
    func markdownCounts() throws {
        let dir = try files()
        try write(["[\"TSHIRT\", \"TSHIRT\", \"TSHIRT\"]", "[\"MUG\"]", "[\"NOPE\"]"], to: "some.ndjson", in: dir)
        let markdown = try checkout(
            ["diff", "old.plist", "new.plist", "--carts", "some.ndjson", "--format", "markdown"], in: dir)
        #expect(markdown.status == 1)
        #expect(
            markdown.stdout == """
                ### Promotions change: revenue -5.88 %

                | | before | after | difference |
                | --- | ---: | ---: | ---: |
                | revenue | 63.75 € | 60.00 € | -3.75 € |

                2 carts priced under both files, 2 changed; 1 cart could not be priced.

                | promotion | carts before | discount before | carts after | discount after |
                | --- | ---: | ---: | ---: | ---: |
                | `TSHIRT 3+` | 1 | 3.00 € | 1 | 6.00 € |
                | `big` | — | — | 0 | 0.00 € |
                | `gone` | 1 | 0.75 € | — | — |
                | `mugs` | — | — | 1 | 1.50 € |

                <details><summary>Largest changes</summary>

                | cart | before | after | difference |
                | --- | ---: | ---: | ---: |
                | `some.ndjson:1` | 57.00 € | 54.00 € | -3.00 € |
                | `some.ndjson:2` | 6.75 € | 6.00 € | -0.75 € |

                </details>

                **1 cart could not be priced**; the first:

                - `some.ndjson:3`: `items[0]: unknown product code "NOPE"`

                """)
    }

    @Test("ids are their bytes: é as one code point and e with a combining accent are two promotions")
    func idsByBytes() throws {
        func plist(_ id: String, _ percent: Int) -> String {
            "<plist><array><dict><key>id</key><string>\(id)</string><key>name</key><string>n</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>\(percent)</integer></dict></array></plist>"
        }
        let dir = try temporaryDirectory([
            "composed.plist": plist("\u{E9}", 10), "decomposed.plist": plist("e\u{301}", 20), "mug.json": #"["MUG"]"#
        ])
        let run = try checkout(
            ["diff", "composed.plist", "decomposed.plist", "--carts", "mug.json", "--format", "json"], in: dir)
        #expect(run.status == 0)
        let promotions = try CheckoutCLITests.json(run.stdout)["promotions"] as? [[String: Any]] ?? []
        // By bytes: 65 CC 81 before C3 A9. 10 % and 20 % of 7.50.
        #expect(promotions.map { Array(($0["id"] as? String ?? "").utf8) } == [[0x65, 0xCC, 0x81], [0xC3, 0xA9]])
        #expect(promotions.map { $0["before"] is NSNull } == [true, false])
        #expect(promotions.map { $0["after"] is NSNull } == [false, true])
        #expect((promotions.first?["after"] as? [String: Any])?["discount"] as? String == "1.50")
        #expect((promotions.last?["before"] as? [String: Any])?["discount"] as? String == "0.75")
    }

    @Test("a revenue beyond a 64-bit count of minor units is an error (65), not a figure")
    func revenueOutOfRange() throws {
        // 9,000,000,000.00 € a unit, 1,000,000 units a cart: 9 × 10¹⁷ cents; 11 carts pass 2⁶³ − 1.
        let dir = try temporaryDirectory([
            "big.json": #"{"products": [{"code": "BIG", "name": "Big", "price": "9000000000.00"}]}"#,
            "none.plist": "<plist><array/></plist>",
            "ten.ndjson": String(repeating: #"[{"code": "BIG", "quantity": 1000000}]"# + "\n", count: 10),
            "eleven.ndjson": String(repeating: #"[{"code": "BIG", "quantity": 1000000}]"# + "\n", count: 11)
        ])
        let ten = try checkout(
            ["diff", "none.plist", "none.plist", "--carts", "ten.ndjson", "-c", "big.json", "--format", "json"], in: dir
        )
        #expect(ten.status == 0)
        let revenue = try CheckoutCLITests.json(ten.stdout)["revenue"] as? [String: Any]
        #expect(revenue?["before"] as? String == "90000000000000000.00")
        let eleven = try checkout(
            ["diff", "none.plist", "none.plist", "--carts", "eleven.ndjson", "-c", "big.json"], in: dir)
        #expect(eleven.status == 65)
        #expect(eleven.stdout == "")
        #expect(
            eleven.stderr
                == "error: the revenue before, 99000000000000000.00 EUR, does not fit in a 64-bit count of minor units: diff fewer carts at a time\n"
        )
    }

    @Test("a fall too small to show in percent reads -0.00 %, in text and markdown; JSON keeps 0.00")
    func tinyFall() throws {
        let dir = try files()
        try Data("<plist><array/></plist>".utf8).write(to: dir.appendingPathComponent("none.plist"))
        try Data(
            "<plist><array><dict><key>name</key><string>Cent</string><key>type</key><string>cart</string><key>amount</key><real>0.01</real></dict></array></plist>"
                .utf8
        ).write(to: dir.appendingPathComponent("cent.plist"))
        try write([#"{"items": [{"code": "TSHIRT", "quantity": 400}]}"#], to: "big.ndjson", in: dir)
        // 8000.00 → 7999.99: −0.01, −0.000125 %, 0.00 to two decimals.
        let text = try checkout(["diff", "none.plist", "cent.plist", "--carts", "big.ndjson"], in: dir)
        #expect(text.stdout.contains("Revenue: 8000.00 € → 7999.99 € (-0.01 €, -0.00 %)\n"))
        let markdown = try checkout(
            ["diff", "none.plist", "cent.plist", "--carts", "big.ndjson", "--format", "markdown"], in: dir)
        #expect(markdown.stdout.hasPrefix("### Promotions change: revenue -0.00 %\n"))
        let json = try checkout(
            ["diff", "none.plist", "cent.plist", "--carts", "big.ndjson", "--format", "json"], in: dir)
        #expect(json.stdout.contains(#""percent": "0.00""#) || json.stdout.contains(#""percent":"0.00""#))
        // A threshold past what the option holds is said to be so, not to be a malformed percentage.
        let huge = try checkout(
            ["diff", "none.plist", "cent.plist", "--carts", "big.ndjson", "--fail-on-revenue-change", "9223372036855"],
            in: dir)
        #expect(huge.status == 64)
        #expect(
            huge.stderr.hasPrefix(
                #"error: --fail-on-revenue-change: "9223372036855" is more than it takes (at most 9223372036854.775807)"#
            ))
    }

    @Test("usage 64, an invalid promotions file 65, a missing cart file 66")
    func exitCodes() throws {
        let dir = try files()
        #expect(try checkout(["diff", "old.plist", "new.plist"], in: dir).status == 64)
        #expect(
            try checkout(
                ["diff", "old.plist", "new.plist", "--carts", "day.ndjson", "--fail-on-revenue-change", "lots"], in: dir
            ).status == 64)
        try Data("<plist><array><dict><key>name</key><string>x</string></dict></array></plist>".utf8).write(
            to: dir.appendingPathComponent("bad.plist"))
        let bad = try checkout(["diff", "old.plist", "bad.plist", "--carts", "day.ndjson"], in: dir)
        #expect(bad.status == 65)
        #expect(bad.stdout == "")
        let missing = try checkout(["diff", "old.plist", "new.plist", "--carts", "day.ndjson", "nope.ndjson"], in: dir)
        #expect(missing.status == 66)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "error: nope.ndjson: cannot open: No such file or directory\n")
    }
}

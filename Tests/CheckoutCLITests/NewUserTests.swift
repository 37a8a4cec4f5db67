import Foundation
import Testing

/// The command line as a new user meets it (issue 26): each defect found by trying it from a fresh
/// clone, through the binary.
@Suite("The command line as a new user meets it", .serialized)
struct NewUserTests {
    static let at = "2026-11-21T10:00:00Z"
    static let mixAndMatch = [
        "--promotions", "Rules/mix-and-match/Promotions.plist", "--catalog", "Rules/mix-and-match/Products.json"
    ]
    static let noPromotions = "<plist version=\"1.0\"><array/></plist>"
    static let socks = #"{"currency": "EUR", "products": [{"code": "SOCK", "name": "Wool Socks", "price": 3}]}"#

    func store() throws -> [String] {
        ["--store", try temporaryDirectory().appendingPathComponent("store.sqlite").path]
    }

    /// Runs `script` in bash, in `directory`; its standard output.
    func bash(_ script: String, in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: 2. Coupons are never shown

    @Test("2. the shop never shows a promotion's coupon: the shipped stores' cart promotions say \"with a coupon\"")
    func couponsNeverShown() throws {
        let mix = try checkout(["shop"] + Self.mixAndMatch + store(), stdin: "$\nc\n$\nq\n")
        #expect(mix.status == 0)
        #expect(mix.stdout.contains("  Cart: 10% off the cart from 60.00 €, at most 15.00 € with a coupon\n"))
        #expect(mix.stdout.contains("! Give the coupon after the $, as $ CODE.\n"))
        #expect(!mix.stdout.uppercased().contains("SPRING"))
        let explained = [
            "--promotions", "Rules/explained/Promotions.plist", "--catalog", "Rules/explained/Products.json"
        ]
        let members = try checkout(["shop"] + explained + store(), stdin: "q\n")
        #expect(members.stdout.contains("50% off with a coupon"))
        #expect(!members.stdout.contains("TOPSECRET"))
    }

    // MARK: 4. A buy-X-get-Y's reward product

    @Test("4. the shop labels a buy-X-get-Y's reward product with the reward, its trigger with the offer")
    func rewardProduct() throws {
        let run = try checkout(["shop"] + Self.mixAndMatch + store(), stdin: "q\n")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "  1. Cabify T-Shirt     20.00 €   any 3 for 50.00 €, at most twice per order; buy 1, get 1 MUG free, once per order"
            ))
        #expect(lines.contains("  4. Cabify Coffee Mug   7.50 €   1 free with every 1 TSHIRT bought, once per order"))
        #expect(lines.contains("  5. Cabify Sticker      1.50 €   buy 2, get 1 free"))
    }

    // MARK: 5. diff names cart ids

    @Test("5. diff names each cart's id in text, JSON (largest_changes[].id) and markdown")
    func diffIDs() throws {
        let dir = try temporaryDirectory([
            "new.plist": Self.noPromotions,
            // Old (shipped): 5.00, 57.00, 10.00; new (none): 10.00, 60.00, 20.00.
            "carts.ndjson": [
                #"{"id": "ord-0025", "items": [{"code": "VOUCHER", "quantity": 2}]}"#,
                #"{"id": 17, "items": [{"code": "TSHIRT", "quantity": 3}]}"#,
                #"["VOUCHER", "VOUCHER", "VOUCHER", "VOUCHER"]"#
            ].joined(separator: "\n") + "\n"
        ])
        let arguments = [
            "diff", packageRoot.appendingPathComponent("Rules/Promotions.plist").path, "new.plist", "--carts",
            "carts.ndjson", "--catalog", packageRoot.appendingPathComponent("Rules/Products.json").path
        ]
        let text = try checkout(arguments, in: dir)
        #expect(text.status == 0)
        #expect(
            text.stdout.contains(
                """
                Largest changes:
                  carts.ndjson:3: 10.00 € → 20.00 € (+10.00 €)
                  carts.ndjson:1 (id "ord-0025"): 5.00 € → 10.00 € (+5.00 €)
                  carts.ndjson:2 (id 17): 57.00 € → 60.00 € (+3.00 €)

                """))
        let report = try json(checkout(arguments + ["--format", "json"], in: dir).stdout)
        let changes = report["largest_changes"] as? [[String: Any]] ?? []
        #expect(changes.map { $0["line"] as? Int } == [3, 1, 2])
        #expect(changes[0]["id"] == nil)
        #expect(changes[1]["id"] as? String == "ord-0025")
        #expect(changes[2]["id"] as? Int == 17)
        // The id comes after the line, as the JSON is written.
        let raw = try checkout(arguments + ["--format", "json"], in: dir).stdout
        #expect(raw.contains(#""line": 2,"# + "\n" + #"      "id": 17,"#))
        let markdown = try checkout(arguments + ["--format", "markdown"], in: dir).stdout
        #expect(markdown.contains("| `carts.ndjson:1` (id `\"ord-0025\"`) | 5.00 € | 10.00 € | +5.00 € |"))
        #expect(markdown.contains("| `carts.ndjson:2` (id `17`) | 57.00 € | 60.00 € | +3.00 € |"))
        #expect(markdown.contains("| `carts.ndjson:3` | 10.00 € | 20.00 € | +10.00 € |"))
    }

    // MARK: 6. Batch error positions

    @Test("6. a malformed batch line's error names the file's line, in text, JSON and diff")
    func batchPositions() throws {
        let day = [#"["MUG"]"#, "", #"["MUG"]"#, #"["MUG"]"#, #"{"items": ["MUG""#].joined(separator: "\n") + "\n"
        let dir = try temporaryDirectory(["day.ndjson": day, "same.plist": Self.noPromotions])
        let catalog = ["--catalog", packageRoot.appendingPathComponent("Rules/Products.json").path]
        let text = try checkout(["price", "day.ndjson", "--promotions", "same.plist"] + catalog, in: dir)
        #expect(text.status == 1)
        #expect(
            text.stdout.hasSuffix(
                "day.ndjson:5: error: line 5, column 17: malformed JSON: unexpected end of input; expected ',' or ']'\n"
            ))
        let json = try checkout(
            ["price", "day.ndjson", "--promotions", "same.plist", "--format", "json"] + catalog, in: dir)
        #expect(
            json.stdout.hasSuffix(
                #"{"line":5,"error":"line 5, column 17: malformed JSON: unexpected end of input; expected ',' or ']'"}"#
                    + "\n"))
        let diff = try CheckoutCLITests.json(
            checkout(
                ["diff", "same.plist", "same.plist", "--carts", "day.ndjson", "--format", "json"] + catalog, in: dir
            ).stdout)
        let failure = (diff["failures"] as? [[String: Any]])?.first
        #expect(failure?["line"] as? Int == 5)
        #expect((failure?["error"] as? String)?.hasPrefix("line 5, column 17: malformed JSON") == true)
    }

    // MARK: 7. A batch with failed carts says so on stderr

    @Test("7. a batch with failed carts says how many of how many failed, and the first, in text and JSON")
    func batchSummary() throws {
        var lines = Array(repeating: #"["MUG"]"#, count: 1_000)
        lines[4] = #"["HAT"]"#
        lines[9] = #"{"items": ["#
        lines[699] = #"["HAT", "MUG"]"#
        let dir = try temporaryDirectory(["day.ndjson": lines.joined(separator: "\n") + "\n"])
        let path = dir.appendingPathComponent("day.ndjson").path
        let summary = "error: 3 of 1,000 carts failed (first: line 5: items[0]: unknown product code \"HAT\")\n"
        for format in ["text", "json"] {
            let run = try checkout(["price", path, "--format", format])
            #expect(run.status == 1)
            #expect(run.stderr == summary, "\(format)")
            #expect(run.stdout.split(separator: "\n").count == 1_000)
        }
        // Several inputs: the first failure names its file.
        let two = try checkout(["price", "Rules/carts/example-1.json", path, "--format", "json"])
        #expect(
            two.stderr == "error: 3 of 1,001 carts failed (first: \(path):5: items[0]: unknown product code \"HAT\")\n")
        // Against the built-in store, the unknown codes say which catalog was used.
        let builtIn = try checkout(["price", "day.ndjson"], in: dir, environment: ["CHECKOUT_CATALOG": ""])
        #expect(builtIn.stderr.hasPrefix(summary.replacingOccurrences(of: path, with: "day.ndjson")))
        #expect(builtIn.stderr.contains("\nnote: the catalog is the built-in Cabify store's"))
        // A malformed line first: its message names its line once.
        lines[4] = #"["MUG"]"#
        let malformed = try temporaryDirectory(["day.ndjson": lines.joined(separator: "\n") + "\n"])
        let run = try checkout(["price", "day.ndjson", "--catalog", "-"], stdin: Self.socks, in: malformed)
        #expect(
            run.stderr.hasPrefix("error: 1,000 of 1,000 carts failed (first: line 1: items[0]: unknown product code"))
        let mugs = try checkout(
            ["price", malformed.appendingPathComponent("day.ndjson").path, "--format", "json"])
        #expect(
            mugs.stderr
                == "error: 2 of 1,000 carts failed (first: line 10, column 12: malformed JSON: unexpected end of input; expected a JSON value)\n"
        )
    }

    // MARK: 8. The built-in store, and the environment's defaults

    @Test(
        "8. the built-in store is named where it matters; CHECKOUT_CATALOG and CHECKOUT_PROMOTIONS stand in for options"
    )
    func builtInStore() throws {
        let dir = try temporaryDirectory([
            "socks.json": #"["SOCK", "SOCK"]"#, "mug.json": #"["MUG"]"#, "Socks.json": Self.socks,
            "none.plist": Self.noPromotions
        ])
        let unset = ["CHECKOUT_CATALOG": "", "CHECKOUT_PROMOTIONS": ""]
        let unknown = try checkout(["price", "socks.json"], in: dir, environment: unset)
        #expect(unknown.status == 65)
        #expect(
            unknown.stderr == """
                error: socks.json: items[0]: unknown product code "SOCK"
                note: the catalog is the built-in Cabify store's (no --catalog, $CHECKOUT_CATALOG unset, no Rules/Products.json here): give --catalog FILE or set CHECKOUT_CATALOG

                """)
        let mug = try checkout(["price", "mug.json", "--at", Self.at], in: dir, environment: unset)
        #expect(mug.stdout.hasPrefix("Receipt 2026-11-21T10:00:00Z (EUR; built-in Cabify store)\n"))
        // Set once in the environment: no option needed, and nothing built in to name.
        let both = ["CHECKOUT_CATALOG": "Socks.json", "CHECKOUT_PROMOTIONS": "none.plist"]
        let socks = try checkout(["price", "socks.json", "--at", Self.at], in: dir, environment: both)
        #expect(socks.status == 0)
        #expect(socks.stdout.hasPrefix("Receipt 2026-11-21T10:00:00Z (EUR)\n"))
        #expect(socks.stdout.contains("SOCK  Wool Socks  2 × 3.00 €   6.00 €\n"))
        let catalogOnly = try checkout(
            ["price", "socks.json", "--at", Self.at], in: dir, environment: ["CHECKOUT_CATALOG": "Socks.json"])
        #expect(catalogOnly.stdout.hasPrefix("Receipt 2026-11-21T10:00:00Z (EUR; built-in Cabify promotions)\n"))
        // An option beats the environment.
        let option = try checkout(
            ["price", "mug.json", "--catalog", packageRoot.appendingPathComponent("Rules/Products.json").path],
            in: dir, environment: both)
        #expect(option.status == 0)
        let missing = try checkout(
            ["price", "mug.json"], in: dir, environment: ["CHECKOUT_PROMOTIONS": "gone.plist"])
        #expect(missing.status == 66)
        #expect(
            missing.stderr
                == "error: gone.plist: cannot read: No such file or directory\nnote: the path gone.plist comes from $CHECKOUT_PROMOTIONS (give --promotions FILE for another)\n"
        )
        // The shopping commands too.
        let store = try store()
        let add = try checkout(["cart", "add", "SOCK"] + store, in: dir, environment: unset)
        #expect(add.status == 65)
        #expect(
            add.stderr.hasSuffix(
                "\nnote: the catalog is the built-in Cabify store's (no --catalog, $CHECKOUT_CATALOG unset, no Rules/Products.json here): give --catalog FILE or set CHECKOUT_CATALOG\n"
            ))
        #expect(
            try checkout(["cart", "add", "SOCK"] + store, in: dir, environment: both).stdout
                == "Added 1 × Wool Socks (SOCK).\n")
        #expect(try checkout(["price", "--help"]).stdout.contains("$CHECKOUT_CATALOG"))
        let mugStore = try self.store()
        try checkout(["cart", "add", "MUG"] + mugStore, in: dir, environment: unset)
        let shown = try checkout(["cart", "show"] + mugStore, in: dir, environment: unset)
        #expect(shown.stdout.hasPrefix("Receipt "))
        #expect(shown.stdout.split(separator: "\n").first?.hasSuffix(" (EUR; built-in Cabify store)") == true)
    }

    // MARK: 9. pay and cart add say the right thing

    @Test("9. pay without a card shows pay's usage; --card-stdin with nothing is 64 \"no card given\"; --quantity -1")
    func payUsage() throws {
        let store = try store()
        try checkout(["cart", "add", "MUG"] + store)
        let noCard = try checkout(["pay"] + store)
        #expect(noCard.status == 64)
        #expect(
            noCard.stderr.hasPrefix(
                "error: give the card on a terminal, or on standard input with --card-stdin (number, expiry and CVC, one per line)\nUsage: checkout pay "
            ))
        #expect(noCard.stderr.hasSuffix("  See 'checkout pay --help' for more information.\n"))
        #expect(!noCard.stderr.contains("<subcommand>"))
        for input in ["", "\n\n\n"] {
            let empty = try checkout(["pay", "--card-stdin"] + store, stdin: input)
            #expect(empty.status == 64)
            #expect(
                empty.stderr
                    == "error: no card given: --card-stdin reads the number, the expiry (MM/YY) and the CVC from standard input, one per line\n"
            )
        }
        let half = try checkout(["pay", "--card-stdin"] + store, stdin: "4242\n")
        #expect(half.status == 65)
        for quantity in ["-1", "0", "1000000001"] {
            let add = try checkout(["cart", "add", "MUG", "--quantity", quantity] + store)
            #expect(add.status == 64)
            #expect(add.stderr.hasPrefix("error: --quantity must be from 1 to 1,000,000,000, not \(quantity)\n"))
        }
        let remove = try checkout(["cart", "remove", "MUG", "--quantity", "-1"] + store)
        #expect(remove.status == 64)
        #expect(remove.stderr.hasPrefix("error: --quantity must be at least 1\n"))
        #expect(try json(checkout(["cart", "show", "--format", "json"] + store).stdout)["total"] as? String == "7.50")
    }

    // MARK: 10. - is standard input for every file

    @Test("10. - reads standard input for every file argument, at most once per command")
    func standardInput() throws {
        let bad =
            "<plist version=\"1.0\"><array><dict><key>name</key><string>x</string></dict></array></plist>\n"
        let dir = try temporaryDirectory(["mug.json": #"["MUG", "MUG"]"#, "none.plist": Self.noPromotions])
        let validate = try checkout(["validate", "-"], stdin: bad, in: dir)
        #expect(validate.status == 1)
        #expect(validate.stdout.hasPrefix("<stdin>:1:29: error: missing key `type`"))
        let catalog = try checkout(
            ["validate", packageRoot.appendingPathComponent("Rules/Promotions.plist").path, "-c", "-"],
            stdin: Self.socks,
            in: dir)
        #expect(catalog.stdout.contains("[promotion.unknown-code]"))
        let promotions = try checkout(
            ["price", "mug.json", "--promotions", "-", "--format", "json"], stdin: Self.noPromotions, in: dir)
        #expect(promotions.status == 0)
        #expect(try json(promotions.stdout)["total"] as? String == "15.00")
        let refused = try checkout(["price", "mug.json", "--promotions", "-"], stdin: bad, in: dir)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.hasSuffix(
                "error: <stdin> has 1 error; fix it before pricing (`checkout validate -` lists it)\n"))
        let diff = try checkout(
            ["diff", "-", "none.plist", "--carts", "mug.json", "--format", "json"], stdin: Self.noPromotions, in: dir)
        #expect(diff.status == 0)
        #expect(try json(diff.stdout)["carts"] as? Int == 1)
        for arguments in [
            ["price", "-", "--promotions", "-"], ["validate", "-", "-"], ["diff", "-", "-", "--carts", "mug.json"],
            ["diff", "none.plist", "none.plist", "--carts", "-", "--catalog", "-"], ["products", "-p", "-", "-c", "-"],
            ["cart", "show", "-p", "-", "-c", "-"]
        ] {
            let twice = try checkout(arguments, stdin: "", in: dir)
            #expect(twice.status == 64, "\(arguments)")
            #expect(twice.stderr.hasPrefix("error: standard input can be read only once, but - is given for "))
        }
        // The same reader twice is counted, not repeated.
        #expect(
            try checkout(["price", "-", "-"], stdin: "", in: dir).stderr.hasPrefix(
                "error: standard input can be read only once, but - is given for 2 carts: give files for all but one\n")
        )
        let store = try store()
        let coupon = try checkout(["cart", "coupon", "add", "-", "--promotions", "-"] + store, stdin: "", in: dir)
        #expect(coupon.status == 64)
        #expect(
            coupon.stderr.hasPrefix(
                "error: standard input can be read only once, but - is given for the coupon, --promotions: give files for all but one\n"
            ))
        let pay = try checkout(["pay", "--card-stdin", "-p", "-"] + store, stdin: "", in: dir)
        #expect(pay.status == 64)
    }

    // MARK: 11. Completion of file names

    @Test("11. bash completion offers the files each argument and option takes")
    func completion() throws {
        let dir = try temporaryDirectory([
            "Promotions.plist": "", "Products.json": "", "day.ndjson": "", "notes.txt": "", "Rules/x": ""
        ])
        let script = try checkout(["--generate-completion-script", "bash"]).stdout
        try Data(script.utf8).write(to: dir.appendingPathComponent("completion.bash"))
        /// What pressing TAB after `line` offers, sorted.
        func offered(_ words: [String]) throws -> [String] {
            let array = words.map { "'\($0)'" }.joined(separator: " ")
            let output = try bash(
                """
                shopt -s extglob; source ./completion.bash
                PATH="\(checkoutBinary.deletingLastPathComponent().path):$PATH"
                COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); COMP_LINE="\(words.joined(separator: " "))"
                COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _checkout checkout '\(words.last!)' '\(words[words.count - 2])'
                printf '%s\\n' "${COMPREPLY[@]}"
                """, in: dir)
            return output.split(separator: "\n").map(String.init).sorted()
        }
        #expect(try offered(["checkout", "price", "Pro"]) == ["Products.json"])
        #expect(try offered(["checkout", "price", ""]) == ["Products.json", "Rules", "day.ndjson"])
        #expect(try offered(["checkout", "price", "--promotions", "Pro"]) == ["Promotions.plist"])
        #expect(try offered(["checkout", "price", "-c", ""]) == ["Products.json", "Rules"])
        #expect(try offered(["checkout", "validate", ""]) == ["Promotions.plist", "Rules"])
        #expect(try offered(["checkout", "diff", "Pro"]) == ["Promotions.plist"])
        #expect(try offered(["checkout", "diff", "a.plist", "b.plist", "--carts", "d"]) == ["day.ndjson"])
        #expect(try offered(["checkout", "cart", "add", "MUG", "--promotions", "P"]) == ["Promotions.plist"])
        #expect(try offered(["checkout", "orders", "--store", ""]) == ["Rules"])
        // Product codes: the catalog's the command line names, else the one it would read (here
        // the built-in store's: no Rules/Products.json).
        let mixAndMatch = packageRoot.appendingPathComponent("Rules/mix-and-match/Products.json").path
        #expect(try offered(["checkout", "cart", "add", "-c", mixAndMatch, "H"]) == ["HOODIE"])
        #expect(try offered(["checkout", "cart", "add", "--catalog=\(mixAndMatch)", "C"]) == ["CAP"])
        #expect(try offered(["checkout", "cart", "remove", "M"]) == ["MUG"])
        #expect(try offered(["checkout", "cart", "add", ""]) == ["MUG", "TSHIRT", "VOUCHER"])
    }

    // MARK: 13. --format everywhere, short options

    @Test("13. validate takes --format (and -f), --reporter kept; -f, -p and -c for the common options")
    func formatAndShortOptions() throws {
        let dir = try temporaryDirectory([
            "bad.plist":
                "<plist version=\"1.0\"><array><dict><key>name</key><string>x</string></dict></array></plist>\n"
        ])
        let reporter = try checkout(["validate", "bad.plist", "--reporter", "json"], in: dir)
        #expect(reporter.status == 1)
        #expect(try json(reporter.stdout)["errors"] as? Int == 1)
        for spelling in [["--format", "json"], ["-f", "json"], ["--format=json"]] {
            #expect(try checkout(["validate", "bad.plist"] + spelling, in: dir).stdout == reporter.stdout)
        }
        let cart = "Rules/mix-and-match/carts/bxgy.json"
        let long = try checkout(["price", cart, "--format", "json", "--at", Self.at] + Self.mixAndMatch)
        let short = try checkout(
            [
                "price", cart, "-f", "json", "--at", Self.at, "-p", "Rules/mix-and-match/Promotions.plist", "-c",
                "Rules/mix-and-match/Products.json"
            ])
        #expect(long.status == 0)
        #expect(short.stdout == long.stdout)
        #expect(try json(short.stdout)["total"] as? String == "47.50")
        #expect(try checkout(["products", "-f", "json", "-c", "Rules/mix-and-match/Products.json"]).status == 0)
    }

    // MARK: 14. The smaller ones

    @Test("14. one error or several in words; a missing file reported once; validate's help without batch lines")
    func smallerValidate() throws {
        let missingType = "<dict><key>name</key><string>x</string></dict>"
        let dir = try temporaryDirectory([
            "two.plist":
                "<plist version=\"1.0\"><array>\(missingType)<dict><key>name</key><string>y</string></dict></array></plist>",
            "mug.json": #"["MUG"]"#
        ])
        let two = try checkout(["price", "mug.json", "--promotions", "two.plist"], in: dir)
        #expect(two.status == 65)
        #expect(
            two.stderr.hasSuffix(
                "error: two.plist has 2 errors; fix them before pricing (`checkout validate two.plist` lists them)\n"))
        let missing = try checkout(["validate", "nothere.plist"], in: dir)
        #expect(missing.status == 66)
        #expect(missing.stderr == "")
        #expect(
            missing.stdout
                == "nothere.plist: error: cannot read: No such file or directory\n0 errors, 0 warnings in 1 file; 1 file could not be read\n"
        )
        let json = try checkout(["validate", "nothere.plist", "-f", "json"], in: dir)
        #expect(json.status == 66)
        #expect(json.stderr == "error: nothere.plist: cannot read: No such file or directory\n")
        let help = try checkout(["validate", "--help"]).stdout
        #expect(!help.contains("batch"))
        #expect(help.contains("Largest input file (promotions, catalog), in bytes."))
        #expect(try checkout(["price", "--help"]).stdout.contains("batch line, in bytes."))
        // Both groups of limits refuse a bound that is not positive, before reading anything.
        for (arguments, message) in [
            (
                ["validate", "nothere.plist", "--max-text-length", "0"],
                "--max-text-length 0: give a number of bytes above 0"
            ),
            (
                ["price", "mug.json", "--max-depth", "1"],
                "--max-depth 1: give at least 2 (a promotions file nests a dictionary in its array)"
            ),
            (["price", "mug.json", "--max-file-size=-1"], "--max-file-size -1: give a number of bytes above 0")
        ] {
            let run = try checkout(arguments, in: dir)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("error: \(message)\n"), "\(arguments): \(run.stderr)")
        }
    }

    @Test("14. the cart's coupons: listed, and in cart show's JSON; orders and cart clear take no rules")
    func smallerCart() throws {
        let store = try store()
        #expect(try checkout(["cart", "coupon", "list"] + store).stdout == "The cart presents no coupon.\n")
        try checkout(["cart", "add", "MUG"] + store)
        try checkout(["cart", "coupon", "add", "spring"] + store)
        try checkout(["cart", "coupon", "add", "-"] + store, stdin: "VIP\n")
        #expect(try checkout(["cart", "coupon", "list"] + store).stdout == "spring\nVIP\n")
        let listed = try json(checkout(["cart", "coupon", "list", "--format", "json"] + store).stdout)
        #expect(listed["coupons"] as? [String] == ["spring", "VIP"])
        let shown = try checkout(["cart", "show", "--format", "json"] + store)
        let receipt = try json(shown.stdout)
        #expect(receipt["coupons"] as? [String] == ["spring", "VIP"])
        #expect(receipt["total"] as? String == "7.50")
        #expect(shown.stdout.hasSuffix("  \"coupons\": [\n    \"spring\",\n    \"VIP\"\n  ]\n}\n"))
        for command in [["orders"], ["cart", "clear"]] {
            let refused = try checkout(command + ["--promotions", "Rules/Promotions.plist"] + store)
            #expect(refused.status == 64)
            #expect(refused.stderr.hasPrefix("error: Unknown option '--promotions'"))
        }
        #expect(try checkout(["cart", "clear"] + store).stdout == "Cart is empty.\n")
        #expect(try checkout(["cart", "show"] + store).stdout == "Cart is empty.\n")
        #expect(try checkout(["cart", "coupon", "list"] + store).stdout == "The cart presents no coupon.\n")
        #expect(try checkout(["orders"] + store).stdout == "No orders yet.\n")
    }

    @Test("14. a UTF-16 cart or catalog gets a hint about the encoding")
    func utf16() throws {
        // Written as bytes: a byte order mark (or none), then each character and a zero byte.
        let dir = try temporaryDirectory()
        try Data([0xFF, 0xFE] + #"["MUG"]"#.utf8.flatMap { [$0, 0] }).write(to: dir.appendingPathComponent("cart.json"))
        try Data(#"["MUG"]"#.utf8.flatMap { [$0, 0] }).write(to: dir.appendingPathComponent("nobom.json"))
        try Data([0xFE, 0xFF] + Self.socks.utf8.flatMap { [0, $0] }).write(to: dir.appendingPathComponent("c.json"))
        let hint = "; the file looks like UTF-16 or UTF-32 text: save it as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`)\n"
        let cart = try checkout(
            ["price", "cart.json", "--catalog", packageRoot.appendingPathComponent("Rules/Products.json").path], in: dir
        )
        #expect(cart.status == 65)
        #expect(
            cart.stderr
                == "error: cart.json: line 1, column 1: malformed JSON: unexpected byte 0xFF; expected a JSON value"
                + hint)
        let noMark = try checkout(
            ["price", "nobom.json", "-c", packageRoot.appendingPathComponent("Rules/Products.json").path], in: dir)
        #expect(noMark.stderr.hasSuffix(hint))
        let catalog = try checkout(["products", "--catalog", "c.json"], in: dir)
        #expect(catalog.status == 65)
        #expect(catalog.stderr.hasSuffix(hint))
        let fine = try checkout(["price", "Rules/carts/example-1.json"])
        #expect(!fine.stderr.contains("UTF-16"))
    }

    @Test("14. a receipt piped to a file fits 80 columns, every word kept")
    func pipedWidth() throws {
        let promotions = [
            "Any 3 of shirts, hoodies and caps for 50 €", "Buy a T-shirt, get a mug free", "Stickers: 3 for 2",
            "Caps 25 % off, at most 5 €", "VOUCHER 2x1", "Spring: 10 % off from 60 €, at most 15 €"
        ]
        for cart in ["bundle", "bxgy", "cap", "spring", "three-for-two"] {
            let run = try checkout(
                ["price", "Rules/mix-and-match/carts/\(cart).json", "--at", Self.at, "--explain"] + Self.mixAndMatch)
            #expect(run.status == 0)
            let lines = run.stdout.split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= 80 }, "\(cart): \(lines.filter { $0.count > 80 })")
            // Nothing is cut: the words of each promotion named are all there, in order.
            let words = run.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            #expect(!run.stdout.contains("…"))
            for name in promotions where run.stdout.contains(String(name.prefix(8))) {
                #expect(words.contains(name), "\(cart): \(name)")
            }
        }
        // spring.json: the bundle's row continues on the next line, its amount where it was.
        let spring = try checkout(
            ["price", "Rules/mix-and-match/carts/spring.json", "--at", Self.at] + Self.mixAndMatch)
        #expect(
            spring.stdout.contains(
                """
                HOODIE   Cabify Hoodie                                   7 × 35.00 €    245.00 €
                           Any 3 of shirts, hoodies and caps for 50 € (bundle, 6       -110.00 €
                           units)

                """))
        // A receipt that fits is as it always was.
        let example = try checkout(["price", "Rules/carts/example-4.json", "--at", Self.at])
        #expect(example.stdout.split(separator: "\n")[1] == Substring(String(repeating: "=", count: 56)))
    }

    @Test("15. the shop's checkout screen adds up, and 40 columns cut names, never amounts")
    func shopCheckoutAddsUp() throws {
        let run = try inTerminal(
            ["shop"] + store() + Self.mixAndMatch, columns: 40,
            answers: [
                ("\\[q\\]uit > ", "2 3"), ("\\[q\\]uit > ", "4 3"), ("\\[q\\]uit > ", "c"),
                ("\\[q\\]uit > ", "$ spring"), ("\\[q\\]uit > ", "k"), ("\\[q\\]uit > ", "q")
            ], environment: ["NO_COLOR": "1"])
        #expect(run.status == 0)
        let lines = run.screen.split(separator: "\n").map(String.init)
        guard let products = lines.firstIndex(of: "Products"), let checkout = lines.lastIndex(of: "Checkout") else {
            Issue.record("no products or checkout screen in \(run.screen)")
            return
        }
        // 3 hoodies at 35 € in "any 3 for 50 €": -55.00; 3 mugs 22.50; the coupon's 10 % of
        // 72.50 = 7.25; 127.50 - 55.00 - 7.25 = 65.25, and 62.25 saved in all.
        #expect(
            Array(lines[(checkout + 1)...].prefix(8)) == [
                "  HOODIE  Cabify…  3 × 35.00 €  105.00 €",
                "            Any …               -55.00 €",
                "  MUG     Cabify…  3 ×  7.50 €   22.50 €",
                "  Subtotal 127.50 €",
                "  Item discounts -55.00 €",
                "  10 % off from 60 €, at most 1… -7.25 €",
                "  Total 65.25 €",
                "  You save 62.25 €."
            ])
        // The products' deals on rows of their own, each within the 40 columns.
        #expect(
            Array(lines[(products + 1)...].prefix(3)) == [
                "  1. Cabify T-Shirt     20.00 €",
                "     any 3 for 50.00 €, at most twice p…",
                "     buy 1, get 1 MUG free, once per or…"
            ])
        #expect(
            lines[products..<checkout].allSatisfy {
                $0.count <= 40 || $0.hasPrefix("Add a product") || $0.hasPrefix("[+N]") || $0.hasPrefix("Coupon added")
                    || $0.hasPrefix("  Add 1 more")
            })
    }

    @Test(
        "16. a catalog and a promotions file given the wrong way round are said to be; a path from the environment is named"
    )
    func swappedFiles() throws {
        let dir = try temporaryDirectory(["cart.json": #"["MUG"]"#])
        let cart = dir.appendingPathComponent("cart.json").path
        let catalog = packageRoot.appendingPathComponent("Rules/Products.json").path
        let promotions = packageRoot.appendingPathComponent("Rules/Promotions.plist").path
        let jsonPromotions = try checkout(["price", cart, "--promotions", catalog, "--catalog", catalog])
        #expect(jsonPromotions.status == 65)
        #expect(
            jsonPromotions.stderr
                == """
                \(catalog):1:1: error: malformed XML: Start tag expected, '<' not found [xml.malformed]
                error: \(catalog) is JSON, not a promotions plist: if it is the catalog, give it with --catalog, and the promotions with --promotions

                """)
        #expect(jsonPromotions.stdout.isEmpty)
        let plistCatalog = try checkout(
            ["price", cart], environment: ["CHECKOUT_CATALOG": promotions, "CHECKOUT_PROMOTIONS": promotions])
        #expect(plistCatalog.status == 65)
        #expect(
            plistCatalog.stderr
                == """
                error: \(promotions): line 1, column 1: malformed JSON: unexpected '<'; expected a JSON value
                note: \(promotions) is XML, not a JSON catalog: if it is the promotions plist, give it with --promotions, and the catalog with --catalog
                note: the path \(promotions) comes from $CHECKOUT_CATALOG (give --catalog FILE for another)

                """)
        let missing = try checkout(["price", cart], environment: ["CHECKOUT_PROMOTIONS": "nothere.plist"])
        #expect(missing.status == 66)
        #expect(
            missing.stderr
                == """
                error: nothere.plist: cannot read: No such file or directory
                note: the path nothere.plist comes from $CHECKOUT_PROMOTIONS (give --promotions FILE for another)

                """)
    }

    @Test("17. a coupon typed or pasted with spaces around it is the coupon; only spaces is no coupon")
    func couponSpaces() throws {
        let only = try store()
        let store = only + Self.mixAndMatch
        try checkout(["cart", "add", "HOODIE", "--quantity", "3"] + store)
        let add = try checkout(["cart", "coupon", "add", " spring "] + store)
        #expect(add.status == 0)
        #expect(add.stdout == "Coupon added: it unlocks \"10 % off from 60 €, at most 15 €, with a coupon\".\n")
        #expect(try checkout(["cart", "coupon", "list"] + only).stdout == "spring\n")
        let blank = try checkout(["cart", "coupon", "add", "  "] + store)
        #expect(blank.status == 64)
        #expect(blank.stderr.hasPrefix("error: the coupon is empty\n"))
        #expect(try checkout(["cart", "coupon", "remove", "spring\t"] + store).status == 0)
    }

    @Test("18. piped, the shop's screens keep every amount: the cart promotion's too")
    func shopPiped() throws {
        let run = try checkout(
            ["shop"] + store() + Self.mixAndMatch, stdin: "2 3\n4 3\nc\n$ spring\nk\nq\n")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let promotion = "  10 % off from 60 €, at most 15 €, with a coupon: -7.25 €"
        // Once on the cart screen after the coupon, once on the checkout screen.
        #expect(lines.filter { $0 == promotion }.count == 2)
        guard let checkout = lines.lastIndex(of: "Checkout") else {
            Issue.record("no checkout screen in \(run.stdout)")
            return
        }
        #expect(
            Array(lines[(checkout + 4)...].prefix(5)) == [
                "  Subtotal 127.50 €", "  Item discounts -55.00 €", promotion, "  Total 65.25 €", "  You save 62.25 €."
            ])
    }

    @Test("19. a rules file that is a pipe is read once, even when it is the wrong kind: no wait for more")
    func rulesFromAPipe() throws {
        let dir = try temporaryDirectory(["cart.json": #"["MUG"]"#])
        let fifo = dir.appendingPathComponent("rules").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "printf '{\"a\": 1}' > '\(fifo)'"]
        try writer.run()
        let run = Process()
        run.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        run.arguments = [
            "20", checkoutBinary.path, "price", "cart.json", "-p", fifo, "-c",
            packageRoot.appendingPathComponent("Rules/Products.json").path
        ]
        run.currentDirectoryURL = dir
        run.standardOutput = FileHandle.nullDevice
        run.standardError = FileHandle.nullDevice
        try run.run()
        run.waitUntilExit()
        writer.waitUntilExit()
        #expect(run.terminationStatus == 65)  // not 124: timed out waiting on the pipe
    }

    @Test("20. diff names $CHECKOUT_CATALOG when the catalog it gave cannot be read")
    func diffEnvironment() throws {
        let run = try checkout(
            ["diff", "Rules/Promotions.plist", "Rules/Promotions.plist", "--carts", "Rules/carts/example-1.json"],
            environment: ["CHECKOUT_CATALOG": "/nonexistent.json"])
        #expect(run.status == 66)
        #expect(
            run.stderr
                == "error: /nonexistent.json: cannot open: No such file or directory\nnote: the path /nonexistent.json comes from $CHECKOUT_CATALOG (give --catalog FILE for another)\n"
        )
    }

    @Test("21. piped, a receipt's heading stays one line, however long the cart's id")
    func longIDHeading() throws {
        let id = "6f1c2a7e-1b2c-4d3e-8f90-a1b2c3d4e5f6-9abc with spaces"
        let dir = try temporaryDirectory(["cart.json": #"{"id": "\#(id)", "items": ["MUG"]}"#])
        let run = try checkout(["price", dir.appendingPathComponent("cart.json").path, "--at", Self.at])
        #expect(run.stdout.split(separator: "\n").first == "Receipt for cart \"\(id)\", \(Self.at) (EUR)")
    }

    @Test("14. the shop's cart screen aligns quantities and unit prices, on a terminal")
    func shopCartColumns() throws {
        let run = try inTerminal(
            ["shop"] + store(), columns: 80,
            answers: [
                ("\\[q\\]uit > ", "1 12"), ("\\[q\\]uit > ", "2 3"), ("\\[q\\]uit > ", "3"), ("\\[q\\]uit > ", "c"),
                ("\\[q\\]uit > ", "q")
            ], environment: ["NO_COLOR": "1"])
        #expect(run.status == 0)
        let lines = run.screen.split(separator: "\n").map(String.init)
        guard let cart = lines.lastIndex(of: "Cart") else {
            Issue.record("no cart screen in \(run.screen)")
            return
        }
        let rows = lines[(cart + 1)...].filter { $0.contains(" × ") }
        #expect(
            rows == [
                // The amounts' column is as wide as the discounts in it ("-30.00 €").
                "  1.  Cabify Voucher     12 ×  5.00 €   60.00 €",
                "  2.  Cabify T-Shirt      3 × 20.00 €   60.00 €",
                "  3.  Cabify Coffee Mug   1 ×  7.50 €    7.50 €"
            ])
        #expect(lines.contains("Cart is empty.") == false)
    }
}

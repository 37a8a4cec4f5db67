import Foundation
import Testing

@Suite("checkout price, end to end", .serialized)
struct PriceCommandTests {
    @Test(
        "the four published examples",
        arguments: [
            ("Rules/carts/example-1.json", "32.50"), ("Rules/carts/example-2.json", "25.00"),
            ("Rules/carts/example-3.json", "81.00"), ("Rules/carts/example-4.json", "74.50")
        ])
    func publishedExamples(cart: String, total: String) throws {
        let run = try checkout(["price", cart, "--format", "json"])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(try json(run.stdout)["total"] as? String == total)
    }

    @Test("the text receipt of the shipped example")
    func textReceipt() throws {
        let run = try checkout(["price", "Rules/carts/example-4.json", "--at", "2026-11-21T11:00:00+01:00"])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                Receipt 2026-11-21T10:00:00Z (EUR)
                ========================================================
                VOUCHER  Cabify Voucher            3 ×  5.00 €   15.00 €
                           VOUCHER 2x1 (combo)                   -5.00 €
                TSHIRT   Cabify T-Shirt            3 × 20.00 €   60.00 €
                           TSHIRT 3+ (bulk price)                -3.00 €
                MUG      Cabify Coffee Mug         1 ×  7.50 €    7.50 €
                --------------------------------------------------------
                Subtotal                                         82.50 €
                Item discounts                                   -8.00 €
                Total                                            74.50 €
                You saved 8.00 €.

                """)
    }

    @Test("from any directory, with the built-in store; local Rules/ and options take precedence")
    func defaults() throws {
        let empty = try temporaryDirectory(["cart.json": #"["VOUCHER", "VOUCHER", "MUG"]"#])
        let builtIn = try checkout(["price", "cart.json", "--format", "json"], in: empty)
        #expect(builtIn.status == 0)
        #expect(try json(builtIn.stdout)["total"] as? String == "12.50")

        let local = try temporaryDirectory([
            "cart.json": #"["VOUCHER", "VOUCHER", "MUG"]"#,
            "Rules/Products.json": #"{"products": [{"code": "VOUCHER", "price": 1}, {"code": "MUG", "price": 2}]}"#,
            "Rules/Promotions.plist": "<plist><array/></plist>",
            "other.plist":
                "<plist><array><dict><key>name</key><string>half</string><key>type</key><string>cart</string><key>percent</key><integer>50</integer></dict></array></plist>"
        ])
        #expect(
            try json(checkout(["price", "cart.json", "--format", "json"], in: local).stdout)["total"] as? String
                == "4.00")
        #expect(
            try json(
                checkout(["price", "cart.json", "--format", "json", "--promotions", "other.plist"], in: local).stdout)[
                    "total"] as? String == "2.00")
    }

    @Test("a cart from standard input, coupons and the instant from the command line")
    func stdinCouponsInstant() throws {
        let rules = try temporaryDirectory([
            "p.plist": """
            <plist><array><dict><key>name</key><string>Xmas</string><key>type</key><string>cart</string><key>percent</key><real>12.5</real>
            <key>coupon</key><string>XMAS</string><key>start</key><date>2026-12-01T00:00:00Z</date></dict></array></plist>
            """
        ])
        let cart = #"{"at": "2026-12-24T10:00:00Z", "coupons": ["xmas"], "items": ["MUG"]}"#
        let run = try checkout(
            ["price", "-", "--format", "json", "--promotions", rules.appendingPathComponent("p.plist").path],
            stdin: cart)
        #expect(run.status == 0)
        let receipt = try json(run.stdout)
        #expect(receipt["at"] as? String == "2026-12-24T10:00:00Z")
        #expect(receipt["total"] as? String == "6.56")  // 7.50 − round(0.9375) = 7.50 − 0.94
        let before = try json(
            checkout(
                [
                    "price", "-", "--format", "json", "--promotions", rules.appendingPathComponent("p.plist").path,
                    "--at", "2026-11-30T23:59:59Z", "--coupon", "OTHER"
                ], stdin: cart
            ).stdout)
        #expect(before["total"] as? String == "7.50")
        #expect(
            before["warnings"] as? [String] == [
                "coupon \"xmas\" matches no active promotion", "coupon \"OTHER\" matches no active promotion"
            ])
    }

    @Test("a bad cart: a message naming the file and the item, exit 65, nothing on stdout")
    func badCart() throws {
        let dir = try temporaryDirectory([
            "cart.json": #"["MUG", "VOUCHER", "TSHIRT", "HAT"]"#, "broken.json": "[\"MUG\",", "stdin.json": ""
        ])
        let unknown = try checkout(["price", "cart.json"], in: dir)
        #expect(unknown.status == 65)
        #expect(unknown.stdout == "")
        // No Rules/ here: the built-in catalog is named.
        #expect(
            unknown.stderr
                == "error: cart.json: items[3]: unknown product code \"HAT\"\n"
                + "note: the catalog is the built-in Cabify store's (no --catalog, $CHECKOUT_CATALOG unset, no Rules/Products.json here): give --catalog FILE or set CHECKOUT_CATALOG\n"
        )
        let malformed = try checkout(["price", "broken.json"], in: dir)
        #expect(malformed.status == 65)
        #expect(
            malformed.stderr
                == "error: broken.json: line 1, column 8: malformed JSON: unexpected end of input; expected a JSON value\n"
        )
        let priced = try checkout(["price", "-"], stdin: #"[{"code": "MUG", "unit_price": 0}]"#)
        #expect(priced.status == 65)
        #expect(
            priced.stderr
                == "error: <stdin>: items[0]: a cart cannot set prices (\"unit_price\"); remove it: prices come from the catalog\n"
        )
    }

    @Test("a cart that cannot be opened: exit 66")
    func unreadableCart() throws {
        let run = try checkout(["price", "no-such-cart.json"])
        #expect(run.status == 66)
        #expect(run.stderr == "error: no-such-cart.json: cannot open: No such file or directory\n")
    }

    @Test("usage errors: exit 64")
    func usage() throws {
        let badInstant = try checkout(["price", "Rules/carts/example-1.json", "--at", "2026-11-21"])
        #expect(badInstant.status == 64)
        #expect(badInstant.stderr.hasPrefix("error: --at: \"2026-11-21\" is not an RFC 3339 date-time"))
        #expect(try checkout(["price"]).status == 64)
        #expect(try checkout(["price", "Rules/carts/example-1.json", "--format", "xml"]).status == 64)
        #expect(try checkout(["price", "Rules/carts/example-1.json", "--bogus"]).status == 64)
    }

    @Test("a promotions file with errors is refused with its diagnostics: exit 65; unreadable: 66")
    func badPromotions() throws {
        let dir = try temporaryDirectory([
            "bad.plist":
                "<plist><array>\n<dict><key>name</key><string>x</string><key>type</key><string>combo</string>\n<key>code</key><string>MUG</string><key>quantity</key><integer>2</integer><key>paid</key><integer>2</integer></dict></array></plist>"
        ])
        let run = try checkout(
            ["price", packageRoot.path + "/Rules/carts/example-1.json", "--promotions", "bad.plist"], in: dir)
        #expect(run.status == 65)
        #expect(run.stdout == "")
        #expect(
            run.stderr == """
                bad.plist:3:90: error: `paid` must be from 0 to 1 (less than `quantity`, 2), not 2 [promotion.invalid-value]
                error: bad.plist has 1 error; fix it before pricing (`checkout validate bad.plist` lists it)

                """)
        let missing = try checkout(["price", "Rules/carts/example-1.json", "--promotions", "nope.plist"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "error: nope.plist: cannot read: No such file or directory\n")
        let badCatalog = try checkout(["price", "Rules/carts/example-1.json", "--catalog", "Rules/Promotions.plist"])
        #expect(badCatalog.status == 65)
        #expect(badCatalog.stderr.hasPrefix("error: Rules/Promotions.plist: line 1, column 1: malformed JSON"))
    }

    @Test("a batch: one line per cart in input order, errors in place, exit 1")
    func batch() throws {
        let dir = try temporaryDirectory([
            "day.ndjson": "[\"VOUCHER\", \"VOUCHER\"]\n\n[\"HAT\"]\n{\"items\": [\"MUG\"]}\n[1,\n",
            "single.json": "[\"TSHIRT\"]"
        ])
        let run = try checkout(["price", "day.ndjson", "single.json", "missing.json", "--format", "json"], in: dir)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(try json(lines[0])["total"] as? String == "5.00")
        #expect(lines[1] == #"{"line":3,"error":"items[0]: unknown product code \"HAT\""}"#)
        #expect(try json(lines[2])["total"] as? String == "7.50")
        #expect(
            lines[3]
                == #"{"line":5,"error":"line 5, column 4: malformed JSON: unexpected end of input; expected a JSON value"}"#
        )
        #expect(try json(lines[4])["total"] as? String == "20.00")
        #expect(lines[5] == #"{"line":3,"error":"missing.json: cannot open: No such file or directory"}"#)

        let clean = try checkout(
            ["price", "--batch", "-", "--format", "json"], stdin: "[\"MUG\"]\n[\"MUG\", \"MUG\"]\n")
        #expect(clean.status == 0)
        #expect(clean.stdout.split(separator: "\n").count == 2)
    }

    @Test("--threads: one thread or several, the same receipts in the same order; fewer than one is a usage error")
    func threads() throws {
        // Enough carts for several blocks, with errors among them.
        let carts = (0..<30_000).map { $0 % 997 == 0 ? #"["HAT"]"# : #"{"id": \#($0), "items": ["MUG", "VOUCHER"]}"# }
        let dir = try temporaryDirectory(["day.ndjson": carts.joined(separator: "\n") + "\n"])
        let arguments = ["price", "day.ndjson", "--format", "json", "--at", "2026-06-01T00:00:00Z"]
        let one = try checkout(arguments + ["--threads", "1"], in: dir)
        let three = try checkout(arguments + ["--threads", "3"], in: dir)
        #expect(one.status == 1 && three.status == 1)
        #expect(one.stdout == three.stdout)
        let lines = one.stdout.split(separator: "\n")
        #expect(lines.count == 30_000)
        #expect(lines[997] == #"{"line":998,"error":"items[0]: unknown product code \"HAT\""}"#)
        #expect(lines[29_999].hasPrefix(#"{"id":29999,"#))
        for value in ["0", "-2"] {
            let refused = try checkout(arguments + ["--threads=\(value)"], in: dir)
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--threads must be at least 1, not \(value)"))
        }
    }

    @Test("a closed output pipe ends quietly with 141, as a process killed by SIGPIPE; a full disk stays loud")
    func closedPipe() throws {
        let lines = String(repeating: "[\"VOUCHER\", \"TSHIRT\", \"MUG\"]\n", count: 5_000)
        let dir = try temporaryDirectory(["big.ndjson": lines])
        for arguments in ["price big.ndjson --format json", "price big.ndjson", "--help", "products --format json"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            // The reader reads a little, then goes away; the shell reports each side's status.
            process.arguments = [
                "-c",
                "'\(checkoutBinary.path)' \(arguments) | head -c 10 >/dev/null; echo \"${PIPESTATUS[0]} ${PIPESTATUS[1]}\""
            ]
            process.currentDirectoryURL = dir
            let err = Pipe()
            let out = Pipe()
            process.standardError = err
            process.standardOutput = out
            try process.run()
            let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(stderr == "", "\(arguments)")
            // A small output may all fit in the pipe before `head` leaves: then it is a success.
            #expect(status == "141 0\n" || (status == "0 0\n" && !arguments.hasPrefix("price")), "\(arguments)")
        }
        let full = try measuredCheckout(["price", "big.ndjson", "--format", "json"], in: dir, stdoutPath: "/dev/full")
        #expect(full.status == 74)
        #expect(full.stderr == "error: cannot write the output: No space left on device\n")
    }
}

@Suite("checkout price, several carts as text")
struct PriceManyTextTests {
    @Test("one line per cart, errors in place, exit 1")
    func oneLinePerCart() throws {
        let dir = try temporaryDirectory([
            "day.ndjson": "[\"TSHIRT\", \"TSHIRT\", \"TSHIRT\", \"VOUCHER\", \"TSHIRT\"]\n[\"HAT\"]\n",
            "c.json": "{\"coupons\": [\"X\"], \"items\": [\"MUG\"]}"
        ])
        let run = try checkout(["price", "day.ndjson", "c.json", "gone.json"], in: dir)
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                day.ndjson:1: total 81.00 € (subtotal 85.00 €, discount 4.00 €, 2 lines)
                day.ndjson:2: error: items[0]: unknown product code "HAT"
                c.json: total 7.50 € (subtotal 7.50 €, discount 0.00 €, 1 line); warning: coupon "X" matches no active promotion
                gone.json: error: cannot open: No such file or directory

                """)
    }
}

import Foundation
import Testing

@Suite("Shopping commands, end to end", .serialized)
struct ShoppingCommandTests {
    func store() throws -> (dir: URL, args: [String]) {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("shop"), withIntermediateDirectories: true)
        return (dir, ["--store", dir.appendingPathComponent("shop/store.sqlite").path])
    }

    /// Every file of the store, as bytes, for looking for card numbers.
    func storeBytes(_ dir: URL) throws -> Data {
        let shop = dir.appendingPathComponent("shop")
        let files = FileManager.default.enumerator(atPath: shop.path)?.compactMap { $0 as? String } ?? []
        return try files.reduce(into: Data()) { data, name in
            var isDirectory: ObjCBool = false
            let path = shop.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { return }
            data.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    @Test(
        "units that would take the cart past the largest amount are refused; a stored cart too large to price says to remove units"
    )
    func cartTooLarge() throws {
        let (_, store) = try store()
        let files = try temporaryDirectory([
            "none.plist": #"<plist version="1.0"><array/></plist>"#,
            "gold.json":
                #"{"currency": "EUR", "products": [{"code": "GOLD", "name": "Gold bar", "price": 90000000000}]}"#,
            "cheap.json": #"{"currency": "EUR", "products": [{"code": "GOLD", "name": "Gold bar", "price": 90}]}"#
        ])
        func rules(_ catalog: String) -> [String] {
            store + [
                "-p", files.appendingPathComponent("none.plist").path, "-c", files.appendingPathComponent(catalog).path
            ]
        }
        // 10⁹ × 90,000,000,000.00 € is 9 × 10²¹ minor units, past 2⁶³ − 1.
        let add = try checkout(["cart", "add", "GOLD", "--quantity", "1000000000"] + rules("gold.json"))
        #expect(add.status == 65)
        #expect(
            add.stderr
                == "error: cannot add 1000000000 × GOLD: the cart would come to more than the largest amount, 92233720368547758.07; nothing was added: add fewer units, or remove others first\n"
        )
        #expect(try checkout(["cart", "show"] + rules("gold.json")).stdout == "Cart is empty.\n")
        // Added at 90 € (90,000,000,000.00 € in all, which fits), then priced at the new price.
        #expect(try checkout(["cart", "add", "GOLD", "--quantity", "1000000000"] + rules("cheap.json")).status == 0)
        let show = try checkout(["cart", "show"] + rules("gold.json"))
        #expect(show.status == 65)
        #expect(
            show.stderr
                == "error: \"GOLD\": 1000000000 × 90000000000.00 exceeds the largest amount, 92233720368547758.07; remove units of \"GOLD\" from the cart\n"
        )
        // Prices without tax: 500,000,000,000,000.00 € fits, but not with 100 % tax added.
        let (_, net) = try self.store()
        let netFiles = try temporaryDirectory([
            "net.json":
                #"{"currency": "EUR", "prices_include_tax": false, "tax_rate": 100, "products": [{"code": "GOLD", "name": "Gold", "price": "50000000000000000.00"}]}"#
        ])
        let netAdd = try checkout(
            ["cart", "add", "GOLD"] + net
                + [
                    "-p", files.appendingPathComponent("none.plist").path, "-c",
                    netFiles.appendingPathComponent("net.json").path
                ])
        #expect(netAdd.status == 65)
        #expect(
            netAdd.stderr.hasPrefix("error: cannot add 1 × GOLD: the cart would come to more than the largest amount"))
        // A cart whose total with its tax is exactly the largest amount is taken, one a cent dearer
        // is not: 76,226,215,180,617,981.88 + round(21 % of it) = 76,226,215,180,617,981.88 +
        // 16,007,505,187,929,776.19 (…776.1948 rounded) = 92,233,720,368,547,758.07; a cent more
        // adds 0.01 + 0.0021 to the unrounded sum, which rounds to …776.20: two cents past it.
        for (price, fits) in [("76226215180617981.88", true), ("76226215180617981.89", false)] {
            let (_, exact) = try self.store()
            let catalog = try temporaryDirectory([
                "exact.json":
                    #"{"currency": "EUR", "prices_include_tax": false, "tax_rate": 21, "products": [{"code": "GOLD", "name": "Gold", "price": "\#(price)"}]}"#
            ])
            let exactRules =
                exact + [
                    "-p", files.appendingPathComponent("none.plist").path, "-c",
                    catalog.appendingPathComponent("exact.json").path
                ]
            let added = try checkout(["cart", "add", "GOLD"] + exactRules)
            #expect(added.status == (fits ? 0 : 65), "\(price): \(added.stderr)")
            guard fits else { continue }
            let shown = try json(checkout(["cart", "show", "--format", "json"] + exactRules).stdout)
            #expect(shown["tax"] as? String == "16007505187929776.19")
            #expect(shown["total"] as? String == "92233720368547758.07")
        }
    }

    @Test(
        "a purchase persists across invocations: a decline keeps the cart, an approval empties it and records the order"
    )
    func purchase() throws {
        let (dir, store) = try store()
        for (code, quantity) in [("VOUCHER", "1"), ("TSHIRT", "3"), ("VOUCHER", "2"), ("MUG", "1")] {
            let add = try checkout(["cart", "add", code, "--quantity", quantity] + store)
            #expect(add.status == 0)
        }
        let unknown = try checkout(["cart", "add", "HAT"] + store)
        #expect(unknown.status == 65)
        #expect(unknown.stderr == "error: unknown product code \"HAT\"\n")
        let shown = try json(checkout(["cart", "show", "--format", "json"] + store).stdout)
        #expect(shown["total"] as? String == "74.50")

        let declined = try checkout(
            ["pay", "--card-stdin", "--format", "json"] + store, stdin: "4000 0000 0000 0002\n12/30\n123\n")
        #expect(declined.status == 1)
        #expect(try json(declined.stdout)["reason"] as? String == "card declined")
        let poor = try checkout(["pay", "--card-stdin"] + store, stdin: "4000000000009995\n12/30\n123\n")
        #expect(poor.status == 1)
        #expect(poor.stdout == "Payment declined: insufficient funds. The cart is kept.\n")
        #expect(try json(checkout(["cart", "show", "--format", "json"] + store).stdout)["total"] as? String == "74.50")

        let approved = try checkout(
            ["pay", "--card-stdin", "--format", "json"] + store, stdin: "4242 4242 4242 4242\n12/30\n123\n")
        #expect(approved.status == 0)
        let payment = try json(approved.stdout)
        #expect(payment["status"] as? String == "approved")
        #expect(payment["order"] as? Int == 1)
        #expect(payment["total"] as? String == "74.50")
        #expect(payment["card"] as? String == "•••• 4242")

        #expect(try checkout(["cart", "show"] + store).stdout == "Cart is empty.\n")
        let orders = try json(checkout(["orders", "--format", "json"] + store).stdout)["orders"] as? [[String: Any]]
        #expect(orders?.count == 1)
        #expect(orders?.first?["total"] as? String == "74.50")
        #expect(orders?.first?["card"] as? String == "•••• 4242")
        #expect((orders?.first?["receipt"] as? [String: Any])?["total"] as? String == "74.50")

        let empty = try checkout(["pay", "--card-stdin"] + store, stdin: "4242 4242 4242 4242\n12/30\n123\n")
        #expect(empty.status == 1)
        #expect(empty.stderr == "error: the cart is empty: add products with `checkout cart add CODE` first\n")

        // No card number, and no CVC next to one, anywhere.
        let bytes = try storeBytes(dir)
        for number in ["4242424242424242", "4242 4242 4242 4242", "4000000000000002", "4000000000009995"] {
            #expect(bytes.range(of: Data(number.utf8)) == nil)
            #expect(
                !approved.stdout.contains(number) && !approved.stderr.contains(number)
                    && !declined.stdout.contains(number))
        }
    }

    @Test(
        "invalid card data: exit 65 before any charge, JSON when asked; the old options still work but warn; no card at all is a usage error"
    )
    func invalidCard() throws {
        let (_, store) = try store()
        try checkout(["cart", "add", "MUG"] + store)
        for (input, problem) in [
            ("4242 4242 4242 4241\n12/30\n123\n", "the card number is not valid (check digit)"),
            ("4242 4242 4242 4242\n01/20\n123\n", "the card expired at the end of 01/20"),
            ("4242 4242 4242 4242\n12/30\n1\n", "the CVC must be 3 or 4 digits")
        ] {
            let run = try checkout(["pay", "--card-stdin"] + store, stdin: input)
            #expect(run.status == 65)
            #expect(run.stderr == "error: invalid card: \(problem)\n")
            let json = try checkout(["pay", "--card-stdin", "--format", "json"] + store, stdin: input)
            #expect(try self.json(json.stdout)["status"] as? String == "invalid-card")
            #expect(try self.json(json.stdout)["error"] as? String == problem)
        }
        let old = try checkout(["pay", "--card", "4242 4242 4242 4241", "--expiry", "12/30", "--cvc", "123"] + store)
        #expect(old.status == 65)
        #expect(
            old.stderr.hasPrefix(
                "warning: --card, --expiry and --cvc put card data in your shell history and the process list; use the prompt or --card-stdin\n"
            ))
        let none = try checkout(["pay"] + store, stdin: "")
        #expect(none.status == 64)
        #expect(none.stderr.contains("give the card on a terminal, or on standard input with --card-stdin"))
        #expect(try checkout(["orders"] + store).stdout == "No orders yet.\n")
        let emptyStore = try self.store().args
        let empty = try checkout(["pay", "--format", "json"] + emptyStore, stdin: "")
        #expect(empty.status == 1)
        #expect(try self.json(empty.stdout)["status"] as? String == "empty-cart")
    }

    func json(_ text: String) throws -> [String: Any] { try CheckoutCLITests.json(text) }

    @Test("cart remove and clear")
    func removeAndClear() throws {
        let (_, store) = try store()
        try checkout(["cart", "add", "MUG", "--quantity", "3"] + store)
        let removed = try checkout(["cart", "remove", "MUG", "--quantity", "2"] + store)
        #expect(removed.status == 0)
        #expect(removed.stdout == "Removed 2 × MUG.\n")
        #expect(try json(checkout(["cart", "show", "--format", "json"] + store).stdout)["total"] as? String == "7.50")
        try checkout(["cart", "add", "TSHIRT", "--quantity", "2"] + store)
        #expect(
            try checkout(["cart", "remove", "TSHIRT", "--quantity", "10"] + store).stdout
                == "Removed 2 × TSHIRT; none left in the cart.\n")
        let missing = try checkout(["cart", "remove", "TSHIRT"] + store)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: \"TSHIRT\" is not in the cart\n")
        #expect(try checkout(["cart", "clear"] + store).stdout == "Cart is empty.\n")
        #expect(try checkout(["cart", "add", "MUG", "--quantity", "0"] + store).status == 64)
    }

    @Test("20 concurrent `cart add MUG` on a new store leave exactly 20 mugs, every process succeeding (5 runs)")
    func concurrentAdds() throws {
        for _ in 0..<5 { try concurrentAddsOnce() }
    }

    func concurrentAddsOnce() throws {
        let (_, store) = try store()
        let processes = try (0..<20).map { _ in
            let process = Process()
            process.executableURL = checkoutBinary
            process.arguments = ["cart", "add", "MUG"] + store
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let cart = try json(checkout(["cart", "show", "--format", "json"] + store).stdout)
        #expect((cart["lines"] as? [[String: Any]])?.first?["quantity"] as? Int == 20)
    }

    @Test("the store's location: --store, else $CHECKOUT_STORE, else $XDG_DATA_HOME")
    func storeLocation() throws {
        let dir = try temporaryDirectory()
        let env = dir.appendingPathComponent("env.sqlite").path
        try checkout(["cart", "add", "MUG"], environment: ["CHECKOUT_STORE": env])
        #expect(FileManager.default.fileExists(atPath: env))
        try checkout(["cart", "add", "MUG"], environment: ["CHECKOUT_STORE": "", "XDG_DATA_HOME": dir.path])
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("checkout/store.sqlite").path))
        let unusable = try checkout(["cart", "add", "MUG", "--store", "/proc/none/store.sqlite"])
        #expect(unusable.status == 74)
        #expect(unusable.stderr.hasPrefix("error: cannot open the store at /proc/none/store.sqlite"))
    }

    @Test("a piped shop session: products, cart, checkout, a decline, an approval, the end of input")
    func pipedShop() throws {
        let (dir, store) = try store()
        let input =
            "1\n2 3\n1\n1\n7\nc\nx2\n+1\nk\ny\n4000 0000 0000 0002\n12/30\n123\ny\n4242 4242 4242 4242\n12/30\n123\n"
        let run = try checkout(["shop"] + store, stdin: input)
        #expect(run.status == 0)
        #expect(run.stdout.contains("  1. Cabify Voucher      5.00 €   2 for 1\n"))
        #expect(run.stdout.contains("  2. Cabify T-Shirt     20.00 €   3 or more: 19.00 € each\n"))
        #expect(run.stdout.contains("Added 3 × Cabify T-Shirt to the cart."))
        #expect(run.stdout.contains("! There is no product 7; choose 1 to 3."))
        #expect(run.stdout.contains("Payment declined: card declined. Your cart is kept."))
        #expect(run.stdout.contains("Payment approved: order #1, 10.00 €, card •••• 4242."))
        #expect(run.stdout.hasSuffix("Bye.\n"))
        #expect(!run.stdout.contains("4242 4242"))
        // 4 vouchers at 2 for 1: 2 × 5.00 = 10.00; the T-shirts were removed.
        let orders = try json(checkout(["orders", "--format", "json"] + store).stdout)["orders"] as? [[String: Any]]
        #expect(orders?.first?["total"] as? String == "10.00")
        #expect(try storeBytes(dir).range(of: Data("4242424242424242".utf8)) == nil)
        let quit = try checkout(["shop"] + store, stdin: "c\nq\n")
        #expect(quit.status == 0)
        #expect(quit.stdout.contains("Cart is empty"))
    }

    @Test("coupons in the flow: added once in any letter case, used by cart show and pay, never listing other coupons")
    func coupons() throws {
        let (dir, store) = try store()
        let rules = dir.appendingPathComponent("p.plist").path
        try Data(
            """
            <plist><array><dict><key>name</key><string>Spring sale</string><key>type</key><string>cart</string><key>percent</key><integer>10</integer>
            <key>coupon</key><string>SPRING</string></dict><dict><key>name</key><string>Staff</string><key>type</key><string>cart</string>
            <key>percent</key><integer>50</integer><key>coupon</key><string>STAFF-ONLY-2026</string></dict></array></plist>
            """.utf8
        ).write(to: URL(fileURLWithPath: rules))
        let args = store + ["--promotions", rules]
        try checkout(["cart", "add", "TSHIRT", "--quantity", "2"] + args)
        let added = try checkout(["cart", "coupon", "add", "spring"] + args)
        #expect(added.stdout == "Coupon added: it unlocks \"Spring sale\".\n")
        #expect(
            try checkout(["cart", "coupon", "add", "SPRING"] + args).stdout
                == "The cart presents that coupon already.\n")
        let unknown = try checkout(["cart", "coupon", "add", "-"] + args, stdin: "STAFF\n")
        #expect(unknown.stdout == "Coupon added.\n")
        #expect(unknown.stderr == "warning: the coupon matches no active promotion now\n")
        #expect(!(unknown.stdout + unknown.stderr).contains("STAFF-ONLY"))
        #expect(try checkout(["cart", "coupon", "remove", "staff"] + args).stdout == "Coupon removed.\n")
        let missing = try checkout(["cart", "coupon", "remove", "staff"] + args)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: the cart does not present that coupon\n")
        // 40.00 − 10 % = 36.00, in the cart and in the order.
        let shown = try json(checkout(["cart", "show", "--format", "json"] + args).stdout)
        #expect(shown["total"] as? String == "36.00")
        let paid = try checkout(
            ["pay", "--card-stdin", "--format", "json"] + args, stdin: "4242424242424242\n12/30\n123\n")
        #expect(try json(paid.stdout)["total"] as? String == "36.00")
        #expect(try checkout(["cart", "show"] + args).stdout == "Cart is empty.\n")
    }
}

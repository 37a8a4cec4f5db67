import Foundation
import Testing

/// Usage limits and the redemption ledger (docs/store.md, "Customers" and "Usage limits"), on the
/// built binary: separate processes on one store file.
@Suite("Customers, usage limits and the ledger", .serialized)
struct LedgerTests {
    /// A promotions file of `promotions` (each the inside of a `<dict>`), in a fresh directory, and a
    /// store path beside it.
    func shop(_ promotions: [String]) throws -> (dir: URL, store: String, args: [String]) {
        let body = promotions.map { "<dict>\($0)</dict>" }.joined(separator: "\n")
        let dir = try temporaryDirectory([
            "Promotions.plist": """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>version</key><integer>1</integer>
            <key>promotions</key><array>
            \(body)
            </array></dict></plist>
            """
        ])
        let store = dir.appendingPathComponent("store.sqlite").path
        return (
            dir, store,
            [
                "--store", store, "--promotions", dir.appendingPathComponent("Promotions.plist").path, "--catalog",
                packageRoot.appendingPathComponent("Rules/Products.json").path
            ]
        )
    }

    /// 20 % off mugs for the first `uses` orders (7.50 → 6.00 a mug).
    func firstOrders(_ uses: Int, id: String = "first-5") -> String {
        """
        <key>id</key><string>\(id)</string><key>name</key><string>First \(uses) orders: 20% off mugs</string>
        <key>type</key><string>percent</string><key>percent</key><integer>20</integer>
        <key>code</key><string>MUG</string><key>uses</key><integer>\(uses)</integer>
        """
    }

    /// 2.00 off a customer's first order.
    let welcome = """
        <key>id</key><string>welcome</string><key>name</key><string>Welcome: 2.00 off</string>
        <key>type</key><string>cart</string><key>amount</key><real>2.00</real>
        <key>uses_per_customer</key><integer>1</integer>
        """

    /// The store read as any SQLite client reads it: its integrity, redemptions without an order,
    /// charges taken more than once, approved charges without their order or with another amount,
    /// pending orders, the orders redeeming each promotion, and the tally rows (all customers and
    /// per customer) that disagree with the redemptions they count.
    struct State: Equatable {
        var integrity = "", orphans = 0, chargedTwice = 0, unmatched = 0, pending = 0
        var redemptions: [String: Int] = [:]
        var tallyErrors = 0
    }

    func state(_ path: String) throws -> State {
        let rows = try sqlite(
            path,
            [
                "PRAGMA integrity_check",
                """
                SELECT COUNT(*) FROM redemption WHERE order_id NOT IN
                (SELECT id FROM purchase UNION SELECT id FROM pending_order)
                """,
                "SELECT COUNT(*) FROM gateway_charge WHERE attempts > 1",
                """
                SELECT COUNT(*) FROM gateway_charge g LEFT JOIN purchase p ON p.id = g.key
                WHERE g.status = 'approved' AND (p.id IS NULL OR p.card != g.card OR p.total != g.amount)
                """,
                "SELECT COUNT(*) FROM pending_order",
                "SELECT promotion, COUNT(*) FROM redemption GROUP BY promotion",
                """
                WITH counted AS (
                    SELECT promotion, '' AS customer, COUNT(*) AS n FROM redemption GROUP BY promotion
                    UNION ALL
                    SELECT promotion, customer, COUNT(*) FROM redemption WHERE customer IS NOT NULL
                    GROUP BY promotion, customer)
                SELECT
                    (SELECT COUNT(*) FROM counted c LEFT JOIN redemption_tally t
                        ON t.promotion = c.promotion AND t.customer = c.customer WHERE t.orders IS NOT c.n)
                    + (SELECT COUNT(*) FROM redemption_tally t WHERE t.orders != 0 AND NOT EXISTS
                        (SELECT 1 FROM counted c WHERE c.promotion = t.promotion AND c.customer = t.customer))
                """
            ])
        var state = State(
            integrity: rows[0].first?.first ?? "", orphans: Int(rows[1][0][0]) ?? -1,
            chargedTwice: Int(rows[2][0][0]) ?? -1, unmatched: Int(rows[3][0][0]) ?? -1,
            pending: Int(rows[4][0][0]) ?? -1)
        for row in rows[5] { state.redemptions[row[0]] = Int(row[1]) }
        state.tallyErrors = Int(rows[6][0][0]) ?? -1
        return state
    }

    /// `orders --format json` of the store in `args` (its first two: `--store PATH`).
    func orders(_ args: [String], customer: String? = nil) throws -> [[String: Any]] {
        let run = try checkout(
            ["orders", "--format", "json"] + args.prefix(2) + (customer.map { ["--customer", $0] } ?? []))
        return try json(run.stdout)["orders"] as? [[String: Any]] ?? []
    }

    /// Each order's receipt: its total is the order's, and the promotions the order redeemed are
    /// exactly those with a positive discount in it.
    func checkReceipts(_ orders: [[String: Any]]) {
        for order in orders {
            let receipt = order["receipt"] as? [String: Any] ?? [:]
            #expect(order["total"] as? String == receipt["total"] as? String, "\(order)")
            var discounts: [String: Double] = [:]
            for line in receipt["lines"] as? [[String: Any]] ?? [] {
                for promotion in line["promotions"] as? [[String: Any]] ?? [] {
                    discounts[promotion["id"] as? String ?? "", default: 0] +=
                        Double(promotion["discount"] as? String ?? "") ?? 0
                }
            }
            if let cart = receipt["cart_promotion"] as? [String: Any] {
                discounts[cart["id"] as? String ?? "", default: 0] += Double(cart["discount"] as? String ?? "") ?? 0
            }
            let redeemed = Set(discounts.filter { $0.value > 0 }.keys)
            #expect(Set(order["promotions"] as? [String] ?? ["?"]) == redeemed, "\(order)")
        }
    }

    @Test(
        "uses 5, 20 customers paying at once: exactly 5 orders redeem it, each charged its receipt's total; the 15 others are charged without it and told why (2 runs)"
    )
    func twentyCustomers() throws {
        for run in 0..<2 {
            let (_, path, args) = try shop([firstOrders(5)])
            let customers = (0..<20).map { "C-\($0)" }
            for customer in customers { try checkout(["cart", "add", "MUG", "--customer", customer] + args) }
            let pays = try customers.map { customer in
                try start(
                    ["pay", "--card-stdin", "--format", "json", "--customer", customer] + args, stdin: approvingCard)
            }
            let results = try pays.map { try json($0.wait().stdout) }
            #expect(results.allSatisfy { $0["status"] as? String == "approved" }, "run \(run): \(results)")
            let discounted = results.filter { $0["total"] as? String == "6.00" }
            let full = results.filter { $0["total"] as? String == "7.50" }
            #expect(discounted.count == 5 && full.count == 15, "run \(run)")
            #expect(discounted.allSatisfy { ($0["exhausted"] as? [String]) == [] })
            #expect(full.allSatisfy { ($0["exhausted"] as? [String]) == ["first-5"] }, "run \(run): \(full)")
            let orders = try orders(args)
            #expect(orders.count == 20)
            #expect(orders.filter { ($0["promotions"] as? [String]) == ["first-5"] }.count == 5)
            #expect(Set(orders.compactMap { $0["customer"] as? String }) == Set(customers))
            checkReceipts(orders)
            #expect(
                try state(path)
                    == State(
                        integrity: "ok", orphans: 0, chargedTwice: 0, unmatched: 0, pending: 0,
                        redemptions: ["first-5": 5]))
        }
        // Text output names the used-up promotion.
        let (_, _, args) = try shop([firstOrders(1, id: "first-1")])
        try checkout(["cart", "add", "MUG", "--customer", "A"] + args)
        try checkout(["pay", "--card-stdin", "--customer", "A"] + args, stdin: approvingCard)
        try checkout(["cart", "add", "MUG", "--customer", "B"] + args)
        let told = try checkout(["pay", "--card-stdin", "--customer", "B"] + args, stdin: approvingCard)
        #expect(told.status == 0)
        #expect(told.stdout.hasPrefix("Payment approved: order #2, 7.50 €, card •••• 4242 (reference sim_"))
        #expect(
            told.stdout.hasSuffix(").\nNot applied: \"First 1 orders: 20% off mugs\" has reached its usage limit.\n"))
    }

    @Test(
        "uses_per_customer 1, one customer paying twice at once (a cart add racing two pays): one redemption, the other pay in progress, empty, or without it (20 runs)"
    )
    func onceperCustomer() throws {
        var outcomes: [String: Int] = [:]
        for run in 0..<20 {
            let (_, path, args) = try shop([welcome])
            let me = ["--customer", "C-17"]
            try checkout(["cart", "add", "MUG"] + me + args)
            let started = [
                try start(["pay", "--card-stdin", "--format", "json"] + me + args, stdin: approvingCard),
                try start(["cart", "add", "MUG"] + me + args),
                try start(["pay", "--card-stdin", "--format", "json"] + me + args, stdin: approvingCard)
            ]
            let runs = try started.map { try $0.wait() }
            #expect(runs[1].status == 0)
            for result in [runs[0], runs[2]] {
                let outcome = try json(result.stdout)
                let status = outcome["status"] as? String ?? "none: \(result.stderr)"
                outcomes[status, default: 0] += 1
                #expect(["approved", "in-progress", "empty-cart"].contains(status), "run \(run): \(result)")
                #expect(outcome["exhausted"] is [String], "run \(run)")
            }
            let orders = try orders(args, customer: "C-17")
            checkReceipts(orders)
            #expect(orders.filter { ($0["promotions"] as? [String]) == ["welcome"] }.count == 1, "run \(run)")
            // A second order, if any, paid full price: 7.50 a mug.
            for order in orders where (order["promotions"] as? [String]) == [] {
                let units = (order["receipt"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
                let mugs = units.reduce(0) { $0 + ($1["quantity"] as? Int ?? 0) }
                #expect(order["total"] as? String == String(format: "%.2f", 7.5 * Double(mugs)))
            }
            let state = try state(path)
            #expect(state.redemptions == ["welcome": 1] && state.orphans == 0 && state.unmatched == 0)
            #expect(state.pending == 0 && state.chargedTwice == 0)
        }
        #expect(outcomes["approved", default: 0] >= 20)
        // Without a customer id the promotion is not eligible, whatever the ledger says.
        let (_, _, args) = try shop([welcome])
        try checkout(["cart", "add", "MUG"] + args)
        let anonymous = try json(
            checkout(["pay", "--card-stdin", "--format", "json"] + args, stdin: approvingCard).stdout)
        #expect(anonymous["total"] as? String == "7.50" && anonymous["exhausted"] as? [String] == [])
    }

    @Test(
        "a held redemption counts for everyone else; a declined card releases it (the next customer gets the promotion), and so does the next pay after a kill before the charge"
    )
    func holdsAndReleases() throws {
        let (_, path, args) = try shop([firstOrders(1, id: "first-1")])
        func pay(_ customer: String, card: String = approvingCard, environment: [String: String] = [:]) throws
            -> [String: Any]
        {
            try checkout(["cart", "add", "MUG", "--customer", customer] + args)
            return try json(
                checkout(
                    ["pay", "--card-stdin", "--format", "json", "--customer", customer] + args, stdin: card,
                    environment: environment
                ).stdout)
        }
        let declined = try pay("A", card: decliningCard)
        #expect(declined["status"] as? String == "declined")
        #expect(try state(path).redemptions == [:])
        // A's cart is kept, and the promotion is free again: B gets it.
        let b = try pay("B")
        #expect(b["status"] as? String == "approved" && b["total"] as? String == "6.00")
        // A pays again (its mug kept), without it, told why.
        let again = try checkout(
            ["pay", "--card-stdin", "--format", "json", "--customer", "A"] + args, stdin: approvingCard)
        #expect(try json(again.stdout)["total"] as? String == "7.50")
        #expect(try json(again.stdout)["exhausted"] as? [String] == ["first-1"])

        // Held while a payment is under way: C's order holds it, D pays full price meanwhile.
        let (_, heldPath, held) = try shop([firstOrders(1, id: "first-1")])
        try checkout(["cart", "add", "MUG", "--customer", "C"] + held)
        let paused = try start(
            ["pay", "--card-stdin", "--customer", "C"] + held, stdin: approvingCard,
            environment: ["CHECKOUT_TEST_PAUSE_PAYMENT": "before-charge"])
        paused.waitUntilPaused()
        #expect(try state(heldPath).redemptions == ["first-1": 1])
        try checkout(["cart", "add", "MUG", "--customer", "D"] + held)
        let shown = try checkout(["cart", "show", "--format", "json", "--customer", "D"] + held)
        #expect(try json(shown.stdout)["total"] as? String == "7.50")
        let d = try json(
            checkout(["pay", "--card-stdin", "--format", "json", "--customer", "D"] + held, stdin: approvingCard).stdout
        )
        #expect(d["total"] as? String == "7.50" && d["exhausted"] as? [String] == ["first-1"])
        // C is also refused a second payment while its own is under way.
        let busy = try checkout(
            ["pay", "--card-stdin", "--format", "json", "--customer", "C"] + held, stdin: approvingCard)
        #expect(try busy.status == 1 && json(busy.stdout)["status"] as? String == "in-progress")
        kill(paused.process.processIdentifier, SIGKILL)
        _ = try paused.wait()
        // The next pay settles C's order (released: never charged), and E gets the promotion.
        try checkout(["cart", "add", "MUG", "--customer", "E"] + held)
        let e = try json(
            checkout(["pay", "--card-stdin", "--format", "json", "--customer", "E"] + held, stdin: approvingCard).stdout
        )
        #expect(e["total"] as? String == "6.00" && e["recovered"] as? [Int] == [])
        // C's mug is back in C's cart.
        let back = try checkout(["cart", "show", "--format", "json", "--customer", "C"] + held)
        #expect((try json(back.stdout)["lines"] as? [[String: Any]])?.count == 1)
        #expect(try state(heldPath).redemptions == ["first-1": 1] && state(heldPath).tallyErrors == 0)
    }

    @Test(
        "kill -9 of pay at random moments (100 times, or CHECKOUT_TEST_KILL_ROUNDS; 10 customers, uses 5): integrity ok, no redemption without an order, no order charged twice, at most 5 redemptions, the next pay settles everything"
    )
    func killedPayments() throws {
        let (_, path, args) = try shop([firstOrders(5), welcome])
        var generator = SystemRandomNumberGenerator()
        // CI runs 100; CHECKOUT_TEST_KILL_ROUNDS runs a longer loop by hand.
        let rounds = ProcessInfo.processInfo.environment["CHECKOUT_TEST_KILL_ROUNDS"].flatMap { Int($0) } ?? 100
        for round in 0..<rounds {
            let customer = ["--customer", "C-\(round % 10)"]
            try checkout(["cart", "add", "MUG"] + customer + args)
            let pay = try start(["pay", "--card-stdin"] + customer + args, stdin: approvingCard)
            usleep(UInt32.random(in: 0..<120_000, using: &generator))
            kill(pay.process.processIdentifier, SIGKILL)
            _ = try pay.wait()
        }
        let midway = try state(path)
        #expect(midway.integrity == "ok" && midway.orphans == 0 && midway.chargedTwice == 0)
        #expect(midway.tallyErrors == 0)
        #expect(midway.redemptions["first-5", default: 0] <= 5)
        // One more pay settles every interrupted order: completed with its charge, or released.
        try checkout(["cart", "add", "MUG", "--customer", "last"] + args)
        let last = try checkout(
            ["pay", "--card-stdin", "--format", "json", "--customer", "last"] + args, stdin: approvingCard)
        #expect(last.status == 0, "\(last)")
        let state = try state(path)
        #expect(state.integrity == "ok" && state.orphans == 0 && state.chargedTwice == 0)
        #expect(state.unmatched == 0 && state.pending == 0 && state.tallyErrors == 0)
        #expect(state.redemptions["first-5", default: 0] <= 5)
        let orders = try orders(args)
        checkReceipts(orders)
        // uses_per_customer: at most one welcome per customer.
        var welcomes: [String: Int] = [:]
        for order in orders where (order["promotions"] as? [String])?.contains("welcome") == true {
            welcomes[order["customer"] as? String ?? "", default: 0] += 1
        }
        #expect(welcomes.values.allSatisfy { $0 == 1 }, "\(welcomes)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "-orders") == [])
    }

    @Test("cart, orders and pay are per customer; the anonymous customer keeps the cart it had")
    func customersInTheStore() throws {
        let (_, _, args) = try shop([welcome])
        try checkout(["cart", "add", "TSHIRT"] + args)
        try checkout(["cart", "add", "MUG", "--customer", "C-17"] + args)
        try checkout(["cart", "coupon", "add", "SPRING", "--customer", "C-17"] + args)
        let anonymous = try json(checkout(["cart", "show", "--format", "json"] + args).stdout)
        #expect((anonymous["lines"] as? [[String: Any]])?.map { $0["code"] as? String } == ["TSHIRT"])
        #expect(anonymous["coupons"] as? [String] == [])
        let mine = try json(checkout(["cart", "show", "--format", "json", "--customer", "C-17"] + args).stdout)
        #expect((mine["lines"] as? [[String: Any]])?.map { $0["code"] as? String } == ["MUG"])
        #expect(mine["total"] as? String == "5.50")
        #expect(
            try checkout(["cart", "coupon", "list", "--customer", "C-17"] + args.prefix(2)).stdout == "SPRING\n")
        try checkout(["pay", "--card-stdin", "--customer", "C-17"] + args, stdin: approvingCard)
        try checkout(["pay", "--card-stdin"] + args, stdin: approvingCard)
        let all = try orders(args)
        #expect(all.map { $0["customer"] as? String } == ["C-17", nil])
        #expect(all.map { $0["promotions"] as? [String] } == [["welcome"], []])
        #expect(try orders(args, customer: "C-17").map { $0["order"] as? Int } == [1])
        #expect(try orders(args, customer: "nobody").isEmpty)
        let text = try checkout(["orders"] + args.prefix(2)).stdout.split(separator: "\n")
        #expect(text.count == 2)
        #expect(text[0].hasPrefix("#1  ") && text[0].hasSuffix("  C-17  welcome"))
        #expect(text[1].contains("20.00 €") && text[1].hasSuffix("  -"))
        // A cleared cart is that customer's only.
        try checkout(["cart", "add", "MUG", "--customer", "C-17"] + args)
        try checkout(["cart", "add", "MUG"] + args)
        try checkout(["cart", "clear", "--customer", "C-17"] + args.prefix(2))
        #expect(try checkout(["cart", "show", "--customer", "C-17"] + args).stdout == "Cart is empty.\n")
        #expect(try checkout(["cart", "show"] + args).stdout != "Cart is empty.\n")
    }

    @Test(
        "shop --customer: the session is that customer's; its checkout prices against the ledger and names what is used up"
    )
    func shopForACustomer() throws {
        let (_, _, args) = try shop([firstOrders(1, id: "first-1"), welcome])
        let session = "3\nc\nk\ny\n4242 4242 4242 4242\n12/30\n123\nq\n"
        let first = try checkout(["shop", "--customer", "C-5"] + args, stdin: session)
        #expect(first.status == 0)
        #expect(first.stdout.contains("4.00 €"), "\(first.stdout)")
        // Its product list offered both; after the payment, neither is offered to C-5 any more.
        let lists = first.stdout.components(separatedBy: "\nProducts\n").dropFirst().map {
            $0.components(separatedBy: "\nAdd a product")[0]
        }
        #expect(lists.count == 2)
        #expect(lists.first?.contains("Cabify Coffee Mug   7.50 €   20% off\n  Cart: 2.00 € off the cart") == true)
        #expect(lists.last?.hasSuffix("Cabify Coffee Mug   7.50 €") == true, "\(lists)")
        let orders = try orders(args, customer: "C-5")
        #expect(orders.map { $0["promotions"] as? [String] } == [["first-1", "welcome"]])
        #expect(orders.map { $0["total"] as? String } == ["4.00"])
        // Another customer: first-1 is used up, the welcome is theirs; the checkout says why.
        let second = try checkout(["shop", "--customer", "C-6"] + args, stdin: session)
        #expect(second.stdout.contains("warning: \"First 1 orders: 20% off mugs\" has reached its usage limit"))
        // Its product list offers the welcome, not the used-up 20 % off mugs.
        #expect(second.stdout.contains("Cabify Coffee Mug   7.50 €\n  Cart: 2.00 € off the cart\n"), "\(second.stdout)")
        // The anonymous shopper has no id: a once-per-customer promotion is not offered.
        let anonymous = try checkout(["shop"] + args, stdin: "q\n")
        #expect(
            !anonymous.stdout.contains("2.00 € off the cart")
                && anonymous.stdout.contains("Cabify Coffee Mug   7.50 €\n"))
        #expect(try self.orders(args, customer: "C-6").map { $0["total"] as? String } == ["5.50"])
        #expect(try checkout(["cart", "show"] + args).stdout == "Cart is empty.\n")
    }

    @Test("cart coupon add says when the promotion a coupon matches is used up, or for other customers")
    func couponClosed() throws {
        let vip = """
            <key>id</key><string>vip-mugs</string><key>name</key><string>VIP mugs</string>
            <key>type</key><string>percent</string><key>percent</key><integer>50</integer>
            <key>code</key><string>MUG</string><key>coupon</key><string>VIP</string>
            <key>customer_groups</key><array><string>vip</string></array>
            """
        let (dir, _, args) = try shop([firstOrders(1, id: "first-1") + "<key>coupon</key><string>SPRING</string>", vip])
        let customers = dir.appendingPathComponent("Customers.json")
        try #"{"customers": [{"id": "A"}, {"id": "B"}, {"id": "V", "groups": ["vip"]}]}"#.write(
            to: customers, atomically: true, encoding: .utf8)
        func by(_ customer: String) -> [String] { ["--customer", customer, "--customers", customers.path] + args }
        try checkout(["cart", "add", "MUG"] + by("A"))
        let first = try checkout(["cart", "coupon", "add", "SPRING"] + by("A"))
        #expect(first.stdout == "Coupon added: it unlocks \"First 1 orders: 20% off mugs\".\n" && first.stderr == "")
        let paid = try json(
            checkout(["pay", "--card-stdin", "--format", "json"] + by("A"), stdin: approvingCard).stdout)
        #expect(paid["total"] as? String == "6.00")
        // Its one use is taken: B is told so, not that it unlocks the promotion.
        let usedUp = try checkout(["cart", "coupon", "add", "spring"] + by("B"))
        #expect(usedUp.status == 0 && usedUp.stdout == "Coupon added.\n")
        #expect(
            usedUp.stderr
                == "warning: the coupon unlocks nothing now: \"First 1 orders: 20% off mugs\" has reached its usage limit\n"
        )
        // VIP mugs are for the vip group: not B's, V's.
        let other = try checkout(["cart", "coupon", "add", "VIP"] + by("B"))
        #expect(other.stdout == "Coupon added.\n")
        #expect(
            other.stderr
                == "warning: the coupon unlocks nothing for this customer: \"VIP mugs\" is for other customers\n")
        let member = try checkout(["cart", "coupon", "add", "VIP"] + by("V"))
        #expect(member.stdout == "Coupon added: it unlocks \"VIP mugs\".\n" && member.stderr == "")
        // A promotion limited per customer needs one: the anonymous cart is told so.
        let (_, _, welcomeArgs) = try shop([welcome + "<key>coupon</key><string>HELLO</string>"])
        let anonymous = try checkout(["cart", "coupon", "add", "HELLO"] + welcomeArgs)
        #expect(anonymous.stdout == "Coupon added.\n")
        #expect(
            anonymous.stderr
                == "warning: the coupon unlocks nothing without a customer: \"Welcome: 2.00 off\" is limited per customer, and the cart has no customer\n"
        )
        let named = try checkout(["cart", "coupon", "add", "HELLO", "--customer", "A"] + welcomeArgs)
        #expect(named.stdout == "Coupon added: it unlocks \"Welcome: 2.00 off\".\n")
    }

    @Test(
        "groups come from --customers, $CHECKOUT_CUSTOMERS or Rules/Customers.json, read only with --customer: malformed or repeated id 65, unreadable 66, an empty id 64"
    )
    func customersFile() throws {
        let department = packageRoot.appendingPathComponent("Rules/department-store")
        let dir = try temporaryDirectory([
            "bad.json": #"{"customers": [{"id": "C-17"}, {"id": "C-17", "groups": []}]}"#,
            "broken.json": #"{"customers": [{"id": 17}]}"#,
            "staff.json": #"{"customers": [{"id": "C-17", "groups": ["staff"]}]}"#
        ])
        let store = ["--store", dir.appendingPathComponent("store.sqlite").path]
        // In the department store's directory, Rules/… are its files: run there with its Rules.
        let work = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(
            at: work.appendingPathComponent("Rules"), withDestinationURL: department)
        func show(_ extra: [String], environment: [String: String] = [:]) throws -> Run {
            try start(["cart", "show", "--format", "json"] + store + extra, environment: environment, in: work).wait()
        }
        _ = try start(["cart", "add", "HOODIE", "--customer", "C-17"] + store, in: work).wait()
        _ = try start(["cart", "add", "HOODIE"] + store, in: work).wait()
        // C-17 is a member (Rules/Customers.json): the members' hoodie at 27.00.
        let member = try show(["--customer", "C-17"])
        #expect(member.status == 0, "\(member)")
        let line = (try json(member.stdout)["lines"] as? [[String: Any]])?.first
        #expect((line?["promotion"] as? [String: Any])?["id"] as? String == "members-hoodie")
        // Another file says staff: no members' price. So does the environment variable.
        let staff = dir.appendingPathComponent("staff.json").path
        for run in [
            try show(["--customer", "C-17", "--customers", staff]),
            try show(["--customer", "C-17"], environment: ["CHECKOUT_CUSTOMERS": staff])
        ] {
            let line = (try json(run.stdout)["lines"] as? [[String: Any]])?.first
            #expect(run.status == 0 && (line?["promotion"] as? [String: Any])?["id"] as? String != "members-hoodie")
        }
        let repeated = try show(["--customer", "C-17", "--customers", dir.appendingPathComponent("bad.json").path])
        #expect(repeated.status == 65)
        #expect(repeated.stderr.contains("bad.json: customers[1] (\"C-17\"): the id is repeated"))
        let broken = try show(["--customer", "C-17", "--customers", dir.appendingPathComponent("broken.json").path])
        #expect(broken.status == 65 && broken.stderr.contains("customers[0]: \"id\" must be a non-empty string"))
        let missing = try show(["--customer", "C-17", "--customers", dir.appendingPathComponent("none.json").path])
        #expect(missing.status == 66 && missing.stderr.contains("none.json"))
        // Without --customer the file is not read at all.
        let anonymous = try show(["--customers", dir.appendingPathComponent("none.json").path])
        #expect(anonymous.status == 0)
        let empty = try show(["--customer", ""])
        #expect(empty.status == 64 && empty.stderr.contains("--customer needs a non-empty id"))
        for command in [["pay", "--card-stdin"], ["orders"], ["shop"]] {
            #expect(try start(command + store + ["--customer", ""], in: work).wait().status == 64)
        }
        // `orders` reads the file with --customer too, though it needs no groups: 65 and 66 alike.
        let bad = dir.appendingPathComponent("bad.json").path
        let orders = try start(["orders", "--customer", "C-17", "--customers", bad] + store, in: work).wait()
        #expect(orders.status == 65 && orders.stdout == "")
        #expect(orders.stderr.contains("bad.json: customers[1] (\"C-17\"): the id is repeated"))
        let none = dir.appendingPathComponent("none.json").path
        #expect(try start(["orders", "--customer", "C-17", "--customers", none] + store, in: work).wait().status == 66)
        for command in [["cart", "clear"], ["cart", "coupon", "list"]] {
            #expect(
                try start(command + ["--customer", "C-17", "--customers", bad] + store, in: work).wait().status == 65)
        }
        #expect(try start(["orders", "--customers", none] + store, in: work).wait().status == 0)
    }

    @Test(
        "after a payment is killed, cart show prices as the next pay will: without the hold of an order never charged, with the hold of one charged"
    )
    func showAfterAKill() throws {
        for (moment, total) in [("before-charge", "6.00"), ("after-charge", "7.50")] {
            let (_, path, args) = try shop([firstOrders(1, id: "first-1")])
            try checkout(["cart", "add", "MUG", "--customer", "A"] + args)
            let paused = try start(
                ["pay", "--card-stdin", "--customer", "A"] + args, stdin: approvingCard,
                environment: ["CHECKOUT_TEST_PAUSE_PAYMENT": moment])
            paused.waitUntilPaused()
            try checkout(["cart", "add", "MUG", "--customer", "B"] + args)
            // While A pays, A's order holds the one use: B is shown 7.50 either way.
            let during = try checkout(["cart", "show", "--format", "json", "--customer", "B"] + args)
            #expect(try json(during.stdout)["total"] as? String == "7.50", "\(moment)")
            kill(paused.process.processIdentifier, SIGKILL)
            _ = try paused.wait()
            // A is gone. Never charged: the next pay releases the use, so B is shown 6.00. Charged:
            // the next pay completes A's order, so B is still shown 7.50. Showing changes nothing.
            let shown = try checkout(["cart", "show", "--format", "json", "--customer", "B"] + args)
            #expect(try json(shown.stdout)["total"] as? String == total, "\(moment): \(shown.stdout)")
            #expect(try state(path).pending == 1)
            let paid = try checkout(
                ["pay", "--card-stdin", "--format", "json", "--customer", "B", "--expect-total", total] + args,
                stdin: approvingCard)
            #expect(paid.status == 0, "\(moment): \(paid.stdout)")
            #expect(try json(paid.stdout)["total"] as? String == total)
            let recovered = try json(paid.stdout)["recovered"] as? [Int]
            #expect(recovered == (moment == "after-charge" ? [1] : []), "\(moment)")
            #expect(try state(path).pending == 0 && state(path).redemptions == ["first-1": 1])
        }
    }

    @Test(
        "customer ids are compared byte for byte: José written with é and with e + U+0301 are two customers, in Customers.json, price --store and pay"
    )
    func idsByteForByte() throws {
        let composed = "Jos\u{E9}"
        let decomposed = "Jose\u{301}"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        // 10 % off mugs for members (7.50 → 6.75), and 2.00 off a customer's first order.
        let members = """
            <key>id</key><string>members</string><key>name</key><string>Members: 10% off mugs</string>
            <key>type</key><string>percent</string><key>percent</key><integer>10</integer>
            <key>code</key><string>MUG</string>
            <key>customer_groups</key><array><string>members</string></array>
            """
        let (dir, path, args) = try shop([members, welcome])
        let customers = dir.appendingPathComponent("Customers.json")
        try #"{"customers": [{"id": "\#(composed)", "groups": ["members"]}, {"id": "\#(decomposed)"}]}"#
            .write(to: customers, atomically: true, encoding: .utf8)
        func by(_ customer: String) -> [String] { ["--customer", customer, "--customers", customers.path] + args }
        func total(_ run: Run) throws -> String? { try json(run.stdout)["total"] as? String }
        try checkout(["cart", "add", "MUG"] + by(composed))
        try checkout(["cart", "add", "MUG"] + by(decomposed))
        // Two ids, not one repeated; each with its own groups: 6.75 − 2.00 and 7.50 − 2.00.
        let member = try checkout(["cart", "show", "--format", "json"] + by(composed))
        #expect(member.status == 0, "\(member.stderr)")
        #expect(try total(member) == "4.75")
        #expect(try total(checkout(["cart", "show", "--format", "json"] + by(decomposed))) == "5.50")
        // The composed José pays, and their welcome is used up; the decomposed one keeps theirs.
        #expect(
            try total(checkout(["pay", "--card-stdin", "--format", "json"] + by(composed), stdin: approvingCard))
                == "4.75")
        let rules = Array(args.dropFirst(2))
        let cart = try temporaryDirectory([
            "cart.json": #"{"customer": {"id": "\#(decomposed)"}, "items": ["MUG"]}"#,
            "composed.json": #"{"customer": {"id": "\#(composed)"}, "items": ["MUG"]}"#
        ])
        let priced = try checkout(
            ["price", cart.appendingPathComponent("cart.json").path, "--format", "json", "--store", path] + rules)
        #expect(try total(priced) == "5.50", "\(priced.stdout)")
        let composedPriced = try checkout(
            ["price", cart.appendingPathComponent("composed.json").path, "--format", "json", "--store", path] + rules)
        #expect(try total(composedPriced) == "7.50")
        // While the composed José's next payment is under way, the decomposed one pays.
        try checkout(["cart", "add", "MUG"] + by(composed))
        let paused = try start(
            ["pay", "--card-stdin"] + by(composed), stdin: approvingCard,
            environment: ["CHECKOUT_TEST_PAUSE_PAYMENT": "before-charge"])
        paused.waitUntilPaused()
        let other = try checkout(["pay", "--card-stdin", "--format", "json"] + by(decomposed), stdin: approvingCard)
        #expect(try other.status == 0 && json(other.stdout)["status"] as? String == "approved", "\(other.stdout)")
        #expect(try total(other) == "5.50")
        kill(paused.process.processIdentifier, SIGKILL)
        _ = try paused.wait()
        // Members twice (the composed José's two orders, one of them left pending), the welcome once
        // per José; the tally counts each José apart.
        let after = try state(path)
        #expect(after.redemptions == ["members": 2, "welcome": 2] && after.pending == 1 && after.tallyErrors == 0)
    }

    @Test(
        "--expect-total: a mismatch is total-changed (exit 1, nothing held or charged, the cart kept); a malformed amount is 64; a match pays"
    )
    func expectTotal() throws {
        let (_, path, args) = try shop([firstOrders(1, id: "first-1")])
        try checkout(["cart", "add", "MUG", "--customer", "A"] + args)
        try checkout(["pay", "--card-stdin", "--customer", "A"] + args, stdin: approvingCard)
        try checkout(["cart", "add", "MUG", "--quantity", "2", "--customer", "B"] + args)
        let changed = try checkout(
            ["pay", "--card-stdin", "--format", "json", "--expect-total", "12", "--customer", "B"] + args,
            stdin: approvingCard)
        #expect(changed.status == 1)
        let report = try json(changed.stdout)
        #expect(report["status"] as? String == "total-changed")
        #expect(report["total"] as? String == "15.00" && report["expected"] as? String == "12.00")
        #expect(report["exhausted"] as? [String] == ["first-1"])
        let after = try state(path)
        #expect(after.pending == 0 && after.redemptions == ["first-1": 1])
        #expect(try sqlite(path, ["SELECT COUNT(*) FROM gateway_charge"])[0][0][0] == "1")
        let text = try checkout(
            ["pay", "--card-stdin", "--expect-total", "12.00", "--customer", "B"] + args, stdin: approvingCard)
        #expect(text.status == 1)
        #expect(
            text.stdout
                == "Total changed: the cart comes to 15.00 €, not the expected 12.00 €. Nothing was charged.\nNot applied: \"First 1 orders: 20% off mugs\" has reached its usage limit.\n"
        )
        for bad in ["abc", "12.001", "1e400", ""] {
            let run = try checkout(
                ["pay", "--card-stdin", "--expect-total", bad, "--customer", "B"] + args, stdin: approvingCard)
            #expect(run.status == 64, "\(bad): \(run)")
        }
        let paid = try checkout(
            ["pay", "--card-stdin", "--format", "json", "--expect-total", " 15 ", "--customer", "B"] + args,
            stdin: approvingCard)
        #expect(try paid.status == 0 && json(paid.stdout)["total"] as? String == "15.00")
    }

    @Test("on a terminal, pay shows the total (and the used-up promotion) before it asks for the card")
    func totalBeforeCard() throws {
        let (_, _, args) = try shop([firstOrders(1, id: "first-1")])
        try checkout(["cart", "add", "MUG", "--customer", "A"] + args)
        try checkout(["pay", "--card-stdin", "--customer", "A"] + args, stdin: approvingCard)
        try checkout(["cart", "add", "MUG", "--customer", "B"] + args)
        let run = try inTerminal(
            ["pay", "--customer", "B"] + args,
            answers: [("Card number: ", "4242 4242 4242 4242"), ("Expiry \\(MM/YY\\): ", "12/30"), ("CVC: ", "123")])
        #expect(run.status == 0)
        #expect(
            run.screen.contains(
                "Total to pay: 7.50 € (\"First 1 orders: 20% off mugs\" has reached its usage limit)\nCard number: "),
            "\(run.screen)")
        #expect(run.screen.contains("Payment approved: order #2, 7.50 €"))
    }

    @Test(
        "price --store: reads committed and held redemptions once (the carts of one call do not count against each other); --explain says exhausted; a path that is not a store is 66 and nothing is made"
    )
    func priceAgainstAStore() throws {
        let (dir, _, args) = try shop([firstOrders(1, id: "first-1"), welcome])
        let rules = Array(args.dropFirst(2))
        let carts = try temporaryDirectory([
            "a.json": #"{"customer": {"id": "A"}, "items": ["MUG"]}"#,
            "b.json": #"{"customer": {"id": "B"}, "items": ["MUG"]}"#
        ])
        let a = carts.appendingPathComponent("a.json").path
        let b = carts.appendingPathComponent("b.json").path
        let store = dir.appendingPathComponent("store.sqlite").path
        // No store yet: 66, and none is made (nor with $CHECKOUT_STORE, which price never reads).
        let none = try checkout(["price", a, "--store", store] + rules)
        #expect(none.status == 66 && none.stderr.contains("no store at"))
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try checkout(["price", a, "--store", dir.path] + rules).status == 66)
        let noStore = try checkout(["price", a, "--format", "json"] + rules, environment: ["CHECKOUT_STORE": store])
        #expect(try json(noStore.stdout)["total"] as? String == "4.00")
        #expect(!FileManager.default.fileExists(atPath: store))
        // An empty store: both carts get both promotions in one call.
        try checkout(["cart", "add", "MUG", "--customer", "Z"] + args)
        let both = try checkout(["price", a, b, "--format", "json", "--store", store] + rules)
        let lines = both.stdout.split(separator: "\n").map { try? json(String($0)) }
        #expect(lines.map { $0?["total"] as? String } == ["4.00", "4.00"])
        // A pays: first-1 is used up, and A's welcome too; B keeps the welcome.
        try checkout(["cart", "add", "MUG", "--customer", "A"] + args)
        try checkout(["pay", "--card-stdin", "--customer", "A"] + args, stdin: approvingCard)
        let after = try checkout(["price", a, b, "--format", "json", "--store", store] + rules)
        #expect(
            after.stdout.split(separator: "\n").map { try? json(String($0))["total"] as? String } == ["7.50", "5.50"])
        // The batch path reads the same ledger.
        let batch = try temporaryDirectory([
            "day.ndjson": #"{"customer": {"id": "A"}, "items": ["MUG"]}"# + "\n" + #"{"items": ["MUG"]}"# + "\n"
        ])
        let priced = try checkout(
            ["price", batch.appendingPathComponent("day.ndjson").path, "--format", "json", "--store", store] + rules)
        #expect(
            priced.stdout.split(separator: "\n").map { try? json(String($0))["total"] as? String } == ["7.50", "7.50"])
        let explained = try json(
            checkout(["price", a, "--explain", "--format", "json", "--store", store] + rules).stdout)
        let statuses = (explained["explanations"] as? [[String: Any]])?.map {
            "\($0["id"] as? String ?? "?"):\($0["status"] as? String ?? "?")"
        }
        #expect(statuses == ["first-1:exhausted", "welcome:exhausted"], "\(explained)")
        let receipt = try json(
            checkout(["price", b, "--format", "json", "--store", store, "--coupon", "nothing"] + rules).stdout)
        #expect(receipt["total"] as? String == "5.50")
    }

    @Test(
        "a store from before customers (schema v3) opens, migrates once with 8 processes at once, keeps its cart as the anonymous one and its orders (customer null, redemptions from their receipts)"
    )
    func oldStore() throws {
        let (_, path, args) = try shopFromBeforeCustomers()
        let runs = try (0..<8).map { index in
            try start(
                index.isMultiple(of: 2)
                    ? ["orders", "--format", "json"] + args.prefix(2) : ["cart", "show", "--format", "json"] + args)
        }.map { try $0.wait() }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs)")
        let migrations = try sqlite(path, ["SELECT identifier FROM grdb_migrations ORDER BY identifier"])[0]
        #expect(migrations.map { $0[0] }.last == "v4: customers and the redemption ledger")
        #expect(migrations.count == 4)
        #expect(try state(path).redemptions == ["VOUCHER 2x1": 1] && state(path).tallyErrors == 0)
        let orders = try orders(args)
        #expect(orders.count == 1)
        #expect(orders.first?["customer"] is NSNull)
        #expect(orders.first?["promotions"] as? [String] == ["VOUCHER 2x1"])
        #expect(orders.first?["total"] as? String == "25.00")
        // The cart is the anonymous customer's; its voucher promotion is used up by the old order.
        let cart = try json(runs[1].stdout)
        #expect((cart["lines"] as? [[String: Any]])?.map { $0["quantity"] as? Int } == [2])
        #expect(cart["coupons"] as? [String] == ["spring"])
        #expect(cart["total"] as? String == "10.00")
        let paid = try json(
            checkout(["pay", "--card-stdin", "--format", "json"] + args, stdin: approvingCard).stdout)
        #expect(paid["total"] as? String == "10.00" && paid["exhausted"] as? [String] == ["VOUCHER 2x1"])
        #expect(try checkout(["cart", "show", "--customer", "C-1"] + args).stdout == "Cart is empty.\n")
    }
}

extension LedgerTests {
    /// A shop whose store Checkout wrote before customers (``OldStore``), with "VOUCHER 2x1" usable
    /// once: its old order used it.
    func shopFromBeforeCustomers() throws -> (dir: URL, store: String, args: [String]) {
        let shop = try shop([
            """
            <key>id</key><string>VOUCHER 2x1</string><key>name</key><string>VOUCHER 2x1</string>
            <key>type</key><string>combo</string><key>code</key><string>VOUCHER</string>
            <key>quantity</key><integer>2</integer><key>paid</key><integer>1</integer><key>uses</key><integer>1</integer>
            """
        ])
        try sqlite(shop.store, OldStore.statements)
        return shop
    }

    @Test(
        "price --store on a store from before customers: read as it will be (its old order counts), the file left byte for byte as it was, no lock file"
    )
    func priceOldStoreUnchanged() throws {
        let (dir, path, args) = try shopFromBeforeCustomers()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let cart = dir.appendingPathComponent("cart.json")
        try Data(#"["VOUCHER", "VOUCHER"]"#.utf8).write(to: cart)
        let priced = try checkout(["price", cart.path, "--format", "json", "--explain"] + args)
        #expect(priced.status == 0, "\(priced)")
        #expect(
            priced.stderr
                == "note: the store at \(path) was written by an older Checkout: price reads it without changing it, which takes longer each time; `checkout orders --store \(path)` upgrades it once\n"
        )
        // The old order redeemed the promotion's one use: 2 × 5.00, exhausted.
        let receipt = try json(priced.stdout)
        #expect(receipt["total"] as? String == "10.00")
        #expect((receipt["explanations"] as? [[String: Any]])?.map { $0["status"] as? String } == ["exhausted"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let now = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(now.sorted() == (listing + ["cart.json"]).sorted())
    }
}

/// A store as Checkout wrote it before customers (schema v3): its tables exactly as that version
/// made them, a completed order that redeemed "VOUCHER 2x1", and a cart of 2 vouchers with a coupon.
enum OldStore {
    static let statements = [
        "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
        #"CREATE TABLE "cart_item" ("code" TEXT PRIMARY KEY NOT NULL, "quantity" INTEGER NOT NULL CHECK ("quantity" > 0), "position" INTEGER NOT NULL)"#,
        #"CREATE TABLE "pending_order" ("id" TEXT PRIMARY KEY NOT NULL, "receipt" TEXT NOT NULL, "total" INTEGER NOT NULL, "currency" TEXT NOT NULL, "coupons" TEXT NOT NULL DEFAULT '')"#,
        #"CREATE TABLE "pending_order_item" ("order_id" TEXT NOT NULL REFERENCES "pending_order"("id"), "position" INTEGER NOT NULL, "code" TEXT NOT NULL, "quantity" INTEGER NOT NULL, PRIMARY KEY ("order_id", "position"))"#,
        #"CREATE TABLE "purchase" ("number" INTEGER PRIMARY KEY, "id" TEXT NOT NULL UNIQUE, "at" INTEGER NOT NULL, "receipt" TEXT NOT NULL, "total" INTEGER NOT NULL, "currency" TEXT NOT NULL, "card" TEXT NOT NULL, "reference" TEXT NOT NULL)"#,
        #"CREATE TABLE "gateway_charge" ("key" TEXT PRIMARY KEY NOT NULL, "status" TEXT NOT NULL CHECK (status IN ('approved', 'declined')), "detail" TEXT NOT NULL, "amount" INTEGER NOT NULL, "currency" TEXT NOT NULL, "card" TEXT NOT NULL, "attempts" INTEGER NOT NULL)"#,
        #"CREATE TABLE "cart_coupon" ("key" TEXT PRIMARY KEY NOT NULL, "coupon" TEXT NOT NULL, "position" INTEGER NOT NULL)"#,
        "INSERT INTO grdb_migrations VALUES ('v1: cart, orders, gateway ledger'), ('v2: coupons with the cart and its orders'), ('v3: pending orders hold the units they take')",
        #"INSERT INTO purchase VALUES (1, 'ord_1', 1795614961, '{"currency":"EUR","at":"2026-11-25T13:56:01Z","lines":[{"code":"MUG","name":"Cabify Coffee Mug","quantity":2,"unit_price":"7.50","subtotal":"15.00","discount":"0.00","total":"15.00","promotion":null,"cart_discount":"0.00","promotions":[]},{"code":"VOUCHER","name":"Cabify Voucher","quantity":3,"unit_price":"5.00","subtotal":"15.00","discount":"5.00","total":"10.00","promotion":{"id":"VOUCHER 2x1","name":"VOUCHER 2x1","type":"combo","discount":"5.00"},"cart_discount":"0.00","promotions":[{"id":"VOUCHER 2x1","name":"VOUCHER 2x1","type":"combo","discount":"5.00","units":3}]}],"cart_promotion":null,"subtotal":"30.00","item_discount":"5.00","cart_discount":"0.00","discount":"5.00","total":"25.00","warnings":[]}', 2500, 'EUR', '•••• 4242', 'sim_c33c40daf1bac94a')"#,
        "INSERT INTO gateway_charge VALUES ('ord_1', 'approved', 'sim_c33c40daf1bac94a', 2500, 'EUR', '•••• 4242', 1)",
        "INSERT INTO cart_item VALUES ('VOUCHER', 2, 1)",
        "INSERT INTO cart_coupon VALUES ('SPRING', 'spring', 1)",
        "PRAGMA journal_mode = DELETE"
    ]
}

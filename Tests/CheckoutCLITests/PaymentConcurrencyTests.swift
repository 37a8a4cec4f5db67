import Foundation
import Testing

/// Paying exactly once, with separate processes on one store file (docs/store.md).
@Suite("Paying once, whatever runs at once", .serialized)
struct PaymentConcurrencyTests {
    func newStore() throws -> (path: String, args: [String]) {
        let path = try temporaryDirectory().appendingPathComponent("store.sqlite").path
        return (path, ["--store", path])
    }

    /// For each store: orders, charges (rows, attempts, approvals), pending orders, the cart's
    /// units, and approved charges without their order or recorded with another card or amount —
    /// read as any SQLite client reads them, by one process for all the stores.
    func ledgers(_ paths: [String]) throws -> [Ledger] {
        let statements = [
            "SELECT COUNT(*) FROM purchase",
            "SELECT COUNT(*), COALESCE(SUM(attempts), 0), COALESCE(SUM(status = 'approved'), 0) FROM gateway_charge",
            "SELECT COUNT(*) FROM pending_order",
            "SELECT COALESCE(SUM(quantity), 0) FROM cart_item",
            """
            SELECT COUNT(*) FROM gateway_charge g LEFT JOIN purchase p ON p.id = g.key
            WHERE g.status = 'approved' AND (p.id IS NULL OR p.card != g.card OR p.total != g.amount)
            """
        ]
        return try sqlite(paths, statements).map { rows in
            let int = { (table: Int, column: Int) in Int(rows[table][0][column]) ?? -1 }
            return Ledger(
                orders: int(0, 0), charges: int(1, 0), attempts: int(1, 1), approved: int(1, 2), pending: int(2, 0),
                cartUnits: int(3, 0), unmatched: int(4, 0))
        }
    }

    struct Ledger: Equatable {
        var orders, charges, attempts, approved, pending, cartUnits, unmatched: Int
    }

    func ledger(_ path: String) throws -> Ledger { try ledgers([path])[0] }

    /// Units bought in every order, from their recorded receipts.
    func unitsOrdered(_ store: [String]) throws -> Int {
        let orders =
            try json(checkout(["orders", "--format", "json"] + store).stdout)["orders"] as? [[String: Any]] ?? []
        return orders.reduce(0) { sum, order in
            let lines = (order["receipt"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
            return sum + lines.reduce(0) { $0 + ($1["quantity"] as? Int ?? 0) }
        }
    }

    @Test(
        "10 concurrent pays of one cart: one order, one charge, every other pay refused with nothing charged (100 runs)"
    )
    func tenPays() throws {
        var outcomes: [String: Int] = [:]
        var paths: [String] = []
        for run in 0..<100 {
            let (path, store) = try newStore()
            paths.append(path)
            #expect(try checkout(["cart", "add", "MUG", "--quantity", "2"] + store).status == 0)
            let pays = try (0..<10).map { _ in
                try start(["pay", "--card-stdin", "--format", "json"] + store, stdin: approvingCard)
            }
            let runs = try pays.map { try $0.wait() }
            let statuses = runs.map { run in
                (try? json(run.stdout)["status"] as? String) ?? "none: \(run.status) \(run.stderr)"
            }
            for status in statuses { outcomes[status, default: 0] += 1 }
            #expect(statuses.filter { $0 == "approved" }.count == 1, "run \(run): \(statuses)")
            #expect(runs.filter { $0.status == 0 }.count == 1, "run \(run)")
            #expect(
                runs.allSatisfy { $0.status == 0 || ($0.status == 1 && !$0.stderr.isEmpty) }, "run \(run): \(runs)")
            // Every order's lock file is gone with its order.
            #expect(try FileManager.default.contentsOfDirectory(atPath: path + "-orders") == [])
        }
        // The others saw the cart under way or already empty.
        #expect(outcomes["approved"] == 100)
        #expect(outcomes["in-progress", default: 0] + outcomes["empty-cart", default: 0] == 900)
        // Each store: one order, one charge taken once, approved, for that order; nothing pending or left.
        for (run, state) in try ledgers(paths).enumerated() {
            #expect(
                state
                    == Ledger(
                        orders: 1, charges: 1, attempts: 1, approved: 1, pending: 0, cartUnits: 0, unmatched: 0),
                "run \(run)")
        }
    }

    @Test("10 adds and 10 pays at once conserve units: the orders and the cart hold every unit added (10 runs)")
    func mixedAddsAndPays() throws {
        for run in 0..<10 {
            let (path, store) = try newStore()
            try checkout(["cart", "add", "MUG"] + store)
            var started: [Started] = []
            for index in 0..<20 {
                started.append(
                    index.isMultiple(of: 2)
                        ? try start(["cart", "add", "MUG"] + store)
                        : try start(["pay", "--card-stdin", "--format", "json"] + store, stdin: approvingCard))
            }
            let runs = try started.map { try $0.wait() }
            #expect(runs.enumerated().allSatisfy { $0.offset % 2 == 1 || $0.element.status == 0 }, "run \(run)")
            let state = try ledger(path)
            let ordered = try unitsOrdered(store)
            #expect(ordered + state.cartUnits == 11, "run \(run): \(ordered) ordered, \(state.cartUnits) in the cart")
            #expect(state.orders == state.approved && state.charges == state.attempts, "run \(run)")
            #expect(state.pending == 0 && state.unmatched == 0, "run \(run)")
            // Each order charged exactly its receipt's total: 7.50 € a mug.
            let orders =
                try json(checkout(["orders", "--format", "json"] + store).stdout)["orders"] as? [[String: Any]] ?? []
            for order in orders {
                let receipt = order["receipt"] as? [String: Any]
                #expect(order["total"] as? String == receipt?["total"] as? String)
            }
        }
    }

    @Test(
        "kill -9 at any moment of a payment: the next pay settles it (recovered with its charge's card, or its units back), never charging twice, units conserved"
    )
    func killedPayments() throws {
        let (path, store) = try newStore()
        var added = 0
        var generator = SystemRandomNumberGenerator()
        /// Starts a pay and kills it when `marker` shows on its standard error, or after a random
        /// delay without one.
        func killedPay(pausing moment: String?) throws {
            try checkout(["cart", "add", "MUG"] + store)
            added += 1
            let pay = try start(
                ["pay", "--card-stdin"] + store, stdin: approvingCard,
                environment: moment.map { ["CHECKOUT_TEST_PAUSE_PAYMENT": $0] } ?? [:])
            if moment != nil {
                pay.waitUntilPaused()
            } else {
                usleep(UInt32.random(in: 0..<80_000, using: &generator))
            }
            kill(pay.process.processIdentifier, SIGKILL)
            _ = try pay.wait()
        }
        // Killed after the charge: the next pay records it with the card that was charged.
        try killedPay(pausing: "after-charge")
        #expect(try ledger(path).pending == 1)
        try checkout(["cart", "add", "VOUCHER"] + store)
        added += 1
        let recovering = try checkout(["pay", "--card-stdin", "--format", "json"] + store, stdin: decliningCard)
        #expect(try json(recovering.stdout)["recovered"] as? [Int] == [1])
        #expect(try json(recovering.stdout)["status"] as? String == "declined")
        // Killed before the charge: the next pay puts the units back and pays for them, once.
        try killedPay(pausing: "before-charge")
        #expect(try ledger(path).pending == 1)
        let releasing = try checkout(["pay", "--card-stdin", "--format", "json"] + store, stdin: approvingCard)
        #expect(try json(releasing.stdout)["status"] as? String == "approved")
        #expect(try json(releasing.stdout)["recovered"] as? [Int] == [])
        // The order has the declined voucher and the released mug: 5.00 + 7.50.
        #expect(try json(releasing.stdout)["total"] as? String == "12.50")
        // Then anywhere at all.
        for _ in 0..<30 { try killedPay(pausing: nil) }
        // One more, which settles whatever the killed ones left.
        try checkout(["cart", "add", "MUG"] + store)
        added += 1
        let last = try checkout(["pay", "--card-stdin", "--format", "json"] + store, stdin: approvingCard)
        #expect(last.status == 0 || last.status == 1, "\(last)")
        let state = try ledger(path)
        #expect(state.pending == 0)
        #expect(state.unmatched == 0)
        #expect(state.attempts == state.charges)
        // Every approved charge is an order; the one decline is the voucher's.
        #expect(state.orders == state.approved && state.charges == state.approved + 1)
        #expect(try unitsOrdered(store) + state.cartUnits == added)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "-orders") == [])
    }

    @Test(
        "the COMMIT fails after the charge: said so (text and JSON, exit 74); the next pay recovers it with the card charged, never as an approval of its own card"
    )
    func commitFailsAfterCharge() throws {
        let (path, store) = try newStore()
        try checkout(["cart", "add", "MUG", "--quantity", "2"] + store)
        let failing = ["CHECKOUT_TEST_FAIL_COMMIT": "complete"]
        let failed = try checkout(
            ["pay", "--card-stdin", "--format", "json"] + store, stdin: approvingCard, environment: failing)
        #expect(failed.status == 74)
        let report = try json(failed.stdout)
        #expect(report["status"] as? String == "charged-not-recorded")
        #expect(report["total"] as? String == "15.00")
        #expect(report["card"] as? String == "•••• 4242")
        #expect((report["reference"] as? String)?.hasPrefix("sim_") == true)
        #expect(failed.stderr.hasPrefix("error: the card •••• 4242 was charged 15.00 € (reference sim_"))
        #expect(failed.stderr.contains("but the order could not be recorded"))
        #expect(failed.stderr.hasSuffix("run `checkout pay` again to record it\n"))
        #expect(try ledger(path).pending == 1)
        // Shown as it is: no order yet, the cart's units held by the pending order.
        #expect(try checkout(["orders"] + store).stdout == "No orders yet.\n")

        // The next pay, with a declining card: it recovers order #1 with the card that was
        // charged, and the declining card approves nothing.
        try checkout(["cart", "add", "VOUCHER"] + store)
        let next = try checkout(["pay", "--card-stdin", "--format", "json"] + store, stdin: decliningCard)
        #expect(next.status == 1)
        let outcome = try json(next.stdout)
        #expect(outcome["status"] as? String == "declined")
        #expect(outcome["recovered"] as? [Int] == [1])
        var orders = try json(checkout(["orders", "--format", "json"] + store).stdout)["orders"] as? [[String: Any]]
        #expect(orders?.map { $0["card"] as? String } == ["•••• 4242"])
        #expect(orders?.map { $0["total"] as? String } == ["15.00"])

        // Text output says the same. The failure repeats while the disk is full: here the
        // voucher's own order cannot be recorded either.
        let textFailure = try checkout(["pay", "--card-stdin"] + store, stdin: approvingCard, environment: failing)
        #expect(textFailure.status == 74)
        #expect(textFailure.stdout == "")
        #expect(textFailure.stderr.hasPrefix("error: the card •••• 4242 was charged 5.00 € (reference sim_"))
        // Recovered in text, then the voucher back after a decline.
        try checkout(["cart", "add", "TSHIRT"] + store)
        let recovered = try checkout(["pay", "--card-stdin"] + store, stdin: decliningCard)
        #expect(recovered.status == 1)
        #expect(
            recovered.stdout.hasPrefix(
                "Recovered order #2: an interrupted payment had charged 5.00 € to card •••• 4242 (reference sim_"))
        #expect(recovered.stdout.hasSuffix("Payment declined: card declined. The cart is kept.\n"))
        orders = try json(checkout(["orders", "--format", "json"] + store).stdout)["orders"] as? [[String: Any]]
        #expect(orders?.map { $0["total"] as? String } == ["15.00", "5.00"])
        let state = try ledger(path)
        #expect(state.orders == 2 && state.approved == 2 && state.unmatched == 0 && state.pending == 0)
        // The declined T-shirt is back in the cart.
        #expect(state.cartUnits == 1)
    }

    @Test(
        "a card refused before any charge (bad check digit, or none given) still says the interrupted payment it recovered: JSON \"recovered\", text lines"
    )
    func refusedCardAfterRecovery() throws {
        let (path, store) = try newStore()
        /// A payment charged whose order cannot be recorded (exit 74): the next pay recovers it.
        func chargeWithoutRecording(_ store: [String]) throws {
            let failing = ["CHECKOUT_TEST_FAIL_COMMIT": "complete"]
            #expect(
                try checkout(["pay", "--card-stdin"] + store, stdin: approvingCard, environment: failing).status == 74)
        }
        let badCheckDigit = "4242424242424241\n12/30\n123\n"
        try checkout(["cart", "add", "MUG", "--quantity", "2"] + store)
        try chargeWithoutRecording(store)
        // Something to pay for after it: the units of order #1 are held by its pending order.
        try checkout(["cart", "add", "VOUCHER"] + store)
        // JSON: refused (exit 65), with order #1 recovered.
        let refused = try checkout(["pay", "--card-stdin", "--format", "json"] + store, stdin: badCheckDigit)
        #expect(refused.status == 65)
        let report = try json(refused.stdout)
        #expect(report["status"] as? String == "invalid-card")
        #expect(report["error"] as? String == "the card number is not valid (check digit)")
        #expect(report["recovered"] as? [Int] == [1])
        #expect(refused.stderr == "error: invalid card: the card number is not valid (check digit)\n")
        // Text: the recovered order's line, then the error on standard error.
        try chargeWithoutRecording(store)
        try checkout(["cart", "add", "TSHIRT"] + store)
        let text = try checkout(["pay", "--card-stdin"] + store, stdin: badCheckDigit)
        #expect(text.status == 65)
        #expect(
            text.stdout.hasPrefix(
                "Recovered order #2: an interrupted payment had charged 5.00 € to card •••• 4242 (reference sim_"))
        #expect(text.stdout.hasSuffix("it is recorded now, nothing was charged again.\n"))
        #expect(text.stderr == "error: invalid card: the card number is not valid (check digit)\n")
        // No card at all (a usage error): the recovered order is said too.
        try chargeWithoutRecording(store)
        try checkout(["cart", "add", "MUG"] + store)
        let none = try checkout(["pay", "--card-stdin"] + store, stdin: "\n\n\n")
        #expect(none.status == 64)
        #expect(
            none.stdout.hasPrefix("Recovered order #3: an interrupted payment had charged 20.00 € to card •••• 4242"))
        // Output that cannot be written (a full disk): standard error says the order is recorded.
        try chargeWithoutRecording(store)
        try checkout(["cart", "add", "VOUCHER"] + store)
        let lost = try StoreOwnershipTests().toFullDisk(["pay", "--card-stdin"] + store, stdin: badCheckDigit)
        #expect(lost.status == 74)
        #expect(
            lost.stderr
                == "error: invalid card: the card number is not valid (check digit)\nerror: cannot write the output: No space left on device; the store was changed all the same: Order #4 (7.50 €, card •••• 4242) was recovered.\n"
        )
        // No card at all, and the output cannot be written: the recovered order is said all the same.
        try chargeWithoutRecording(store)
        try checkout(["cart", "add", "MUG"] + store)
        let noCard = try StoreOwnershipTests().toFullDisk(["pay", "--card-stdin"] + store, stdin: "\n\n\n")
        #expect(noCard.status == 74)
        #expect(
            noCard.stderr.hasSuffix(
                "error: cannot write the output: No space left on device; the store was changed all the same: Order #5 (5.00 €, card •••• 4242) was recovered.\n"
            ))
        let state = try ledger(path)
        #expect(state.orders == 5 && state.pending == 0 && state.unmatched == 0)
    }
}

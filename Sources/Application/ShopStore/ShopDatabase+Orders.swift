import GRDB
import Platform
import Pricing
import Shopping

/// Orders: ``PendingOrderRow``s with their ``PendingOrderItem``s while being paid, then ``Purchase``s.
///
/// A pending order is held by the process paying it through a lock on its own file,
/// `<store>-orders/<id>.lock`, taken before its row exists and let go after its row is gone; the
/// kernel lets it go when that process ends, however it ends. An order whose lock can be taken is
/// therefore interrupted, and the process that took the lock settles it (docs/store.md).
extension ShopDatabase: OrderBook {
    public func placeOrder(
        limited: [String], pricing price: (CartContents, RedemptionCounts) throws -> PricedCart
    ) throws -> Placement {
        let id = ShopDatabase.newOrderID()
        let cart = cartKey
        let customer = self.customer
        // Waits, rarely and briefly: another process removing stale locks may hold the new file
        // for a moment (then removes it, and the lock is taken on the file made after it).
        guard let hold = try hold(id, wait: true) else {
            throw StoreError(.unusable, "the lock of a new order (\(holdsDirectory)/\(id).lock) is taken")
        }
        let placement: Placement
        do {
            // One IMMEDIATE transaction: no other payment can record redemptions between the
            // ledger read here and this order's own (docs/store.md, "Usage limits").
            placement = try write { db -> Placement in
                if try ShopDatabase.hasPendingOrder(of: customer, db) { return .inProgress }
                let items = try ShopDatabase.items(cart, db)
                guard !items.isEmpty else { return .emptyCart }
                let coupons = try ShopDatabase.coupons(cart, db).map(\.coupon)
                let entries = items.map { CartEntry(code: $0.code, quantity: $0.quantity) }
                let counts = try ShopDatabase.redemptionCounts(limited: limited, scope: .one(customer), db)
                let priced = try price(CartContents(entries: entries, coupons: coupons), counts)
                try PendingOrderRow(
                    id: id, receipt: priced.receiptJSON, total: priced.total, currency: priced.currency.code,
                    coupons: coupons.joined(separator: "\n"), customer: customer
                ).insert(db)
                for (position, item) in items.enumerated() {
                    try PendingOrderItem(
                        orderID: id, position: Int64(position), code: item.code, quantity: item.quantity
                    )
                    .insert(db)
                }
                // The order holds its redemptions from now: they count against every later payment.
                for (position, promotion) in priced.redeemed.enumerated() {
                    try Redemption(orderID: id, promotion: promotion, customer: customer, position: Int64(position))
                        .insert(db)
                }
                // The units and coupons are the order's now: they come back only if it is released.
                _ = try CartItem.filter(CartItem.Columns.customer == cart).deleteAll(db)
                _ = try CartCoupon.filter(CartCoupon.Columns.customer == cart).deleteAll(db)
                var order = PendingOrder(
                    id: id, entries: entries, receiptJSON: priced.receiptJSON, total: priced.total,
                    currency: priced.currency)
                order.coupons = coupons
                order.customer = customer
                order.redeemed = priced.redeemed
                return .placed(order)
            }
        } catch {
            hold.unlockRemovingFile()
            throw error
        }
        if case .placed = placement { holds[id] = hold } else { hold.unlockRemovingFile() }
        return placement
    }

    public func interruptedOrders() throws -> [PendingOrder] {
        let ids = try read { db in
            try String.fetchAll(db, PendingOrderRow.select(PendingOrderRow.Columns.id).order(Column.rowID))
        }
        removeStaleLocks(keeping: Set(ids))
        var claimed: [PendingOrder] = []
        for id in ids where holds[id] == nil {
            // Held by the process paying it: under way, not ours to touch. Held only by readers
            // asking whether it is (``FileLock/isHeld(_:)``, for a moment): waited for.
            guard let hold = try hold(id) ?? (isHeldByPayer(id) ? nil : hold(id, wait: true)) else { continue }
            // Settled by another process between the listing and the lock?
            if let order = try read({ db in try ShopDatabase.pendingOrder(id, db) }) {
                holds[id] = hold
                claimed.append(order)
            } else {
                hold.unlockRemovingFile()
            }
        }
        return claimed
    }

    public func ledger(limited: [String], scope: CustomerScope) throws -> Ledger {
        // The counts and the pending orders in one snapshot: each pending order's redemptions are
        // in the counts exactly when it is listed.
        let (counts, pending) = try read { db in
            (
                try ShopDatabase.redemptionCounts(limited: limited, scope: scope, db),
                try ShopDatabase.pendingOrders(db)
            )
        }
        return Ledger(counts: counts, stalled: pending.filter { holds[$0.id] == nil && !isHeldByPayer($0.id) })
    }

    /// Whether a process holds the lock of order `id` (its payer, or one settling it). A lock that
    /// cannot be asked about (its file unreadable) counts as held: the order then counts as it
    /// would without asking.
    func isHeldByPayer(_ id: String) -> Bool {
        (try? FileLock.isHeld(holdsDirectory + "/" + id + ".lock")) ?? true
    }

    public func complete(_ order: PendingOrder, at: Instant, card: String, reference: String) throws -> OrderRecord {
        do {
            let record = try write { db -> OrderRecord in
                guard try PendingOrderRow.exists(db, key: order.id) else {
                    if let done = try Purchase.filter(Purchase.Columns.id == order.id).fetchOne(db) {
                        return try ShopDatabase.record(done, db)
                    }
                    throw StoreError(.unusable, "the order \(order.id) is no longer pending")
                }
                FaultInjection.failCommitIfAsked(db, step: "complete")
                let last = try Int.fetchOne(db, Purchase.select(max(Purchase.Columns.number))) ?? 0
                let customer = try PendingOrderRow.fetchOne(db, key: order.id)?.customer
                let purchase = Purchase(
                    number: last + 1, id: order.id, at: at.seconds, receipt: order.receiptJSON, total: order.total,
                    currency: order.currency.code, card: card, reference: reference, customer: customer)
                try purchase.insert(db)
                _ = try PendingOrderItem.filter(PendingOrderItem.Columns.orderID == order.id).deleteAll(db)
                _ = try PendingOrderRow.deleteOne(db, key: order.id)
                return try ShopDatabase.record(purchase, db)
            }
            holds.removeValue(forKey: order.id)?.unlockRemovingFile()
            return record
        } catch {
            // Not recorded: the order stays pending, and no longer held, for the next payment to settle.
            holds.removeValue(forKey: order.id)?.unlock()
            throw error
        }
    }

    public func release(_ order: PendingOrder) throws {
        do {
            try write { db in
                guard let pending = try ShopDatabase.pendingOrder(order.id, db) else { return }
                // Back to its customer's cart; its redemptions are no longer held.
                let cart = ShopDatabase.cartKey(pending.customer)
                for entry in pending.entries {
                    try ShopDatabase.put(entry.code, quantity: entry.quantity, in: cart, db)
                }
                for coupon in pending.coupons { _ = try ShopDatabase.addCoupon(coupon, to: cart, db) }
                _ = try Redemption.filter(Redemption.Columns.orderID == order.id).deleteAll(db)
                _ = try PendingOrderItem.filter(PendingOrderItem.Columns.orderID == order.id).deleteAll(db)
                _ = try PendingOrderRow.deleteOne(db, key: order.id)
            }
            holds.removeValue(forKey: order.id)?.unlockRemovingFile()
        } catch {
            holds.removeValue(forKey: order.id)?.unlock()
            throw error
        }
    }

    public func orders() throws -> [OrderRecord] {
        try read { db in
            try Purchase.order(Purchase.Columns.number).fetchAll(db).map { try ShopDatabase.record($0, db) }
        }
    }

    /// The orders of one customer (nil: the anonymous customer's), oldest first.
    public func orders(of customer: String?) throws -> [OrderRecord] {
        try read { db in
            try Purchase.filter(Purchase.Columns.customer == customer).order(Purchase.Columns.number).fetchAll(db)
                .map { try ShopDatabase.record($0, db) }
        }
    }

    /// How often the `limited` promotions were redeemed by orders committed or pending: all
    /// customers together, and per customer for `scope` (what `price --store` prices against).
    public func redemptionCounts(limited: [String], scope: CustomerScope) throws -> RedemptionCounts {
        guard !limited.isEmpty else { return RedemptionCounts() }
        return try read { db in try ShopDatabase.redemptionCounts(limited: limited, scope: scope, db) }
    }

    /// How many orders, committed or pending, redeemed each of the `limited` promotions: all
    /// customers together, and per customer id for `scope`. Read from the tally the store keeps
    /// with every redemption added or removed: a few rows, however long the history.
    static func redemptionCounts(limited: [String], scope: CustomerScope, _ db: Database) throws -> RedemptionCounts {
        var counts = RedemptionCounts()
        guard !limited.isEmpty else { return counts }
        // Few limited promotions: looked up by key; very many: every tally row once.
        let few = limited.count <= 500
        let chosen = few ? "promotion IN (\(databaseQuestionMarks(count: limited.count)))" : "1"
        let arguments = StatementArguments(few ? limited : [])
        let customers: String
        var perCustomer = arguments
        switch scope {
        case .one(nil): customers = "customer = ''"
        case .one(let id?):
            customers = "customer IN ('', ?)"
            perCustomer += [id]
        case .all: customers = "1"
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT promotion, customer, orders FROM redemption_tally WHERE \(chosen) AND \(customers)",
            arguments: perCustomer)
        {
            let (promotion, customer, orders): (String, String, Int64) = (row[0], row[1], row[2])
            guard orders > 0 else { continue }
            if customer.isEmpty {
                counts.orders[promotion] = orders
            } else {
                counts.ordersByCustomer[ExactText(customer), default: [:]][promotion] = orders
            }
        }
        return counts
    }

    /// Whether `customer` (nil: the anonymous customer) has an order pending: one being paid, or
    /// left interrupted. Compared byte for byte, by SQLite.
    public func hasPendingOrder(of customer: String?) throws -> Bool {
        try read { db in try ShopDatabase.hasPendingOrder(of: customer, db) }
    }

    static func hasPendingOrder(of customer: String?, _ db: Database) throws -> Bool {
        try PendingOrderRow.filter(PendingOrderRow.Columns.customer == customer).fetchCount(db) > 0
    }

    /// Pending orders, oldest first, held or not: for tests and diagnostics.
    public func pendingOrders() throws -> [PendingOrder] {
        try read { db in try ShopDatabase.pendingOrders(db) }
    }

    static func pendingOrders(_ db: Database) throws -> [PendingOrder] {
        try String.fetchAll(db, PendingOrderRow.select(PendingOrderRow.Columns.id).order(Column.rowID))
            .compactMap { try ShopDatabase.pendingOrder($0, db) }
    }

    static func pendingOrder(_ id: String, _ db: Database) throws -> PendingOrder? {
        guard let row = try PendingOrderRow.fetchOne(db, key: id) else { return nil }
        let redeemed = try ShopDatabase.redeemed(id, db)
        let items = try PendingOrderItem.filter(PendingOrderItem.Columns.orderID == id)
            .order(PendingOrderItem.Columns.position).fetchAll(db)
        var order = PendingOrder(
            id: id, entries: items.map { CartEntry(code: $0.code, quantity: $0.quantity) }, receiptJSON: row.receipt,
            total: row.total, currency: Currency(code: row.currency) ?? .euro)
        order.coupons =
            row.coupons.isEmpty
            ? [] : row.coupons.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        order.customer = row.customer
        order.redeemed = redeemed
        return order
    }

    /// The promotions order `id` redeems, in their recorded order.
    static func redeemed(_ id: String, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db,
            Redemption.filter(Redemption.Columns.orderID == id).order(Redemption.Columns.position)
                .select(Redemption.Columns.promotion))
    }

    static func record(_ purchase: Purchase, _ db: Database) throws -> OrderRecord {
        OrderRecord(
            number: purchase.number, id: purchase.id, at: Instant(seconds: purchase.at), receiptJSON: purchase.receipt,
            total: purchase.total, currency: Currency(code: purchase.currency) ?? .euro, card: purchase.card,
            reference: purchase.reference, customer: purchase.customer, promotions: try redeemed(purchase.id, db))
    }

    static func newOrderID() -> String {
        var random = SystemRandomNumberGenerator()
        return "ord_" + String(random.next(), radix: 16) + String(random.next(), radix: 16)
    }

    /// Removes the lock files of orders that have no row and no holder: left by a process that
    /// ended after making its order's lock and before recording the order, or after settling it
    /// and before removing the lock. One being made now is held by its maker, and kept.
    func removeStaleLocks(keeping pending: Set<String>) {
        for name in FileSystem.names(in: holdsDirectory) where name.hasSuffix(".lock") {
            let id = String(name.dropLast(5))
            guard !pending.contains(id), holds[id] == nil,
                let lock = try? FileLock(path: holdsDirectory + "/" + name, wait: false)
            else { continue }
            // Recorded since the listing? Then it is an order like any other: keep its file.
            if (try? read({ db in try PendingOrderRow.exists(db, key: id) })) == false {
                lock.unlockRemovingFile()
            } else {
                lock.unlock()
            }
        }
    }

    /// Takes the lock of order `id` unless someone holds it (nil then), or waits for it with `wait`.
    func hold(_ id: String, wait: Bool = false) throws -> FileLock? {
        do {
            try FileSystem.makeDirectory(holdsDirectory)
            return try FileLock(path: holdsDirectory + "/" + id + ".lock", wait: wait)
        } catch {
            throw StoreError(.unusable, "cannot lock the order \(id) in \(holdsDirectory): \(error)")
        }
    }
}

/// Test-only failures, asked for with the environment variable `CHECKOUT_TEST_FAIL_COMMIT`
/// (docs/store.md): `complete` makes the COMMIT of an order's completion fail, as a full disk
/// would, after its charge went through.
enum FaultInjection {
    static let step = Machine.environment("CHECKOUT_TEST_FAIL_COMMIT")

    static func failCommitIfAsked(_ db: Database, step: String) {
        guard self.step == step else { return }
        db.add(transactionObserver: FailingCommit(), extent: .nextTransaction)
    }

    /// Refuses the commit of the transaction it observes.
    final class FailingCommit: TransactionObserver {
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseWillCommit() throws {
            throw DatabaseError(
                resultCode: .SQLITE_FULL, message: "database or disk is full (CHECKOUT_TEST_FAIL_COMMIT=complete)")
        }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }
}

import Foundation
import GRDB
import Platform
import Pricing
import Shopping

/// A store that cannot be opened or used.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// The cart, the orders and the simulated gateway's ledger, in one SQLite database (GRDB). Every
/// change runs in an IMMEDIATE transaction and waits its turn when another process holds the
/// database, so concurrent invocations never lose an update.
public final class ShopDatabase: CartStore, OrderBook, ChargeLedger {
    let queue: DatabaseQueue
    public let path: String

    /// Opens (creating when needed) the store at `path`, relative or absolute, and brings its schema
    /// up to date. A missing directory is created only with `createDirectory` (the default
    /// location); otherwise it is an error naming it. A file that is not a store is refused as such.
    public init(path: String, createDirectory: Bool = false) throws(StoreError) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        self.path = path
        let directory = (absolute as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard createDirectory else {
                throw StoreError(
                    description:
                        "cannot open the store at \(path): the directory \(directory) does not exist; create it first")
            }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(
                    description: "cannot create the directory \(directory) for the store: \(error.localizedDescription)"
                )
            }
        } else if !isDirectory.boolValue {
            throw StoreError(description: "cannot open the store at \(path): \(directory) is not a directory")
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            configuration.journalMode = .wal
            queue = try DatabaseQueue(path: absolute, configuration: configuration)
            try ShopDatabase.withFileLock(absolute + ".lock") {
                // A database with tables must be one of our stores (a new one has none yet).
                let (tables, ours) = try queue.read { db in
                    (
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0,
                        try Bool.fetchOne(
                            db, sql: "SELECT COUNT(*) > 0 FROM sqlite_master WHERE name = 'grdb_migrations'") ?? false
                    )
                }
                guard tables == 0 || ours else {
                    throw StoreError(
                        description:
                            "\(path) is not a Checkout store (an SQLite database without its tables); give another --store path"
                    )
                }
                try Schema.migrator.migrate(queue)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(
                description: "\(path) is not a Checkout store (not an SQLite database); give another --store path")
        } catch {
            throw StoreError(description: "cannot open the store at \(path): \(error)")
        }
    }

    /// `--store`, else `$CHECKOUT_STORE`, else `$XDG_DATA_HOME/checkout/store.sqlite`, else
    /// `~/.local/share/checkout/store.sqlite`; and whether it is the default location (whose
    /// directory is created when missing).
    public static func location(option: String?, environment: [String: String]) -> (path: String, isDefault: Bool) {
        if let option { return (option, false) }
        if let path = environment["CHECKOUT_STORE"], !path.isEmpty { return (path, false) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return (data + "/checkout/store.sqlite", true) }
        return ((environment["HOME"] ?? ".") + "/.local/share/checkout/store.sqlite", true)
    }

    /// Runs `body` holding an exclusive lock on `lockPath`: migrations run once even when several
    /// processes open a new store together.
    static func withFileLock<T>(_ lockPath: String, _ body: () throws -> T) throws -> T {
        let lock: FileLock
        do {
            lock = try FileLock(path: lockPath)
        } catch {
            throw StoreError(description: "cannot lock \(lockPath): \(error)")
        }
        defer { lock.unlock() }
        return try body()
    }

    /// A write transaction that takes the write lock at once (IMMEDIATE).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(description: "the store at \(path) failed: \(error)")
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.read(body)
        } catch {
            throw StoreError(description: "the store at \(path) failed: \(error)")
        }
    }

    // MARK: CartStore

    public func entries() throws -> [CartEntry] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT code, quantity FROM cart_item ORDER BY position").map {
                CartEntry(code: $0["code"], quantity: $0["quantity"])
            }
        }
    }

    public func add(_ code: String, quantity: Int64) throws {
        guard quantity > 0 else { throw StoreError(description: "the quantity must be at least 1") }
        try write { db in
            if let current = try Int64.fetchOne(
                db, sql: "SELECT quantity FROM cart_item WHERE code = ?", arguments: [code])
            {
                let (sum, overflow) = current.addingReportingOverflow(quantity)
                guard !overflow else {
                    throw StoreError(description: "the quantity of \(code) in the cart would be too large")
                }
                try db.execute(sql: "UPDATE cart_item SET quantity = ? WHERE code = ?", arguments: [sum, code])
            } else {
                try db.execute(
                    sql:
                        "INSERT INTO cart_item (code, quantity, position) VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM cart_item))",
                    arguments: [code, quantity])
            }
        }
    }

    @discardableResult
    public func remove(_ code: String, quantity: Int64?) throws -> Bool {
        try write { db in
            guard
                let current = try Int64.fetchOne(
                    db, sql: "SELECT quantity FROM cart_item WHERE code = ?", arguments: [code])
            else { return false }
            if let quantity, quantity < current {
                try db.execute(
                    sql: "UPDATE cart_item SET quantity = ? WHERE code = ?", arguments: [current - quantity, code])
            } else {
                try db.execute(sql: "DELETE FROM cart_item WHERE code = ?", arguments: [code])
            }
            return true
        }
    }

    public func clear() throws {
        try write { db in try db.execute(sql: "DELETE FROM cart_item; DELETE FROM cart_coupon") }
    }

    public func coupons() throws -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT coupon FROM cart_coupon ORDER BY position") }
    }

    @discardableResult
    public func addCoupon(_ coupon: String) throws -> Bool {
        try write { db in
            guard
                try Int.fetchOne(
                    db, sql: "SELECT 1 FROM cart_coupon WHERE key = ?", arguments: [ShopDatabase.key(coupon)]) == nil
            else { return false }
            try db.execute(
                sql:
                    "INSERT INTO cart_coupon (key, coupon, position) VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM cart_coupon))",
                arguments: [ShopDatabase.key(coupon), coupon])
            return true
        }
    }

    @discardableResult
    public func removeCoupon(_ coupon: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM cart_coupon WHERE key = ?", arguments: [ShopDatabase.key(coupon)])
            return db.changesCount > 0
        }
    }

    /// Coupons compare ASCII-case-insensitively.
    static func key(_ coupon: String) -> String {
        String(decoding: coupon.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    // MARK: OrderBook

    public func pendingOrder(
        for entries: [CartEntry], coupons: [String], receiptJSON: String, total: Int64, currency: Currency
    ) throws -> PendingOrder {
        try write { db in
            for pending in try ShopDatabase.pendingOrders(db)
            where pending.entries == entries && pending.coupons == coupons {
                return pending
            }
            let id = ShopDatabase.newOrderID()
            try db.execute(
                sql: "INSERT INTO pending_order (id, receipt, total, currency, coupons) VALUES (?, ?, ?, ?, ?)",
                arguments: [id, receiptJSON, total, currency.code, coupons.joined(separator: "\n")])
            for (position, entry) in entries.enumerated() {
                try db.execute(
                    sql: "INSERT INTO pending_order_item (order_id, position, code, quantity) VALUES (?, ?, ?, ?)",
                    arguments: [id, position, entry.code, entry.quantity])
            }
            var order = PendingOrder(
                id: id, entries: entries, receiptJSON: receiptJSON, total: total, currency: currency)
            order.coupons = coupons
            return order
        }
    }

    public func pendingOrders() throws -> [PendingOrder] {
        try read { db in try ShopDatabase.pendingOrders(db) }
    }

    static func pendingOrders(_ db: Database) throws -> [PendingOrder] {
        try Row.fetchAll(db, sql: "SELECT id, receipt, total, currency, coupons FROM pending_order ORDER BY rowid").map
        { row in
            let id: String = row["id"]
            let entries = try Row.fetchAll(
                db, sql: "SELECT code, quantity FROM pending_order_item WHERE order_id = ? ORDER BY position",
                arguments: [id]
            )
            .map { CartEntry(code: $0["code"], quantity: $0["quantity"]) }
            var order = PendingOrder(
                id: id, entries: entries, receiptJSON: row["receipt"], total: row["total"],
                currency: Currency(code: row["currency"]) ?? .euro)
            let coupons: String = row["coupons"]
            order.coupons =
                coupons.isEmpty ? [] : coupons.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            return order
        }
    }

    public func complete(_ order: PendingOrder, at: Instant, card: String, reference: String) throws -> OrderRecord {
        try write { db in
            if let existing = try ShopDatabase.order(db, id: order.id) { return existing }
            let number = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(number), 0) + 1 FROM purchase") ?? 1
            try db.execute(
                sql: """
                    INSERT INTO purchase (number, id, at, receipt, total, currency, card, reference) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    number, order.id, at.seconds, order.receiptJSON, order.total, order.currency.code, card, reference
                ])
            // What was bought leaves the cart, with the coupons it used; anything added meanwhile stays.
            for coupon in order.coupons {
                try db.execute(sql: "DELETE FROM cart_coupon WHERE key = ?", arguments: [ShopDatabase.key(coupon)])
            }
            for entry in order.entries {
                try db.execute(
                    sql: "DELETE FROM cart_item WHERE code = ? AND quantity <= ?",
                    arguments: [entry.code, entry.quantity])
                try db.execute(
                    sql: "UPDATE cart_item SET quantity = quantity - ? WHERE code = ?",
                    arguments: [entry.quantity, entry.code])
            }
            try db.execute(sql: "DELETE FROM pending_order_item WHERE order_id = ?", arguments: [order.id])
            try db.execute(sql: "DELETE FROM pending_order WHERE id = ?", arguments: [order.id])
            return OrderRecord(
                number: number, id: order.id, at: at, receiptJSON: order.receiptJSON, total: order.total,
                currency: order.currency, card: card, reference: reference)
        }
    }

    public func discard(_ order: PendingOrder) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM pending_order_item WHERE order_id = ?", arguments: [order.id])
            try db.execute(sql: "DELETE FROM pending_order WHERE id = ?", arguments: [order.id])
        }
    }

    public func orders() throws -> [OrderRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM purchase ORDER BY number").map(ShopDatabase.record)
        }
    }

    static func order(_ db: Database, id: String) throws -> OrderRecord? {
        try Row.fetchOne(db, sql: "SELECT * FROM purchase WHERE id = ?", arguments: [id]).map(record)
    }

    static func record(_ row: Row) -> OrderRecord {
        OrderRecord(
            number: row["number"], id: row["id"], at: Instant(seconds: row["at"]), receiptJSON: row["receipt"],
            total: row["total"],
            currency: Currency(code: row["currency"]) ?? .euro, card: row["card"], reference: row["reference"])
    }

    static func newOrderID() -> String {
        var random = SystemRandomNumberGenerator()
        return "ord_" + String(random.next(), radix: 16) + String(random.next(), radix: 16)
    }

    // MARK: ChargeLedger

    public func charge(forKey key: String) throws -> ChargeOutcome? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT status, detail FROM gateway_charge WHERE key = ?", arguments: [key]).map {
                row in
                let detail: String = row["detail"]
                return (row["status"] as String) == "approved"
                    ? .approved(reference: detail) : .declined(reason: detail)
            }
        }
    }

    public func record(_ outcome: ChargeOutcome, forKey key: String, amount: Int64, currency: Currency, card: String)
        throws
    {
        let (status, detail): (String, String) =
            switch outcome {
            case .approved(let reference): ("approved", reference)
            case .declined(let reason): ("declined", reason)
            }
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO gateway_charge (key, status, detail, amount, currency, card, attempts) VALUES (?, ?, ?, ?, ?, ?, 1)
                    ON CONFLICT(key) DO UPDATE SET status = excluded.status, detail = excluded.detail, amount = excluded.amount,
                        currency = excluded.currency, card = excluded.card, attempts = attempts + 1
                    """, arguments: [key, status, detail, amount, currency.code, card])
        }
    }

    /// How many charges the simulated gateway took for a key: for tests of idempotency.
    public func chargeAttempts(forKey key: String) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT attempts FROM gateway_charge WHERE key = ?", arguments: [key]) ?? 0
        }
    }
}

/// The schema, one migration per change, from day one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: cart, orders, gateway ledger") { db in
            try db.execute(
                sql: """
                    CREATE TABLE cart_item (
                        code TEXT PRIMARY KEY,
                        quantity INTEGER NOT NULL CHECK (quantity > 0),
                        position INTEGER NOT NULL
                    );
                    CREATE TABLE pending_order (
                        id TEXT PRIMARY KEY,
                        receipt TEXT NOT NULL,
                        total INTEGER NOT NULL,
                        currency TEXT NOT NULL
                    );
                    CREATE TABLE pending_order_item (
                        order_id TEXT NOT NULL REFERENCES pending_order(id),
                        position INTEGER NOT NULL,
                        code TEXT NOT NULL,
                        quantity INTEGER NOT NULL,
                        PRIMARY KEY (order_id, position)
                    );
                    CREATE TABLE purchase (
                        number INTEGER PRIMARY KEY,
                        id TEXT NOT NULL UNIQUE,
                        at INTEGER NOT NULL,
                        receipt TEXT NOT NULL,
                        total INTEGER NOT NULL,
                        currency TEXT NOT NULL,
                        card TEXT NOT NULL,
                        reference TEXT NOT NULL
                    );
                    CREATE TABLE gateway_charge (
                        key TEXT PRIMARY KEY,
                        status TEXT NOT NULL CHECK (status IN ('approved', 'declined')),
                        detail TEXT NOT NULL,
                        amount INTEGER NOT NULL,
                        currency TEXT NOT NULL,
                        card TEXT NOT NULL,
                        attempts INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("v2: coupons with the cart and its orders") { db in
            try db.execute(
                sql: """
                    CREATE TABLE cart_coupon (
                        key TEXT PRIMARY KEY,
                        coupon TEXT NOT NULL,
                        position INTEGER NOT NULL
                    );
                    ALTER TABLE pending_order ADD COLUMN coupons TEXT NOT NULL DEFAULT '';
                    """)
        }
        return migrator
    }
}

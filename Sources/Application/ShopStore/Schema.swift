import GRDB
import Shopping

/// The store's schema, one migration per change, from day one. A store is ours when its
/// `grdb_migrations` table lists only these identifiers (docs/store.md).
enum Schema {
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: cart, orders, gateway ledger") { db in
            try db.create(table: CartItem.databaseTableName) { table in
                table.primaryKey("code", .text)
                table.column("quantity", .integer).notNull().check { $0 > 0 }
                table.column("position", .integer).notNull()
            }
            try db.create(table: PendingOrderRow.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("receipt", .text).notNull()
                table.column("total", .integer).notNull()
                table.column("currency", .text).notNull()
            }
            try db.create(table: PendingOrderItem.databaseTableName) { table in
                table.column("order_id", .text).notNull().references(PendingOrderRow.databaseTableName)
                table.column("position", .integer).notNull()
                table.column("code", .text).notNull()
                table.column("quantity", .integer).notNull()
                table.primaryKey(["order_id", "position"])
            }
            try db.create(table: Purchase.databaseTableName) { table in
                table.primaryKey("number", .integer)
                table.column("id", .text).notNull().unique()
                table.column("at", .integer).notNull()
                table.column("receipt", .text).notNull()
                table.column("total", .integer).notNull()
                table.column("currency", .text).notNull()
                table.column("card", .text).notNull()
                table.column("reference", .text).notNull()
            }
            try db.create(table: GatewayCharge.databaseTableName) { table in
                table.primaryKey("key", .text)
                table.column("status", .text).notNull().check(sql: "status IN ('approved', 'declined')")
                table.column("detail", .text).notNull()
                table.column("amount", .integer).notNull()
                table.column("currency", .text).notNull()
                table.column("card", .text).notNull()
                table.column("attempts", .integer).notNull()
            }
        }
        migrator.registerMigration("v2: coupons with the cart and its orders") { db in
            try db.create(table: CartCoupon.databaseTableName) { table in
                table.primaryKey("key", .text)
                table.column("coupon", .text).notNull()
                table.column("position", .integer).notNull()
            }
            try db.alter(table: PendingOrderRow.databaseTableName) { table in
                table.add(column: "coupons", .text).notNull().defaults(to: "")
            }
        }
        migrator.registerMigration("v3: pending orders hold the units they take") { db in
            // Before v3 a pending order was a copy of the cart, which kept its units. One whose
            // charge went through now takes its units out of the cart (as many as are there, the
            // rest forgotten), as orders placed from now on do; any other was never charged and goes.
            // Plain SQL: the records describe the latest schema, not this one.
            for order in try String.fetchAll(db, sql: "SELECT id FROM pending_order") {
                let charged =
                    try Bool.fetchOne(
                        db, sql: "SELECT status = 'approved' FROM gateway_charge WHERE key = ?", arguments: [order])
                    ?? false
                guard charged else {
                    try db.execute(sql: "DELETE FROM pending_order_item WHERE order_id = ?", arguments: [order])
                    try db.execute(sql: "DELETE FROM pending_order WHERE id = ?", arguments: [order])
                    continue
                }
                let items = try Row.fetchAll(
                    db, sql: "SELECT position, code, quantity FROM pending_order_item WHERE order_id = ?",
                    arguments: [order])
                for item in items {
                    let code: String = item["code"]
                    let position: Int64 = item["position"]
                    let wanted: Int64 = item["quantity"]
                    let held =
                        try Int64.fetchOne(db, sql: "SELECT quantity FROM cart_item WHERE code = ?", arguments: [code])
                        ?? 0
                    let taken = min(held, wanted)
                    if held > 0 {
                        try db.execute(
                            sql: held == taken
                                ? "DELETE FROM cart_item WHERE code = ?"
                                : "UPDATE cart_item SET quantity = quantity - \(taken) WHERE code = ?",
                            arguments: [code])
                    }
                    try db.execute(
                        sql: taken == 0
                            ? "DELETE FROM pending_order_item WHERE order_id = ? AND position = ?"
                            : "UPDATE pending_order_item SET quantity = \(taken) WHERE order_id = ? AND position = ?",
                        arguments: [order, position])
                }
            }
        }
        migrator.registerMigration("v4: customers and the redemption ledger") { db in
            // One cart per customer: the cart so far is the anonymous customer's (key "").
            try db.execute(
                sql: """
                    CREATE TABLE cart_item_v4 (
                        customer TEXT NOT NULL, code TEXT NOT NULL, quantity INTEGER NOT NULL CHECK (quantity > 0),
                        position INTEGER NOT NULL, PRIMARY KEY (customer, code));
                    INSERT INTO cart_item_v4 SELECT '', code, quantity, position FROM cart_item;
                    DROP TABLE cart_item;
                    ALTER TABLE cart_item_v4 RENAME TO cart_item;
                    CREATE TABLE cart_coupon_v4 (
                        customer TEXT NOT NULL, key TEXT NOT NULL, coupon TEXT NOT NULL, position INTEGER NOT NULL,
                        PRIMARY KEY (customer, key));
                    INSERT INTO cart_coupon_v4 SELECT '', key, coupon, position FROM cart_coupon;
                    DROP TABLE cart_coupon;
                    ALTER TABLE cart_coupon_v4 RENAME TO cart_coupon;
                    ALTER TABLE pending_order ADD COLUMN customer TEXT;
                    ALTER TABLE purchase ADD COLUMN customer TEXT;
                    CREATE INDEX purchase_customer ON purchase (customer);
                    CREATE TABLE redemption (
                        order_id TEXT NOT NULL, promotion TEXT NOT NULL, customer TEXT, position INTEGER NOT NULL,
                        PRIMARY KEY (order_id, promotion));
                    -- How many orders redeemed each promotion: all customers together (customer ''; an
                    -- id is never empty) and per customer id. Kept by triggers in the transaction that
                    -- adds or removes a redemption, so that pay reads a count, not the history.
                    CREATE TABLE redemption_tally (
                        promotion TEXT NOT NULL, customer TEXT NOT NULL, orders INTEGER NOT NULL CHECK (orders >= 0),
                        PRIMARY KEY (promotion, customer)) WITHOUT ROWID;
                    CREATE TRIGGER redemption_added AFTER INSERT ON redemption BEGIN
                        INSERT INTO redemption_tally VALUES (NEW.promotion, '', 1)
                            ON CONFLICT (promotion, customer) DO UPDATE SET orders = orders + 1;
                        INSERT INTO redemption_tally SELECT NEW.promotion, NEW.customer, 1 WHERE NEW.customer IS NOT NULL
                            ON CONFLICT (promotion, customer) DO UPDATE SET orders = orders + 1;
                    END;
                    CREATE TRIGGER redemption_removed AFTER DELETE ON redemption BEGIN
                        UPDATE redemption_tally SET orders = orders - 1 WHERE promotion = OLD.promotion AND customer = '';
                        UPDATE redemption_tally SET orders = orders - 1
                            WHERE promotion = OLD.promotion AND customer = OLD.customer;
                    END;
                    """)
            // Orders recorded before the ledger redeemed what their receipts say (anonymous orders
            // count toward `uses`); a pending one holds what its receipt says until it is settled.
            for table in ["purchase", "pending_order"] {
                for row in try Row.fetchAll(db, sql: "SELECT id, receipt FROM \(table)") {
                    let id: String = row["id"]
                    for (position, promotion) in Redemptions.redeemed(byReceiptJSON: row["receipt"]).enumerated() {
                        try Redemption(orderID: id, promotion: promotion, customer: nil, position: Int64(position))
                            .insert(db)
                    }
                }
            }
        }
        return migrator
    }()

    /// The identifiers of our migrations, oldest first.
    static let identifiers = migrator.migrations
}

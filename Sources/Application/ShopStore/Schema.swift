import GRDB

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
            for order in try PendingOrderRow.fetchAll(db) {
                let charged =
                    try GatewayCharge.filter(key: order.id).fetchOne(db).map { $0.status == "approved" } ?? false
                let items = try PendingOrderItem.filter(PendingOrderItem.Columns.orderID == order.id).fetchAll(db)
                guard charged else {
                    _ = try PendingOrderItem.filter(PendingOrderItem.Columns.orderID == order.id).deleteAll(db)
                    try order.delete(db)
                    continue
                }
                for var item in items {
                    let held = try CartItem.fetchOne(db, key: item.code)
                    let taken = min(held?.quantity ?? 0, item.quantity)
                    if var held {
                        held.quantity -= taken
                        if held.quantity == 0 { try held.delete(db) } else { try held.update(db) }
                    }
                    item.quantity = taken
                    if taken == 0 { try item.delete(db) } else { try item.update(db) }
                }
            }
        }
        return migrator
    }()

    /// The identifiers of our migrations, oldest first.
    static let identifiers = migrator.migrations
}

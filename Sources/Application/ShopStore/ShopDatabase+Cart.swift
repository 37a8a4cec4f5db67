import GRDB
import Pricing
import Shopping

/// The cart: ``CartItem`` and ``CartCoupon`` rows.
extension ShopDatabase: CartStore {
    public func entries() throws -> [CartEntry] {
        try read { db in
            try CartItem.order(CartItem.Columns.position).fetchAll(db).map {
                CartEntry(code: $0.code, quantity: $0.quantity)
            }
        }
    }

    public func add(_ code: String, quantity: Int64) throws {
        guard Cart.itemQuantities.contains(quantity) else {
            throw CartBuilder.Problem.quantityOutOfRange(quantity)
        }
        try write { db in try ShopDatabase.add(code, quantity: quantity, db) }
    }

    /// Adds units to the cart's line of `code` (made at the end when missing), refusing to pass
    /// the largest quantity a cart line may have, counting what pending orders took.
    static func add(_ code: String, quantity: Int64, _ db: Database) throws {
        let line = try CartItem.fetchOne(db, key: code)
        let pending =
            try Int64.fetchOne(
                db, PendingOrderItem.filter(PendingOrderItem.Columns.code == code).select(sum(Column("quantity"))))
            ?? 0
        let held = (line?.quantity ?? 0) + pending
        guard held <= Cart.itemQuantities.upperBound - quantity else {
            throw CartLimitExceeded(code: code, held: held, adding: quantity)
        }
        try put(code, quantity: quantity, db)
    }

    /// Adds units without checking the limit: for units coming back from a released order.
    static func put(_ code: String, quantity: Int64, _ db: Database) throws {
        if var line = try CartItem.fetchOne(db, key: code) {
            line.quantity += quantity
            try line.update(db)
        } else {
            let last = try Int64.fetchOne(db, CartItem.select(max(CartItem.Columns.position))) ?? 0
            try CartItem(code: code, quantity: quantity, position: last + 1).insert(db)
        }
    }

    @discardableResult
    public func remove(_ code: String, quantity: Int64?) throws -> Bool {
        try write { db in
            guard var line = try CartItem.fetchOne(db, key: code) else { return false }
            if let quantity, quantity < line.quantity {
                line.quantity -= quantity
                try line.update(db)
            } else {
                try line.delete(db)
            }
            return true
        }
    }

    public func clear() throws {
        try write { db in
            _ = try CartItem.deleteAll(db)
            _ = try CartCoupon.deleteAll(db)
        }
    }

    public func coupons() throws -> [String] {
        try read { db in try CartCoupon.order(CartCoupon.Columns.position).fetchAll(db).map(\.coupon) }
    }

    @discardableResult
    public func addCoupon(_ coupon: String) throws -> Bool {
        try write { db in try ShopDatabase.addCoupon(coupon, db) }
    }

    /// Adds a coupon at the end, unless the cart presents it already.
    static func addCoupon(_ coupon: String, _ db: Database) throws -> Bool {
        let key = CartCoupon.key(coupon)
        guard try !CartCoupon.exists(db, key: key) else { return false }
        let last = try Int64.fetchOne(db, CartCoupon.select(max(CartCoupon.Columns.position))) ?? 0
        try CartCoupon(key: key, coupon: coupon, position: last + 1).insert(db)
        return true
    }

    @discardableResult
    public func removeCoupon(_ coupon: String) throws -> Bool {
        try write { db in try CartCoupon.deleteOne(db, key: CartCoupon.key(coupon)) }
    }
}

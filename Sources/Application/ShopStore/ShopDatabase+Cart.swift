import GRDB
import Pricing
import Shopping

/// The cart of the store's ``ShopDatabase/customer``: ``CartItem`` and ``CartCoupon`` rows under its
/// key (`""` for the anonymous customer). Each customer's cart is its own.
extension ShopDatabase: CartStore {
    /// The cart rows' key of `customer`: its id, `""` for the anonymous customer.
    static func cartKey(_ customer: String?) -> String { customer ?? "" }

    var cartKey: String { ShopDatabase.cartKey(customer) }

    public func entries() throws -> [CartEntry] {
        try read { db in try ShopDatabase.items(cartKey, db).map { CartEntry(code: $0.code, quantity: $0.quantity) } }
    }

    static func items(_ cart: String, _ db: Database) throws -> [CartItem] {
        try CartItem.filter(CartItem.Columns.customer == cart).order(CartItem.Columns.position).fetchAll(db)
    }

    static func coupons(_ cart: String, _ db: Database) throws -> [CartCoupon] {
        try CartCoupon.filter(CartCoupon.Columns.customer == cart).order(CartCoupon.Columns.position).fetchAll(db)
    }

    public func add(_ code: String, quantity: Int64) throws {
        guard Cart.itemQuantities.contains(quantity) else {
            throw CartBuilder.Problem.quantityOutOfRange(quantity)
        }
        try write { db in try ShopDatabase.add(code, quantity: quantity, to: cartKey, db) }
    }

    /// Adds units to the line of `code` in `cart` (made at the end when missing), refusing to pass
    /// the largest quantity a cart line may have, counting what the customer's pending orders took.
    static func add(_ code: String, quantity: Int64, to cart: String, _ db: Database) throws {
        let line = try CartItem.fetchOne(db, key: ["customer": cart, "code": code])
        let pending =
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT SUM(i.quantity) FROM pending_order_item i JOIN pending_order o ON o.id = i.order_id
                    WHERE i.code = ? AND COALESCE(o.customer, '') = ?
                    """, arguments: [code, cart]) ?? 0
        let held = (line?.quantity ?? 0) + pending
        guard held <= Cart.itemQuantities.upperBound - quantity else {
            throw CartLimitExceeded(code: code, held: held, adding: quantity)
        }
        try put(code, quantity: quantity, in: cart, db)
    }

    /// Adds units without checking the limit: for units coming back from a released order.
    static func put(_ code: String, quantity: Int64, in cart: String, _ db: Database) throws {
        if var line = try CartItem.fetchOne(db, key: ["customer": cart, "code": code]) {
            line.quantity += quantity
            try line.update(db)
        } else {
            let last =
                try Int64.fetchOne(
                    db, CartItem.filter(CartItem.Columns.customer == cart).select(max(CartItem.Columns.position))) ?? 0
            try CartItem(customer: cart, code: code, quantity: quantity, position: last + 1).insert(db)
        }
    }

    @discardableResult
    public func remove(_ code: String, quantity: Int64?) throws -> Bool {
        try write { db in
            guard var line = try CartItem.fetchOne(db, key: ["customer": cartKey, "code": code]) else { return false }
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
            _ = try CartItem.filter(CartItem.Columns.customer == cartKey).deleteAll(db)
            _ = try CartCoupon.filter(CartCoupon.Columns.customer == cartKey).deleteAll(db)
        }
    }

    public func coupons() throws -> [String] {
        try read { db in try ShopDatabase.coupons(cartKey, db).map(\.coupon) }
    }

    @discardableResult
    public func addCoupon(_ coupon: String) throws -> Bool {
        try write { db in try ShopDatabase.addCoupon(coupon, to: cartKey, db) }
    }

    /// Adds a coupon at the end of `cart`'s, unless the cart presents it already.
    static func addCoupon(_ coupon: String, to cart: String, _ db: Database) throws -> Bool {
        let key = CartCoupon.key(coupon)
        guard try !CartCoupon.exists(db, key: ["customer": cart, "key": key]) else { return false }
        let last =
            try Int64.fetchOne(
                db, CartCoupon.filter(CartCoupon.Columns.customer == cart).select(max(CartCoupon.Columns.position)))
            ?? 0
        try CartCoupon(customer: cart, key: key, coupon: coupon, position: last + 1).insert(db)
        return true
    }

    @discardableResult
    public func removeCoupon(_ coupon: String) throws -> Bool {
        try write { db in try CartCoupon.deleteOne(db, key: ["customer": cartKey, "key": CartCoupon.key(coupon)]) }
    }
}

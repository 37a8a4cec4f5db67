import GRDB
import Pricing

// The store's rows, one record type per table (docs/store.md describes the tables).

/// Units of one product in a customer's cart, under the catalog's spelling of its code.
struct CartItem: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "cart_item"
    /// Whose cart: the customer's id, `""` for the anonymous customer (an id is never empty).
    var customer: String
    var code: String
    var quantity: Int64
    /// Order of first addition.
    var position: Int64

    enum Columns {
        static let customer = Column(CodingKeys.customer)
        static let code = Column(CodingKeys.code)
        static let quantity = Column(CodingKeys.quantity)
        static let position = Column(CodingKeys.position)
    }
}

/// A coupon presented with a customer's cart.
struct CartCoupon: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "cart_coupon"
    /// Whose cart, as ``CartItem/customer``.
    var customer: String
    /// The coupon in ASCII capitals: coupons compare case-insensitively.
    var key: String
    /// The spelling first presented.
    var coupon: String
    var position: Int64

    enum Columns {
        static let customer = Column(CodingKeys.customer)
        static let key = Column(CodingKeys.key)
        static let position = Column(CodingKeys.position)
    }

    /// Coupons compare ASCII-case-insensitively, byte for byte otherwise (SQLite compares text by
    /// its bytes).
    static func key(_ coupon: String) -> String { CouponKey(coupon).text }
}

/// An order being paid: what it costs and the coupons it took (its units are ``PendingOrderItem``s).
struct PendingOrderRow: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pending_order"
    var id: String
    var receipt: String
    var total: Int64
    var currency: String
    /// The coupons, one per line.
    var coupons: String
    /// The customer's id; nil for the anonymous customer.
    var customer: String?

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let customer = Column(CodingKeys.customer)
    }

    static let items = hasMany(PendingOrderItem.self, using: ForeignKey(["order_id"]))
}

/// Units of one product that a pending order took out of the cart.
struct PendingOrderItem: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "pending_order_item"
    var orderID: String
    var position: Int64
    var code: String
    var quantity: Int64

    enum CodingKeys: String, CodingKey {
        case orderID = "order_id"
        case position, code, quantity
    }

    enum Columns {
        static let orderID = Column(CodingKeys.orderID)
        static let position = Column(CodingKeys.position)
        static let code = Column(CodingKeys.code)
    }
}

/// A completed order.
struct Purchase: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "purchase"
    var number: Int
    var id: String
    /// Seconds since 1970.
    var at: Int64
    var receipt: String
    var total: Int64
    var currency: String
    var card: String
    var reference: String
    /// The customer's id; nil for the anonymous customer (and every order from before customers).
    var customer: String?

    enum Columns {
        static let number = Column(CodingKeys.number)
        static let id = Column(CodingKeys.id)
        static let customer = Column(CodingKeys.customer)
    }
}

/// A promotion an order redeems (docs/store.md, "Usage limits"): held while the order is pending,
/// committed with it, gone with it when it is released. One per order and promotion.
struct Redemption: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "redemption"
    /// The pending order's or the purchase's id.
    var orderID: String
    /// The promotion's id.
    var promotion: String
    /// The order's customer id; nil for the anonymous customer.
    var customer: String?
    /// Its place among the order's redemptions (the promotions file's order when it was priced).
    var position: Int64

    enum CodingKeys: String, CodingKey {
        case orderID = "order_id"
        case promotion, customer, position
    }

    enum Columns {
        static let orderID = Column(CodingKeys.orderID)
        static let promotion = Column(CodingKeys.promotion)
        static let customer = Column(CodingKeys.customer)
        static let position = Column(CodingKeys.position)
    }
}

/// A charge the simulated gateway took, keyed by its idempotency key (the order id).
struct GatewayCharge: Codable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "gateway_charge"
    var key: String
    /// `approved` or `declined`.
    var status: String
    /// The reference of an approval, the reason of a decline.
    var detail: String
    var amount: Int64
    var currency: String
    /// The card charged, masked.
    var card: String
    /// Charges attempted with this key.
    var attempts: Int
}

/// The rule set's ids of the coupons a cart presents that some promotion carries. A cart presents
/// a coupon or two: up to four are held inline, more in an array, so that pricing a cart with
/// coupons allocates nothing for them.
struct CouponIDs {
    private var inline: (Int32, Int32, Int32, Int32) = (-1, -1, -1, -1)
    private var inlineCount = 0
    private var more: [Int32] = []

    init() {}

    init(_ ids: [Int32]) {
        for id in ids { insert(id) }
    }

    var isEmpty: Bool { inlineCount == 0 }

    /// Adds `id` (the caller adds each once).
    mutating func insert(_ id: Int32) {
        switch inlineCount {
        case 0: inline.0 = id
        case 1: inline.1 = id
        case 2: inline.2 = id
        case 3: inline.3 = id
        default:
            more.append(id)
            return
        }
        inlineCount += 1
    }

    @inline(__always)
    func contains(_ id: Int32) -> Bool {
        guard inlineCount > 0 else { return false }
        if inline.0 == id { return true }
        guard inlineCount > 1 else { return false }
        if inline.1 == id || (inlineCount > 2 && inline.2 == id) || (inlineCount > 3 && inline.3 == id) { return true }
        return more.contains(id)
    }
}

/// What a cart brings that decides which promotions are candidates, besides their windows
/// (docs/pricing.md, "Candidates and coupons"; docs/selectors.md, "Customer groups"; docs/store.md,
/// "Usage limits"): the coupons it presents, its customer's groups and id, and the limited
/// promotions the ledger says are used up for it.
struct CartEligibility {
    /// The rule set's ids of the presented coupons that some promotion carries.
    var coupons = CouponIDs()
    /// The rule set's ids of the customer's groups that some promotion names.
    var groups = CouponIDs()
    var hasCustomerID = false
    /// Limited promotions (by rule index, ascending) the cart may no longer redeem.
    var exhausted: [Int32] = []
}

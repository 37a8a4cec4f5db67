import Dispatch
import Foundation
import Pricing
import ShopStore
import Shopping
import Testing

func temporaryStore() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("store.sqlite").path
}

@Suite("The SQLite store")
struct ShopDatabaseTests {
    @Test("the cart keeps entries in order of first addition, adds up and removes")
    func cart() throws {
        let store = try ShopDatabase(path: temporaryStore())
        try store.add("MUG", quantity: 1)
        try store.add("VOUCHER", quantity: 2)
        try store.add("MUG", quantity: 2)
        #expect(try store.entries() == [CartEntry(code: "MUG", quantity: 3), CartEntry(code: "VOUCHER", quantity: 2)])
        #expect(try store.remove("MUG", quantity: 1))
        #expect(try store.remove("VOUCHER", quantity: nil))
        #expect(try !store.remove("HAT", quantity: 1))
        #expect(try store.entries() == [CartEntry(code: "MUG", quantity: 2)])
        #expect(try store.remove("MUG", quantity: 5))
        #expect(try store.entries() == [])
        #expect(throws: CartBuilder.Problem.quantityOutOfRange(0)) { try store.add("MUG", quantity: 0) }
        try store.add("MUG", quantity: 999_999_999)
        #expect(throws: CartLimitExceeded(code: "MUG", held: 999_999_999, adding: 2)) {
            try store.add("MUG", quantity: 2)
        }
        try store.add("MUG", quantity: 1)
        #expect(try store.entries() == [CartEntry(code: "MUG", quantity: 1_000_000_000)])
        #expect(throws: CartLimitExceeded(code: "MUG", held: 1_000_000_000, adding: 1)) {
            try store.add("MUG", quantity: 1)
        }
    }

    @Test("the cart lives across openings")
    func persistence() throws {
        let path = try temporaryStore()
        try ShopDatabase(path: path).add("TSHIRT", quantity: 3)
        #expect(try ShopDatabase(path: path).entries() == [CartEntry(code: "TSHIRT", quantity: 3)])
    }

    func priced(_ total: Int64, redeeming redeemed: [String] = []) -> (CartContents, RedemptionCounts) throws
        -> PricedCart
    {
        { _, _ in PricedCart(receiptJSON: "{}", total: total, currency: .euro, redeemed: redeemed) }
    }

    @Test(
        "placing an order takes the cart's units and coupons; completing records it; units added meanwhile stay; releasing puts them back"
    )
    func orders() throws {
        let store = try ShopDatabase(path: temporaryStore())
        try store.add("MUG", quantity: 2)
        try store.addCoupon("Spring")
        guard case .placed(let order) = try store.placeOrder(limited: [], pricing: priced(1500)) else {
            Issue.record("no pending order")
            return
        }
        #expect(try store.pendingOrders() == [order])
        #expect(order.entries == [CartEntry(code: "MUG", quantity: 2)])
        #expect(order.coupons == ["Spring"])
        #expect(try store.entries() == [] && store.coupons() == [])
        // Under way: another placement is refused, and nothing is interrupted (this process holds it).
        try store.add("VOUCHER", quantity: 1)
        #expect(try store.placeOrder(limited: [], pricing: priced(500)) == .inProgress)
        #expect(try store.interruptedOrders() == [])
        let record = try store.complete(order, at: Instant(seconds: 100), card: "•••• 4242", reference: "sim_1")
        #expect(record.number == 1 && record.total == 1500 && record.card == "•••• 4242")
        #expect(try store.entries() == [CartEntry(code: "VOUCHER", quantity: 1)])
        #expect(try store.orders() == [record])
        #expect(try store.pendingOrders() == [])
        guard case .placed(let second) = try store.placeOrder(limited: [], pricing: priced(500)) else {
            Issue.record("the voucher's order")
            return
        }
        try store.add("VOUCHER", quantity: 2)
        try store.release(second)
        #expect(try store.entries() == [CartEntry(code: "VOUCHER", quantity: 3)])
    }

    @Test("a pricing failure places nothing and leaves the cart as it was")
    func pricingFails() throws {
        let store = try ShopDatabase(path: temporaryStore())
        try store.add("MUG", quantity: 2)
        #expect(throws: StoreError.self) {
            try store.placeOrder(limited: [], pricing: { _, _ in throw StoreError(.unusable, "cannot price") })
        }
        #expect(try store.entries() == [CartEntry(code: "MUG", quantity: 2)])
        #expect(try store.pendingOrders() == [])
    }

    @Test("an order whose paying connection is gone is interrupted: another opening of the store claims it once")
    func interrupted() throws {
        let path = try temporaryStore()
        var payer: ShopDatabase? = try ShopDatabase(path: path)
        try payer?.add("MUG", quantity: 1)
        guard case .placed(let order)? = try payer?.placeOrder(limited: [], pricing: priced(750)) else {
            Issue.record("placed")
            return
        }
        let other = try ShopDatabase(path: path)
        #expect(try other.interruptedOrders() == [])  // held by `payer`
        payer = nil  // its lock goes with it, as with a process that ends
        #expect(try other.interruptedOrders() == [order])
        #expect(try ShopDatabase(path: path).interruptedOrders() == [])  // claimed by `other` now
        try other.release(order)
        #expect(try other.entries() == [CartEntry(code: "MUG", quantity: 1)])
    }

    @Test(
        "a reader asking about an interrupted order's lock (a shared lock, for a moment) neither hides it from the next payment's settling nor is mistaken for its payer"
    )
    func readerOfALock() throws {
        let path = try temporaryStore()
        var payer: ShopDatabase? = try ShopDatabase(path: path)
        try payer?.add("MUG", quantity: 1)
        guard case .placed(let order)? = try payer?.placeOrder(limited: ["first-5"], pricing: priced(750)) else {
            Issue.record("placed")
            return
        }
        let other = try ShopDatabase(path: path)
        // Being paid: not stalled, not interrupted.
        #expect(try other.ledger(limited: ["first-5"], scope: .all).stalled == [])
        payer = nil
        #expect(try other.ledger(limited: ["first-5"], scope: .all).stalled == [order])
        // A reader (`cart show` in another process) holds a shared lock on the order's lock file
        // while the settling runs; it lets go a moment later, and the order is claimed all the same.
        let lock = open(path + "-orders/" + order.id + ".lock", O_RDONLY | O_CLOEXEC)
        #expect(lock >= 0 && flock(lock, LOCK_SH | LOCK_NB) == 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            flock(lock, LOCK_UN)
            close(lock)
        }
        #expect(try other.interruptedOrders() == [order])
        // Claimed: held by `other` now, neither stalled for a third opening nor interrupted.
        let third = try ShopDatabase(path: path)
        #expect(try third.ledger(limited: ["first-5"], scope: .all).stalled == [])
        #expect(try third.interruptedOrders() == [])
    }

    @Test("the gateway ledger remembers charges and counts attempts")
    func ledger() throws {
        let store = try ShopDatabase(path: temporaryStore())
        #expect(try store.charge(forKey: "k") == nil)
        try store.record(
            .declined(reason: "card declined"), forKey: "k", amount: 100, currency: .euro, card: "•••• 0002")
        try store.record(.approved(reference: "sim_9"), forKey: "k", amount: 100, currency: .euro, card: "•••• 4242")
        #expect(
            try store.charge(forKey: "k")
                == ChargeRecord(outcome: .approved(reference: "sim_9"), amount: 100, currency: .euro, card: "•••• 4242")
        )
        #expect(try store.chargeAttempts(forKey: "k") == 2)
    }

    @Test("no update is lost under concurrent writers, each with its own connection; a new store is migrated once")
    func concurrency() throws {
        let path = try temporaryStore()
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            do {
                try ShopDatabase(path: path).add("MUG", quantity: 1)
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(try ShopDatabase(path: path).entries() == [CartEntry(code: "MUG", quantity: 20)])
    }

    @Test(
        "each customer has a cart of their own; a payment under way refuses another of its customer only; releasing goes back to its customer's cart"
    )
    func customers() throws {
        let path = try temporaryStore()
        let anonymous = try ShopDatabase(path: path)
        let alice = try ShopDatabase(path: path)
        alice.customer = "alice"
        let bob = try ShopDatabase(path: path)
        bob.customer = "bob"
        try anonymous.add("MUG", quantity: 1)
        try alice.add("MUG", quantity: 2)
        try alice.addCoupon("Spring")
        try bob.add("VOUCHER", quantity: 3)
        #expect(try anonymous.entries() == [CartEntry(code: "MUG", quantity: 1)])
        #expect(try alice.entries() == [CartEntry(code: "MUG", quantity: 2)])
        #expect(try alice.coupons() == ["Spring"] && bob.coupons() == [] && anonymous.coupons() == [])
        guard case .placed(let order) = try alice.placeOrder(limited: [], pricing: priced(1500)) else {
            Issue.record("alice's order")
            return
        }
        #expect(order.customer == "alice")
        try alice.add("TSHIRT", quantity: 1)
        #expect(try alice.placeOrder(limited: [], pricing: priced(2000)) == .inProgress)
        guard case .placed(let bobs) = try bob.placeOrder(limited: [], pricing: priced(1000)) else {
            Issue.record("bob's order, beside alice's")
            return
        }
        try alice.release(order)
        #expect(try alice.entries() == [CartEntry(code: "TSHIRT", quantity: 1), CartEntry(code: "MUG", quantity: 2)])
        #expect(try alice.coupons() == ["Spring"])
        #expect(try anonymous.entries() == [CartEntry(code: "MUG", quantity: 1)])
        let record = try bob.complete(bobs, at: Instant(seconds: 5), card: "•••• 4242", reference: "sim_b")
        #expect(record.customer == "bob")
        #expect(try anonymous.orders(of: "bob") == [record] && anonymous.orders(of: "alice") == [])
        #expect(try anonymous.orders(of: nil) == [])
    }

    @Test(
        "redemptions: held by a pending order, counted all together and per customer, committed with it, gone when it is released"
    )
    func redemptions() throws {
        let path = try temporaryStore()
        let alice = try ShopDatabase(path: path)
        alice.customer = "alice"
        let anonymous = try ShopDatabase(path: path)
        try alice.add("MUG", quantity: 1)
        try anonymous.add("MUG", quantity: 1)
        var seen: [RedemptionCounts] = []
        let pricing = { (counts: RedemptionCounts) -> PricedCart in
            seen.append(counts)
            return PricedCart(receiptJSON: "{}", total: 600, currency: .euro, redeemed: ["first-5", "welcome"])
        }
        guard
            case .placed(let held) = try alice.placeOrder(limited: ["first-5", "welcome"], pricing: { pricing($1) })
        else {
            Issue.record("alice's order")
            return
        }
        #expect(held.redeemed == ["first-5", "welcome"])
        // Held: counted by the next order, all together and as alice's.
        #expect(
            try anonymous.redemptionCounts(limited: ["first-5", "welcome"], scope: .all)
                == RedemptionCounts(
                    orders: ["first-5": 1, "welcome": 1], ordersByCustomer: ["alice": ["first-5": 1, "welcome": 1]]))
        #expect(
            try anonymous.redemptionCounts(limited: ["welcome"], scope: .one(nil))
                == RedemptionCounts(orders: ["welcome": 1]))
        guard
            case .placed(let second) = try anonymous.placeOrder(
                limited: ["first-5", "welcome"], pricing: { pricing($1) })
        else {
            Issue.record("the anonymous order")
            return
        }
        // The second pricing saw the first order's hold, and not its own.
        #expect(seen.map(\.orders) == [[:], ["first-5": 1, "welcome": 1]])
        try alice.release(held)
        #expect(
            try alice.redemptionCounts(limited: ["first-5", "welcome"], scope: .one("alice"))
                == RedemptionCounts(orders: ["first-5": 1, "welcome": 1]))
        let record = try anonymous.complete(second, at: Instant(seconds: 9), card: "•••• 4242", reference: "sim_2")
        #expect(record.customer == nil && record.promotions == ["first-5", "welcome"])
        #expect(try alice.orders() == [record])
        #expect(try alice.redemptionCounts(limited: [], scope: .all) == RedemptionCounts())
    }

    @Test("where the store lives")
    func defaultPath() {
        #expect(
            ShopDatabase.location(option: "/x.sqlite", environment: ["CHECKOUT_STORE": "/y"]) == ("/x.sqlite", false))
        #expect(
            ShopDatabase.location(option: nil, environment: ["CHECKOUT_STORE": "/y", "XDG_DATA_HOME": "/d"]) == (
                "/y", false
            ))
        #expect(
            ShopDatabase.location(option: nil, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == (
                "/d/checkout/store.sqlite", true
            ))
        #expect(
            ShopDatabase.location(option: nil, environment: ["HOME": "/h"]) == (
                "/h/.local/share/checkout/store.sqlite", true
            ))
    }

    @Test(
        "a missing directory is named (created only for the default location); a file that is not a store is refused as such"
    )
    func unopenable() throws {
        let error = #expect(throws: StoreError.self) { try ShopDatabase(path: "/nonexistent/dir/store.sqlite") }
        #expect(
            error?.description
                == "cannot open the store at /nonexistent/dir/store.sqlite: the directory /nonexistent/dir does not exist; create it first"
        )
        let nested = FileManager.default.temporaryDirectory.appendingPathComponent(
            "store-\(UUID().uuidString)/a/b/store.sqlite"
        ).path
        try ShopDatabase(path: nested, createDirectory: true).add("MUG", quantity: 1)
        #expect(FileManager.default.fileExists(atPath: nested))
        let text = try temporaryStore()
        try Data("just some text, not a database at all, long enough for SQLite to look at its header".utf8).write(
            to: URL(fileURLWithPath: text))
        let notAStore = #expect(throws: StoreError.self) { try ShopDatabase(path: text) }
        #expect(
            notAStore?.description
                == "\(text) is not a Checkout store (not an SQLite database); it was left as it was; give another --store path"
        )
    }

    @Test("coupons: kept with the cart once each in any letter case, removed in any letter case, cleared with it")
    func coupons() throws {
        let store = try ShopDatabase(path: temporaryStore())
        #expect(try store.addCoupon("Spring"))
        #expect(try !store.addCoupon("SPRING"))
        #expect(try store.addCoupon("vip"))
        #expect(try store.coupons() == ["Spring", "vip"])
        #expect(try store.removeCoupon("spring"))
        #expect(try !store.removeCoupon("spring"))
        #expect(try store.coupons() == ["vip"])
        try store.clear()
        #expect(try store.coupons() == [])
    }
}

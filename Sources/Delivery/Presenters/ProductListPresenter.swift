import Pricing
import Shopping

/// A product as the list shows it; its code, name and promotions escaped for display
/// (`String.forDisplay`), as everything the shop's screens show from input.
public struct ProductItem: Sendable, Equatable {
    public var code: String
    public var name: String
    /// `7.50 €`.
    public var price: String
    /// The promotions that apply now, in words: `2 for 1`, `3 or more: 19.00 € each`.
    public var promotions: [String]

    public init(code: String, name: String, price: String, promotions: [String]) {
        self.code = code
        self.name = name
        self.price = price
        self.promotions = promotions
    }
}

/// What the product list screen is told.
public protocol ProductListView: AnyObject {
    func show(products: [ProductItem], cartPromotions: [String])
    func showAdded(_ message: String)
    func showError(_ message: String)
}

/// The product list: every product with its price and active promotions; adds to the cart.
public final class ProductListPresenter {
    public weak var view: ProductListView?
    private let rules: RuleSet
    private let cart: CartStore
    private let clock: WallClock
    /// Which promotions the shopper may get, asked each time the list is shown (their groups, and
    /// the ledger's used-up limits): none is offered that paying would not give.
    private let openPromotions: () throws -> (Int) -> Bool

    public init(
        rules: RuleSet, cart: CartStore, clock: WallClock,
        openPromotions: @escaping () throws -> (Int) -> Bool = { { _ in true } }
    ) {
        self.rules = rules
        self.cart = cart
        self.clock = clock
        self.openPromotions = openPromotions
    }

    public func viewDidLoad() {
        let now = clock.now()
        let currency = rules.catalog.currency
        let money = MoneyStyle(currency: currency)
        // Without the ledger (the store unreadable now), every active promotion is offered, as before.
        let open = (try? openPromotions()) ?? { _ in true }
        let items = rules.catalog.products.map { product in
            ProductItem(
                code: product.code.forDisplay(), name: product.name.forDisplay(), price: money.format(product.price),
                promotions: PromotionWords.active(for: product.code, in: rules, at: now, open: open).map {
                    PromotionWords.describe($0, currency: currency, for: product.code)
                })
        }
        let cartWide = PromotionWords.activeCartPromotions(in: rules, at: now, open: open).map {
            PromotionWords.describe($0, currency: currency)
        }
        view?.show(products: items, cartPromotions: cartWide)
    }

    /// Adds `quantity` of the product at `index` (0-based, as shown).
    public func addProduct(at index: Int, quantity: Int64 = 1) {
        guard rules.catalog.products.indices.contains(index) else {
            view?.showError("There is no product \(index + 1); choose 1 to \(rules.catalog.products.count).")
            return
        }
        add(code: rules.catalog.products[index].code, quantity: quantity)
    }

    public func add(code: String, quantity: Int64 = 1) {
        do {
            let product = try cart.add(code, quantity: quantity, from: rules.catalog)
            view?.showAdded("Added \(quantity) × \(product.name.forDisplay()) to the cart.")
        } catch CartBuilder.Problem.unknownCode(let code, let suggestion) {
            view?.showError(
                "Unknown product code \"\(code.forDisplay(limit: String.messageValueLimit))\""
                    + (suggestion.map { "; did you mean \"\($0.forDisplay())\"?" } ?? "."))
        } catch CartBuilder.Problem.quantityOutOfRange {
            view?.showError("The quantity must be from 1 to \(Cart.itemQuantities.upperBound).")
        } catch {
            view?.showError("\(error)")
        }
    }
}

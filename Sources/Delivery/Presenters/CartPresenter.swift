import Pricing
import Shopping

/// What the cart screen is told.
public protocol CartView: AnyObject {
    func show(cart: ReceiptScreen)
    func showEmpty(_ message: String)
    func setCheckoutEnabled(_ enabled: Bool)
    func showError(_ message: String)
}

/// The cart: its lines, the discounts that apply and the total; checkout only when not empty.
public final class CartPresenter {
    public weak var view: CartView?
    private let checkout: CheckoutService

    public init(checkout: CheckoutService) {
        self.checkout = checkout
    }

    public func viewDidLoad() {
        refresh()
    }

    /// Shows the cart as it is now.
    public func refresh() {
        do {
            let entries = try checkout.cart.entries()
            guard !entries.isEmpty else {
                view?.showEmpty("Cart is empty.")
                view?.setCheckoutEnabled(false)
                return
            }
            let (receipt, hints) = try checkout.receiptWithHints()
            view?.show(cart: ReceiptScreen(receipt, hints: hints))
            view?.setCheckoutEnabled(true)
        } catch {
            view?.showError("\(error)")
        }
    }

    /// Adds one unit of the line at `index` (0-based, as shown).
    public func increment(lineAt index: Int) { change(lineAt: index) { try checkout.cart.add($0, quantity: 1) } }

    /// Removes one unit of the line at `index`.
    public func decrement(lineAt index: Int) { change(lineAt: index) { try checkout.cart.remove($0, quantity: 1) } }

    /// Removes the whole line at `index`.
    public func removeLine(at index: Int) { change(lineAt: index) { try checkout.cart.remove($0, quantity: nil) } }

    public func clear() {
        do {
            try checkout.cart.clear()
        } catch {
            view?.showError("\(error)")
        }
        refresh()
    }

    private func change(lineAt index: Int, _ body: (String) throws -> Void) {
        do {
            let entries = try checkout.cart.entries()
            guard entries.indices.contains(index) else {
                view?.showError(
                    entries.isEmpty ? "Cart is empty." : "There is no line \(index + 1); choose 1 to \(entries.count).")
                return
            }
            try body(entries[index].code)
        } catch {
            view?.showError("\(error)")
        }
        refresh()
    }
}

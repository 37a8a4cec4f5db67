import Pricing
import Shopping

/// What the checkout screen is told.
public protocol CheckoutView: AnyObject {
    func show(receipt: ReceiptScreen)
    func showEmpty(_ message: String)
    func showError(_ message: String)
}

/// Checkout: the full receipt, every discount shown, before paying.
public final class CheckoutPresenter {
    public weak var view: CheckoutView?
    private let checkout: CheckoutService

    public init(checkout: CheckoutService) {
        self.checkout = checkout
    }

    /// Whether there is anything to pay for (the last time the receipt was shown).
    public private(set) var canPay = false

    public func viewDidLoad() {
        do {
            guard !(try checkout.cart.entries().isEmpty) else {
                canPay = false
                view?.showEmpty("Cart is empty.")
                return
            }
            view?.show(receipt: ReceiptScreen(try checkout.receipt()))
            canPay = true
        } catch {
            canPay = false
            view?.showError("\(error)")
        }
    }
}

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
    /// The total last shown, priced against the ledger: the payment goes through only at it.
    public private(set) var shownTotal: Int64?

    public func viewDidLoad() {
        do {
            guard !(try checkout.cart.entries().isEmpty) else {
                canPay = false
                shownTotal = nil
                view?.showEmpty("Cart is empty.")
                return
            }
            let quote = try checkout.quote()
            var screen = ReceiptScreen(quote.receipt)
            // Used-up promotions that would have applied: said, so the higher total is not a surprise.
            if !quote.exhausted.isEmpty {
                screen.warnings.append(CheckoutService.UsedUpPromotion.words(quote.exhausted))
            }
            view?.show(receipt: screen)
            shownTotal = quote.receipt.total
            canPay = true
        } catch {
            canPay = false
            shownTotal = nil
            view?.showError("\(error)")
        }
    }
}

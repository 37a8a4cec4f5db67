import Pricing
import Shopping

/// What the payment screen is told.
public protocol PaymentView: AnyObject {
    func showProcessing()
    func showApproved(orderNumber: Int, total: String, card: String)
    func showDeclined(_ reason: String)
    func showInvalidCard(_ problem: String)
    func showEmptyCart(_ message: String)
    func showError(_ message: String)
    /// An order an interrupted payment had charged, recorded now (with the card that charge used).
    func showRecovered(orderNumber: Int, total: String, card: String)
}

/// Payment: checks the card, shows processing, then the order number or why it was declined.
/// Only an approval empties the cart.
public final class PaymentPresenter {
    public weak var view: PaymentView?
    private let checkout: CheckoutService

    public init(checkout: CheckoutService) {
        self.checkout = checkout
    }

    /// Pays with the card details as typed, only at `expectedTotal` when given (the total the
    /// checkout showed). Returns whether the payment was approved.
    @discardableResult
    public func pay(number: String, expiry: String, cvc: String, expectedTotal: Int64? = nil) -> Bool {
        let card: PaymentCard
        do {
            card = try PaymentCard(number: number, expiry: expiry, cvc: cvc, now: checkout.clock.now())
        } catch {
            view?.showInvalidCard(error.description)
            return false
        }
        view?.showProcessing()
        do {
            let payment = try checkout.pay(with: card, expectedTotal: expectedTotal)
            for order in payment.recovered {
                view?.showRecovered(
                    orderNumber: order.number, total: MoneyStyle(currency: order.currency).format(order.total),
                    card: order.card)
            }
            switch payment.result {
            case .approved(let order):
                view?.showApproved(
                    orderNumber: order.number, total: MoneyStyle(currency: order.currency).format(order.total),
                    card: order.card)
                return true
            case .declined(let reason):
                view?.showDeclined(reason)
            case .emptyCart:
                view?.showEmptyCart("Cart is empty.")
            case .inProgress:
                view?.showError("another payment of this cart is under way; nothing was charged")
            case .totalChanged(let total, let expected, let currency):
                let money = MoneyStyle(currency: currency)
                let why =
                    payment.exhausted.isEmpty
                    ? "" : " (" + CheckoutService.UsedUpPromotion.words(payment.exhausted) + ")"
                view?.showError(
                    "the total changed: the cart now comes to \(money.format(total)), not \(money.format(expected))\(why); nothing was charged. Check it and pay again."
                )
            }
        } catch {
            view?.showError("\(error)")
        }
        return false
    }
}

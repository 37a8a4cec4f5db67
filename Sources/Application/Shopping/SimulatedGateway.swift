import Pricing

/// A gateway for trying the flow without a bank: `4242 4242 4242 4242` approves,
/// `4000 0000 0000 0002` declines ("card declined"), `4000 0000 0000 9995` declines ("insufficient
/// funds"), any other valid number approves. Charges are kept in a ledger, so a charge retried
/// with the same idempotency key after an approval is not taken again.
public final class SimulatedGateway: PaymentGateway {
    private let ledger: ChargeLedger
    private var references: SystemRandomNumberGenerator

    public init(ledger: ChargeLedger) {
        self.ledger = ledger
        references = SystemRandomNumberGenerator()
    }

    public func charge(amount: Int64, currency: Currency, card: PaymentCard, idempotencyKey: String) throws
        -> ChargeOutcome
    {
        if let earlier = try ledger.charge(forKey: idempotencyKey), case .approved = earlier.outcome {
            return earlier.outcome
        }
        let outcome: ChargeOutcome =
            switch card.number {
            case "4000000000000002": .declined(reason: "card declined")
            case "4000000000009995": .declined(reason: "insufficient funds")
            default: .approved(reference: Self.reference(references.next()))
            }
        try ledger.record(outcome, forKey: idempotencyKey, amount: amount, currency: currency, card: card.masked)
        return outcome
    }

    /// `sim_` and 16 hexadecimal digits, leading zeros kept: every reference is as long.
    static func reference(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "sim_" + String(repeating: "0", count: 16 - digits.count) + digits
    }

    public func status(idempotencyKey: String) throws -> ChargeRecord? {
        try ledger.charge(forKey: idempotencyKey)
    }
}

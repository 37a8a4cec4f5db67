import GRDB
import Pricing
import Shopping

/// The simulated gateway's ledger: ``GatewayCharge`` rows keyed by idempotency key.
extension ShopDatabase: ChargeLedger {
    public func charge(forKey key: String) throws -> ChargeRecord? {
        try read { db in
            try GatewayCharge.fetchOne(db, key: key).map { charge in
                ChargeRecord(
                    outcome: charge.status == "approved"
                        ? .approved(reference: charge.detail) : .declined(reason: charge.detail),
                    amount: charge.amount, currency: Currency(code: charge.currency) ?? .euro, card: charge.card)
            }
        }
    }

    public func record(_ outcome: ChargeOutcome, forKey key: String, amount: Int64, currency: Currency, card: String)
        throws
    {
        let (status, detail): (String, String) =
            switch outcome {
            case .approved(let reference): ("approved", reference)
            case .declined(let reason): ("declined", reason)
            }
        try write { db in
            let attempts = try GatewayCharge.fetchOne(db, key: key)?.attempts ?? 0
            try GatewayCharge(
                key: key, status: status, detail: detail, amount: amount, currency: currency.code, card: card,
                attempts: attempts + 1
            ).save(db)
        }
    }

    /// How many charges the simulated gateway took for a key: for tests of idempotency.
    public func chargeAttempts(forKey key: String) throws -> Int {
        try read { db in try GatewayCharge.fetchOne(db, key: key)?.attempts ?? 0 }
    }
}

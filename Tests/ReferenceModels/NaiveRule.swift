import Pricing

/// A promotion's rule as the contract words it (docs/promotions-file.md): one case per type and
/// offer, with its numbers in the order the contract lists them. The reference model reads rules
/// this way so that it shares nothing with how the engine organises its kinds.
public enum NaiveRule {
    public enum Offer {
        case price(Int64)
        case percent(Int64)
        case amount(Int64)
    }

    public enum Reward {
        case percent(Int64)
        case price(Int64)
    }

    /// N, M.
    case combo(Int64, Int64)
    /// T, P.
    case bulk(Int64, Int64)
    /// T, hundredths, cap.
    case percent(Int64, Int64, Int64?)
    /// T, A.
    case amount(Int64, Int64)
    /// N, offer, limit.
    case bundle(Int64, Offer, Int64?)
    /// N, M, reward, limit.
    case bxgy(Int64, Int64, Reward, Int64?)
    /// minimum, hundredths, cap.
    case cartPercent(Int64, Int64, Int64?)
    /// minimum, A.
    case cartAmount(Int64, Int64)

    public init(_ rule: Promotion.Rule) {
        switch rule {
        case .combo(let k): self = .combo(k.groupSize, k.paid)
        case .bulk(let k): self = .bulk(k.threshold, k.unitPrice)
        case .percent(let k): self = .percent(k.minimumQuantity, k.hundredths, k.cap)
        case .amount(let k): self = .amount(k.minimumQuantity, k.amountOff)
        case .bundle(let k):
            switch k.offer {
            case .price(let p): self = .bundle(k.size, .price(p), k.limit)
            case .percent(let p): self = .bundle(k.size, .percent(p), k.limit)
            case .amount(let a): self = .bundle(k.size, .amount(a), k.limit)
            }
        case .bxgy(let k):
            switch k.reward {
            case .percent(let p): self = .bxgy(k.buy, k.get, .percent(p), k.limit)
            case .price(let p): self = .bxgy(k.buy, k.get, .price(p), k.limit)
            }
        case .cart(let k):
            switch k.offer {
            case .percent(let p, let cap): self = .cartPercent(k.minimum, p, cap)
            case .amount(let a): self = .cartAmount(k.minimum, a)
            }
        }
    }
}

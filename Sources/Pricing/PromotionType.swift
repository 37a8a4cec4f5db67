/// The kinds of promotion a file can define, as written in its `type` key. Every stage switches over
/// this enum exhaustively, so adding a type is a compile error wherever it needs handling.
public enum PromotionType: String, CaseIterable, Sendable {
    /// Of every N units of a line, only M are charged.
    case combo
    /// From a threshold on, every unit of a line costs a set price.
    case bulk
    /// A percentage off a line (at most `cap`).
    case percent
    /// An amount off each unit of a line.
    case amount
    /// A percentage or an amount off the cart.
    case cart
    /// Any N units of a set of products together, for a price or with a discount off the group.
    case bundle
    /// Buy N units, get M units (of the same products or of `targets`) free or discounted.
    case bxgy

    /// How the promotion uses units (SPEC §10.3).
    public var scope: Scope {
        switch self {
        case .combo, .bulk, .percent, .amount: .line
        case .bundle, .bxgy: .group
        case .cart: .cart
        }
    }

    public enum Scope: Sendable {
        /// Works on the free units of one line at a time.
        case line
        /// Works on units of several lines at once, once per cart.
        case group
        /// Works on the cart's total and uses no units.
        case cart
    }
}

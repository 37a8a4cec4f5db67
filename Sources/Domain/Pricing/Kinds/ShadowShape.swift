/// A line promotion's discount as a function of a line's quantity q and unit price u, in the few
/// forms the shadowed check compares (docs/validate.md, `promotion.shadowed`): zero below
/// `minimumQuantity`, and from it on the sum of
///
/// - groups: ⌊q / groupSize⌋ × freeUnits × u (`combo`),
/// - a share: round(q × u × hundredths / 10000), half away from zero, at most `cap` (`percent`),
/// - a saving per unit: q × max(0, min(offEachUnit, u − lowestUnitPrice)) (`bulk`, `amount`).
///
/// Every kind of line promotion is one of these, and says which in its own file
/// (``LinePromotionKind/shadowShape``); the check knows nothing else about kinds.
public struct ShadowShape: Hashable, Sendable, BitwiseCopyable {
    public var minimumQuantity: Int64 = 0
    /// 0: no group term.
    public var groupSize: Int64 = 0
    public var freeUnits: Int64 = 0
    /// 0: no share term.
    public var hundredths: Int64 = 0
    /// The share term's cap; `hasCap` false: none.
    public var cap: Int64 = 0
    public var hasCap = false
    /// Whether the saving per unit applies.
    public var savesPerUnit = false
    public var lowestUnitPrice: Int64 = 0
    public var offEachUnit: Int64 = 0

    /// A shape that never gives a discount (a definition the engine would also price at zero).
    public static let nothing = ShadowShape()

    public init() {}

    /// The discount on a line of `q` units at `u`, exactly as the engine works it out on free
    /// units (``LineDiscount``): 0 when q × u does not fit in 64 bits.
    @inlinable @inline(__always)
    public func discount(quantity q: Int64, unitPrice u: Int64) -> Int64 {
        let (line, overflow) = q.multipliedReportingOverflow(by: u)
        guard q >= 0, u >= 0, !overflow, q >= minimumQuantity else { return 0 }
        var total: Int64 = 0
        if groupSize > 0 { total = (q / groupSize) * freeUnits * u }
        if hundredths > 0 {
            var share = percentage(line, hundredths)
            if hasCap { share = min(share, max(0, cap)) }
            total = total.addingReportingOverflow(share).partialValue
        }
        if savesPerUnit { total = total.addingReportingOverflow(q * perUnit(u)).partialValue }
        return total
    }

    /// The saving on each unit at `u`.
    @inlinable @inline(__always)
    public func perUnit(_ u: Int64) -> Int64 {
        guard u > lowestUnitPrice else { return 0 }
        return min(offEachUnit, u - lowestUnitPrice)
    }

}

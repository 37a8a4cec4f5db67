/// The storage of a receipt done with, lent to the next one priced: a batch that hands each
/// receipt back allocates none of its arrays per cart.
public struct ReceiptStorage {
    var lines: [Receipt.Line] = []
    var warnings: [ReceiptWarning] = []
    /// Tax entries' arrays kept by their count (0 to 4; the last for any more): carts' numbers of
    /// rates vary from one to the next, and an array of the right count is written over in place
    /// (resizing one cost a mispredicted branch and a loop, in most carts). A tuple, not an array
    /// of arrays: reached by its position with no check of an outer array's uniqueness.
    private var taxAmounts: ([TaxAmount], [TaxAmount], [TaxAmount], [TaxAmount], [TaxAmount]) = ([], [], [], [], [])

    /// The counts of tax entries kept apart: carts with more rates share the last slot.
    private static let taxAmountCounts = 4

    public init() {}

    /// Takes back `receipt`'s arrays. Give the receipt up too: storage still held elsewhere when
    /// the next receipt is priced is not reused.
    public mutating func recycle(_ receipt: consuming Receipt) {
        // Swapped, not copied: the arrays change hands without a retain and a release each.
        var receipt = receipt
        swap(&lines, &receipt.lines)
        swap(&warnings, &receipt.warnings)
        if receipt.taxes != nil {
            withTaxAmounts(count: receipt.taxes.unsafelyUnwrapped.rates.count) { swap(&$0, &receipt.taxes!.rates) }
        }
    }

    /// The lines' storage, emptied in place when only this held it, and nothing left here.
    mutating func takeLines() -> [Receipt.Line] { Self.take(&lines) }

    /// The warnings' storage, likewise.
    mutating func takeWarnings() -> [ReceiptWarning] { Self.take(&warnings) }

    /// A tax entries' array of `count` entries, for the caller to write over: the one kept for that
    /// count, with the entries it holds, and nothing left in its place.
    @inline(__always)
    mutating func takeTaxAmounts(count: Int) -> [TaxAmount] {
        var taken: [TaxAmount] = []
        withTaxAmounts(count: count) { swap(&taken, &$0) }
        if taken.count != count { Self.resize(&taken, to: count) }
        return taken
    }

    /// The array kept for four or more tax entries, with the entries it holds: for the general
    /// path, which empties it and appends (a cart there has more rates than most, or lines made
    /// without their rates).
    mutating func takeManyTaxAmounts() -> [TaxAmount] {
        var taken: [TaxAmount] = []
        withTaxAmounts(count: Self.taxAmountCounts) { swap(&taken, &$0) }
        return taken
    }

    /// The array kept for tax entries of `count`.
    @inline(__always)
    private mutating func withTaxAmounts(count: Int, _ body: (inout [TaxAmount]) -> Void) {
        let slot = min(count, Self.taxAmountCounts)
        // A tuple of one type is laid out as its elements one after another.
        withUnsafeMutableBytes(of: &taxAmounts) { slots in
            body(&slots.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: [TaxAmount].self)[slot])
        }
    }

    /// `entries` made `count` long, for the caller to write over.
    @inline(never)
    private static func resize(_ entries: inout [TaxAmount], to count: Int) {
        if entries.count > count {
            // One at a time: a cart has a few rates, and `removeLast(_:)` goes through the general
            // `replaceSubrange`.
            while entries.count > count { entries.removeLast() }
        } else {
            while entries.count < count { entries.append(TaxAmount(rate: 0, base: 0, tax: 0)) }
        }
    }

    private static func take<T>(_ array: inout [T]) -> [T] {
        var taken = array
        array = []
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}

/// The storage of a receipt done with, lent to the next one priced: a batch that hands each
/// receipt back allocates none of its arrays per cart.
public struct ReceiptStorage {
    var lines: [Receipt.Line] = []
    var warnings: [ReceiptWarning] = []
    var taxAmounts: [TaxAmount] = []

    public init() {}

    /// Takes back `receipt`'s arrays. Give the receipt up too: storage still held elsewhere when
    /// the next receipt is priced is not reused.
    public mutating func recycle(_ receipt: consuming Receipt) {
        // Swapped, not copied: the arrays change hands without a retain and a release each.
        var receipt = receipt
        swap(&lines, &receipt.lines)
        swap(&warnings, &receipt.warnings)
        if receipt.taxes != nil { swap(&taxAmounts, &receipt.taxes!.rates) }
    }

    /// The lines' storage, emptied in place when only this held it, and nothing left here.
    mutating func takeLines() -> [Receipt.Line] { Self.take(&lines) }

    /// The warnings' storage, likewise.
    mutating func takeWarnings() -> [ReceiptWarning] { Self.take(&warnings) }

    /// The tax entries' storage with the entries it holds, for the caller to write over (after
    /// ``resize(_:to:)`` when it needs another count), and nothing left here.
    @inline(__always)
    mutating func takeTaxAmountsAsTheyAre() -> [TaxAmount] {
        var taken: [TaxAmount] = []
        swap(&taken, &taxAmounts)
        return taken
    }

    /// `entries` made `count` long, for the caller to write over.
    @inline(never)
    static func resize(_ entries: inout [TaxAmount], to count: Int) {
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

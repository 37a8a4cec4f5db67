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
        lines = receipt.lines
        warnings = receipt.warnings
        if let taxes = receipt.taxes { taxAmounts = taxes.rates }
    }

    /// The lines' storage, emptied in place when only this held it, and nothing left here.
    mutating func takeLines() -> [Receipt.Line] { Self.take(&lines) }

    /// The warnings' storage, likewise.
    mutating func takeWarnings() -> [ReceiptWarning] { Self.take(&warnings) }

    /// The tax entries' storage, likewise.
    mutating func takeTaxAmounts() -> [TaxAmount] { Self.take(&taxAmounts) }

    /// The tax entries' storage holding exactly `count` entries, for the caller to write over:
    /// most carts have as many rates as the one before, and then nothing is removed or added.
    @inline(__always)
    mutating func takeTaxAmounts(count: Int) -> [TaxAmount] {
        var taken: [TaxAmount] = []
        swap(&taken, &taxAmounts)
        if taken.count != count { Self.resize(&taken, to: count) }
        return taken
    }

    @inline(never)
    private static func resize(_ entries: inout [TaxAmount], to count: Int) {
        if entries.count > count {
            entries.removeLast(entries.count - count)
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

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

    private static func take<T>(_ array: inout [T]) -> [T] {
        var taken = array
        array = []
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}

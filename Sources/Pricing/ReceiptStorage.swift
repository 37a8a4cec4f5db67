/// The storage of a receipt done with, lent to the next one priced: a batch that hands each
/// receipt back allocates none of its arrays per cart.
public struct ReceiptStorage {
    var lines: [Receipt.Line] = []
    var warnings: [ReceiptWarning] = []

    public init() {}

    /// Takes back `receipt`'s arrays. Give the receipt up too: storage still held elsewhere when
    /// the next receipt is priced is not reused.
    public mutating func recycle(_ receipt: consuming Receipt) {
        lines = receipt.lines
        warnings = receipt.warnings
    }

    /// The lines' storage, emptied in place when only this held it, and nothing left here.
    mutating func takeLines() -> [Receipt.Line] {
        var taken = lines
        lines = []
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// The warnings' storage, likewise.
    mutating func takeWarnings() -> [ReceiptWarning] {
        var taken = warnings
        warnings = []
        taken.removeAll(keepingCapacity: true)
        return taken
    }
}

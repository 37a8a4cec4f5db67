/// How receipts are written: for people (a till-style table, or one line per cart of a batch), or
/// as JSON (one document, or NDJSON for batches).
public enum ReceiptFormat: String, Sendable, CaseIterable {
    case text, json
}

import Pricing

/// An input that cannot be used, saying which file, which item, and what is wrong.
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file cannot be opened or read (exit 66).
        case unreadable
        /// The content is malformed or invalid (exit 65).
        case invalid
    }

    public var kind: Kind
    /// The file as the user named it (`-` is stdin).
    public var file: String
    /// Where in the file: `items[3]`, `products[0] ("MUG")`, or `line 2, column 7`.
    public var item: String?
    public var message: String
    /// The id of the cart the error belongs to, when its JSON was well-formed and held a valid one.
    public var cartID: CartID?

    public init(_ kind: Kind = .invalid, file: String, item: String? = nil, _ message: String) {
        self.kind = kind
        self.file = file
        self.item = item
        self.message = message
    }

    /// `cart.json: items[3]: unknown product code "HAT"`.
    public var description: String {
        [file, item, message].compactMap { $0 }.joined(separator: ": ")
    }

    /// The message without the file name, for places that name the file already (batch lines).
    public var detail: String {
        [item, message].compactMap { $0 }.joined(separator: ": ")
    }
}

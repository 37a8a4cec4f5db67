/// A text compared and hashed byte for byte (its UTF-8), with no Unicode equivalence: the key of
/// what selectors and customer groups compare exactly (docs/selectors.md), where a `String` key
/// would take "Café" written with a combining accent for "Café" written with a precomposed one.
struct ExactText: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (a: ExactText, b: ExactText) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension String {
    /// Whether the two texts have the same bytes (no Unicode equivalence).
    @inline(__always)
    func isExactly(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

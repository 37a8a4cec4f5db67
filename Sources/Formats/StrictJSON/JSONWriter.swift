/// Writes JSON: compact, or indented by two spaces. Structure comes from nested calls:
///
///     let out = JSONWriter(pretty: false)
///     out.object { out.member("total") { out.string("74.50") } }
///     out.text  // {"total":"74.50"}
public final class JSONWriter {
    public let pretty: Bool
    public private(set) var text = ""
    private var depth = 0
    private var first = true

    public init(pretty: Bool) {
        self.pretty = pretty
    }

    /// A token written as is: a number, `true`, `null`.
    public func raw(_ token: String) { text += token }

    public func string(_ value: String) {
        text += "\""
        text += JSONWriter.escaped(value)
        text += "\""
    }

    /// The content of a JSON string literal for `value` (``JSONEscape``): quotes, backslashes and
    /// control characters escaped, and U+2028/U+2029 too; everything else as is.
    public static func escaped(_ value: String) -> String { JSONEscape.escaped(value) }

    private func newline() {
        guard pretty else { return }
        // A line break and its indentation made once per depth, not per line (a SARIF log of
        // 40,000 results has a million lines).
        text += depth < Self.lineBreaks.count ? Self.lineBreaks[depth] : "\n" + String(repeating: "  ", count: depth)
    }

    /// A line break followed by the indentation of each depth up to 31.
    private static let lineBreaks = (0..<32).map { "\n" + String(repeating: "  ", count: $0) }

    public func object(_ body: () -> Void) {
        text += "{"
        depth += 1
        first = true
        body()
        depth -= 1
        if !first { newline() }
        text += "}"
        first = false
    }

    public func member(_ key: String, _ value: () -> Void) {
        if !first { text += "," }
        first = false
        newline()
        string(key)
        text += pretty ? ": " : ":"
        value()
    }

    public func array<T>(_ elements: [T], _ body: (T) -> Void) {
        text += "["
        guard !elements.isEmpty else {
            text += "]"
            return
        }
        depth += 1
        for (index, element) in elements.enumerated() {
            if index > 0 { text += "," }
            newline()
            body(element)
        }
        depth -= 1
        newline()
        text += "]"
        first = false
    }
}

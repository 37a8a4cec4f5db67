/// How text output is laid out: for a terminal of a given width, with colour, or plain (piped).
public struct TextStyle: Sendable, Equatable {
    /// Columns to fit in; nil: no limit (piped output keeps every character).
    public var width: Int?
    /// ANSI colour for totals, savings, warnings and errors.
    public var colour: Bool

    public init(width: Int? = nil, colour: Bool = false) {
        self.width = width
        self.colour = colour
    }

    public static let plain = TextStyle()

    public enum Tone {
        case total, saving, warning, error, muted
    }

    /// `text` in `tone`'s colour when colour is on.
    public func paint(_ text: String, _ tone: Tone) -> String {
        guard colour, !text.isEmpty else { return text }
        let code =
            switch tone {
            case .total: "1"
            case .saving: "32"
            case .warning: "33"
            case .error: "31"
            case .muted: "2"
            }
        return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
    }
}

/// Rows of cells in aligned columns, fitted to a width by shortening the stretchable columns
/// (names, references, with "…"), the first given first; other cells, amounts above all, are never cut.
public struct TextTable: Sendable {
    public enum Alignment: Sendable { case left, right }

    public var alignments: [Alignment]
    /// The columns that give way when the table is too wide, in that order.
    public var stretchable: [Int]
    public var rows: [[String]] = []
    public var gap = "  "

    public init(_ alignments: [Alignment], stretchable: Int...) {
        self.alignments = alignments
        self.stretchable = stretchable
    }

    public mutating func add(_ row: [String]) { rows.append(row) }

    /// Each column's width, the stretchable one shortened (down to 4) to fit `width`.
    public func widths(fitting width: Int?) -> [Int] {
        var widths = alignments.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        if let width {
            for column in stretchable {
                let total = widths.reduce(0, +) + gap.count * (widths.count - 1)
                guard total > width else { break }
                widths[column] = max(4, widths[column] - (total - width))
            }
        }
        return widths
    }

    /// The lines, each without trailing spaces.
    public func render(width: Int?) -> [String] {
        let widths = widths(fitting: width)
        return rows.map { row in
            var line = ""
            for column in alignments.indices {
                if column > 0 { line += gap }
                line += Self.pad(
                    Self.fit(row[column], widths[column]), widths[column], right: alignments[column] == .right)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// `text` cut to `width` characters, the last one "…", when longer.
    public static func fit(_ text: String, _ width: Int) -> String {
        guard text.count > width, width > 0 else { return text }
        return String(text.prefix(width - 1)) + "…"
    }

    public static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}

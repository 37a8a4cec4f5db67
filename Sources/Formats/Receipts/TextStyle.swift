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
        var widths = alignments.indices.map { column in rows.map { $0[column].columns }.max() ?? 0 }
        if let width {
            for column in stretchable {
                let total = widths.reduce(0, +) + gap.count * (widths.count - 1)
                guard total > width else { break }
                // Never widened: a column narrower than that stays as it is.
                widths[column] = max(min(4, widths[column]), widths[column] - (total - width))
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
        guard text.columns > width, width > 0 else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let columns = character.columns
            guard used + columns <= width - 1 else { break }
            kept.append(character)
            used += columns
        }
        return kept + "…"
    }

    public static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.columns))
        return right ? fill + text : text + fill
    }
}

extension StringProtocol {
    /// The columns the text takes on a terminal: two for each wide character (Chinese, Japanese and
    /// Korean ideographs and syllables, full-width forms, most emoji), one for any other.
    public var columns: Int { reduce(0) { $0 + $1.columns } }
}

extension Character {
    /// Two columns for a wide character (by its first scalar, or an emoji presentation selector),
    /// else one: the East Asian wide and full-width blocks, and the emoji blocks.
    public var columns: Int {
        guard let first = unicodeScalars.first?.value, first >= 0x1100 else { return 1 }
        if unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        switch first {
        case 0x1100...0x115F, 0x231A...0x231B, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE, 0x2614...0x2615,
            0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE,
            0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C,
            0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
            0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

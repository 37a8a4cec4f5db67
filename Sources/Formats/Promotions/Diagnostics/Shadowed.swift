import PlistReader

extension Diagnostic {
    static func shadowed(
        by other: String, at otherLocation: SourceLocation, at location: SourceLocation, promotion: String
    ) -> Diagnostic {
        // Built piece by piece into one allocation: a large file can have tens of thousands.
        let name = other.escapedForDisplayIfNeeded
        var message = "`"
        message.reserveCapacity(name.utf8.count + 200)
        message += name
        message += "` (line "
        message += String(otherLocation.line)
        message +=
            ") beats this promotion on every product and quantity where it gives a discount, whenever it is active: it can never apply; remove it or change one of them"
        var note = "`"
        note.reserveCapacity(name.utf8.count + 18)
        note += name
        note += "` always beats it"
        var diagnostic = Diagnostic(.shadowed, message, at: location, promotion: promotion)
        diagnostic.notes = [Note(note, at: otherLocation)]
        return diagnostic
    }
}

extension String {
    /// ``escapedForDisplay``, without building a copy when nothing needs escaping.
    var escapedForDisplayIfNeeded: String {
        var plain = true
        for byte in utf8 where byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") || byte == 0xE2 {
            plain = false
            break
        }
        return plain ? self : escapedForDisplay
    }
}

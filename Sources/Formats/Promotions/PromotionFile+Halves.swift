import PlistReader
import Pricing

/// A large promotions file is read by two parsers on two threads (``PlistHalves``), each decoding its
/// own half of the promotions array; the halves are then merged into exactly what one parser gives.
extension PromotionFileHandler {
    /// The promotions array (under `promotions`, or the root array) may be read in two halves,
    /// when nothing was decoded yet.
    func handlerForSecondHalf(of kind: PlistKind, depth: Int, key: PlistKey?) -> PromotionFileHandler? {
        let isPromotions =
            kind == .array && (depth == 0 ? rootKind == .array : depth == 1 && key?.name == "promotions")
        guard isPromotions, decoded.entries.isEmpty, !splitsPromotions else { return nil }
        splitsPromotions = true
        return PromotionFileHandler(continuing: self)
    }

    /// Takes in what the handler of the file's second half found.
    func absorb(_ second: PromotionFileHandler) {
        diagnostics += second.diagnostics
        decoded.append(&second.decoded)
        decoded.decoder.context.currency = second.currency
        currencyForSecondPass = currencyForSecondPass ?? second.currencyForSecondPass
        rootKeys = second.rootKeys
    }
}

extension DecodingPipeline.Output {
    /// Appends the promotions decoded after these, by another decoder: entries renumbered, and ids
    /// the later ones share with these reported as one decoder would have (the later use is an
    /// error, and its promotion is dropped). Nothing is decoded after this: the decoder's own record
    /// of ids stays this half's.
    mutating func append(_ later: inout DecodingPipeline.Output) {
        let base = entries.count
        var laterDiagnostics = later.diagnostics
        for index in laterDiagnostics.indices {
            if let entry = laterDiagnostics[index].entry { laterDiagnostics[index].entry = entry + base }
        }
        // Repeats within the later half name their first use; when that id was used here, ours is first.
        for (id, use, index) in later.decoder.repeats {
            guard let first = decoder.ids[id] else { continue }
            var diagnostic = Diagnostic.duplicateID(
                id, first: first.location, at: use.location, defaulted: use.defaulted)
            diagnostic.promotion = laterDiagnostics[index].promotion
            diagnostic.entry = laterDiagnostics[index].entry
            laterDiagnostics[index] = diagnostic
        }
        // The later half's first uses of ids used here are repeats: in file order.
        var repeated: [(id: String, use: PromotionDecoder.IDUse, first: SourceLocation)] = []
        for (id, use) in later.decoder.ids {
            if let first = decoder.ids[id] { repeated.append((id, use, first.location)) }
        }
        repeated.sort { $0.use.entry < $1.use.entry }
        var dropped: Set<String> = []
        for (id, use, first) in repeated {
            var diagnostic = Diagnostic.duplicateID(id, first: first, at: use.location, defaulted: use.defaulted)
            diagnostic.entry = Int(use.entry) + base
            laterDiagnostics.append(diagnostic)
            dropped.insert(id)
        }
        decoder.adoptUnanswered(of: later.decoder, offset: diagnostics.count)
        diagnostics += laterDiagnostics
        var laterEntries = later.entries
        later.entries = []
        entries.appendMoving(from: &laterEntries, vacated: .vacated)
        // A run at a time, each freed once moved. Within the later half, only the first use of an
        // id can have been valid: that is the one dropped.
        later.chunks.append(later.promotions)
        later.promotions = []
        // Each kept promotion's entry, renumbered like the entries.
        var position = 0
        for index in later.chunks.indices {
            var chunk = later.chunks[index]
            later.chunks[index] = []
            promotions.appendMoving(from: &chunk, vacated: .vacated) { promotion in
                defer { position += 1 }
                guard dropped.isEmpty || !dropped.contains(promotion.id) else { return false }
                promotionEntries.append(later.promotionEntries[position] + Int32(base))
                return true
            }
        }
    }
}

extension Promotion {
    /// What a slot holds once its promotion was moved out: it owns nothing to free.
    fileprivate static let vacated = Promotion(id: "", name: "", rule: .combo(groupSize: 1, paid: 1))
}

extension PromotionEntry {
    /// What a slot holds once its entry was moved out.
    fileprivate static let vacated = PromotionEntry(id: nil, location: SourceLocation(line: 0, column: 0))
}

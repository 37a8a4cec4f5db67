import Buffers
internal import CLibXML2

/// The parser's part in reading one file with two parsers (``PlistHalves``): the first parser
/// starts the second when the container to split opens, and proves the cut; the second starts
/// primed with the first's open elements. The element callbacks call in here at those three points.
extension ReaderState {
    struct SplitWatch {
        let half: SecondHalf
        /// Where in `stack` the container whose children are split is, once the second half started.
        var container: Int?
        /// Whether this parser reached the cut, at the end of one of the container's children.
        var reached = false
        /// Whether the second half can no longer be used (or never started).
        var abandoned = false

        init(half: SecondHalf) {
            self.half = half
        }

        var started: Bool { container != nil }
    }

    /// For the second of two parsers: opens what the first had open at the cut, without reporting
    /// it; the opening tags libxml2 reads first stand for them.
    /// `openingTagsFollow`: libxml2 reads opening tags standing for them first (the scanner does not).
    mutating func prime(_ elements: ContiguousArray<OpenElement>, lineOffset: Int, openingTagsFollow: Bool = true) {
        stack.removeAll()
        for element in elements { stack.append(element) }
        for index in 0..<stack.count {
            stack[index].awaitsValue = false
            if case .plist = stack[index].role { stack[index].values = 1 }
        }
        pendingKeys = ContiguousArray(repeating: nil, count: stack.count)
        primedTags = openingTagsFollow ? stack.count : 0
        sawDocumentElement = true
        self.lineOffset = lineOffset
    }

    /// After a streamed container opened: offers its children to a second parser.
    mutating func offerSecondHalf(_ kind: PlistKind, depth: Int, key: PlistKey?) {
        guard var watch = split, !watch.started, !watch.abandoned else { return }
        defer { split = watch }
        guard !namespacesDeclared, cursorOffset() < watch.half.plan.firstEnd else {
            watch.abandoned = true
            return
        }
        guard let second = watch.half.offer(kind, depth, key) else { return }
        watch.container = stack.count - 1
        watch.half.start(handler: second, openElements: ContiguousArray(stack.elements))
    }

    /// After a child of the split container was delivered: stops at the cut, or gives up the
    /// second half once past it.
    mutating func checkFirstHalfEnd() {
        guard var watch = split, watch.started, !watch.reached, !watch.abandoned else { return }
        let offset = cursorOffset()
        if offset == watch.half.plan.firstEnd {
            watch.reached = true
            stopped = true
            if let parser { xmlStopParser(parser) }
        } else if offset > watch.half.plan.firstEnd {
            watch.abandoned = true
            watch.half.cancel()
        }
        split = watch
    }

    /// Gives up the second half: something changed the state it started from.
    mutating func abandonSecondHalf() {
        guard var watch = split, watch.started, !watch.reached, !watch.abandoned else { return }
        watch.abandoned = true
        watch.half.cancel()
        split = watch
    }

    /// After a first reader's run: waits for the second half, if one started, and says how the
    /// file was read.
    func finishHalves() -> PlistStreamReader.Reading {
        guard let watch = split, watch.started else { return .whole }
        if !watch.reached { watch.half.cancel() }
        watch.half.wait()
        guard watch.reached, let second = watch.half.handler else { return .whole }
        return watch.half.mustReadWhole ? .readAgainWhole : .halves(second: second)
    }
}

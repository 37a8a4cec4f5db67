import Platform

/// Reading whole input files (or stdin, named `-`), with the errors users need.
public enum FileBytes {
    /// Reads the file at `path`, or standard input for `-` (named `<stdin>` in messages), refusing
    /// more than `limit` bytes.
    public static func read(_ path: String, limit: Int = 1 << 30) throws(InputError) -> [UInt8] {
        let (fd, size) = try open(path)
        defer { if path != "-" { fd.close() } }
        return try read(fd, name: displayName(path), size: size, limit: limit)
    }

    /// Reads the file at `path`, or standard input for `-`, up to `limit` bytes and one more: a
    /// reader with its own way of refusing a file over `limit` (the promotions reader's
    /// `xml.forbidden`) then sees that there is more, as it does reading a file.
    public static func readBeyond(_ path: String, limit: Int) throws(InputError) -> [UInt8] {
        let (fd, size) = try open(path)
        defer { if path != "-" { fd.close() } }
        return try read(
            fd, name: displayName(path), size: size.map { limit == .max ? $0 : min($0, limit + 1) }, limit: limit,
            beyond: true)
    }

    static func read(_ fd: FileDescriptor, name: String, size: Int?, limit: Int, beyond: Bool = false)
        throws(InputError) -> [UInt8]
    {
        var bytes: [UInt8] = []
        if let size {
            guard size <= limit || beyond else { throw tooLarge(name, limit) }
            bytes.reserveCapacity(size)
        }
        let chunk = 1 << 16
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let count: Int
            do {
                count = try bytes.withUnsafeMutableBytes { (all) throws(SystemError) -> Int in
                    try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
                }
            } catch {
                throw InputError(.unreadable, file: name, "cannot read: \(error)")
            }
            bytes.removeLast(chunk - count)
            if count == 0 { return bytes }
            if bytes.count > limit {
                guard beyond else { throw tooLarge(name, limit) }
                return Array(bytes.prefix(limit + 1))
            }
        }
    }

    static func tooLarge(_ name: String, _ limit: Int) -> InputError {
        InputError(.invalid, file: name, "the file is larger than the limit of \(limit) bytes")
    }

    /// Calls `body` with the whole content of `path` (standard input for `-`). A regular file is
    /// mapped into memory rather than copied: a large cart is scanned straight from the page cache,
    /// its pages mapped by the threads that read them (a large cart's two halves at once) rather than
    /// all up front by this one.
    public static func withContents<R>(_ path: String, limit: Int = 1 << 30, _ body: (UnsafeBufferPointer<UInt8>) -> R)
        throws(InputError) -> R
    {
        let (fd, size) = try open(path)
        defer { if path != "-" { fd.close() } }
        if let size, size > 0 {
            guard size <= limit else { throw tooLarge(displayName(path), limit) }
            if let mapping = MappedFile(fd, size: size, name: displayName(path)) {
                defer { mapping.unmap() }
                return body(mapping.bytes)
            }
        }
        let bytes = try read(fd, name: displayName(path), size: size, limit: limit)
        return bytes.withUnsafeBufferPointer(body)
    }

    /// Opens `path` for reading (standard input for `-`), for streaming. The caller closes it
    /// (never standard input). Returns the descriptor and the file's size when it is a regular file.
    public static func open(_ path: String) throws(InputError) -> (fd: FileDescriptor, size: Int?) {
        if path == "-" { return (.standardInput, nil) }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(forReading: path)
        } catch {
            throw InputError(.unreadable, file: path, "cannot open: \(error)")
        }
        switch fd.kind() {
        case .directory?:
            fd.close()
            throw InputError(.unreadable, file: path, "cannot read: is a directory")
        case .regular(let size)?: return (fd, size)
        case .other?, nil: return (fd, nil)
        }
    }

    /// Whether `path` names an existing regular file.
    public static func isFile(_ path: String) -> Bool {
        if case .regular? = FileKind.of(path: path) { return true }
        return false
    }

    /// How messages name an input: `<stdin>` for `-`.
    public static func displayName(_ path: String) -> String {
        path == "-" ? "<stdin>" : path
    }
}

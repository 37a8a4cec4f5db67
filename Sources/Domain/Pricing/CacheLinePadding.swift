/// 128 bytes that hold nothing, to keep what lies on either side of them off each other's cache
/// lines (processors fetch lines in pairs): data one thread writes for every cart next to data
/// another thread reads or writes would pass the line between their cores at every write.
public struct CacheLinePadding: Sendable {
    private var words: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var more: (Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0, 0)

    public init() {}
}

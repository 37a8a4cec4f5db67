import FuzzHarness

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzHarness.catalog(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}

/// NumPy's `.npy` format, version 1.0 (numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
/// the magic `\x93NUMPY`, version 1 0, a little-endian 16-bit header length, a Python dict
/// literal padded with spaces to a multiple of 64 bytes and ending in a newline, then the data
/// in C order. Here always unsigned bytes: `'<u1'` is written `'|u1'`.
package enum NumPyFile {
    /// The header of a C-order uint8 array of `shape`; `length`: padded to that many bytes
    /// (a multiple of 64 at least the natural length: a header rewritten in place).
    package static func header(shape: [Int], length: Int? = nil) -> [UInt8] {
        let dims = shape.count == 1 ? "\(shape[0])," : shape.map(String.init).joined(separator: ", ")
        var dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (\(dims)), }"
        let fixed = 10  // magic, version, length
        let total = max(length ?? 0, ((fixed + dict.utf8.count + 1 + 63) / 64) * 64)
        dict += String(repeating: " ", count: total - fixed - dict.utf8.count - 1) + "\n"
        let n = dict.utf8.count
        return [0x93] + Array("NUMPY".utf8) + [1, 0, UInt8(n & 0xFF), UInt8(n >> 8)] + Array(dict.utf8)
    }
}

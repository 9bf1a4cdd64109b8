// The header's memory rule in Swift: answers are copied into the caller's
// buffer and their full length returned; strings passed in are borrowed.
import Foundation

/// Copy `text` (UTF-8) into `out` when it fits; return its length, or -code.
func copyOut(_ text: String, _ out: UnsafeMutablePointer<CChar>?, _ cap: UInt64) -> Int64 {
    let bytes = Array(text.utf8)
    if let out, UInt64(bytes.count) <= cap {
        bytes.withUnsafeBufferPointer { source in
            out.withMemoryRebound(to: UInt8.self, capacity: bytes.count) { target in
                target.update(from: source.baseAddress!, count: bytes.count)
            }
        }
    }
    return Int64(bytes.count)
}

/// Encode a JSON value (dictionaries, arrays, strings, numbers, booleans, NSNull).
func json(_ value: Any) -> String {
    guard JSONSerialization.isValidJSONObject(value),
          let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    else { return "null" }
    return String(decoding: data, as: UTF8.self)
}

/// A borrowed C string as a Swift string ("" for NULL).
func borrowed(_ text: UnsafePointer<CChar>?) -> String {
    text.map { String(cString: $0) } ?? ""
}

// The header's error codes.
enum AbiError: Int32 {
    case unavailable = 1, contextWindow, guardrail, cancelled, badInput, service,
         rateLimited, language, notFound, busy, internalError
}

let abiVersion: UInt32 = 1

@_cdecl("wisp_abi_version")
public func wisp_abi_version() -> UInt32 { abiVersion }

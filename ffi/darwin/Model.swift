// The model half of the ABI over FoundationModels: availability, window,
// token counts, and sessions whose replies stream into a queue the caller
// drains with wisp_session_next_event. Tools are wisp's own, described by
// JSON Schema and turned into DynamicGenerationSchema; a tool call waits
// inside the framework until wisp answers it with wisp_session_tool_result.
import Foundation
import FoundationModels

// MARK: availability, window, tokens

@_cdecl("wisp_model_availability")
public func wisp_model_availability(_ out: UnsafeMutablePointer<CChar>?, _ cap: UInt64) -> Int64 {
    switch SystemLanguageModel.default.availability {
    case .available:
        return copyOut(json(["available": true]), out, cap)
    case .unavailable(let reason):
        let why: String
        switch reason {
        case .deviceNotEligible: why = "this Mac cannot run Apple Intelligence"
        case .appleIntelligenceNotEnabled: why = "Apple Intelligence is turned off in System Settings"
        case .modelNotReady: why = "the model is still downloading or getting ready"
        @unknown default: why = "the model is unavailable"
        }
        return copyOut(json(["available": false, "reason": why]), out, cap)
    }
}

@_cdecl("wisp_model_window")
public func wisp_model_window() -> Int32 {
    guard case .available = SystemLanguageModel.default.availability else {
        return -AbiError.unavailable.rawValue
    }
    return Int32(SystemLanguageModel.default.contextSize)
}

/// Run async work to completion from a C call (the caller is never the main thread).
private func blocking<T>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, Error> = .failure(CancellationError())
    Task.detached {
        do { result = .success(try await work()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    return result
}

@_cdecl("wisp_model_token_count")
public func wisp_model_token_count(_ text: UnsafePointer<CChar>?) -> Int32 {
    guard let text else { return -AbiError.badInput.rawValue }
    let prompt = String(cString: text)
    switch blocking({ try await SystemLanguageModel.default.tokenCount(for: prompt) }) {
    case .success(let count): return Int32(count)
    case .failure(let error): return -abiCode(error).rawValue
    }
}

// MARK: errors

/// The framework's errors as the header's codes.
func abiCode(_ error: Error) -> AbiError {
    if error is CancellationError { return .cancelled }
    guard let generation = error as? LanguageModelSession.GenerationError else {
        return .service  // the model service's own failure (e.g. modelmanagerd out of files)
    }
    switch generation {
    case .exceededContextWindowSize: return .contextWindow
    case .guardrailViolation, .refusal: return .guardrail
    case .rateLimited: return .rateLimited
    case .unsupportedLanguageOrLocale: return .language
    case .assetsUnavailable: return .unavailable
    case .concurrentRequests: return .busy
    case .unsupportedGuide, .decodingFailure: return .badInput
    @unknown default: return .service
    }
}

// MARK: JSON Schema to the framework's dynamic schema

func dynamicSchema(_ schema: [String: Any], name: String) -> DynamicGenerationSchema {
    let description = schema["description"] as? String
    if let choices = schema["enum"] as? [String] {
        return DynamicGenerationSchema(name: name, description: description, anyOf: choices)
    }
    switch schema["type"] as? String {
    case "object":
        let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
        let required = Set(schema["required"] as? [String] ?? [])
        return DynamicGenerationSchema(
            name: name,
            description: description,
            properties: properties.keys.sorted().map { key in
                DynamicGenerationSchema.Property(
                    name: key,
                    description: properties[key]?["description"] as? String,
                    schema: dynamicSchema(properties[key] ?? [:], name: "\(name)_\(key)"),
                    isOptional: !required.contains(key))
            })
    case "array":
        let items = schema["items"] as? [String: Any] ?? [:]
        return DynamicGenerationSchema(arrayOf: dynamicSchema(items, name: "\(name)_item"))
    case "integer": return DynamicGenerationSchema(type: Int.self)
    case "number": return DynamicGenerationSchema(type: Double.self)
    case "boolean": return DynamicGenerationSchema(type: Bool.self)
    default: return DynamicGenerationSchema(type: String.self)
    }
}

func generationSchema(_ text: String, name: String) throws -> GenerationSchema {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw LanguageModelSession.GenerationError.decodingFailure(.init(debugDescription: "not a JSON object"))
    }
    return try GenerationSchema(root: dynamicSchema(object, name: name), dependencies: [])
}

// MARK: sessions

/// One session: the framework's session, the queue of events, the calls waiting on wisp.
final class NativeSession: @unchecked Sendable {
    let lock = NSLock()
    let ready = DispatchSemaphore(value: 0)
    var events: [String] = []
    var closed = false
    var replying: Task<Void, Never>?
    var waiting: [String: CheckedContinuation<String, Error>] = [:]
    var session: LanguageModelSession!

    func push(_ event: [String: Any]) {
        lock.withLock { events.append(json(event)) }
        ready.signal()
    }

    /// Called by a tool: queue the call and wait until wisp answers it.
    func call(name: String, arguments: GeneratedContent) async throws -> String {
        let id = UUID().uuidString
        let args = (try? JSONSerialization.jsonObject(with: Data(arguments.jsonString.utf8))) ?? [:]
        return try await withCheckedThrowingContinuation { continuation in
            lock.withLock { waiting[id] = continuation }
            push(["type": "tool_call", "id": id, "name": name, "arguments": args])
        }
    }
}

/// A wisp tool as the framework sees it: its call goes back to wisp through the queue.
struct ForwardedTool: Tool {
    let name: String
    let description: String
    let parameters: GenerationSchema
    let owner: NativeSession

    func call(arguments: GeneratedContent) async throws -> String {
        try await owner.call(name: name, arguments: arguments)
    }
}

private let sessionsLock = NSLock()
nonisolated(unsafe) private var sessions: [UInt64: NativeSession] = [:]
nonisolated(unsafe) private var nextSession: UInt64 = 1

private func find(_ id: UInt64) -> NativeSession? { sessionsLock.withLock { sessions[id] } }

@_cdecl("wisp_session_open")
public func wisp_session_open(_ instructions: UnsafePointer<CChar>?, _ toolsJson: UnsafePointer<CChar>?) -> Int64 {
    guard case .available = SystemLanguageModel.default.availability else {
        return -Int64(AbiError.unavailable.rawValue)
    }
    let native = NativeSession()
    var tools: [any Tool] = []
    let described = (try? JSONSerialization.jsonObject(with: Data(borrowed(toolsJson).utf8))) as? [[String: Any]]
    for tool in described ?? [] {
        guard let name = tool["name"] as? String,
              let parameters = try? GenerationSchema(
                  root: dynamicSchema(tool["parameters"] as? [String: Any] ?? [:], name: name),
                  dependencies: [])
        else { return -Int64(AbiError.badInput.rawValue) }
        tools.append(ForwardedTool(
            name: name, description: tool["description"] as? String ?? "", parameters: parameters, owner: native))
    }
    native.session = LanguageModelSession(tools: tools, instructions: borrowed(instructions))
    return Int64(sessionsLock.withLock {
        let id = nextSession
        nextSession += 1
        sessions[id] = native
        return id
    })
}

@_cdecl("wisp_session_send")
public func wisp_session_send(_ session: UInt64, _ prompt: UnsafePointer<CChar>?, _ schemaJson: UnsafePointer<CChar>?) -> Int32 {
    guard let native = find(session) else { return AbiError.notFound.rawValue }
    if native.lock.withLock({ native.replying != nil }) { return AbiError.busy.rawValue }
    let text = borrowed(prompt)
    let schemaText = borrowed(schemaJson)
    let task = Task.detached {
        var written = 0
        do {
            if schemaText.isEmpty {
                let stream = native.session.streamResponse(to: text, options: GenerationOptions())
                for try await snapshot in stream {
                    // Snapshots carry the whole reply so far: send what is new.
                    let whole = snapshot.content
                    if whole.count > written {
                        native.push(["type": "text", "text": String(whole.dropFirst(written))])
                        written = whole.count
                    }
                }
            } else {
                let schema = try generationSchema(schemaText, name: "reply")
                let response = try await native.session.respond(to: text, schema: schema)
                native.push(["type": "text", "text": response.content.jsonString])
            }
            let input = (try? await SystemLanguageModel.default.tokenCount(for: text)) ?? 0
            native.push(["type": "done", "inputTokens": input, "outputTokens": written])
        } catch {
            native.push(["type": "error", "code": Int(abiCode(error).rawValue), "message": "\(error)"])
        }
        native.lock.withLock { native.replying = nil }
    }
    native.lock.withLock { native.replying = task }
    return 0
}

@_cdecl("wisp_session_next_event")
public func wisp_session_next_event(_ session: UInt64, _ out: UnsafeMutablePointer<CChar>?, _ cap: UInt64) -> Int64 {
    guard let native = find(session) else { return -Int64(AbiError.notFound.rawValue) }
    native.ready.wait()
    return native.lock.withLock {
        guard !native.closed, let event = native.events.first else {
            native.ready.signal()  // wake the next waiter too
            return -Int64(AbiError.notFound.rawValue)
        }
        let length = copyOut(event, out, cap)
        if UInt64(length) <= cap {
            native.events.removeFirst()
        } else {
            native.ready.signal()  // it stays queued for a larger buffer
        }
        return length
    }
}

@_cdecl("wisp_session_tool_result")
public func wisp_session_tool_result(_ session: UInt64, _ callId: UnsafePointer<CChar>?, _ result: UnsafePointer<CChar>?) -> Int32 {
    guard let native = find(session) else { return AbiError.notFound.rawValue }
    let id = borrowed(callId)
    guard let continuation = native.lock.withLock({ native.waiting.removeValue(forKey: id) }) else {
        return AbiError.notFound.rawValue
    }
    continuation.resume(returning: borrowed(result))
    return 0
}

@_cdecl("wisp_session_cancel")
public func wisp_session_cancel(_ session: UInt64) -> Int32 {
    guard let native = find(session) else { return AbiError.notFound.rawValue }
    cancel(native)
    return 0
}

/// Stop the reply in progress: calls waiting on wisp fail, and the model stops at its next words.
private func cancel(_ native: NativeSession) {
    let (task, waiting) = native.lock.withLock {
        () -> (Task<Void, Never>?, [CheckedContinuation<String, Error>]) in
        let calls = Array(native.waiting.values)
        native.waiting.removeAll()
        return (native.replying, calls)
    }
    for call in waiting { call.resume(throwing: CancellationError()) }
    task?.cancel()
}

@_cdecl("wisp_session_close")
public func wisp_session_close(_ session: UInt64) {
    guard let native = sessionsLock.withLock({ sessions.removeValue(forKey: session) }) else { return }
    cancel(native)
    native.lock.withLock { native.closed = true }
    native.ready.signal()
}

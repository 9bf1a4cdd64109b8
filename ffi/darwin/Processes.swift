// The process and port half of the ABI over libproc and sysctl.
import Darwin
import Foundation

/// Mach time units to nanoseconds (task times are in them on Apple silicon).
private let timebase: (numer: UInt64, denom: UInt64) = {
    var info = mach_timebase_info_data_t()
    mach_timebase_info(&info)
    return (UInt64(info.numer), UInt64(max(info.denom, 1)))
}()

private func allPids() -> [pid_t] {
    let count = proc_listallpids(nil, 0)
    guard count > 0 else { return [] }
    var pids = [pid_t](repeating: 0, count: Int(count) + 64)
    let got = pids.withUnsafeMutableBytes { proc_listallpids($0.baseAddress, Int32($0.count)) }
    return Array(pids.prefix(Int(max(got, 0)))).filter { $0 > 0 }
}

private func stateLetter(_ status: UInt32) -> String {
    switch status {
    case 2: return "R"   // SRUN
    case 3: return "S"   // SSLEEP
    case 4: return "T"   // SSTOP
    case 5: return "Z"   // SZOMB
    default: return "S"  // SIDL and the rest
    }
}

/// The table's fields for one process, or nil when it is gone or not ours to read.
private func summary(_ pid: pid_t) -> [String: Any]? {
    var info = proc_taskallinfo()
    let size = Int32(MemoryLayout<proc_taskallinfo>.size)
    guard proc_pidinfo(pid, PROC_PIDTASKALLINFO, 0, &info, size) == size else { return nil }
    let bsd = info.pbsd
    let task = info.ptinfo
    let name = withUnsafeBytes(of: bsd.pbi_name) { raw -> String in
        let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        return text.isEmpty
            ? withUnsafeBytes(of: bsd.pbi_comm) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            : text
    }
    let cpuNs = (task.pti_total_user + task.pti_total_system) * timebase.numer / timebase.denom
    return [
        "pid": Int(pid),
        "ppid": Int(bsd.pbi_ppid),
        "uid": Int(bsd.pbi_ruid),
        "state": stateLetter(bsd.pbi_status),
        "name": name,
        "rssBytes": Int(task.pti_resident_size),
        "cpuMs": Int(cpuNs / 1_000_000),
        "startTime": Int(bsd.pbi_start_tvsec),
    ]
}

/// argv through sysctl(KERN_PROCARGS2): argc, the executable path, padding, the arguments.
private func arguments(_ pid: pid_t) -> [String]? {
    var mib: [Int32] = [CTL_KERN, KERN_PROCARGS2, pid]
    var size = 0
    guard sysctl(&mib, 3, nil, &size, nil, 0) == 0, size > 4 else { return nil }
    var bytes = [UInt8](repeating: 0, count: size)
    guard sysctl(&mib, 3, &bytes, &size, nil, 0) == 0 else { return nil }
    let argc = bytes.withUnsafeBytes { $0.load(as: Int32.self) }
    var at = 4
    while at < size && bytes[at] != 0 { at += 1 }  // the exec path
    while at < size && bytes[at] == 0 { at += 1 }  // its padding
    var args: [String] = []
    while args.count < argc && at < size {
        var end = at
        while end < size && bytes[end] != 0 { end += 1 }
        args.append(String(decoding: bytes[at..<end], as: UTF8.self))
        at = end + 1
    }
    return args.count == argc ? args : nil
}

@_cdecl("wisp_process_table")
public func wisp_process_table(_ out: UnsafeMutablePointer<CChar>?, _ cap: UInt64) -> Int64 {
    copyOut(json(allPids().compactMap(summary)), out, cap)
}

@_cdecl("wisp_process_details")
public func wisp_process_details(_ pid: Int32, _ out: UnsafeMutablePointer<CChar>?, _ cap: UInt64) -> Int64 {
    guard pid > 0, var details = summary(pid) else { return -Int64(AbiError.notFound.rawValue) }
    var path = [CChar](repeating: 0, count: Int(MAXPATHLEN) * 4)
    let length = proc_pidpath(pid, &path, UInt32(path.count))
    details["path"] = length > 0 ? String(cString: path) : NSNull()
    var vnode = proc_vnodepathinfo()
    let size = Int32(MemoryLayout<proc_vnodepathinfo>.size)
    if proc_pidinfo(pid, PROC_PIDVNODEPATHINFO, 0, &vnode, size) == size {
        details["cwd"] = withUnsafeBytes(of: vnode.pvi_cdir.vip_path) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
    } else {
        details["cwd"] = NSNull()
    }
    details["args"] = arguments(pid) ?? NSNull()
    return copyOut(json(details), out, cap)
}

/// The listening sockets one process holds, through its descriptor list.
private func listeners(of pid: pid_t, into found: inout [String: [String: Any]]) {
    let bytes = proc_pidinfo(pid, PROC_PIDLISTFDS, 0, nil, 0)
    guard bytes > 0 else { return }
    let count = Int(bytes) / MemoryLayout<proc_fdinfo>.stride
    var fds = [proc_fdinfo](repeating: proc_fdinfo(), count: count)
    let got = fds.withUnsafeMutableBytes { proc_pidinfo(pid, PROC_PIDLISTFDS, 0, $0.baseAddress, bytes) }
    for fd in fds.prefix(Int(max(got, 0)) / MemoryLayout<proc_fdinfo>.stride)
    where fd.proc_fdtype == UInt32(PROX_FDTYPE_SOCKET) {
        var socket = socket_fdinfo()
        let size = Int32(MemoryLayout<socket_fdinfo>.size)
        guard proc_pidfdinfo(pid, fd.proc_fd, PROC_PIDFDSOCKETINFO, &socket, size) == size else { continue }
        let info = socket.psi
        let inet = info.soi_proto.pri_in
        let tcp = info.soi_kind == Int32(SOCKINFO_TCP)
        let listening = tcp
            ? info.soi_proto.pri_tcp.tcpsi_state == Int32(TSI_S_LISTEN)
            : info.soi_kind == Int32(SOCKINFO_IN) && info.soi_protocol == IPPROTO_UDP && inet.insi_fport == 0
        guard listening else { continue }
        let local = tcp ? info.soi_proto.pri_tcp.tcpsi_ini : inet
        let v6 = (local.insi_vflag & UInt8(INI_IPV6)) != 0
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var address = local.insi_laddr
        withUnsafePointer(to: &address) { pointer in
            _ = v6
                ? inet_ntop(AF_INET6, UnsafeRawPointer(pointer), &text, socklen_t(text.count))
                : inet_ntop(AF_INET, UnsafeRawPointer(pointer).advanced(by: 12), &text, socklen_t(text.count))
        }
        let port = Int(UInt16(bigEndian: UInt16(truncatingIfNeeded: local.insi_lport)))
        let proto = (tcp ? "tcp" : "udp") + (v6 ? "6" : "")
        let key = "\(proto) \(String(cString: text)) \(port)"
        var row = found[key] ?? ["proto": proto, "address": String(cString: text), "port": port, "pids": [Int]()]
        var pids = row["pids"] as! [Int]
        if !pids.contains(Int(pid)) { pids.append(Int(pid)) }
        row["pids"] = pids
        found[key] = row
    }
}

@_cdecl("wisp_listening_ports")
public func wisp_listening_ports(_ out: UnsafeMutablePointer<CChar>?, _ cap: UInt64) -> Int64 {
    var found: [String: [String: Any]] = [:]
    for pid in allPids() { listeners(of: pid, into: &found) }
    return copyOut(json(found.keys.sorted().map { found[$0]! }), out, cap)
}

@_cdecl("wisp_killpg")
public func wisp_killpg(_ pgid: Int32, _ sig: Int32) -> Int32 {
    guard pgid > 1 else { return EINVAL }  // never the caller's own group by 0, never launchd
    return killpg(pgid, sig) == 0 ? 0 : errno
}

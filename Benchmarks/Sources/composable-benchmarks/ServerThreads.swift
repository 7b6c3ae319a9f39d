import Foundation
import LoopbackHTTPServer
import LoopbackSockets

/// `server_threads_at_3000_idle`: the threads this process gains while 3,000 clients hold idle
/// connections to one `LoopbackHTTPServer` (its cap raised to 4,096 so all are admitted, and
/// its idle timeout to two minutes so none is closed while a slow machine connects the rest).
/// Idle connections wait in the server's one watching thread: the figure counts what they cost
/// beyond it (c37a104 served each connection on a thread of its own: 2,095 threads here).
/// Checks: every connection was admitted, and the server still answers a request meanwhile.
/// Linux only (threads are counted in `/proc/self/task`).
@MainActor
func benchmarkServerThreads(connections count: Int) async throws -> Summary {
  var router = HTTPRouter()
  router.get("/hello") { _ in .text("hello") }
  let server = try LoopbackHTTPServer(
    limits: .init(receiveTimeout: .seconds(120), maxConnections: 4096), router: router)
  let before = try threadCount()
  var held: [LoopbackConnection] = []
  for _ in 0..<count { held.append(try LoopbackConnection.connect(toLoopbackPort: server.port)) }
  let admitted = ContinuousClock.now + .seconds(10)
  while server.openConnectionCount < count, ContinuousClock.now < admitted {
    try await Task.sleep(for: .milliseconds(10))
  }
  try check(
    server.openConnectionCount == count,
    "the server admitted \(server.openConnectionCount) of \(count) idle connections")
  let during = try threadCount()
  let probe = try LoopbackConnection.connect(toLoopbackPort: server.port)
  probe.setReceiveTimeout(milliseconds: 5000)
  try probe.send(Array("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
  var answer: [UInt8] = []
  while let chunk = try? probe.receive(upTo: 4096), !chunk.isEmpty { answer += chunk }
  try check(
    String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200"),
    "the server did not answer beside \(count) idle connections")
  for connection in held + [probe] { connection.close() }
  await server.stop()
  return Summary(value: Double(during - before), repetitions: 1, statistic: "count")
}

private func threadCount() throws -> Int {
  let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
  return tasks.count
}

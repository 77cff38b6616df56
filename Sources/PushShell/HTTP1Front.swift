import CGtk
import Glibc
import HostCore
import Push
import ShellKit

/// HTTP/1.1 to the stand-in (what a server's client speaks to a plain `http://` base URL),
/// served by libsoup: the listener hands it each connection that is neither TLS nor HTTP/2.
@MainActor
package final class HTTP1Front {
    private let server: UnsafeMutablePointer<SoupServer>
    let environment: APNsEnvironment
    let service: APNsService

    init(environment: APNsEnvironment, service: APNsService) {
        self.environment = environment
        self.service = service
        server = cgtk_soup_server_new()!
        SoupServing.handle(server) { [weak self] message, path in self?.handle(message, path: path) }
        // libsoup keeps a connection handed to it (accept_iostream) alive between requests only
        // while the server has a listener of its own: give it one nobody is told of — an
        // abstract Unix socket under a random name — so HTTP/1.1 clients reuse their connection.
        var error: UnsafeMutablePointer<GError>?
        let name = "hostshell-apns-http1-\(UInt64.random(in: .min ... .max))"
        let address = g_unix_socket_address_new_with_type(name, -1, G_UNIX_SOCKET_ADDRESS_ABSTRACT)
        if soup_server_listen(server, address, SoupServerListenOptions(rawValue: 0), &error) == 0 {
            printError("hostshell: warning: HTTP/1.1 connections will be closed after each answer (\(error.map { String(cString: $0.pointee.message) } ?? "no listener"))")
            g_clear_error(&error)
        }
        g_object_unref(UnsafeMutableRawPointer(address))
    }

    /// Takes over a connected socket (and its descriptor).
    func accept(fd: Int32) {
        var error: UnsafeMutablePointer<GError>?
        guard let socket = g_socket_new_from_fd(fd, &error) else { g_clear_error(&error); close(fd); return }
        let connection = g_socket_connection_factory_create_connection(socket)
        let local = g_socket_get_local_address(socket, nil), remote = g_socket_get_remote_address(socket, nil)
        if soup_server_accept_iostream(server, UnsafeMutablePointer(OpaquePointer(connection)), local, remote, &error) == 0 { g_clear_error(&error) }
        for object in [UnsafeMutableRawPointer(connection), UnsafeMutableRawPointer(local), UnsafeMutableRawPointer(remote), UnsafeMutableRawPointer(socket)] {
            if let object { g_object_unref(object) }
        }
    }

    private func handle(_ message: OpaquePointer, path: String) {
        let method = soup_server_message_get_method(message).map { String(cString: $0) } ?? "GET"
        final class Box { var answered = false; var paused = false }
        let box = Box()
        var body: [UInt8] = []
        if let raw = soup_server_message_get_request_body(message), raw.pointee.length > 0, let data = raw.pointee.data {
            body = Array(UnsafeRawBufferPointer(start: data, count: min(Int(raw.pointee.length), APNsLimits.requestBodyCap)))
        }
        let request = APNsRequest(method: method, path: path, headers: SoupServing.headers(message), body: body)
        g_object_ref(UnsafeMutableRawPointer(message))
        service.handle(request, environment: environment, transport: "http/1.1") { decision in
            let response = soup_server_message_get_response_headers(message)
            for header in decision.headers where header.name != "content-type" { soup_message_headers_append(response, header.name, header.value) }
            soup_server_message_set_status(message, guint(decision.status), nil)
            let bytes = decision.body
            bytes.withUnsafeBufferPointer { buffer in
                soup_server_message_set_response(message, bytes.isEmpty ? nil : "application/json", SOUP_MEMORY_COPY,
                                                 buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, gsize(buffer.count))
            }
            box.answered = true
            if box.paused { soup_server_message_unpause(message) }
            g_object_unref(UnsafeMutableRawPointer(message))
        }
        if !box.answered {
            box.paused = true
            soup_server_message_pause(message)
        }
    }
}

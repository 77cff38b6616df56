@testable import HostCore
import Testing

/// Who made the other end of a loopback connection, as the kernel's tables say; and where the
/// remote inspector may listen.
@Suite("Socket owners and the inspector's address")
struct SocketOwnerTests {
    /// Rows as /proc/net/tcp writes them: a listener on 127.0.0.1:38573 (uid 0), a client of
    /// uid 65534 connected to it from port 45678, and the accepted end (uid 0).
    static let tables = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:96AD 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 101 1 0 100 0 0 10 0
           1: 0100007F:B26E 0100007F:96AD 01 00000000:00000000 00:00000000 00000000 65534        0 102 1 0 20 4 30 10 -1
           2: 0100007F:96AD 0100007F:B26E 01 00000000:00000000 00:00000000 00000000     0        0 103 1 0 20 4 30 10 -1
          sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 00000000000000000000000001000000:C350 00000000000000000000000001000000:1F90 01 00000000:00000000 00:00000000 00000000  1000        0 104 1 0 20 4 30 10 -1
        """

    @Test("the peer's row names its uid; a connection not in the tables is nobody's (the caller refuses)")
    func owners() {
        let listener = SocketOwner.Endpoint("127.0.0.1", 38573)
        #expect(SocketOwner.uid(peer: .init("127.0.0.1", 45678), local: listener, tables: Self.tables) == 65534)
        #expect(SocketOwner.uid(peer: .init("127.0.0.1", 45679), local: listener, tables: Self.tables) == nil)
        #expect(SocketOwner.uid(peer: .init("::1", 50000), local: .init("::1", 8080), tables: Self.tables) == 1000)
        #expect(SocketOwner.uid(peer: .init("::1", 50000), local: .init("::1", 8081), tables: Self.tables) == nil)
        #expect(SocketOwner.uid(peer: .init("not an address", 1), local: listener, tables: Self.tables) == nil)
    }

    @Test("addresses as the tables write them")
    func keys() {
        #expect(SocketOwner.key(.init("127.0.0.1", 8080)) == "0100007F:1F90")
        #expect(SocketOwner.key(.init("::1", 80)) == "00000000000000000000000001000000:0050")
        #expect(SocketOwner.key(.init("::ffff:127.0.0.1", 1)) == "0000000000000000FFFF00000100007F:0001")
        #expect(SocketOwner.addressBytes("1::2::3") == nil && SocketOwner.addressBytes("300.0.0.1") == nil)
    }

    @Test("the inspector listens only on a loopback address and a real port", arguments: [
        ("127.0.0.1:52225", true), ("127.9.9.9:1", true), ("[::1]:4000", true), ("::1:4000", true),
        ("0.0.0.0:4000", false), ("192.0.2.1:4000", false), ("[::]:4000", false), ("127.0.0.1:0", false),
        ("127.0.0.1", false), ("localhost:4000", false), ("127.0.0.1:99999", false), ("", false),
    ])
    func inspectorAddress(_ text: String, _ accepted: Bool) {
        switch InspectorAddress.parse(text) {
        case .success: #expect(accepted, "\(text) was accepted")
        case .failure(let error): #expect(!accepted, "\(text): \(error.message)")
        }
    }
}

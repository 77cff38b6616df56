import CGtk
import HostCore

/// The Secret Service (the desktop keyring, over D-Bus, through libsecret) for one schema:
/// items found by their attributes. Shared by Studio's credentials and a Capacitor app's
/// HomeSecAuth entries. Calls are synchronous: one short D-Bus round trip each.
package struct SecretServiceStore {
    let schema: UnsafePointer<SecretSchema>

    package init(schema: UnsafePointer<SecretSchema>) { self.schema = schema }

    /// The secret of the item with these attributes, or nil when there is none.
    package func lookup(_ attributes: [String: String]) throws(SecretStoreFailure) -> String? {
        var error: UnsafeMutablePointer<GError>?
        let table = Self.table(attributes)
        defer { g_hash_table_unref(table) }
        let secret = secret_password_lookupv_sync(schema, table, nil, &error)
        if let error { throw Self.failure("reading from the keyring", error) }
        guard let secret else { return nil }
        defer { secret_password_free(secret) }
        return String(cString: secret)
    }

    /// Creates or replaces the item with these attributes.
    package func store(_ attributes: [String: String], label: String, secret: String) throws(SecretStoreFailure) {
        var error: UnsafeMutablePointer<GError>?
        let table = Self.table(attributes)
        defer { g_hash_table_unref(table) }
        let ok = secret_password_storev_sync(schema, table, nil, label, secret, nil, &error)
        if let error { throw Self.failure("saving in the keyring", error) }
        if ok == 0 { throw SecretStoreFailure("saving in the keyring failed") }
    }

    /// Creates or replaces the item, without blocking: the keyring may prompt (create its default
    /// collection, unlock it) and wait for a person, while the window keeps drawing and `ctl`
    /// keeps answering. `done` runs on the main loop with nil or what went wrong.
    @MainActor
    package func store(_ attributes: [String: String], label: String, secret: String,
                       done: @escaping @MainActor (SecretStoreFailure?) -> Void) {
        let table = Self.table(attributes)
        defer { g_hash_table_unref(table) }
        let box = Unmanaged.passRetained(StoreCompletion(done)).toOpaque()
        secret_password_storev(schema, table, nil, label, secret, nil, { _, result, data in
            let completion = Unmanaged<StoreCompletion>.fromOpaque(data!).takeRetainedValue()
            var error: UnsafeMutablePointer<GError>?
            let ok = secret_password_store_finish(result, &error)
            let failure = error.map { SecretServiceStore.failure("saving in the keyring", $0) }
                ?? (ok == 0 ? SecretStoreFailure("saving in the keyring failed") : nil)
            MainActor.assumeIsolated { completion.done(failure) }
        }, box)
    }

    /// Deletes every item with these attributes; none is no failure.
    package func clear(_ attributes: [String: String]) throws(SecretStoreFailure) {
        var error: UnsafeMutablePointer<GError>?
        let table = Self.table(attributes)
        defer { g_hash_table_unref(table) }
        _ = secret_password_clearv_sync(schema, table, nil, &error)
        if let error { throw Self.failure("deleting from the keyring", error) }
    }

    /// The value of attribute `key` of every item matching `attributes` (secrets not unlocked).
    package func attribute(_ key: String, ofItemsMatching attributes: [String: String]) throws(SecretStoreFailure) -> [String] {
        var error: UnsafeMutablePointer<GError>?
        let table = Self.table(attributes)
        defer { g_hash_table_unref(table) }
        let list = secret_password_searchv_sync(schema, table, SECRET_SEARCH_ALL, nil, &error)
        if let error { throw Self.failure("listing the keyring's entries", error) }
        defer { g_list_free_full(list, g_object_unref) }
        var values: [String] = []
        var node = list
        while let current = node {
            // Each element is a SecretRetrievable (GObject interface pointer).
            if let item = current.pointee.data, let found = secret_retrievable_get_attributes(OpaquePointer(item)) {
                if let value = g_hash_table_lookup(found, key) {
                    values.append(String(cString: value.assumingMemoryBound(to: CChar.self)))
                }
                g_hash_table_unref(found)
            }
            node = current.pointee.next
        }
        return values
    }

    /// Nil when the Secret Service answers a lookup; else what went wrong. `attended`: whether
    /// a person can answer the keyring's own prompt; when nobody can, a keyring that would
    /// prompt (no default collection yet, which writing would create with a "new password"
    /// dialog, or a locked one) counts as a problem: the prompt would hold the app for good.
    package func problem(probing attributes: [String: String], attended: Bool = true) -> String? {
        // Without a session bus, GLib would start one (and the keyring with it) to ask: never
        // as a side effect of a check.
        if let missing = Self.missingSessionBus() { return missing }
        if !attended, let prompt = Self.wouldPrompt() { return prompt }
        do throws(SecretStoreFailure) {
            _ = try lookup(attributes)
            return nil
        } catch {
            return error.message
        }
    }

    /// Why there is no session bus to ask, or nil when there is one (its address in the
    /// environment, or the user's bus socket).
    package static func missingSessionBus() -> String? {
        if let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0, !NoSessionBus.isAbsent { return nil }
        if !NoSessionBus.isAbsent, let runtime = getenv("XDG_RUNTIME_DIR"), access(String(cString: runtime) + "/bus", F_OK) == 0 { return nil }
        return "no session bus (DBUS_SESSION_BUS_ADDRESS is not set); run under dbus-run-session, or use --credential-store file"
    }

    /// What the keyring would ask a person before a secret could be written: nil when its
    /// default collection exists and is unlocked.
    package static func wouldPrompt() -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard let service = secret_service_get_sync(SECRET_SERVICE_NONE, nil, &error) else {
            defer { g_clear_error(&error) }
            return "the Secret Service did not answer (\(error.map { String(cString: $0.pointee.message) } ?? "unknown error"))"
        }
        defer { g_object_unref(UnsafeMutableRawPointer(service)) }
        guard let collection = secret_collection_for_alias_sync(service, "default", SECRET_COLLECTION_NONE, nil, &error) else {
            g_clear_error(&error)
            return "the keyring has no default collection yet, and creating one asks for a new password on the display, which nobody watches here"
        }
        defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
        if secret_collection_get_locked(collection) != 0 {
            return "the default keyring is locked, and unlocking it asks for its password on the display, which nobody watches here"
        }
        return nil
    }

    private static func table(_ attributes: [String: String]) -> OpaquePointer {
        let table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free)!
        for (key, value) in attributes { g_hash_table_insert(table, g_strdup(key), g_strdup(value)) }
        return table
    }

    fileprivate static func failure(_ doing: String, _ error: UnsafeMutablePointer<GError>) -> SecretStoreFailure {
        defer { g_error_free(error) }
        return SecretStoreFailure("\(doing) failed: \(String(cString: error.pointee.message))")
    }
}

/// What an asynchronous store calls when the keyring has answered.
private final class StoreCompletion {
    let done: @MainActor (SecretStoreFailure?) -> Void
    init(_ done: @escaping @MainActor (SecretStoreFailure?) -> Void) { self.done = done }
}

/// Where secrets go: the Secret Service when one answers, or — the explicit fallback for
/// headless machines — owner-only files in the profile. `--credential-store auto|secret-service|file`.
package enum SecretStoreKind: String {
    case secretService = "secret-service"
    case file

    package static let flagError = "--credential-store takes auto, secret-service or file"

    /// The store for `preference`, and why it was chosen. `files` says where the file store
    /// keeps them; `problem` probes the Secret Service (nil: it answers).
    @MainActor
    package static func choose(_ preference: String, files: String, problem: () -> String?) throws(UsageError) -> (kind: SecretStoreKind, reason: String) {
        switch preference {
        case "file":
            return (.file, "in owner-only files \(files) (--credential-store file)")
        case "secret-service", "auto":
            if let why = problem() {
                if preference == "secret-service" {
                    throw UsageError("--credential-store secret-service: no Secret Service answers (\(why)). Unlock your keyring, or use --credential-store file.")
                }
                return (.file, "in owner-only files \(files), because no Secret Service answers (\(why))")
            }
            return (.secretService, "in the Secret Service (your keyring)")
        default:
            throw UsageError(flagError)
        }
    }
}

/// The secret store could not do what was asked; `message` says what and why, for the page.
public struct SecretStoreFailure: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

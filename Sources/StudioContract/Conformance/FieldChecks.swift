import HostCore

/// How each decoded field a corpus case may list is read off this implementation's typed values
/// and compared. Decoded fields compare with absent ≡ null; `encodes` compares exactly.
enum FieldChecks {
    typealias Difference = (expected: String, actual: String)
    typealias Check = @Sendable (ConformanceRunner.Decoded, JSONValue, JSONValue) -> Difference?

    static let all: [String: Check] = [
        "destinationIds": studio { message in
            guard case .navigationCatalog(let catalog) = message else { return nil }
            return .array(catalog.destinations.map { .string($0.id) })
        },
        "frontendCapabilities": { decoded, _, expected in
            guard case .studio(let inbound) = decoded, case .frontendReady(let ready) = inbound.message else {
                return (JSONWriter.string(expected), "not a frontend/ready")
            }
            return compareListed(expected) { key in
                StudioCapability(rawValue: key).map { .bool(ready.capabilities.contains($0)) }
            }
        },
        "presentation": studio { message in
            guard case .presentationOpen(let p) = message else { return nil }
            return ["presentationId": .string(p.presentationId), "path": .string(p.path), "title": .string(p.title),
                    "subtitle": optional(p.subtitle), "size": .string(p.size.rawValue), "dismissible": .bool(p.dismissible)]
        },
        "headerActionIds": studio { message in
            guard case .presentationUpdate(let u) = message else { return nil }
            return .array((u.header?.actions ?? []).map { .string($0.id) })
        },
        "headerMenuIds": studio { message in
            guard case .presentationUpdate(let u) = message else { return nil }
            return .array((u.header?.menu ?? []).map { .string($0.id) })
        },
        "hapticFeedback": studio { message in
            guard case .haptic(let feedback) = message else { return nil }
            return optional(feedback?.rawValue)
        },
        "share": studio { message in
            guard case .share(let s) = message else { return nil }
            return ["title": optional(s.title), "text": optional(s.text), "url": optional(s.url)]
        },
        "mediaIntake": studio { message in
            guard case .mediaIntake(let m) = message else { return nil }
            return ["requestId": .string(m.requestId), "kinds": .array(m.kinds.map { .string($0.rawValue) }),
                    "multiple": .bool(m.multiple)]
        },
        "qrScan": studio { message in
            guard case .scanQR(let q) = message else { return nil }
            return ["requestId": .string(q.requestId)]
        },
        "actionMenu": studio { message in
            let menu: ActionMenu
            switch message {
            case .actionMenuArm(let m), .actionMenuPresent(let m): menu = m
            case .actionMenuRegisterTrigger(let t): menu = t.menu
            default: return nil
            }
            return ["menuId": .string(menu.menuId), "label": .string(menu.label),
                    "groups": .array(menu.groups.map { group in
                        ["items": .array(group.items.map { item in
                            ["id": .string(item.id), "label": .string(item.label), "icon": optional(item.icon),
                             "disabled": .bool(item.disabled), "role": .string(item.role.rawValue)]
                        })]
                    })]
        },
        "map": studio { message in
            switch message {
            case .mapPresent(let m):
                return ["mapId": .string(m.mapId), "title": .string(m.title),
                        "points": .array(m.points.map { p in
                            ["id": .string(p.id), "title": .string(p.title), "subtitle": optional(p.subtitle),
                             "latitude": .number(p.latitude), "longitude": .number(p.longitude),
                             "tone": .string(p.effectiveTone.rawValue), "actionId": optional(p.actionId)]
                        })]
            case .mapDismiss(let mapId): return ["mapId": .string(mapId)]
            default: return nil
            }
        },
        "chrome": studio { message in
            guard case .navigationChrome(let c) = message else { return nil }
            return ["title": optional(c.title), "backLabel": optional(c.backLabel)]
        },
        "alert": studio { message in
            guard case .alertPresent(let a) = message else { return nil }
            return ["alertId": .string(a.alertId), "title": .string(a.title), "message": optional(a.message),
                    "actions": .array(a.actions.map { ["id": .string($0.id), "label": .string($0.label),
                                                       "role": optional($0.role?.rawValue)] })]
        },
        "hostContext": reply { payload in
            guard let reading = try? ConfigReply.read(payload) else { return nil }
            return optional(reading.context?.rawValue)
        },
        "hostCapabilities": { decoded, _, expected in
            guard case .reply(let r) = decoded, case .success(_, let payload) = r.reply,
                  let reading = try? ConfigReply.read(payload) else {
                return (JSONWriter.string(expected), "not a config/get reply")
            }
            return compareListed(expected) { key in
                HostCapability(rawValue: key).map { .bool(reading.capabilities.contains($0)) }
            }
        },
        "encodes": { decoded, message, expected in
            guard let encoded = encoding(of: decoded) else {
                return ("an encoding of \(JSONWriter.string(expected))", "no encoder for this message")
            }
            return encoded == message ? nil : (JSONWriter.string(message), JSONWriter.string(encoded))
        },
    ]

    /// A check over a Studio message's projection; nil from `project` means the wrong message.
    static func studio(_ project: @escaping @Sendable (StudioMessage) -> JSONValue?) -> Check {
        return { decoded, _, expected in
            guard case .studio(let inbound) = decoded, let actual = project(inbound.message) else {
                return (JSONWriter.string(expected), "a different message type")
            }
            return looselyEqual(expected, actual) ? nil : (JSONWriter.string(expected), JSONWriter.string(actual))
        }
    }

    /// A check over a successful reply's payload.
    static func reply(_ project: @escaping @Sendable (JSONObject) -> JSONValue?) -> Check {
        return { decoded, _, expected in
            guard case .reply(let r) = decoded, case .success(_, let payload) = r.reply, let actual = project(payload) else {
                return (JSONWriter.string(expected), "not a successful config/get reply")
            }
            return looselyEqual(expected, actual) ? nil : (JSONWriter.string(expected), JSONWriter.string(actual))
        }
    }

    /// Compares only the keys `expected` lists; `read` returns nil for a key this side does not know.
    static func compareListed(_ expected: JSONValue, _ read: (String) -> JSONValue?) -> Difference? {
        guard case .object(let listed) = expected else { return (JSONWriter.string(expected), "expected an object in the corpus") }
        var actual = JSONObject()
        for member in listed.members { actual[member.key] = read(member.key) ?? .string("<unknown capability>") }
        return looselyEqual(expected, .object(actual)) ? nil : (JSONWriter.string(expected), JSONWriter.string(.object(actual)))
    }

    /// What this implementation's encoder produces for the decoded message.
    static func encoding(of decoded: ConformanceRunner.Decoded) -> JSONValue? {
        switch decoded {
        case .studio: return nil
        case .host(let message): return message.envelope.json
        case .reply(let r):
            if case .success(let id, let payload) = r.reply, payload["protocolVersion"] != nil {
                guard let reading = try? ConfigReply.read(payload), let context = reading.context else { return nil }
                var encoded = ConfigReply(context: context, capabilities: reading.capabilities).payload
                // A corpus written before §6 lists only the capabilities it knows (Studio reads a
                // missing one as false): it is compared with the capabilities it names.
                if let listed = payload["capabilities"]?.objectValue, let all = encoded["capabilities"]?.objectValue {
                    encoded["capabilities"] = .object(JSONObject(all.members.filter { listed[$0.key] != nil }.map { ($0.key, $0.value) }))
                }
                return Reply.ok(id, encoded).json
            }
            return r.reply.json
        }
    }

    static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

    /// JSON equality where an absent key and a null value are the same.
    static func looselyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for key in Set(x.keys).union(y.keys) where !looselyEqual(x[key] ?? .null, y[key] ?? .null) { return false }
            return true
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy(looselyEqual)
        default:
            return a == b
        }
    }
}

import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

/// `capacitor.config.ts` read without running it: plain data only.
@Suite("capacitor.config.ts as plain data")
struct CapacitorConfigSourceTests {
    static let homesecLike = """
        import type { CapacitorConfig } from '@capacitor/cli';

        // export default { appId: 'not.this' }  (a comment is not the export)
        const config: CapacitorConfig = {
          appId: 'com.levneiman.homesec',
          appName: "HomeSec",
          webDir: `dist`, /* built by vite */
          server: { iosScheme: 'capacitor', allowNavigation: ['*.local',], },
          plugins: {
            PushNotifications: { presentationOptions: [] },
          },
          experimental: { ios: { spm: { packageTraits: { x: 1.5e0, y: -2, z: true, w: null, u: undefined } } } },
          'quoted-key': 'it\\'s',
        };

        export default config;
        """

    @Test("a config object declared and exported by name")
    func declaredAndExported() throws {
        let json = try CapacitorConfigSource.json(fromTypeScript: Self.homesecLike).get()
        let config = try CapacitorConfig.decode(json).get()
        #expect(config.appId == "com.levneiman.homesec" && config.appName == "HomeSec" && config.webDir == "dist")
        #expect(config.server.allowNavigation == ["*.local"])
        #expect(config.plugins["PushNotifications"]?.objectValue?["presentationOptions"] == [])
        let value = try JSONParser.parse(json).objectValue
        #expect(value?["quoted-key"] == "it's")
        #expect(value?["experimental"]?.objectValue?["ios"]?.objectValue?["spm"]?.objectValue?["packageTraits"]?.objectValue?["u"] == .null)
    }

    @Test("export default of a literal, and a config without an export")
    func otherShapes() throws {
        let direct = try CapacitorConfigSource.json(fromTypeScript: "export default { appId: 'a.b', webDir: 'www' } as CapacitorConfig;").get()
        #expect(try CapacitorConfig.decode(direct).get().appId == "a.b")
        let plain = try CapacitorConfigSource.json(fromTypeScript: "const x = 1;\nconst cfg = {\n  appId: 'c.d', // id\n};\nmodule.exports = cfg;").get()
        #expect(try CapacitorConfig.decode(plain).get().appId == "c.d")
    }

    @Test("computed values are refused, saying where", arguments: [
        ("const config = {\n  appId: process.env.ID,\n};\nexport default config;", "line 2"),
        ("const config = { webDir: `${root}/dist` };\nexport default config;", "${}"),
        ("const base = {};\nconst config = { ...base };\nexport default config;", "spread"),
        ("const config = { appId: 'a.b' ", "ends"),
        ("export default defineConfig({ appId: 'a' });", "no exported object"),
        ("nothing here", "no exported object"),
    ])
    func refused(_ input: (String, String)) {
        guard case .failure(let error) = CapacitorConfigSource.json(fromTypeScript: input.0) else { Issue.record("accepted: \(input.0)"); return }
        #expect(error.message.contains(input.1), "\(error.message)")
    }
}

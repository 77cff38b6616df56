import CapacitorContract
import HomeSec
import HostCore
import Push
import StudioContract
import Testing

@Suite("Rendering: software GL draws on the CPU, the environment always wins")
struct RenderingPolicyTests {
    private func choose(gpu: Bool, _ environment: [String: String] = [:]) -> RenderingChoice {
        RenderingPolicy.choose(hasGPURenderNode: gpu) { environment[$0] }
    }

    private func settings(_ choice: RenderingChoice) -> [String: String] {
        Dictionary(uniqueKeysWithValues: choice.settings.map { ($0.name, $0.value) })
    }

    @Test("with a GPU render node both keep their defaults and nothing is set")
    func gpuKeepsDefaults() {
        let choice = choose(gpu: true)
        #expect(choice.gtkRenderer == nil)
        #expect(choice.webPainting == .gpu)
        #expect(choice.settings.isEmpty)
        #expect(choice.webCompositing)
        #expect(choice.json.objectValue?["gtkRenderer"] == "default")
    }

    @Test("without one GTK draws with cairo and WebKit paints on the CPU")
    func noRenderNode() {
        let choice = choose(gpu: false)
        #expect(choice.gtkRenderer == "cairo")
        #expect(choice.webPainting == .cpu)
        #expect(settings(choice) == ["GSK_RENDERER": "cairo", "WEBKIT_SKIA_ENABLE_CPU_RENDERING": "1", "WEBKIT_DISABLE_COMPOSITING_MODE": "1"])
        #expect(choice.webCompositing == false)
        #expect(choice.reason.contains("no GPU render node"))
    }

    @Test("LIBGL_ALWAYS_SOFTWARE counts as software GL, unless it says no", arguments: [
        ("1", true), ("true", true), ("yes", true), ("0", false), ("false", false), ("FALSE", false), ("", false),
    ])
    func forcedSoftware(value: String, software: Bool) {
        let choice = choose(gpu: true, ["LIBGL_ALWAYS_SOFTWARE": value])
        #expect(choice.webPainting == (software ? .cpu : .gpu))
        #expect((choice.gtkRenderer == "cairo") == software)
    }

    @Test("a variable the user set is kept and reported, never overwritten")
    func environmentWins() {
        let gpuAnyway = choose(gpu: false, ["WEBKIT_SKIA_ENABLE_CPU_RENDERING": "0", "GSK_RENDERER": "ngl"])
        #expect(gpuAnyway.webPainting == .gpu)
        #expect(gpuAnyway.gtkRenderer == "ngl")
        #expect(gpuAnyway.settings.isEmpty)
        #expect(gpuAnyway.reason.contains("set in the environment"))

        // WebKit paints on the CPU for any value but "0".
        let cpuAnyway = choose(gpu: true, ["WEBKIT_SKIA_ENABLE_CPU_RENDERING": "yes", "WEBKIT_DISABLE_COMPOSITING_MODE": "0"])
        #expect(cpuAnyway.webPainting == .cpu)
        #expect(cpuAnyway.webCompositing)
        #expect(cpuAnyway.settings.isEmpty)

        // Compositing stays on where the user says so, and goes off only with CPU painting.
        let composited = choose(gpu: false, ["WEBKIT_DISABLE_COMPOSITING_MODE": "0"])
        #expect(composited.webCompositing)
        #expect(settings(composited)["WEBKIT_DISABLE_COMPOSITING_MODE"] == nil)
        #expect(choose(gpu: true, ["WEBKIT_DISABLE_COMPOSITING_MODE": "1"]).webCompositing == false)

        // Only the variable the user left alone is set.
        let partly = choose(gpu: false, ["GSK_RENDERER": "gl"])
        #expect(settings(partly) == ["WEBKIT_SKIA_ENABLE_CPU_RENDERING": "1", "WEBKIT_DISABLE_COMPOSITING_MODE": "1"])
        #expect(partly.gtkRenderer == "gl")
    }
}

/**
 * `system`: Apple's on-device model. It exists only on macOS and arrives with
 * wisp's native library; until then, and always on Linux, choosing it fails
 * with a sentence that says why and how to use a local server instead.
 * mlx:, coreai: and private-cloud are macOS runtimes this build does not have.
 */
import { ModelError } from "./errors.ts";
import { hostOs } from "../platform/os.ts";

const OLLAMA_HINT =
  "use Ollama instead: ollama pull granite4.1:8b, then wisp config set model ollama:granite4.1:8b (or --model ollama:granite4.1:8b)";

/** Why the on-device model cannot be used on this system. */
export function systemModelReason(os: string = hostOs()): string {
  return os === "darwin"
    ? "Apple's on-device model needs wisp's native library, which this build does not include yet"
    : `Apple's on-device model exists only on macOS, and this is ${os === "linux" ? "Linux" : os}`;
}

/** Why `system` cannot be chosen, with the native library's own reason when it gave one. */
export function systemModelError(os: string = hostOs(), libraryReason?: string): ModelError {
  const reason = libraryReason ?? systemModelReason(os);
  return new ModelError("unsupported", `system is unavailable (${reason}); ${OLLAMA_HINT}`, reason);
}

/** Why a macOS-only runtime (mlx, coreai, private-cloud) cannot be used by this build. */
export function macRuntimeError(name: string, runtime: string): ModelError {
  const what = runtime === "mlx"
    ? "MLX models run"
    : runtime === "coreai"
    ? "Core AI models run"
    : "Private Cloud Compute runs";
  const reason =
    `${what} only in a signed macOS build with wisp's native library, which this build is not`;
  return new ModelError(
    "unsupported",
    `${name} is unavailable (${reason}); ${OLLAMA_HINT}`,
    reason,
  );
}

/** The bare release version, as in deno.json. The build-dependent form is in cli/version.ts. */
import denoConfig from "../deno.json" with { type: "json" };

export const VERSION: string = denoConfig.version;

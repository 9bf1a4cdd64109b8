import type { Command } from "commander";

export function register(program: Command): void {
  program.command("config").description("(being written)").action(() => {});
}

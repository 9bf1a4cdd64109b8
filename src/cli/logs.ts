import type { Command } from "commander";

export function register(program: Command): void {
  program.command("logs").description("(being written)").action(() => {});
}

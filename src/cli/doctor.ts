import type { Command } from "commander";

export function register(program: Command): void {
  program.command("doctor").description("(being written)").action(() => {});
}

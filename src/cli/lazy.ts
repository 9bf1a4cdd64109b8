/** The commands' lazy loader; its one implementation is src/util/lazy.ts (the MCP face uses it too). */
export { load } from "../util/lazy.ts";

// The zero-config import in Bun: the .wasm imported as a file, which `bun build
// --compile` embeds in the executable (its path then lies in the executable's own file
// system, `/$bunfs/…`, which `readFileSync` reads), and which plain `bun` resolves to the
// file in the package folder. Instantiated synchronously, as in node.
import { readFileSync } from "node:fs";
import path from "./wasm/agentscope_message_bg.wasm" with { type: "file" };
import { initNow } from "./load.js";

initNow(() => readFileSync(path));

// Writes the benchmark's workloads as the AgentScope SSE files the native benchmark
// (benches/wire.rs) and the Python reference (bench/reference.py) read:
//   node bench/write-workloads.mjs [OUT_DIR]   (default: target/bench-workloads)
// Files: W1-10000.sse, W1-100000.sse, W1-1000000.sse, W2.sse, W3.sse, W4.sse — the same
// bytes bench/cell.mjs feeds this package in its wire mode.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentScopeSSE, build, toAgentScope } from './workloads.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'target/bench-workloads'));
mkdirSync(out, { recursive: true });
const cells = [['W1', 10_000], ['W1', 100_000], ['W1', 1_000_000], ['W2'], ['W3'], ['W4']];
for (const [name, n] of cells) {
  const file = join(out, n ? `${name}-${n}.sse` : `${name}.sse`);
  writeFileSync(file, agentScopeSSE(toAgentScope(build(name, n))));
  console.log(file);
}

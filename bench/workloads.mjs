// Workloads of the side-by-side benchmark (bench/run-all.mjs).
//
// The abstract ops (w1..w4, build) are copied from the project's shared peer harness
// (the shared peer harness, bench-peers/workloads.mjs, unchanged); `toAgentScope` turns them into
// AgentScope 2.0 events as the reference serialises them (id, created_at, metadata,
// type, then the event's fields with their defaults, Python `json.dumps` separators),
// and `agentScopeSSE` frames them as the chat service's SSE endpoint does
// (`data: {json}\n\n` per event, like examples/recordings/*/events.sse).
// Op kinds: step, step_end, text_start/delta/end, think_start/delta/end,
// tool_start/delta/end, result_start/delta/end, data_start/delta/end.

const chunk4 = (i) => {
  const a = 'abcdefghijklmnopqrstuvwxyz';
  return a[i % 26] + a[(i >> 3) % 26] + a[(i >> 6) % 26] + ' ';
};

export function w1(n = 100_000) {
  const ops = [{ k: 'step' }, { k: 'text_start', id: 't0' }];
  for (let i = 0; i < n; i++) ops.push({ k: 'text_delta', id: 't0', d: chunk4(i) });
  ops.push({ k: 'text_end', id: 't0' });
  return ops;
}

// Argument JSON split into `parts` deltas: {"path":"docs/f<i>.txt","content":"....."}
function argDeltas(i, parts) {
  const full = JSON.stringify({ path: `docs/f${i}.txt`, content: 'x'.repeat(parts * 6) });
  const size = Math.ceil(full.length / parts);
  const out = [];
  for (let p = 0; p < parts; p++) out.push(full.slice(p * size, (p + 1) * size));
  while (out.length < parts) out.push(' ');
  return { out, input: JSON.parse(full) };
}

export function w2(calls = 1000, deltas = 50) {
  const ops = [{ k: 'step' }];
  for (let i = 0; i < calls; i++) {
    const id = `call_${i}`;
    const { out, input } = argDeltas(i, deltas);
    ops.push({ k: 'tool_start', id, name: 'write_file' });
    for (const d of out) ops.push({ k: 'tool_delta', id, d });
    ops.push({ k: 'tool_end', id, name: 'write_file', input });
  }
  return ops;
}

// 10 MB of binary, base64 encoded per 4 KB (raw) chunk.
export function w3(totalBytes = 10 * 1024 * 1024, chunkBytes = 4096) {
  const ops = [{ k: 'step' }, { k: 'data_start', id: 'd0', mt: 'image/png' }];
  const raw = Buffer.alloc(chunkBytes);
  for (let off = 0; off < totalBytes; off += chunkBytes) {
    for (let j = 0; j < chunkBytes; j++) raw[j] = (off + j * 31) & 255;
    ops.push({ k: 'data_delta', id: 'd0', d: raw.toString('base64'), mt: 'image/png' });
  }
  ops.push({ k: 'data_end', id: 'd0' });
  return ops;
}

export function w4(iters = 20) {
  const ops = [];
  let c = 0;
  for (let it = 0; it < iters; it++) {
    ops.push({ k: 'step' });
    ops.push({ k: 'think_start', id: `th${it}` });
    for (let i = 0; i < 200; i++) ops.push({ k: 'think_delta', id: `th${it}`, d: chunk4(c++) });
    ops.push({ k: 'think_end', id: `th${it}` });
    ops.push({ k: 'text_start', id: `tx${it}` });
    for (let i = 0; i < 200; i++) ops.push({ k: 'text_delta', id: `tx${it}`, d: chunk4(c++) });
    ops.push({ k: 'text_end', id: `tx${it}` });
    const calls = [];
    for (let t = 0; t < 2; t++) {
      const id = `it${it}_call${t}`;
      const { out, input } = argDeltas(it * 2 + t, 30);
      ops.push({ k: 'tool_start', id, name: 'search' });
      for (const d of out) ops.push({ k: 'tool_delta', id, d });
      ops.push({ k: 'tool_end', id, name: 'search', input });
      calls.push(id);
    }
    ops.push({ k: 'step_end' });
    for (const id of calls) {
      ops.push({ k: 'result_start', id, name: 'search' });
      for (let i = 0; i < 50; i++) ops.push({ k: 'result_delta', id, d: chunk4(c++) });
      ops.push({ k: 'result_end', id });
    }
  }
  return ops;
}

export function build(name, n) {
  switch (name) {
    case 'W1': return w1(n ?? 100_000);
    case 'W2': return w2(n ?? 1000, 50);
    case 'W3': return w3();
    case 'W4': return w4(n ?? 20);
    default: throw new Error('unknown workload ' + name);
  }
}

// ---------------- AgentScope events, as the reference serialises them ----------------

export const REPLY_ID = 'c10aab0e91e3440c86030288ed5f2755';
const SESSION_ID = 'f6aaf033c5704a6686f6af7fb81d2728';
const ID_PREFIX = '379d19afaa3c487ba318'; // 20 hex digits; + 12 of a counter = a uuid4().hex-sized id

/** Python `json.dumps(obj)` (", " and ": " separators), as the reference's SSE endpoint writes events. */
export function pyDumps(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(pyDumps).join(', ') + ']';
  return '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ': ' + pyDumps(x)).join(', ') + '}';
}

/** The AgentScope events of a workload (objects; key order = the reference's). */
export function toAgentScope(ops) {
  const R = REPLY_ID;
  const out = [];
  let i = 0;
  const ev = (type, fields) => {
    const us = String(i % 1_000_000).padStart(6, '0');
    out.push({ id: ID_PREFIX + (i++).toString(16).padStart(12, '0'), created_at: `2026-11-29T23:27:44.${us}`, metadata: {}, type, ...fields });
  };
  const modelEnd = () => ev('MODEL_CALL_END', { reply_id: R, input_tokens: 10, output_tokens: 10, cache_input_tokens: 0, cache_creation_input_tokens: 0, finished_reason: 'completed' });
  let inCall = false;
  ev('REPLY_START', { session_id: SESSION_ID, reply_id: R, name: 'Friday', role: 'assistant' });
  for (const o of ops) {
    switch (o.k) {
      case 'step': if (inCall) modelEnd(); ev('MODEL_CALL_START', { reply_id: R, model_name: 'bench-model' }); inCall = true; break;
      case 'step_end': if (inCall) modelEnd(); inCall = false; break;
      case 'text_start': ev('TEXT_BLOCK_START', { reply_id: R, block_id: o.id }); break;
      case 'text_delta': ev('TEXT_BLOCK_DELTA', { reply_id: R, block_id: o.id, delta: o.d }); break;
      case 'text_end': ev('TEXT_BLOCK_END', { reply_id: R, block_id: o.id, text: null }); break;
      case 'think_start': ev('THINKING_BLOCK_START', { reply_id: R, block_id: o.id }); break;
      case 'think_delta': ev('THINKING_BLOCK_DELTA', { reply_id: R, block_id: o.id, delta: o.d }); break;
      case 'think_end': ev('THINKING_BLOCK_END', { reply_id: R, block_id: o.id }); break;
      case 'tool_start': ev('TOOL_CALL_START', { reply_id: R, tool_call_id: o.id, tool_call_name: o.name }); break;
      case 'tool_delta': ev('TOOL_CALL_DELTA', { reply_id: R, tool_call_id: o.id, delta: o.d }); break;
      case 'tool_end': ev('TOOL_CALL_END', { reply_id: R, tool_call_id: o.id }); break;
      case 'result_start': ev('TOOL_RESULT_START', { reply_id: R, tool_call_id: o.id, tool_call_name: o.name }); break;
      case 'result_delta': ev('TOOL_RESULT_TEXT_DELTA', { reply_id: R, tool_call_id: o.id, delta: o.d }); break;
      case 'result_end': ev('TOOL_RESULT_END', { reply_id: R, tool_call_id: o.id, state: 'success' }); break;
      case 'data_start': ev('DATA_BLOCK_START', { reply_id: R, block_id: o.id, media_type: o.mt, name: null }); break;
      case 'data_delta': ev('DATA_BLOCK_DELTA', { reply_id: R, block_id: o.id, media_type: o.mt, data: o.d, url: null }); break;
      case 'data_end': ev('DATA_BLOCK_END', { reply_id: R, block_id: o.id }); break;
      default: throw new Error('unknown op ' + o.k);
    }
  }
  if (inCall) modelEnd();
  ev('REPLY_END', { session_id: SESSION_ID, reply_id: R, finished_reason: 'completed', error: null });
  return out;
}

/** The SSE text of AgentScope events: `data: {json}\n\n` per event. */
export const agentScopeSSE = (events) => events.map((e) => `data: ${pyDumps(e)}\n\n`).join('');

// What bench/cell.mjs can measure: this package (four modes), two floors, and the peers.
// `prepare(impl, workload, ops)` builds everything a run needs (untimed) and returns
// { events, wireBytes, notes, run }, where `run()` (timed) goes from the wire text (or
// pre-parsed events) to the final message and returns a small summary of it.
//
// The peer translators (toAiSdk, toAgui, toOpenAI, toAnthropic, and the LangChain
// chunking) are adapted from the project's shared peer harness
// (the shared peer harness, bench-peers/run.mjs). The difference: each peer now gets its own wire
// format as text, in 16 KiB chunks split anywhere, and pays its own decoding
// (SSE / NDJSON framing and JSON.parse, plus whatever validation its client does).
import { createRequire } from 'node:module';
import { agentScopeSSE, REPLY_ID, toAgentScope } from './workloads.mjs';

export const CHUNK = 16 * 1024;
const require = createRequire(import.meta.url);
const encoder = new TextEncoder();

/** The bytes of `text`, as 16 KiB views (a chunk may end inside an event, a line or a UTF-8 sequence). */
function chunked(text) {
  const bytes = encoder.encode(text);
  const chunks = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
  return { chunks, bytes: bytes.length };
}
/** A fresh byte stream over the chunks, one chunk per pull (as a network body arrives). */
function byteStream(chunks) {
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++]);
      else c.close();
    },
  });
}
const sseResponse = (chunks) => new Response(byteStream(chunks), { headers: { 'content-type': 'text/event-stream' } });
const sum = (xs, f) => xs.reduce((a, x) => a + f(x), 0);

/** Blocks and characters of an AgentScope message (wire JSON), to check a run did the work. */
function summarizeMsg(msg) {
  let chars = 0;
  for (const b of msg.content) {
    if (b.type === 'text') chars += b.text.length;
    else if (b.type === 'thinking') chars += b.thinking.length;
    else if (b.type === 'tool_call') chars += b.input.length;
    else if (b.type === 'data') chars += b.source.data?.length ?? 0;
    else if (b.type === 'tool_result') for (const o of b.output) chars += o.text?.length ?? 0;
  }
  return { blocks: msg.content.length, chars };
}

// ---------------- this package ----------------
async function agentScope(mode, ops) {
  const { Session, AssistantMsg } = await import('../pkg/dist/index.js');
  const events = toAgentScope(ops);
  const sse = agentScopeSSE(events);
  const n = events.length;
  const notes = [];
  if (mode === 'objects' || mode === 'msg') {
    // pre-parsed event objects, as an app that already decoded the stream holds them
    const objs = sse.split('\n\n').filter(Boolean).map((f) => JSON.parse(f.slice(6)));
    if (mode === 'objects') {
      return { events: n, wireBytes: sse.length, notes, run: async () => {
        const s = new Session();
        for (const o of objs) s.apply(o);
        const r = summarizeMsg(s.getSnapshot().messages[0]);
        s.free();
        return r;
      } };
    }
    return { events: n, wireBytes: sse.length, notes, run: async () => {
      const m = new AssistantMsg({ name: 'Friday', content: [], id: REPLY_ID });
      for (const o of objs) m.appendEvent(o);
      const r = summarizeMsg(m.toJSON());
      m.free();
      return r;
    } };
  }
  const { chunks, bytes } = chunked(sse);
  if (mode === 'wire') {
    return { events: n, wireBytes: bytes, notes, run: async () => {
      const s = new Session();
      for (const c of chunks) s.feed(c);
      s.end();
      const r = summarizeMsg(s.getSnapshot().messages[0]);
      s.free();
      return r;
    } };
  }
  if (mode === 'snapshots') {
    return { events: n, wireBytes: bytes, notes, run: async () => {
      const s = new Session();
      let applied = 0, next = 1000, snapshots = 0;
      for (const c of chunks) {
        applied += s.feed(c);
        if (applied >= next) {
          s.getSnapshot();
          snapshots++;
          while (next <= applied) next += 1000;
        }
      }
      s.end();
      const r = summarizeMsg(s.getSnapshot().messages[0]);
      s.free();
      return { ...r, snapshots: snapshots + 1 };
    } };
  }
  throw new Error('unknown mode ' + mode);
}

// ---------------- floors: the same SSE bytes, no reducer ----------------
function floor(withParse, ops) {
  const events = toAgentScope(ops);
  const { chunks, bytes } = chunked(agentScopeSSE(events));
  return { events: events.length, wireBytes: bytes, notes: [], run: async () => {
    const decoder = new TextDecoder();
    let buf = '', frames = 0, chars = 0, last;
    for (const c of chunks) {
      buf += decoder.decode(c, { stream: true });
      let start = 0, end;
      while ((end = buf.indexOf('\n\n', start)) !== -1) {
        const data = buf.slice(start + 6, end); // strip "data: "
        if (withParse) last = JSON.parse(data);
        else chars += data.length;
        frames++;
        start = end + 2;
      }
      buf = buf.slice(start);
    }
    return withParse ? { frames, lastType: last?.type } : { frames, chars };
  } };
}

// ---------------- AI SDK: UI message stream (SSE) ----------------
function toAiSdk(ops) {
  const ev = [{ type: 'start', messageId: 'm1' }];
  let inStep = false;
  const results = {};
  for (const o of ops) {
    switch (o.k) {
      case 'step': if (inStep) ev.push({ type: 'finish-step' }); ev.push({ type: 'start-step' }); inStep = true; break;
      case 'step_end': break;
      case 'text_start': ev.push({ type: 'text-start', id: o.id }); break;
      case 'text_delta': ev.push({ type: 'text-delta', id: o.id, delta: o.d }); break;
      case 'text_end': ev.push({ type: 'text-end', id: o.id }); break;
      case 'think_start': ev.push({ type: 'reasoning-start', id: o.id }); break;
      case 'think_delta': ev.push({ type: 'reasoning-delta', id: o.id, delta: o.d }); break;
      case 'think_end': ev.push({ type: 'reasoning-end', id: o.id }); break;
      case 'tool_start': ev.push({ type: 'tool-input-start', toolCallId: o.id, toolName: o.name }); break;
      case 'tool_delta': ev.push({ type: 'tool-input-delta', toolCallId: o.id, inputTextDelta: o.d }); break;
      case 'tool_end': ev.push({ type: 'tool-input-available', toolCallId: o.id, toolName: o.name, input: o.input }); break;
      // AI SDK has no tool-output delta: nearest is repeated preliminary outputs carrying the accumulated value.
      case 'result_start': results[o.id] = ''; break;
      case 'result_delta': results[o.id] += o.d; ev.push({ type: 'tool-output-available', toolCallId: o.id, output: results[o.id], preliminary: true }); break;
      case 'result_end': ev.push({ type: 'tool-output-available', toolCallId: o.id, output: results[o.id] }); break;
      // AI SDK file parts are not streamed: nearest is base64 carried as text deltas.
      case 'data_start': ev.push({ type: 'text-start', id: o.id }); break;
      case 'data_delta': ev.push({ type: 'text-delta', id: o.id, delta: o.d }); break;
      case 'data_end': ev.push({ type: 'text-end', id: o.id }); break;
    }
  }
  if (inStep) ev.push({ type: 'finish-step' });
  ev.push({ type: 'finish' });
  return ev;
}
async function aiSdk(impl, wl, ops) {
  const ev = toAiSdk(ops);
  // what a UI message stream response carries (createUIMessageStreamResponse): SSE, then [DONE]
  const { chunks, bytes } = chunked(ev.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n');
  const notes = ['SSE decoded by the SDK (DefaultChatTransport: TextDecoderStream, EventSourceParserStream, JSON.parse + zod schema)'];
  if (wl === 'W3') notes.push('file parts are not streamed: base64 sent as text deltas');
  if (wl === 'W4') notes.push('tool results as preliminary tool-output-available carrying the accumulated output');
  const { readUIMessageStream, DefaultChatTransport } = await import('ai');
  const summarize = (m) => ({ parts: m?.parts.length, chars: sum(m?.parts ?? [], (p) => p.text?.length ?? 0) });
  if (impl === 'ai6-read') {
    return { events: ev.length, wireBytes: bytes, notes, run: async () => {
      const stream = new DefaultChatTransport().processResponseStream(byteStream(chunks));
      let last, snapshots = 0;
      for await (const m of readUIMessageStream({ stream, onError: (e) => { throw e; } })) { last = m; snapshots++; }
      return { ...summarize(last), snapshots };
    } };
  }
  // @ai-sdk/react Chat (the state behind useChat), its default transport reading a fetch Response
  const { Chat } = await import('@ai-sdk/react');
  return { events: ev.length, wireBytes: bytes, notes, run: async () => {
    let callbacks = 0;
    const chat = new Chat({ transport: new DefaultChatTransport({ api: 'http://bench.invalid/chat', fetch: async () => sseResponse(chunks) }) });
    chat['~registerMessagesCallback'](() => { callbacks++; });
    await chat.sendMessage({ text: 'go' });
    if (chat.error) throw chat.error;
    return { ...summarize(chat.messages[chat.messages.length - 1]), callbacks };
  } };
}

// ---------------- AG-UI (SSE through HttpAgent) ----------------
function toAgui(ops) {
  const ev = [{ type: 'RUN_STARTED', threadId: 'th', runId: 'r1' }];
  const results = {};
  let step = 0, parent = null;
  for (const o of ops) {
    switch (o.k) {
      case 'step': step++; parent = `asst_${step}`; break;
      case 'step_end': break;
      case 'text_start': case 'data_start': ev.push({ type: 'TEXT_MESSAGE_START', messageId: o.id, role: 'assistant' }); break;
      case 'text_delta': case 'data_delta': ev.push({ type: 'TEXT_MESSAGE_CONTENT', messageId: o.id, delta: o.d }); break;
      case 'text_end': case 'data_end': ev.push({ type: 'TEXT_MESSAGE_END', messageId: o.id }); break;
      case 'think_start': ev.push({ type: 'REASONING_START', messageId: o.id }, { type: 'REASONING_MESSAGE_START', messageId: o.id, role: 'reasoning' }); break;
      case 'think_delta': ev.push({ type: 'REASONING_MESSAGE_CONTENT', messageId: o.id, delta: o.d }); break;
      case 'think_end': ev.push({ type: 'REASONING_MESSAGE_END', messageId: o.id }, { type: 'REASONING_END', messageId: o.id }); break;
      case 'tool_start': ev.push({ type: 'TOOL_CALL_START', toolCallId: o.id, toolCallName: o.name, parentMessageId: parent }); break;
      case 'tool_delta': ev.push({ type: 'TOOL_CALL_ARGS', toolCallId: o.id, delta: o.d }); break;
      case 'tool_end': ev.push({ type: 'TOOL_CALL_END', toolCallId: o.id }); break;
      // AG-UI TOOL_CALL_RESULT is one event (not streamed): emit once with the full content.
      case 'result_start': results[o.id] = ''; break;
      case 'result_delta': results[o.id] += o.d; break;
      case 'result_end': ev.push({ type: 'TOOL_CALL_RESULT', messageId: `res_${o.id}`, toolCallId: o.id, content: results[o.id], role: 'tool' }); break;
    }
  }
  ev.push({ type: 'RUN_FINISHED', threadId: 'th', runId: 'r1' });
  return ev;
}
async function agui(wl, ops) {
  const ev = toAgui(ops);
  const { chunks, bytes } = chunked(ev.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
  const notes = ['HttpAgent.runAgent over an SSE Response (the client\'s SSE parser, JSON.parse, verifyEvents, defaultApplyEvents)'];
  if (wl === 'W3') notes.push('no binary events: base64 sent as TEXT_MESSAGE_CONTENT');
  if (wl === 'W4') notes.push('TOOL_CALL_RESULT is a single event (50 deltas pre-joined)');
  const { HttpAgent } = await import('@ag-ui/client');
  return { events: ev.length, wireBytes: bytes, notes, run: async () => {
    const agent = new HttpAgent({ url: 'http://bench.invalid/agent', threadId: 'th', fetch: async () => sseResponse(chunks) });
    let changes = 0;
    agent.subscribe({ onMessagesChanged: () => { changes++; } });
    await agent.runAgent({ runId: 'r1' });
    const chars = sum(agent.messages, (m) => (typeof m.content === 'string' ? m.content.length : 0));
    return { messages: agent.messages.length, chars, onMessagesChanged: changes };
  } };
}

// ---------------- LangChain.js (SSE `event: data` frames, as RemoteRunnable reads them) ----------------
function toLangchain(ops, wl) {
  const steps = [];
  let started = {}, blockIdx = 0, toolIdx = 0, cur = null;
  for (const o of ops) {
    if (o.k === 'step') { cur = []; steps.push(cur); blockIdx = 0; toolIdx = 0; started = {}; continue; }
    if (o.k === 'text_delta' || o.k === 'data_delta') cur.push(wl === 'W4' ? { content: [{ type: 'text', text: o.d, index: started[o.id] }] } : { content: o.d });
    else if (o.k === 'text_start' || o.k === 'think_start') started[o.id] = blockIdx++;
    else if (o.k === 'think_delta') cur.push({ content: [{ type: 'reasoning', reasoning: o.d, index: started[o.id] }] });
    else if (o.k === 'tool_start') { started[o.id] = toolIdx++; started[o.id + ':first'] = true; }
    else if (o.k === 'tool_delta') {
      const first = started[o.id + ':first']; started[o.id + ':first'] = false;
      cur.push({ content: '', tool_call_chunks: [{ type: 'tool_call_chunk', index: started[o.id], id: first ? o.id : undefined, name: first ? 'tool' : undefined, args: o.d }] });
    } else if (o.k === 'result_delta') cur.push({ result: o.id, d: o.d });
  }
  return steps;
}
async function langchain(wl, ops) {
  const steps = toLangchain(ops, wl);
  const wires = steps.map((st) => chunked(st.map((f) => `event: data\ndata: ${JSON.stringify(f)}\n\n`).join('') + 'event: end\n\n'));
  // LangChain's own SSE parser (getBytes / getLines / getMessages, what RemoteRunnable reads with),
  // called directly: its convertEventStreamToIterableReadableDataStream wrapper enqueues every
  // message into a ReadableStream without backpressure, and draining a queue of 100k entries in
  // Node is quadratic (6.8 s instead of 0.7 s for W1 100k here), a delivery artefact.
  const notes = ['one SSE stream per model step, decoded by @langchain/core getBytes/getLines/getMessages; JSON.parse, new AIMessageChunk, concat'];
  if (wl === 'W3') notes.push('no binary streaming: base64 as string content chunks');
  if (wl === 'W4') notes.push('tool results joined into a ToolMessage per call');
  const { AIMessageChunk, ToolMessage } = await import('@langchain/core/messages');
  const { getBytes, getLines, getMessages } = await import('@langchain/core/utils/event_source_parse');
  return { events: sum(steps, (s) => s.length), wireBytes: sum(wires, (w) => w.bytes), notes, run: async () => {
    let msgs = 0, toolCalls = 0, chars = 0;
    for (const w of wires) {
      let acc = null;
      const res = {};
      const onMessage = (m) => {
        if (m.event !== 'data' || !m.data) return;
        const f = JSON.parse(m.data);
        if (f.result !== undefined) { res[f.result] = (res[f.result] ?? '') + f.d; return; }
        const c = new AIMessageChunk(f);
        acc = acc === null ? c : acc.concat(c);
      };
      await getBytes(byteStream(w.chunks), getLines(getMessages(onMessage)));
      if (acc) {
        toolCalls += acc.tool_calls.length; msgs++;
        chars += typeof acc.content === 'string' ? acc.content.length : sum(acc.content, (p) => (p.text ?? p.reasoning ?? '').length);
      }
      for (const [id, content] of Object.entries(res)) { new ToolMessage({ content, tool_call_id: id }); msgs++; }
    }
    return { messages: msgs, toolCalls, chars };
  } };
}

// ---------------- OpenAI Responses (SSE, SDK Stream + accumulateResponse) ----------------
function toOpenAI(ops) {
  const steps = []; let ev = null, idx = -1; const pos = {};
  const resp = (id) => ({ type: 'response.created', response: { id, object: 'response', output: [], output_text: '' } });
  for (const o of ops) {
    if (o.k === 'step') { ev = [resp('resp_' + steps.length)]; steps.push(ev); idx = -1; continue; }
    switch (o.k) {
      case 'text_start': case 'data_start': pos[o.id] = ++idx; ev.push({ type: 'response.output_item.added', output_index: idx, item: { type: 'message', id: o.id, role: 'assistant', status: 'in_progress', content: [] } }, { type: 'response.content_part.added', output_index: idx, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }); break;
      case 'text_delta': case 'data_delta': ev.push({ type: 'response.output_text.delta', output_index: pos[o.id], content_index: 0, delta: o.d }); break;
      case 'think_start': pos[o.id] = ++idx; ev.push({ type: 'response.output_item.added', output_index: idx, item: { type: 'reasoning', id: o.id, summary: [] } }, { type: 'response.content_part.added', output_index: idx, content_index: 0, part: { type: 'reasoning_text', text: '' } }); break;
      case 'think_delta': ev.push({ type: 'response.reasoning_text.delta', output_index: pos[o.id], content_index: 0, delta: o.d }); break;
      case 'tool_start': pos[o.id] = ++idx; ev.push({ type: 'response.output_item.added', output_index: idx, item: { type: 'function_call', id: o.id, call_id: o.id, name: o.name, arguments: '' } }); break;
      case 'tool_delta': ev.push({ type: 'response.function_call_arguments.delta', output_index: pos[o.id], item_id: o.id, delta: o.d }); break;
      // tool results are not part of a model response stream: not represented.
    }
  }
  return steps;
}
async function openai(wl, ops) {
  const steps = toOpenAI(ops);
  // the Responses API wire: `event: <type>` + `data: <json>` per event, with sequence_number
  const wires = steps.map((st) => chunked(st.map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('')));
  const notes = ['one SSE stream per model step, decoded by the SDK (Stream.fromSSEResponse: SSE parser + JSON.parse), then accumulateResponse'];
  if (wl === 'W3') notes.push('no binary streaming: base64 as output_text deltas');
  if (wl === 'W4') notes.push('tool results are not part of a response stream (omitted)');
  const { Stream } = await import('openai/core/streaming');
  const { accumulateResponse } = require('openai/lib/responses/ResponseAccumulator');
  return { events: sum(steps, (s) => s.length), wireBytes: sum(wires, (w) => w.bytes), notes, run: async () => {
    let outputs = 0, chars = 0;
    for (const w of wires) {
      let snap;
      for await (const e of Stream.fromSSEResponse(sseResponse(w.chunks), new AbortController())) snap = accumulateResponse(e, snap);
      outputs += snap.output.length;
      chars += snap.output_text.length;
    }
    return { outputs, chars };
  } };
}

// ---------------- Anthropic MessageStream (NDJSON, as toReadableStream() re-sends a stream) ----------------
function toAnthropic(ops) {
  const steps = []; let ev = null, idx = -1; const pos = {};
  const close = () => { if (ev) ev.push({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } }, { type: 'message_stop' }); };
  for (const o of ops) {
    if (o.k === 'step') { close(); ev = [{ type: 'message_start', message: { id: 'msg_' + steps.length, type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 0 } } }]; steps.push(ev); idx = -1; continue; }
    switch (o.k) {
      case 'text_start': case 'data_start': pos[o.id] = ++idx; ev.push({ type: 'content_block_start', index: idx, content_block: { type: 'text', text: '' } }); break;
      case 'text_delta': case 'data_delta': ev.push({ type: 'content_block_delta', index: pos[o.id], delta: { type: 'text_delta', text: o.d } }); break;
      case 'think_start': pos[o.id] = ++idx; ev.push({ type: 'content_block_start', index: idx, content_block: { type: 'thinking', thinking: '', signature: '' } }); break;
      case 'think_delta': ev.push({ type: 'content_block_delta', index: pos[o.id], delta: { type: 'thinking_delta', thinking: o.d } }); break;
      case 'tool_start': pos[o.id] = ++idx; ev.push({ type: 'content_block_start', index: idx, content_block: { type: 'tool_use', id: o.id, name: o.name, input: {} } }); break;
      case 'tool_delta': ev.push({ type: 'content_block_delta', index: pos[o.id], delta: { type: 'input_json_delta', partial_json: o.d } }); break;
      case 'text_end': case 'data_end': case 'think_end': case 'tool_end': ev.push({ type: 'content_block_stop', index: pos[o.id] }); break;
    }
  }
  close();
  return steps;
}
async function anthropic(wl, ops) {
  const steps = toAnthropic(ops);
  const wires = steps.map((st) => chunked(st.map((e) => JSON.stringify(e) + '\n').join('')));
  const notes = ['one NDJSON stream per model step (the format MessageStream.toReadableStream() sends), decoded by MessageStream.fromReadableStream (line decoder + JSON.parse)'];
  if (wl === 'W3') notes.push('no binary streaming: base64 as text_delta');
  if (wl === 'W4') notes.push('tool results are not part of a message stream (omitted)');
  const { MessageStream } = await import('@anthropic-ai/sdk/lib/MessageStream');
  return { events: sum(steps, (s) => s.length), wireBytes: sum(wires, (w) => w.bytes), notes, run: async () => {
    let blocks = 0, chars = 0;
    for (const w of wires) {
      const m = await MessageStream.fromReadableStream(byteStream(w.chunks)).finalMessage();
      for (const c of m.content) {
        if (c.type === 'tool_use') chars += JSON.stringify(c.input).length;
        else chars += (c.text ?? c.thinking ?? '').length;
      }
      blocks += m.content.length;
    }
    return { blocks, chars };
  } };
}

/** Rows of the table, in order: [id, label]. */
export const IMPLS = [
  ['as-wire', 'agentscope-message `Session.feed` (wire: SSE bytes, 16 KiB chunks) + `end()`'],
  ['as-snapshots', 'agentscope-message wire + `getSnapshot()` every 1,000 events'],
  ['as-objects', 'agentscope-message `Session.apply(object)` (pre-parsed events)'],
  ['as-msg', 'agentscope-message `AssistantMsg.appendEvent(object)` (pre-parsed events)'],
  ['floor-framing', 'floor: SSE framing only (split on "\\n\\n", strip "data: ")'],
  ['floor-parse', 'floor: SSE framing + `JSON.parse`'],
  ['ai6-read', 'AI SDK 6 `readUIMessageStream` (ai@6.0.326)'],
  ['ai6-chat', 'AI SDK `Chat` / useChat state (@ai-sdk/react@3.0.328)'],
  ['agui', 'AG-UI `HttpAgent.runAgent` (@ag-ui/client@1.0.0)'],
  ['langchain', 'LangChain.js `AIMessageChunk.concat` (@langchain/core@1.4.0)'],
  ['openai', 'OpenAI `accumulateResponse` (openai@6.49.0)'],
  ['anthropic', 'Anthropic `MessageStream` (@anthropic-ai/sdk@1.14.0)'],
];

export async function prepare(impl, wl, ops) {
  switch (impl) {
    case 'as-wire': return agentScope('wire', ops);
    case 'as-snapshots': return agentScope('snapshots', ops);
    case 'as-objects': return agentScope('objects', ops);
    case 'as-msg': return agentScope('msg', ops);
    case 'floor-framing': return floor(false, ops);
    case 'floor-parse': return floor(true, ops);
    case 'ai6-read': case 'ai6-chat': return aiSdk(impl, wl, ops);
    case 'agui': return agui(wl, ops);
    case 'langchain': return langchain(wl, ops);
    case 'openai': return openai(wl, ops);
    case 'anthropic': return anthropic(wl, ops);
    default: throw new Error('unknown implementation ' + impl);
  }
}

// A plain-JS in-place fold of AgentScope events into a message object: the yardstick of
// bench/fold-objects.mjs, not a reducer this package ships. It handles every event type
// of bench/workloads.mjs (W1-W4) just enough to end with the message the reference ends
// with (up to the ids and timestamps a reducer makes up), and nothing else: no checks,
// no caps, no diagnostics, no other event types, no unknown blocks. A block is found by
// id from the end of the content (the block an event names is nearly always the last).
// A data block's base64 chunks are decoded as they come and encoded once, at its end
// (each chunk carries its own padding, so the text cannot just be concatenated).

/** A fresh assistant message in the reference's shape (`Msg.model_dump()`). */
export function plainMsg(id, name) {
  return {
    name,
    content: [],
    role: 'assistant',
    id,
    metadata: {},
    created_at: new Date().toISOString(),
    usage: null,
    finished_at: null,
    finished_reason: null,
    structured_output: null,
    error: null,
  };
}

/** The last block of `type` whose id is `id`, or undefined. */
function find(content, type, id) {
  for (let i = content.length - 1; i >= 0; i--) {
    const b = content[i];
    if (b.id === id && b.type === type) return b;
  }
  return undefined;
}

// the decoded chunks of the data blocks still open
const pending = new WeakMap();

/** Applies one event object to `msg` in place and returns `msg`. */
export function plainAppend(msg, e) {
  if (e.reply_id !== msg.id) return msg;
  const c = msg.content;
  switch (e.type) {
    case 'TEXT_BLOCK_DELTA': {
      const b = find(c, 'text', e.block_id);
      if (b !== undefined) b.text += e.delta;
      break;
    }
    case 'THINKING_BLOCK_DELTA': {
      const b = find(c, 'thinking', e.block_id);
      if (b !== undefined) b.thinking += e.delta;
      break;
    }
    case 'TOOL_CALL_DELTA': {
      const b = find(c, 'tool_call', e.tool_call_id);
      if (b !== undefined) b.input += e.delta;
      break;
    }
    case 'TOOL_RESULT_TEXT_DELTA': {
      const b = find(c, 'tool_result', e.tool_call_id);
      if (b === undefined) break;
      const last = b.output[b.output.length - 1];
      if (last !== undefined && last.type === 'text') last.text += e.delta;
      else b.output.push({ type: 'text', text: e.delta, id: crypto.randomUUID().replaceAll('-', ''), created_at: e.created_at, finished_at: null });
      break;
    }
    case 'DATA_BLOCK_DELTA': {
      const b = find(c, 'data', e.block_id);
      if (b !== undefined && e.data) pending.get(b).push(Buffer.from(e.data, 'base64'));
      break;
    }
    case 'TEXT_BLOCK_START':
      c.push({ type: 'text', text: '', id: e.block_id, created_at: e.created_at, finished_at: null });
      break;
    case 'THINKING_BLOCK_START':
      c.push({ type: 'thinking', thinking: '', id: e.block_id, created_at: e.created_at, finished_at: null });
      break;
    case 'TOOL_CALL_START':
      c.push({ type: 'tool_call', id: e.tool_call_id, name: e.tool_call_name, input: '', state: 'pending', suggested_rules: [], created_at: e.created_at, finished_at: null });
      break;
    case 'TOOL_RESULT_START':
      c.push({ type: 'tool_result', id: e.tool_call_id, name: e.tool_call_name, output: [], state: 'running', metadata: {}, created_at: e.created_at, finished_at: null });
      break;
    case 'DATA_BLOCK_START': {
      const b = { type: 'data', id: e.block_id, source: { type: 'base64', data: '', media_type: e.media_type }, name: e.name ?? null, created_at: e.created_at, finished_at: null };
      pending.set(b, []);
      c.push(b);
      break;
    }
    case 'TEXT_BLOCK_END': {
      const b = find(c, 'text', e.block_id);
      if (b !== undefined) b.finished_at = e.created_at;
      break;
    }
    case 'THINKING_BLOCK_END': {
      const b = find(c, 'thinking', e.block_id);
      if (b !== undefined) b.finished_at = e.created_at;
      break;
    }
    case 'TOOL_CALL_END': {
      const b = find(c, 'tool_call', e.tool_call_id);
      if (b !== undefined) b.finished_at = e.created_at;
      break;
    }
    case 'TOOL_RESULT_END': {
      const b = find(c, 'tool_result', e.tool_call_id);
      if (b !== undefined) {
        b.state = e.state;
        b.metadata = e.metadata ? { ...e.metadata } : {};
        b.finished_at = e.created_at;
      }
      const call = find(c, 'tool_call', e.tool_call_id);
      if (call !== undefined) call.state = 'finished';
      break;
    }
    case 'DATA_BLOCK_END': {
      const b = find(c, 'data', e.block_id);
      if (b === undefined) break;
      const chunks = pending.get(b);
      if (chunks !== undefined) {
        b.source.data = Buffer.concat(chunks).toString('base64');
        pending.delete(b);
      }
      b.finished_at = e.created_at;
      break;
    }
    case 'MODEL_CALL_END': {
      const u = msg.usage;
      if (u === null) {
        msg.usage = { input_tokens: e.input_tokens, output_tokens: e.output_tokens, cache_input_tokens: e.cache_input_tokens ?? 0, cache_creation_input_tokens: e.cache_creation_input_tokens ?? 0 };
      } else {
        u.input_tokens += e.input_tokens;
        u.output_tokens += e.output_tokens;
        u.cache_input_tokens += e.cache_input_tokens ?? 0;
        u.cache_creation_input_tokens += e.cache_creation_input_tokens ?? 0;
      }
      break;
    }
    case 'REPLY_END':
      msg.finished_at = e.created_at;
      msg.finished_reason = e.finished_reason;
      msg.error = e.error ?? null;
      break;
    // REPLY_START (the message exists already), MODEL_CALL_START: nothing to fold
  }
  return msg;
}

/**
 * The same fold without changing `msg`: a new message object, a new content list and a new
 * object of the block the event changes (its last output item copied too), the rest shared,
 * as a store's reducer writes it: the yardstick of an immutable fold (what the copies alone
 * cost in this engine). Returns the new message.
 */
export function plainAppendImmutable(msg, e) {
  if (e.reply_id !== msg.id) return msg;
  const next = { ...msg };
  const content = msg.content.slice();
  next.content = content;
  const id = e.block_id ?? e.tool_call_id;
  for (let i = content.length - 1; i >= 0; i--) {
    const b = content[i];
    if (b.id !== id) continue;
    const copy = { ...b };
    if (Array.isArray(b.output)) copy.output = b.output.map((item, j) => (j === b.output.length - 1 ? { ...item } : item));
    if (pending.has(b)) pending.set(copy, pending.get(b));
    content[i] = copy;
    break;
  }
  plainAppend(next, e);
  return next;
}

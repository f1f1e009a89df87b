//! `Msg::append_event`: folds one event into a message (REFERENCE.md §4).
//!
//! Every branch does its fallible work (base64 decoding, URL parsing) before it changes
//! anything, so an `Err` leaves the message exactly as it was.

use std::collections::HashSet;

use crate::block::{
    BlockKind, ContentBlock, DataBlock, HintBlock, TextBlock, TextOrBlocks, TextOrData, ThinkingBlock, ToolCallBlock,
    ToolCallState, ToolResultBlock,
};
use crate::delta::{Delta, append_delta};
use crate::error::MsgError;
use crate::event::*;
use crate::factory::generate_timestamp;
use crate::msg::{Msg, Usage};
use crate::source::{Base64Source, DataSource, URLSource, b64decode};

impl Msg {
    /// Applies `event` to this message in place and returns it (the reference's
    /// `Msg.append_event`).
    ///
    /// Skipped without error, as in the reference: `CUSTOM`; events whose `reply_id` is
    /// not this message's `id`; `REPLY_START`, `MODEL_CALL_START`, `EXCEED_MAX_ITERS`,
    /// `USER_INTERRUPT`; deltas and ends whose block (looked up by type and id, first
    /// match) does not exist. There is no state machine and no role check.
    ///
    /// Errors (the message is left unchanged): `invalid_base64` (a chunk Python's
    /// `b64decode` rejects), `invalid_url` (a URL `AnyUrl` rejects), `base64_after_url`
    /// (a base64 `DATA_BLOCK_DELTA` for a block that already has a URL source; the
    /// reference crashes with `AttributeError`).
    pub fn append_event(&mut self, event: &AgentEvent) -> Result<&mut Msg, MsgError> {
        match event.reply_id() {
            None => return Ok(self),
            Some(reply_id) if reply_id != self.id => return Ok(self),
            Some(_) => {}
        }
        match event {
            AgentEvent::ReplyStart(_)
            | AgentEvent::ModelCallStart(_)
            | AgentEvent::ExceedMaxIters(_)
            | AgentEvent::UserInterrupt(_)
            | AgentEvent::Custom(_) => {}
            AgentEvent::ReplyEnd(e) => {
                self.finished_at = Some(e.created_at.clone());
                self.finished_reason = Some(e.finished_reason);
                self.error = e.error.clone();
                self.touch_msg();
            }
            AgentEvent::ModelCallEnd(e) => {
                self.append_usage(&Usage {
                    input_tokens: e.input_tokens,
                    output_tokens: e.output_tokens,
                    cache_input_tokens: e.cache_input_tokens,
                    cache_creation_input_tokens: e.cache_creation_input_tokens,
                });
            }
            AgentEvent::TextBlockStart(e) => self.push_block(ContentBlock::Text(TextBlock::with_id(&e.block_id, ""))),
            AgentEvent::TextBlockDelta(e) => {
                if let Some(ContentBlock::Text(b)) = self.lookup(BlockKind::Text, &e.block_id) {
                    append_delta(&mut b.text, &mut b.pending, &e.delta);
                }
            }
            AgentEvent::TextBlockEnd(e) => {
                if let Some(ContentBlock::Text(b)) = self.lookup(BlockKind::Text, &e.block_id) {
                    if let Some(text) = &e.text {
                        b.text = text.as_str().to_owned();
                        b.pending = None;
                    }
                    b.finished_at = Some(e.created_at.clone());
                }
            }
            AgentEvent::DataBlockStart(e) => {
                let source = DataSource::Base64(Base64Source::new("", &e.media_type));
                self.push_block(ContentBlock::Data(DataBlock::with_id(
                    &e.block_id,
                    source,
                    e.name.clone(),
                )));
            }
            AgentEvent::DataBlockDelta(e) => self.data_block_delta(e)?,
            AgentEvent::DataBlockEnd(e) => {
                if let Some(ContentBlock::Data(b)) = self.lookup(BlockKind::Data, &e.block_id) {
                    b.finished_at = Some(e.created_at.clone());
                }
            }
            AgentEvent::ThinkingBlockStart(e) => {
                self.push_block(ContentBlock::Thinking(ThinkingBlock::with_id(&e.block_id, "")));
            }
            AgentEvent::ThinkingBlockDelta(e) => {
                if let Some(ContentBlock::Thinking(b)) = self.lookup(BlockKind::Thinking, &e.block_id) {
                    append_delta(&mut b.thinking, &mut b.pending, &e.delta);
                }
            }
            AgentEvent::ThinkingBlockEnd(e) => {
                if let Some(ContentBlock::Thinking(b)) = self.lookup(BlockKind::Thinking, &e.block_id) {
                    b.finished_at = Some(e.created_at.clone());
                }
            }
            AgentEvent::HintBlock(e) => {
                let now = generate_timestamp();
                self.push_block(ContentBlock::Hint(HintBlock {
                    hint: e.hint.clone(),
                    id: e.block_id.clone(),
                    source: e.source.clone(),
                    created_at: now.clone(),
                    finished_at: Some(now),
                }));
            }
            AgentEvent::ToolCallStart(e) => {
                let block = ToolCallBlock::new(&e.tool_call_id, &e.tool_call_name, "");
                self.push_block(ContentBlock::ToolCall(block));
            }
            AgentEvent::ToolCallDelta(e) => {
                if let Some(ContentBlock::ToolCall(b)) = self.lookup(BlockKind::ToolCall, &e.tool_call_id) {
                    append_delta(&mut b.input, &mut b.pending, &e.delta);
                }
            }
            AgentEvent::ToolCallEnd(e) => {
                if let Some(ContentBlock::ToolCall(b)) = self.lookup(BlockKind::ToolCall, &e.tool_call_id) {
                    b.finished_at = Some(e.created_at.clone());
                }
            }
            AgentEvent::ToolResultStart(e) => {
                let block = ToolResultBlock::new(&e.tool_call_id, &e.tool_call_name);
                self.push_block(ContentBlock::ToolResult(block));
            }
            AgentEvent::ToolResultTextDelta(e) => {
                if let Some(ContentBlock::ToolResult(b)) = self.lookup(BlockKind::ToolResult, &e.tool_call_id) {
                    tool_result_text_delta(b, &e.delta);
                }
            }
            AgentEvent::ToolResultDataDelta(e) => self.tool_result_data_delta(e)?,
            AgentEvent::ToolResultEnd(e) => {
                let Some(ContentBlock::ToolResult(b)) = self.lookup(BlockKind::ToolResult, &e.tool_call_id) else {
                    return Ok(self);
                };
                b.state = e.state;
                b.metadata = e.metadata.clone();
                b.finished_at = Some(e.created_at.clone());
                if let Some(ContentBlock::ToolCall(call)) = self.lookup(BlockKind::ToolCall, &e.tool_call_id) {
                    call.state = ToolCallState::Finished;
                }
            }
            AgentEvent::RequireUserConfirm(e) => {
                for tc in &e.tool_calls {
                    if let Some(ContentBlock::ToolCall(call)) = self.lookup(BlockKind::ToolCall, &tc.id) {
                        call.state = ToolCallState::Asking;
                        call.suggested_rules = tc.suggested_rules.clone();
                    }
                }
            }
            AgentEvent::UserConfirmResult(e) => {
                for result in &e.confirm_results {
                    let id = &result.tool_call.id;
                    let Some(i) = self.find_block(BlockKind::ToolCall, id) else {
                        continue;
                    };
                    if let ContentBlock::ToolCall(call) = &self.content()[i] {
                        if call.state != ToolCallState::Asking {
                            continue;
                        }
                    }
                    if let Some(ContentBlock::ToolCall(call)) = self.block_mut(i) {
                        call.state = if result.confirmed {
                            ToolCallState::Allowed
                        } else {
                            ToolCallState::Finished
                        };
                    }
                }
            }
            AgentEvent::RequireExternalExecution(e) => {
                for tc in &e.tool_calls {
                    if let Some(ContentBlock::ToolCall(call)) = self.lookup(BlockKind::ToolCall, &tc.id) {
                        call.state = ToolCallState::Submitted;
                    }
                }
            }
            AgentEvent::ExternalExecutionResult(e) => {
                let existing: HashSet<String> = self
                    .content()
                    .iter()
                    .filter_map(|b| match b {
                        ContentBlock::ToolResult(r) => Some(r.id.clone()),
                        _ => None,
                    })
                    .collect();
                for result in e.execution_results.iter().filter(|r| !existing.contains(&r.id)) {
                    let mut block = result.clone();
                    if block.finished_at.is_none() {
                        block.finished_at = Some(e.created_at.clone());
                    }
                    self.push_block(ContentBlock::ToolResult(block));
                }
            }
        }
        Ok(self)
    }

    /// The first block of `kind` with `id`, marked as changed.
    fn lookup(&mut self, kind: BlockKind, id: &str) -> Option<&mut ContentBlock> {
        let i = self.find_block(kind, id)?;
        self.block_mut(i)
    }

    fn data_block_delta(&mut self, e: &DataBlockDeltaEvent) -> Result<(), MsgError> {
        let Some(i) = self.find_block(BlockKind::Data, &e.block_id) else {
            return Ok(());
        };
        let ContentBlock::Data(block) = &self.content()[i] else {
            return Ok(());
        };
        if let Some(url) = e.url.as_deref().filter(|u| !u.is_empty()) {
            let source = DataSource::Url(URLSource::new(url, &e.media_type)?);
            if let Some(ContentBlock::Data(b)) = self.block_mut(i) {
                b.source = source;
            }
            return Ok(());
        }
        let Some(data) = e.data.as_deref().filter(|d| !d.is_empty()) else {
            return Ok(());
        };
        let DataSource::Base64(src) = &block.source else {
            return Err(MsgError::Base64AfterUrl(e.block_id.clone()));
        };
        // decode what is held only when it is still an undecoded string (first append)
        let existing = if src.is_empty() {
            Some(Vec::new())
        } else {
            src.decode().map(|held| match held {
                std::borrow::Cow::Owned(bytes) => Some(bytes),
                std::borrow::Cow::Borrowed(_) => None,
            })?
        };
        let chunk = b64decode(data)?;
        if let Some(ContentBlock::Data(DataBlock {
            source: DataSource::Base64(src),
            ..
        })) = self.block_mut(i)
        {
            if let Some(existing) = existing {
                src.set_bytes(existing);
            }
            if let Some(bytes) = src.bytes_mut() {
                bytes.extend_from_slice(&chunk);
            }
        }
        Ok(())
    }

    fn tool_result_data_delta(&mut self, e: &ToolResultDataDeltaEvent) -> Result<(), MsgError> {
        let Some(i) = self.find_block(BlockKind::ToolResult, &e.tool_call_id) else {
            return Ok(());
        };
        let ContentBlock::ToolResult(result) = &self.content()[i] else {
            return Ok(());
        };
        let source = match &e.data {
            Some(data) => DataSource::Base64(Base64Source::new(data.clone(), &e.media_type)),
            None => DataSource::Url(URLSource::new(e.url.as_deref().unwrap_or_default(), &e.media_type)?),
        };
        // merge target: the first base64 data block of the output with this block id
        let target = match &result.output {
            TextOrBlocks::Blocks(items) => items.iter().position(|item| {
                matches!(item, TextOrData::Data(d) if d.id == e.block_id && matches!(d.source, DataSource::Base64(_)))
            }),
            TextOrBlocks::Text(_) => None,
        };
        let merged = match (target, &source, &result.output) {
            (Some(t), DataSource::Base64(chunk), TextOrBlocks::Blocks(items)) => {
                let TextOrData::Data(DataBlock {
                    source: DataSource::Base64(held),
                    ..
                }) = &items[t]
                else {
                    return Ok(());
                };
                let mut bytes = held.decode()?.into_owned();
                bytes.extend_from_slice(&chunk.decode()?);
                Some((t, bytes))
            }
            _ => None,
        };
        let Some(ContentBlock::ToolResult(result)) = self.block_mut(i) else {
            return Ok(());
        };
        with_output_blocks(result, |items| match (merged, source) {
            (Some((t, bytes)), DataSource::Base64(chunk)) => {
                if let Some(TextOrData::Data(DataBlock {
                    source: DataSource::Base64(held),
                    ..
                })) = items.get_mut(t)
                {
                    held.set_bytes(bytes);
                    if !chunk.media_type.is_empty() {
                        held.media_type = chunk.media_type;
                    }
                }
            }
            (_, source) => items.push(TextOrData::Data(DataBlock::with_id(&e.block_id, source, None))),
        });
        Ok(())
    }
}

/// Runs `f` on the output list of a tool result; a string output becomes
/// `[TextBlock(text)]` first (with a generated id), as in the reference.
fn with_output_blocks(result: &mut ToolResultBlock, f: impl FnOnce(&mut Vec<TextOrData>)) {
    if let TextOrBlocks::Text(text) = &mut result.output {
        let text = std::mem::take(text);
        result.output = TextOrBlocks::Blocks(vec![TextOrData::Text(TextBlock::new(text))]);
    }
    if let TextOrBlocks::Blocks(items) = &mut result.output {
        f(items);
    }
}

/// `TOOL_RESULT_TEXT_DELTA`: extend the last text block of the output, or start one.
fn tool_result_text_delta(result: &mut ToolResultBlock, delta: &Delta) {
    with_output_blocks(result, |items| {
        if !matches!(items.last(), Some(TextOrData::Text(_))) {
            items.push(TextOrData::Text(TextBlock::new("")));
        }
        if let Some(TextOrData::Text(last)) = items.last_mut() {
            append_delta(&mut last.text, &mut last.pending, delta);
        }
    });
}

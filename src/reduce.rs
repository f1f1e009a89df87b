//! `Msg::append_event`: folds one event into a message (REFERENCE.md §4).
//!
//! Every branch does its fallible work (base64 decoding, URL parsing) before it changes
//! anything, so an `Err` leaves the message exactly as it was.

use crate::block::{
    BlockKind, ContentBlock, DataBlock, HintBlock, TextBlock, TextOrBlocks, TextOrData, ThinkingBlock, ToolCallBlock,
    ToolCallState, ToolResultBlock,
};
use crate::delta::{Delta, append_delta};
use crate::error::MsgError;
use crate::event::*;
use crate::factory::generate_timestamp;
use crate::matching::{BlockMatch, Matching, ToolCallMatch};
use crate::msg::Msg;
use crate::outcome::{Outcome, Skip};
use crate::reply::Usage;
use crate::source::{Base64Source, DataSource, URLSource, b64decode};

impl Msg {
    /// Applies `event` to this message in place (the reference's `Msg.append_event`) and
    /// tells what it did.
    ///
    /// Skipped without error, as in the reference ([`Outcome::Skipped`] says why):
    /// `CUSTOM`; events whose `reply_id` is not this message's `id` (`foreign_reply`);
    /// `REPLY_START`, `MODEL_CALL_START`, `EXCEED_MAX_ITERS`, `USER_INTERRUPT`
    /// (`ignored_type`); deltas and ends whose block (looked up by type and id, first
    /// match) does not exist (`unknown_block`); confirmations of calls not asking and
    /// external results already present (`stale`). There is no state machine and no role
    /// check.
    ///
    /// Errors (the message is left unchanged): `invalid_base64` (a chunk Python's
    /// `b64decode` rejects), `invalid_url` (a URL `AnyUrl` rejects), `base64_after_url`
    /// (a base64 `DATA_BLOCK_DELTA` for a block that already has a URL source; the
    /// reference crashes with `AttributeError`).
    pub fn append_event(&mut self, event: &AgentEvent) -> Result<Outcome, MsgError> {
        self.append_event_with(event, ToolCallMatch::First)
    }

    /// [`Msg::append_event`], with events matched to blocks as `matching` says: a
    /// [`Matching`], or a [`ToolCallMatch`] or [`BlockMatch`] alone (the other first).
    pub fn append_event_with(
        &mut self,
        event: &AgentEvent,
        matching: impl Into<Matching>,
    ) -> Result<Outcome, MsgError> {
        self.append_matched(event, matching.into())
    }

    fn append_matched(&mut self, event: &AgentEvent, matching: Matching) -> Result<Outcome, MsgError> {
        match event.reply_id() {
            None => return Ok(Outcome::Skipped(Skip::IgnoredType)),
            Some(reply_id) if reply_id != self.id => return Ok(Outcome::Skipped(Skip::ForeignReply)),
            Some(_) => {}
        }
        let admitted = self.admit(event, matching)?;
        let outcome = self.apply(event, matching)?;
        if outcome == Outcome::Applied {
            self.account(admitted);
        }
        Ok(outcome)
    }

    /// The reducer itself, past the reply id and the caps.
    fn apply(&mut self, event: &AgentEvent, matching: Matching) -> Result<Outcome, MsgError> {
        let newest = matching.tool_calls == ToolCallMatch::Newest;
        let blocks = matching.blocks == BlockMatch::Newest;
        let unknown = Outcome::Skipped(Skip::UnknownBlock);
        match event {
            AgentEvent::ReplyStart(_)
            | AgentEvent::ModelCallStart(_)
            | AgentEvent::ExceedMaxIters(_)
            | AgentEvent::UserInterrupt(_)
            | AgentEvent::Custom(_) => return Ok(Outcome::Skipped(Skip::IgnoredType)),
            AgentEvent::ReplyEnd(e) => {
                self.finished_at = Some(e.created_at.clone());
                self.finished_reason = Some(e.finished_reason);
                self.error = e.error.clone();
                self.touch_msg();
            }
            AgentEvent::ModelCallEnd(e) => {
                let usage = Usage {
                    input_tokens: e.input_tokens,
                    output_tokens: e.output_tokens,
                    cache_input_tokens: e.cache_input_tokens,
                    cache_creation_input_tokens: e.cache_creation_input_tokens,
                };
                if !self.usage_fits(&usage) {
                    return Err(MsgError::LimitExceeded(
                        "a token count sum past ±2^127 (this port keeps 128 bits)".to_owned(),
                    ));
                }
                self.append_usage(&usage);
            }
            AgentEvent::TextBlockStart(e) => self.push_block(ContentBlock::Text(TextBlock::with_id(&e.block_id, ""))),
            AgentEvent::TextBlockDelta(e) => {
                let Some(i) = self.find_block_at(BlockKind::Text, &e.block_id, blocks) else {
                    return Ok(unknown);
                };
                self.grow_with(i, |b| match b {
                    ContentBlock::Text(b) => append_delta(&mut b.text, &mut b.pending, &e.delta),
                    _ => false,
                });
            }
            AgentEvent::TextBlockEnd(e) => {
                let Some(ContentBlock::Text(b)) = self.lookup(BlockKind::Text, &e.block_id, blocks) else {
                    return Ok(unknown);
                };
                if let Some(text) = &e.text {
                    b.text = text.as_str().to_owned();
                    b.pending = None;
                }
                b.finished_at = Some(e.created_at.clone());
            }
            AgentEvent::DataBlockStart(e) => {
                let source = DataSource::Base64(Base64Source::new("", &e.media_type));
                self.push_block(ContentBlock::Data(DataBlock::with_id(
                    &e.block_id,
                    source,
                    e.name.clone(),
                )));
            }
            AgentEvent::DataBlockDelta(e) => return self.data_block_delta(e, blocks),
            AgentEvent::DataBlockEnd(e) => {
                let Some(ContentBlock::Data(b)) = self.lookup(BlockKind::Data, &e.block_id, blocks) else {
                    return Ok(unknown);
                };
                b.finished_at = Some(e.created_at.clone());
            }
            AgentEvent::ThinkingBlockStart(e) => {
                self.push_block(ContentBlock::Thinking(ThinkingBlock::with_id(&e.block_id, "")));
            }
            AgentEvent::ThinkingBlockDelta(e) => {
                let Some(i) = self.find_block_at(BlockKind::Thinking, &e.block_id, blocks) else {
                    return Ok(unknown);
                };
                self.grow_with(i, |b| match b {
                    ContentBlock::Thinking(b) => append_delta(&mut b.thinking, &mut b.pending, &e.delta),
                    _ => false,
                });
            }
            AgentEvent::ThinkingBlockEnd(e) => {
                let Some(ContentBlock::Thinking(b)) = self.lookup(BlockKind::Thinking, &e.block_id, blocks) else {
                    return Ok(unknown);
                };
                b.finished_at = Some(e.created_at.clone());
            }
            AgentEvent::HintBlock(e) => {
                let now = generate_timestamp();
                // the reference's HintBlock takes its finished_at from the timestamp factory
                // too before the reducer sets it to created_at: the factory is called twice
                // there, so an application's factory (a counter, a clock) sees the same calls
                let _ = generate_timestamp();
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
                let Some(i) = self.find_block_at(BlockKind::ToolCall, &e.tool_call_id, newest) else {
                    return Ok(unknown);
                };
                self.grow_with(i, |b| match b {
                    ContentBlock::ToolCall(b) => append_delta(&mut b.input, &mut b.pending, &e.delta),
                    _ => false,
                });
            }
            AgentEvent::ToolCallEnd(e) => {
                let Some(ContentBlock::ToolCall(b)) = self.lookup(BlockKind::ToolCall, &e.tool_call_id, newest) else {
                    return Ok(unknown);
                };
                b.finished_at = Some(e.created_at.clone());
            }
            AgentEvent::ToolResultStart(e) => {
                let block = ToolResultBlock::new(&e.tool_call_id, &e.tool_call_name);
                self.push_block(ContentBlock::ToolResult(block));
            }
            AgentEvent::ToolResultTextDelta(e) => {
                let Some(i) = self.find_block_at(BlockKind::ToolResult, &e.tool_call_id, newest) else {
                    return Ok(unknown);
                };
                self.grow_with(i, |b| match b {
                    ContentBlock::ToolResult(b) => tool_result_text_delta(b, &e.delta),
                    _ => false,
                });
            }
            AgentEvent::ToolResultDataDelta(e) => return self.tool_result_data_delta(e, newest),
            AgentEvent::ToolResultEnd(e) => {
                let Some(ContentBlock::ToolResult(b)) = self.lookup(BlockKind::ToolResult, &e.tool_call_id, newest)
                else {
                    return Ok(unknown);
                };
                b.state = e.state;
                b.metadata = e.metadata.clone();
                b.finished_at = Some(e.created_at.clone());
                if let Some(ContentBlock::ToolCall(call)) = self.lookup(BlockKind::ToolCall, &e.tool_call_id, newest) {
                    call.state = ToolCallState::Finished;
                }
            }
            AgentEvent::RequireUserConfirm(e) => {
                let mut any = false;
                for tc in &e.tool_calls {
                    if let Some(ContentBlock::ToolCall(call)) = self.lookup(BlockKind::ToolCall, &tc.id, newest) {
                        call.state = ToolCallState::Asking;
                        call.suggested_rules = tc.suggested_rules.clone();
                        any = true;
                    }
                }
                if !any {
                    return Ok(unknown);
                }
            }
            AgentEvent::UserConfirmResult(e) => {
                let (mut found, mut any) = (false, false);
                for result in &e.confirm_results {
                    let id = &result.tool_call.id;
                    let Some(i) = self.find_block_at(BlockKind::ToolCall, id, newest) else {
                        continue;
                    };
                    found = true;
                    if let ContentBlock::ToolCall(call) = &self.content()[i]
                        && call.state != ToolCallState::Asking
                    {
                        continue;
                    }
                    if let Some(ContentBlock::ToolCall(call)) = self.block_mut(i) {
                        call.state = if result.confirmed {
                            ToolCallState::Allowed
                        } else {
                            ToolCallState::Finished
                        };
                        any = true;
                    }
                }
                if !any {
                    return Ok(Outcome::Skipped(if found { Skip::Stale } else { Skip::UnknownBlock }));
                }
            }
            AgentEvent::RequireExternalExecution(e) => {
                let mut any = false;
                for tc in &e.tool_calls {
                    if let Some(ContentBlock::ToolCall(call)) = self.lookup(BlockKind::ToolCall, &tc.id, newest) {
                        call.state = ToolCallState::Submitted;
                        any = true;
                    }
                }
                if !any {
                    return Ok(unknown);
                }
            }
            AgentEvent::ExternalExecutionResult(e) => {
                // which results are new is decided before any is added (two results with
                // the same new id are both added, as in the reference)
                let fresh: Vec<bool> = (e.execution_results.iter())
                    .map(|r| !self.is_answered(&r.id, newest))
                    .collect();
                let mut any = false;
                for (result, _) in e.execution_results.iter().zip(fresh).filter(|(_, fresh)| *fresh) {
                    let mut block = result.clone();
                    if block.finished_at.is_none() {
                        block.finished_at = Some(e.created_at.clone());
                    }
                    self.push_block(ContentBlock::ToolResult(block));
                    any = true;
                }
                if !any && !e.execution_results.is_empty() {
                    return Ok(Outcome::Skipped(Skip::Stale));
                }
            }
        }
        Ok(Outcome::Applied)
    }

    /// Whether the message has a tool result with this id: any (the reference), or with
    /// `newest` one after the newest tool call of the id. O(1) by the block index (a scan
    /// of every block per event made N results quadratic).
    fn is_answered(&mut self, id: &str, newest: bool) -> bool {
        let Some(result) = self.find_block_at(BlockKind::ToolResult, id, true) else {
            return false;
        };
        !newest
            || self
                .find_block_at(BlockKind::ToolCall, id, true)
                .is_none_or(|call| call < result)
    }

    /// Runs `f` on block `i`; `f` returns whether it rewrote text rather than only
    /// appending to it.
    fn grow_with(&mut self, i: usize, f: impl FnOnce(&mut ContentBlock) -> bool) {
        let rewrote = self.block_grow(i).is_some_and(f);
        if rewrote {
            self.touch(i);
        }
    }

    /// The first (or newest) block of `kind` with `id`, marked as changed.
    fn lookup(&mut self, kind: BlockKind, id: &str, newest: bool) -> Option<&mut ContentBlock> {
        let i = self.find_block_at(kind, id, newest)?;
        self.block_mut(i)
    }

    fn data_block_delta(&mut self, e: &DataBlockDeltaEvent, newest: bool) -> Result<Outcome, MsgError> {
        let unknown = Ok(Outcome::Skipped(Skip::UnknownBlock));
        let Some(i) = self.find_block_at(BlockKind::Data, &e.block_id, newest) else {
            return unknown;
        };
        let ContentBlock::Data(block) = &self.content()[i] else {
            return unknown;
        };
        if let Some(url) = e.url.as_deref().filter(|u| !u.is_empty()) {
            let source = DataSource::Url(URLSource::new(url, &e.media_type)?);
            if let Some(ContentBlock::Data(b)) = self.block_mut(i) {
                b.source = source;
            }
            return Ok(Outcome::Applied);
        }
        let Some(data) = e.data.as_deref().filter(|d| !d.is_empty()) else {
            return Ok(Outcome::Applied);
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
        // the first append turns the held string into bytes (canonical base64 from then
        // on): a rewrite; later ones only grow the payload
        let block = if existing.is_some() {
            self.block_mut(i)
        } else {
            self.block_grow(i)
        };
        if let Some(ContentBlock::Data(DataBlock {
            source: DataSource::Base64(src),
            ..
        })) = block
        {
            if let Some(existing) = existing {
                src.set_bytes(existing);
            }
            if let Some(bytes) = src.bytes_mut() {
                bytes.extend_from_slice(&chunk);
            }
        }
        Ok(Outcome::Applied)
    }

    fn tool_result_data_delta(&mut self, e: &ToolResultDataDeltaEvent, newest: bool) -> Result<Outcome, MsgError> {
        let unknown = Ok(Outcome::Skipped(Skip::UnknownBlock));
        let Some(i) = self.find_block_at(BlockKind::ToolResult, &e.tool_call_id, newest) else {
            return unknown;
        };
        if !matches!(self.content()[i], ContentBlock::ToolResult(_)) {
            return unknown;
        }
        let source = match &e.data {
            Some(data) => DataSource::Base64(Base64Source::new(data.clone(), &e.media_type)),
            None => DataSource::Url(URLSource::new(e.url.as_deref().unwrap_or_default(), &e.media_type)?),
        };
        // merge target: the first base64 data block of the output with this block id (a
        // URL is never merged: no search)
        let target = match &source {
            DataSource::Url(_) => None,
            DataSource::Base64(_) => self.tool_data_item(i, &e.block_id),
        };
        let ContentBlock::ToolResult(result) = &self.content()[i] else {
            return unknown;
        };
        // decoded before anything changes: (target, the held string decoded if it is still
        // a string, the chunk); the held bytes are then extended in place, not copied
        let merged = match (target, &source, &result.output) {
            (Some(t), DataSource::Base64(chunk), TextOrBlocks::Blocks(items)) => {
                let TextOrData::Data(DataBlock {
                    source: DataSource::Base64(held),
                    ..
                }) = &items[t]
                else {
                    return unknown;
                };
                let held = match held.held_bytes() {
                    Some(_) => None,
                    None => Some(held.decode()?.into_owned()),
                };
                Some((t, held, chunk.decode()?.into_owned()))
            }
            _ => None,
        };
        let Some(ContentBlock::ToolResult(result)) = self.block_mut(i) else {
            return unknown;
        };
        with_output_blocks(result, |items| match (merged, source) {
            (Some((t, decoded, bytes)), DataSource::Base64(chunk)) => {
                if let Some(TextOrData::Data(DataBlock {
                    source: DataSource::Base64(held),
                    ..
                })) = items.get_mut(t)
                {
                    if let Some(decoded) = decoded {
                        held.set_bytes(decoded);
                    }
                    if let Some(held) = held.bytes_mut() {
                        held.extend_from_slice(&bytes);
                    }
                    if !chunk.media_type.is_empty() {
                        held.media_type = chunk.media_type;
                    }
                }
            }
            (_, source) => items.push(TextOrData::Data(DataBlock::with_id(&e.block_id, source, None))),
        });
        Ok(Outcome::Applied)
    }
}

/// Runs `f` on the output list of a tool result; a string output becomes
/// `[TextBlock(text)]` first (with a generated id), as in the reference.
fn with_output_blocks<T: Default>(result: &mut ToolResultBlock, f: impl FnOnce(&mut Vec<TextOrData>) -> T) -> T {
    if let TextOrBlocks::Text(text) = &mut result.output {
        let text = std::mem::take(text);
        result.output = TextOrBlocks::Blocks(vec![TextOrData::Text(TextBlock::new(text))]);
    }
    match &mut result.output {
        TextOrBlocks::Blocks(items) => f(items),
        TextOrBlocks::Text(_) => T::default(),
    }
}

/// `TOOL_RESULT_TEXT_DELTA`: extend the last text block of the output, or start one.
/// Returns whether the output changed other than by its last text growing.
fn tool_result_text_delta(result: &mut ToolResultBlock, delta: &Delta) -> bool {
    let was_text = matches!(result.output, TextOrBlocks::Text(_));
    with_output_blocks(result, |items| {
        let mut rewrote = was_text;
        if !matches!(items.last(), Some(TextOrData::Text(_))) {
            items.push(TextOrData::Text(TextBlock::new("")));
            rewrote = true;
        }
        if let Some(TextOrData::Text(last)) = items.last_mut() {
            rewrote |= append_delta(&mut last.text, &mut last.pending, delta);
        }
        rewrote
    })
}

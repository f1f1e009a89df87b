//! Caps on what events may add to a message ([`Limits`]), checked before anything is
//! copied in: a refused event is a typed `limit_exceeded` error and the message is left
//! exactly as it was. The reference has no caps; the defaults are far above anything a
//! model or a tool sends, and only keep a hostile or broken stream from exhausting
//! memory (in wasm32, the 4 GiB address space, where running out is a trap).

use serde::Serialize;

use crate::block::ContentBlock;
use crate::error::MsgError;

/// Caps on one message, in bytes of UTF-8 (or of base64 text for data) and in blocks.
/// 0 is no cap. A message made by a [`crate::Session`] takes the session's
/// ([`crate::SessionOptions`]); any other message has the defaults until
/// [`crate::Msg::set_limits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The payload of one delta event (`TEXT_BLOCK_DELTA`, `THINKING_BLOCK_DELTA`,
    /// `TOOL_CALL_DELTA`, `TOOL_RESULT_TEXT_DELTA`: its `delta`; `DATA_BLOCK_DELTA`,
    /// `TOOL_RESULT_DATA_DELTA`: its `data` or `url`). Default [`DEFAULT_MAX_DELTA_BYTES`].
    pub max_delta_bytes: usize,
    /// What one block takes in: its size when the message was made (its wire JSON) plus
    /// every payload applied to it. Default [`DEFAULT_MAX_BLOCK_BYTES`].
    pub max_block_bytes: usize,
    /// What the whole message takes in: its wire JSON when it was made plus every event
    /// applied since (a delta its payload, any other event its wire JSON).
    /// Default [`DEFAULT_MAX_MESSAGE_BYTES`].
    pub max_message_bytes: usize,
    /// The number of content blocks. Default [`DEFAULT_MAX_BLOCKS`].
    pub max_blocks: usize,
}

/// The default [`Limits::max_delta_bytes`]: 64 MiB (as the session's frame cap: a 48 MB
/// base64 image in one event fits).
pub const DEFAULT_MAX_DELTA_BYTES: usize = 64 << 20;
/// The default [`Limits::max_block_bytes`]: 256 MiB.
pub const DEFAULT_MAX_BLOCK_BYTES: usize = 256 << 20;
/// The default [`Limits::max_message_bytes`]: 512 MiB.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 512 << 20;
/// The default [`Limits::max_blocks`]: 100,000.
pub const DEFAULT_MAX_BLOCKS: usize = 100_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_delta_bytes: DEFAULT_MAX_DELTA_BYTES,
            max_block_bytes: DEFAULT_MAX_BLOCK_BYTES,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            max_blocks: DEFAULT_MAX_BLOCKS,
        }
    }
}

/// `Err(limit_exceeded)` when `have + add` passes `max` (0: no cap).
pub(crate) fn check(have: usize, add: usize, max: usize, what: &str, option: &str) -> Result<(), MsgError> {
    if max == 0 || have.saturating_add(add) <= max {
        return Ok(());
    }
    Err(MsgError::LimitExceeded(format!(
        "{what} would take {} bytes, past the cap of {max} ({option}); the event was not applied",
        have.saturating_add(add)
    )))
}

/// The length of `value`'s wire JSON. (Written and dropped: counting it through a writer
/// of its own would compile a second copy of every serialiser, 8 KB gzip of the `.wasm`.)
pub(crate) fn json_len<T: Serialize + ?Sized>(value: &T) -> usize {
    crate::wire::to_string(value).len()
}

/// The wire JSON length of each block.
pub(crate) fn block_sizes(content: &[ContentBlock]) -> Vec<usize> {
    content.iter().map(json_len).collect()
}

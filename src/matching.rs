//! Which block an event's id names when several blocks share it: the first, as the
//! reference does, or the newest ([`Matching`], taken by `Msg::append_event_with` and by
//! a session).

use serde::Serialize;

use crate::block::BlockKind;

/// Which block a tool-call id names when several tool calls (or results) share it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallMatch {
    /// The first one, as the reference's `_find_block` does (the default). A provider
    /// that numbers tool calls per round (`search:0` in every round) then sends round 2's
    /// arguments and result to round 1's blocks.
    #[default]
    First,
    /// The newest one: a repeated tool-call id starts a new call, and later events for
    /// that id go to it.
    Newest,
}

crate::enums::wire_enum!(ToolCallMatch { First = "first", Newest = "newest" });

/// Which block a text, thinking or data block id names when several blocks of that type
/// share it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockMatch {
    /// The first one, as the reference's `_find_block` does (the default). A producer that
    /// reuses one id for every text block of a reply (AgentScope-Java's `"text"` and
    /// `"thinking"`, agentscope-java#1929) then sends the text after a tool call to the
    /// first text block, and the block its start opened stays empty and open.
    #[default]
    First,
    /// The newest one: every start opens a block (as always), and later deltas and ends
    /// for that type and id go to the newest block, so a reused id gives one block per
    /// start.
    Newest,
}

crate::enums::wire_enum!(BlockMatch { First = "first", Newest = "newest" });

/// How [`Msg::append_event_with`](crate::Msg::append_event_with) matches an event to its block: tool-call ids (tool
/// calls and results) and block ids (text, thinking and data blocks), each the first
/// block (the reference, the default) or the newest. A [`ToolCallMatch`] or a
/// [`BlockMatch`] alone converts into it, the other left first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Matching {
    /// Which tool call or result a tool-call id names.
    pub tool_calls: ToolCallMatch,
    /// Which text, thinking or data block a block id names.
    pub blocks: BlockMatch,
}

impl From<ToolCallMatch> for Matching {
    fn from(tool_calls: ToolCallMatch) -> Matching {
        Matching {
            tool_calls,
            ..Matching::default()
        }
    }
}

impl From<BlockMatch> for Matching {
    fn from(blocks: BlockMatch) -> Matching {
        Matching {
            blocks,
            ..Matching::default()
        }
    }
}

impl Matching {
    /// Whether events name the newest block of `kind` with their id.
    pub(crate) fn newest(self, kind: BlockKind) -> bool {
        match kind {
            BlockKind::ToolCall | BlockKind::ToolResult => self.tool_calls == ToolCallMatch::Newest,
            BlockKind::Text | BlockKind::Thinking | BlockKind::Data => self.blocks == BlockMatch::Newest,
            BlockKind::Hint => false,
        }
    }
}

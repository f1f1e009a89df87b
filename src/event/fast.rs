//! The fast path of the event decoder: the four streaming text delta events
//! (`TEXT_BLOCK_DELTA`, `THINKING_BLOCK_DELTA`, `TOOL_CALL_DELTA`,
//! `TOOL_RESULT_TEXT_DELTA`), which are nearly every event of a stream, read in one pass
//! with borrowed strings.
//!
//! It either yields exactly the event the full decoder ([`super::decode`]) yields, or
//! declines (`None`) and the full decoder reads the event: it declines on any key the
//! event does not declare, a key given twice, a `null`, a field of the wrong JSON type,
//! a missing field, a raw control character anywhere in the text (serde_json's byte
//! reading of `delta` does not check one inside a string, the full decoder refuses it),
//! and on every other event type. The tests below check the equality on
//! generated events and on every event of the fixtures and recordings.

use std::borrow::Cow;
use std::fmt;

use crate::json::{Map, Value};
use serde::Deserialize;
use serde::de::{Deserializer, Error, Visitor};

use super::{
    AgentEvent, Decoded, TextBlockDeltaEvent, ThinkingBlockDeltaEvent, ToolCallDeltaEvent, ToolResultTextDeltaEvent,
};
use crate::delta::Delta;
use crate::factory::{generate_id, generate_timestamp};

/// The keys of the four text delta events. A key not listed, or given twice, is an error
/// (the fast path declines); `null` is an error for every key.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hot<'a> {
    #[serde(rename = "type", borrow, deserialize_with = "delta_type")]
    event_type: Cow<'a, str>,
    #[serde(default, borrow, deserialize_with = "some_text")]
    id: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "some_text")]
    created_at: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "some")]
    metadata: Option<Map<String, Value>>,
    #[serde(default, borrow, deserialize_with = "some_text")]
    reply_id: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "some_text")]
    block_id: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "some_text")]
    tool_call_id: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "some")]
    delta: Option<Delta>,
}

/// A present field (`null` is refused: the full decoder tells `null` from absence).
fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// A JSON string, borrowed from the input when it has no escapes.
fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Cow<'de, str>, D::Error> {
    struct Text;
    impl<'de> Visitor<'de> for Text {
        type Value = Cow<'de, str>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_borrowed_str<E: Error>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Cow::Borrowed(v))
        }
        fn visit_str<E: Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Cow::Owned(v.to_owned()))
        }
    }
    deserializer.deserialize_str(Text)
}

/// A `type` ending in `_DELTA`; any other stops the first pass at the `type` key (the
/// full decoder reads those events; there is no point in reading them twice).
fn delta_type<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Cow<'de, str>, D::Error> {
    let tag = text(deserializer)?;
    if !tag.ends_with("_DELTA") {
        return Err(D::Error::custom("not a delta event"));
    }
    Ok(tag)
}

fn some_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    text(deserializer).map(Some)
}

/// One of the four text delta events, or `None` when the full decoder must read `json`.
pub(super) fn decode(json: &str) -> Option<Decoded> {
    // (white space between tokens too: a compact frame has none, and the full decoder
    // reads any other the same)
    if json.bytes().any(|b| b < 0x20) {
        return None;
    }
    // any other event is read once, by the full decoder, not first half-read here
    if !json.as_bytes().windows(7).any(|w| w == b"_DELTA\"") {
        return None;
    }
    let hot: Hot = serde_json::from_str(json).ok()?;
    let Hot {
        event_type,
        id,
        created_at,
        metadata,
        reply_id: Some(reply_id),
        block_id,
        tool_call_id,
        delta: Some(delta),
    } = hot
    else {
        return None;
    };
    // the shape first: nothing is generated for an event the full decoder reads
    let kind = match (&*event_type, &block_id, &tool_call_id) {
        ("TEXT_BLOCK_DELTA", Some(_), None) => 0,
        ("THINKING_BLOCK_DELTA", Some(_), None) => 1,
        ("TOOL_CALL_DELTA", None, Some(_)) => 2,
        ("TOOL_RESULT_TEXT_DELTA", None, Some(_)) => 3,
        _ => return None,
    };
    let had_id = id.is_some();
    // the order of the full decoder: id, then created_at
    let id = id.map_or_else(generate_id, Cow::into_owned);
    let created_at = created_at.map_or_else(generate_timestamp, Cow::into_owned);
    let metadata = metadata.unwrap_or_default();
    let reply_id = reply_id.into_owned();
    let (block_id, tool_call_id) = (owned(block_id), owned(tool_call_id));
    macro_rules! event {
        ($variant:ident($name:ident { $key:ident })) => {
            AgentEvent::$variant($name {
                id,
                created_at,
                metadata,
                reply_id,
                $key,
                delta,
            })
        };
    }
    let event = match kind {
        0 => event!(TextBlockDelta(TextBlockDeltaEvent { block_id })),
        1 => event!(ThinkingBlockDelta(ThinkingBlockDeltaEvent { block_id })),
        2 => event!(ToolCallDelta(ToolCallDeltaEvent { tool_call_id })),
        _ => event!(ToolResultTextDelta(ToolResultTextDeltaEvent { tool_call_id })),
    };
    Some(Decoded::Event { event, had_id })
}

fn owned(text: Option<Cow<'_, str>>) -> String {
    text.map(Cow::into_owned).unwrap_or_default()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use serde_json::{Value, json};

    use super::super::{Decoded, RawEvent, decode_full};

    /// The event as wire JSON, without `id` / `created_at` when they were generated.
    fn comparable(decoded: Decoded, input: &str) -> Value {
        let Decoded::Event { event, had_id } = decoded else {
            panic!("an unknown type from the fast path")
        };
        let mut value = serde_json::to_value(&event).expect("serialises");
        let given: RawEvent = serde_json::from_str(input).expect("JSON");
        for key in ["id", "created_at"] {
            if !given.has(key) {
                value[key] = Value::Null;
            }
        }
        json!([had_id, value])
    }

    /// The fast path yields what the full decoder yields, or declines.
    fn check(input: &str) -> bool {
        let Some(fast) = super::decode(input) else {
            return false;
        };
        let full = decode_full(input).unwrap_or_else(|e| panic!("fast path read {input}, full decoder: {e}"));
        assert_eq!(comparable(fast, input), comparable(full, input), "{input}");
        true
    }

    const TYPES: [&str; 8] = [
        "TEXT_BLOCK_DELTA",
        "THINKING_BLOCK_DELTA",
        "TOOL_CALL_DELTA",
        "TOOL_RESULT_TEXT_DELTA",
        "DATA_BLOCK_DELTA",
        "TEXT_BLOCK_START",
        "TOOL_CALL_END",
        "text_block_delta",
    ];

    const KEYS: [&str; 13] = [
        "type",
        "id",
        "created_at",
        "metadata",
        "reply_id",
        "block_id",
        "tool_call_id",
        "delta",
        "media_type",
        "data",
        "url",
        "text",
        "extra",
    ];

    /// JSON string literals: plain, escaped, non-ASCII, split and whole surrogate pairs.
    fn string_literal() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z0-9 ]{0,6}".prop_map(|s| format!("\"{s}\"")),
            Just(r#""a\"b\\c\n\t\/""#.to_owned()),
            Just(r#""\u00e9\u4f60""#.to_owned()),
            Just("\"é你🌍\"".to_owned()),
            Just(r#""\ud83c""#.to_owned()),
            Just(r#""\udf0d x""#.to_owned()),
            Just(r#""\ud83c\udf0d""#.to_owned()),
            Just(r#""""#.to_owned()),
        ]
    }

    /// Any JSON value text, strings most often.
    fn value_literal() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => string_literal(),
            1 => Just("null".to_owned()),
            1 => Just("12".to_owned()),
            1 => Just("1.5e3".to_owned()),
            1 => Just("true".to_owned()),
            1 => Just("[\"a\"]".to_owned()),
            1 => Just("{}".to_owned()),
            1 => Just(r#"{"k": [1, 2.50, {"n": null}], "k": "last"}"#.to_owned()),
        ]
    }

    /// A delta event of a random type with its own keys, then mutated: keys dropped,
    /// repeated, added, or given other values; random order and spacing.
    fn event_text() -> impl Strategy<Value = String> {
        let base = (
            0..TYPES.len(),
            any::<bool>(),
            any::<bool>(),
            string_literal(),
            string_literal(),
        );
        let edits = prop::collection::vec((0..KEYS.len(), value_literal(), 0..4u8), 0..3);
        (base, edits, any::<u64>(), any::<bool>()).prop_map(
            |((t, with_id, with_meta, id, delta), edits, seed, spaced)| {
                let ty = TYPES[t];
                let mut entries: Vec<(String, String)> = vec![("type".into(), format!("\"{ty}\""))];
                if with_id {
                    entries.push(("id".into(), id));
                    entries.push(("created_at".into(), "\"2026-01-01T00:00:00.000000\"".into()));
                }
                if with_meta {
                    entries.push(("metadata".into(), r#"{"a": 1, "b": [true, 0.1]}"#.into()));
                }
                entries.push(("reply_id".into(), "\"r\"".into()));
                let own = if ty.starts_with("TOOL") {
                    "tool_call_id"
                } else {
                    "block_id"
                };
                entries.push((own.into(), "\"b\"".into()));
                if ty == "DATA_BLOCK_DELTA" {
                    entries.push(("media_type".into(), "\"image/png\"".into()));
                    entries.push(("data".into(), "\"aGk=\"".into()));
                } else {
                    entries.push(("delta".into(), delta));
                }
                for (k, value, how) in edits {
                    let key = KEYS[k].to_owned();
                    match how {
                        0 => entries.retain(|(have, _)| *have != key),
                        1 => entries.push((key, value)),
                        _ => {
                            if let Some(entry) = entries.iter_mut().find(|(have, _)| *have == key) {
                                entry.1 = value;
                            }
                        }
                    }
                }
                let n = entries.len();
                for i in 0..n {
                    let j = (seed as usize).wrapping_mul(i + 7) % n;
                    entries.swap(i, j);
                }
                let sep = if spaced { ", " } else { "," };
                let body: Vec<String> = entries.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
                format!("{{{}}}", body.join(sep))
            },
        )
    }

    #[test]
    fn the_fast_path_yields_what_the_full_decoder_yields_or_declines() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = event_text();
        let (mut fast, n) = (0, 6000);
        for _ in 0..n {
            let text = strategy.new_tree(&mut runner).expect("a case").current();
            fast += usize::from(check(&text));
        }
        // both sides are exercised: events read by the fast path, and declined ones
        assert!(fast > n / 5 && fast < n * 4 / 5, "{fast} of {n} read by the fast path");
    }

    #[test]
    fn the_fast_path_reads_the_delta_events_and_declines_the_rest() {
        let read = |s: &str| check(s);
        assert!(read(
            r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "b", "delta": "x"}"#
        ));
        assert!(read(
            r#"{"type": "TOOL_RESULT_TEXT_DELTA", "reply_id": "r", "tool_call_id": "c", "delta": "\ud83c"}"#
        ));
        // declined: an undeclared key, a repeated key, a null, another type, a missing field
        assert!(!read(
            r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "b", "delta": "x", "k": 1}"#
        ));
        assert!(!read(
            r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "b", "delta": "x", "delta": "y"}"#
        ));
        assert!(!read(
            r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "b", "delta": "x", "metadata": null}"#
        ));
        assert!(!read(
            r#"{"type": "TEXT_BLOCK_START", "reply_id": "r", "block_id": "b"}"#
        ));
        assert!(!read(
            r#"{"type": "TOOL_CALL_DELTA", "reply_id": "r", "block_id": "b", "delta": "x"}"#
        ));
        assert!(super::decode(r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "b"}"#).is_none());
        // a raw control character inside the delta: declined, and the full decoder
        // refuses the event as the reference (and JSON.parse) do
        let raw_tab = "{\"type\": \"TEXT_BLOCK_DELTA\", \"reply_id\": \"r\", \"block_id\": \"b\", \"delta\": \"a\tb\"}";
        assert!(super::decode(raw_tab).is_none());
        assert_eq!(
            crate::AgentEvent::from_json(raw_tab).map_err(|e| e.code()),
            Err("invalid_json")
        );
        // an escaped one is text like any other
        assert!(read(
            r#"{"type": "TEXT_BLOCK_DELTA", "reply_id": "r", "block_id": "b", "delta": "a\tb"}"#
        ));
    }

    #[test]
    fn every_fixture_and_recording_event_decodes_the_same_way() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut texts = Vec::new();
        for dir in ["tests/fixtures/conformance", "examples/recordings"] {
            let mut stack = vec![root.join(dir)];
            while let Some(path) = stack.pop() {
                if path.is_dir() {
                    stack.extend(std::fs::read_dir(&path).expect("dir").map(|e| e.expect("entry").path()));
                } else if path.extension().is_some_and(|x| x == "json") && dir.ends_with("conformance") {
                    let case: Value =
                        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
                    let events = case["events"].as_array().cloned().unwrap_or_default();
                    texts.extend(events.iter().map(Value::to_string));
                } else if path.extension().is_some_and(|x| x == "jsonl") {
                    let text = std::fs::read_to_string(&path).expect("read");
                    texts.extend(text.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned));
                }
            }
        }
        let fast = texts.iter().filter(|t| check(t)).count();
        // most events of a stream are deltas: the fast path must actually be taken
        assert!(
            texts.len() > 1000 && fast * 2 > texts.len(),
            "{fast} of {}",
            texts.len()
        );
    }
}

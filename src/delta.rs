//! Streamed string pieces, and UTF-16 surrogate pairs split across two of them.
//!
//! A producer that slices UTF-16 text (JavaScript, or Python with surrogate escapes) can
//! send a surrogate pair in two deltas: `"\ud83c"` then `"\udf0d 你"`. Strict JSON parsers
//! reject a lone surrogate escape, and the reference keeps two lone surrogates that it can
//! later not even write out (REFERENCE.md §6). This port joins such a pair into one
//! character (`🌍`). A surrogate that stays alone becomes U+FFFD REPLACEMENT CHARACTER.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};

/// One streamed piece of text (`delta` of a text, thinking, tool-call or tool-result
/// event, or `text` of `TEXT_BLOCK_END`).
///
/// It holds valid UTF-8 where every lone surrogate is U+FFFD, and remembers a low
/// surrogate at its start and a high surrogate at its end so that appending the next one
/// joins a pair split across two deltas ([`Msg::append_event`](crate::Msg::append_event)).
/// Serialises as a plain JSON string.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Delta {
    text: String,
    lead_low: Option<u16>,
    trail_high: Option<u16>,
}

impl Delta {
    /// The text, with U+FFFD in place of any lone surrogate.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Decodes WTF-8 (UTF-8 that may hold surrogate code points, as `serde_json` produces
    /// for lone surrogate escapes when asked for bytes). Invalid bytes become U+FFFD.
    fn from_wtf8(bytes: &[u8]) -> Delta {
        if let Ok(s) = std::str::from_utf8(bytes) {
            return Delta::from(s);
        }
        let mut delta = Delta::default();
        let mut rest = bytes;
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    delta.text.push_str(s);
                    break;
                }
                Err(e) => {
                    let (valid, after) = rest.split_at(e.valid_up_to());
                    // the first `valid_up_to` bytes are valid UTF-8 by contract
                    delta.text.push_str(std::str::from_utf8(valid).unwrap_or_default());
                    let (unit, used) = match surrogate_at(after) {
                        Some(unit) => (Some(unit), 3),
                        None => (None, e.error_len().unwrap_or(after.len()).max(1)),
                    };
                    if let Some(unit) = unit {
                        let at_start = delta.text.is_empty();
                        let at_end = used == after.len();
                        if at_start && (0xDC00..=0xDFFF).contains(&unit) {
                            delta.lead_low = Some(unit);
                        }
                        if at_end && (0xD800..=0xDBFF).contains(&unit) {
                            delta.trail_high = Some(unit);
                        }
                    }
                    delta.text.push(char::REPLACEMENT_CHARACTER);
                    rest = &after[used.min(after.len())..];
                }
            }
        }
        delta
    }
}

/// The UTF-16 surrogate encoded (WTF-8 style) by the three bytes at the start of `b`.
fn surrogate_at(b: &[u8]) -> Option<u16> {
    match b {
        [0xED, b1 @ 0xA0..=0xBF, b2 @ 0x80..=0xBF, ..] => {
            Some(0xD000 | (u16::from(b1 & 0x3F) << 6) | u16::from(b2 & 0x3F))
        }
        _ => None,
    }
}

impl Delta {
    /// Makes this delta hold `s` (valid UTF-8, so no surrogate halves), reusing its buffer.
    pub(crate) fn set(&mut self, s: &str) {
        self.text.clear();
        self.text.push_str(s);
        self.lead_low = None;
        self.trail_high = None;
    }
}

impl From<&str> for Delta {
    fn from(s: &str) -> Delta {
        Delta {
            text: s.to_owned(),
            lead_low: None,
            trail_high: None,
        }
    }
}

impl From<String> for Delta {
    fn from(text: String) -> Delta {
        Delta {
            text,
            lead_low: None,
            trail_high: None,
        }
    }
}

impl Serialize for Delta {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Delta {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Delta, D::Error> {
        struct DeltaVisitor;
        impl<'de> Visitor<'de> for DeltaVisitor {
            type Value = Delta;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Delta, E> {
                Ok(Delta::from(v))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Delta, E> {
                Ok(Delta::from(v))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Delta, E> {
                Ok(Delta::from_wtf8(v))
            }
        }
        // `deserialize_bytes` makes serde_json hand over lone surrogate escapes as WTF-8
        // instead of failing; other formats fall back to `visit_str`.
        deserializer.deserialize_bytes(DeltaVisitor)
    }
}

/// Appends `delta` to `buf`. `pending` is the high surrogate held at the end of `buf`
/// (shown there as U+FFFD); when `delta` starts with the matching low surrogate the two
/// are joined into one character. Amortised O(len(delta)). Returns whether the text
/// already in `buf` changed (a U+FFFD replaced by the joined character), not only grew.
pub(crate) fn append_delta(buf: &mut String, pending: &mut Option<u16>, delta: &Delta) -> bool {
    let mut text = delta.text.as_str();
    let mut rewrote = false;
    if let (Some(high), Some(low)) = (*pending, delta.lead_low) {
        let joined = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
        if let (Some(c), true) = (char::from_u32(joined), buf.ends_with('\u{FFFD}')) {
            buf.truncate(buf.len() - '\u{FFFD}'.len_utf8());
            buf.push(c);
            text = &text['\u{FFFD}'.len_utf8()..];
            rewrote = true;
        }
    }
    buf.push_str(text);
    // an empty delta between the two halves of a pair keeps the pending half
    if !delta.text.is_empty() {
        *pending = delta.trail_high;
    }
    rewrote
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Delta {
        serde_json::from_str(json).expect("a JSON string")
    }

    #[test]
    fn split_pair_joins_into_one_character() {
        let (mut buf, mut pending) = (String::from("a"), None);
        append_delta(&mut buf, &mut pending, &parse(r#""\ud83c""#));
        assert_eq!(buf, "a\u{FFFD}");
        append_delta(&mut buf, &mut pending, &parse(r#""\udf0d 你""#));
        assert_eq!(buf, "a🌍 你");
        assert_eq!(pending, None);
    }

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let d = parse(r#""x\udf0dy\ud83cz""#);
        assert_eq!(d.as_str(), "x\u{FFFD}y\u{FFFD}z");
        let (mut buf, mut pending) = (String::new(), None);
        append_delta(&mut buf, &mut pending, &parse(r#""\ud83c""#));
        append_delta(&mut buf, &mut pending, &parse(r#""b""#));
        assert_eq!(buf, "\u{FFFD}b");
        // a low surrogate with no pending high stays a replacement character
        append_delta(&mut buf, &mut pending, &parse(r#""\udf0d""#));
        assert_eq!(buf, "\u{FFFD}b\u{FFFD}");
    }

    #[test]
    fn an_empty_delta_between_the_halves_keeps_the_pair() {
        let (mut buf, mut pending) = (String::new(), None);
        for d in [r#""\ud83c""#, r#""""#, r#""\udf0d""#] {
            append_delta(&mut buf, &mut pending, &parse(d));
        }
        assert_eq!(buf, "🌍");
    }

    #[test]
    fn a_pair_inside_one_delta_is_ordinary_text() {
        assert_eq!(parse(r#""\ud83c\udf0d""#).as_str(), "🌍");
    }
}

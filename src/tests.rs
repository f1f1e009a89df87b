//! Unit tests over the types of several modules. A module's own tests use only what the
//! module may use (modules import each other without a circle: tests/ts/layout.test.ts),
//! so these live here, above them all.

/// The wire names of every unit enum (`wire_enum!`, src/enums.rs).
mod enums {
    use serde::Serialize;
    use serde::de::DeserializeOwned;

    use crate::block::{BlockKind, PermissionBehavior, ToolCallState, ToolResultState};
    use crate::event::FinishedReason;
    use crate::matching::{BlockMatch, ToolCallMatch};
    use crate::reply::{ErrorType, ReplyFinishedReason, Role};

    /// Each name is what `Serialize` writes, and reads back as its variant.
    fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug + Copy>(variants: &[(T, &str)]) {
        for (variant, name) in variants {
            assert_eq!(serde_json::to_string(variant).unwrap(), format!("\"{name}\""));
            assert_eq!(serde_json::from_str::<T>(&format!("\"{name}\"")).unwrap(), *variant);
        }
    }

    #[test]
    fn names_are_the_serialized_ones() {
        round_trip(BlockKind::VARIANTS);
        round_trip(ToolCallState::VARIANTS);
        round_trip(ToolResultState::VARIANTS);
        round_trip(PermissionBehavior::VARIANTS);
        round_trip(FinishedReason::VARIANTS);
        round_trip(Role::VARIANTS);
        round_trip(ReplyFinishedReason::VARIANTS);
        round_trip(ErrorType::VARIANTS);
        round_trip(ToolCallMatch::VARIANTS);
        round_trip(BlockMatch::VARIANTS);
        assert_eq!(ErrorType::VARIANTS.len(), 9);
        assert_eq!(BlockKind::VARIANTS.len(), 6);
        assert_eq!(ToolCallMatch::VARIANTS.len(), 2);
        assert_eq!(BlockMatch::VARIANTS.len(), 2);
    }

    #[test]
    fn errors_name_the_input() {
        let e = serde_json::from_str::<Role>("\"robot\"").unwrap_err().to_string();
        assert_eq!(
            e,
            "unknown variant `robot`, expected one of `user`, `assistant`, `system` at line 1 column 7"
        );
        let e = serde_json::from_str::<ToolCallMatch>("\"last\"")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "unknown variant `last`, expected `first` or `newest` at line 1 column 6"
        );
        let e = serde_json::from_str::<ToolResultState>("1").unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid type: integer `1`, expected variant identifier at line 1 column 1"
        );
        // the name is matched exactly, case included
        assert!(serde_json::from_str::<Role>("\"User\"").is_err());
    }
}

/// The object reader (src/object.rs) under models of several modules.
mod object {
    use serde::Deserialize;
    use serde_json::Value;

    use crate::block::{ContentBlock, PermissionBehavior};
    use crate::msg::MsgOptions;
    use crate::reply::Usage;

    #[test]
    fn models_read_from_every_serde_json_deserialiser() {
        let json = r#"{"type": "tool_call", "id": "c", "name": "n", "input": "{}", "suggested_rules": [{"tool_name": "n", "rule_content": null, "behavior": "ask", "source": "s"}]}"#;
        let value: Value = serde_json::from_str(json).unwrap();
        let from_text = serde_json::from_str::<ContentBlock>(json).unwrap();
        assert_eq!(serde_json::from_value::<ContentBlock>(value.clone()).unwrap().id(), "c");
        assert_eq!(
            serde_json::from_reader::<_, ContentBlock>(json.as_bytes())
                .unwrap()
                .id(),
            "c"
        );
        let ContentBlock::ToolCall(call) = from_text else {
            panic!("a tool call")
        };
        assert_eq!(call.suggested_rules[0].behavior, PermissionBehavior::Ask);
        // inside a caller's own struct, read from a `Value`
        #[derive(Deserialize)]
        struct Stored {
            blocks: Vec<ContentBlock>,
            usage: Option<Usage>,
            options: MsgOptions,
        }
        let stored = serde_json::json!({
            "blocks": [value, {"type": "data", "source": {"type": "url", "url": "https://e.com", "media_type": "a"}}],
            "usage": {"input_tokens": "7", "output_tokens": 2},
            "options": {"id": "m"},
        });
        let stored: Stored = serde_json::from_value(stored).unwrap();
        assert_eq!(stored.blocks.len(), 2);
        assert_eq!(stored.usage.map(|u| u.input_tokens), Some(7));
        assert_eq!(stored.options.id.as_deref(), Some("m"));
        // and a list is refused whichever the deserialiser
        assert!(serde_json::from_value::<Usage>(serde_json::json!([1, 2])).is_err());
    }
}

/// A delta event built from parts (the wasm binding's `appendDelta`) folds as its decoded
/// wire JSON.
mod hot_delta {
    use crate::Msg;
    use crate::event::{AgentEvent, DeltaKind, HotDelta};

    #[test]
    fn a_hot_delta_folds_as_its_decoded_event() {
        let start = r#"{"type":"TOOL_CALL_START","reply_id":"r","tool_call_id":"c","tool_call_name":"f"}"#;
        let events = [
            r#"{"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"t"}"#,
            r#"{"type":"THINKING_BLOCK_START","reply_id":"r","block_id":"k"}"#,
            start,
            r#"{"type":"TOOL_RESULT_START","reply_id":"r","tool_call_id":"c","tool_call_name":"f"}"#,
        ];
        let deltas: [(u8, &str, &str, &str); 6] = [
            (0, "r", "t", "Hel"),
            (1, "r", "k", "hm"),
            (0, "r", "t", "lo 🌍"),
            (2, "r", "c", "{\"a\":"),
            (3, "r", "c", "out"),
            (0, "other", "t", "skipped"),
        ];
        let base = r#"{"name":"a","role":"assistant","id":"r","content":[]}"#;
        let mut by_decoder = Msg::from_json(base).unwrap();
        let mut by_hot = Msg::from_json(base).unwrap();
        for e in events {
            let event = AgentEvent::from_json(e).unwrap();
            by_decoder.append_event(&event).unwrap();
            by_hot.append_event(&event).unwrap();
        }
        let mut hot = HotDelta::new();
        for (kind, reply, target, delta) in deltas {
            let field = if kind >= 2 { "tool_call_id" } else { "block_id" };
            let tag = [
                "TEXT_BLOCK_DELTA",
                "THINKING_BLOCK_DELTA",
                "TOOL_CALL_DELTA",
                "TOOL_RESULT_TEXT_DELTA",
            ][kind as usize];
            let json = serde_json::json!({"type": tag, "reply_id": reply, field: target, "delta": delta}).to_string();
            let a = by_decoder.append_event(&AgentEvent::from_json(&json).unwrap()).unwrap();
            hot.set_kind(DeltaKind::from_u8(kind).unwrap());
            hot.set_reply_id(reply);
            hot.set_target(target);
            let b = by_hot.append_event(hot.with_delta(delta)).unwrap();
            assert_eq!(a, b);
        }
        assert_eq!(stable(&by_hot), stable(&by_decoder));
        assert!(by_hot.to_json().contains(r#""text":"Hello 🌍""#));
        assert!(by_hot.to_json().contains(r#""input":"{\"a\":""#));
        assert_eq!(DeltaKind::from_u8(4), None);
    }

    /// The message's wire JSON without the times and ids the reducer makes up.
    fn stable(msg: &Msg) -> String {
        fn strip(v: &mut serde_json::Value) {
            match v {
                serde_json::Value::Object(m) => {
                    m.remove("created_at");
                    if m.get("type").and_then(|t| t.as_str()) == Some("text")
                        && m.get("id").is_some_and(|id| id.as_str().is_some_and(|s| s.len() == 32))
                    {
                        m.remove("id");
                    }
                    m.values_mut().for_each(strip);
                }
                serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
                _ => {}
            }
        }
        let mut v: serde_json::Value = serde_json::from_str(&msg.to_json()).unwrap();
        strip(&mut v);
        v.to_string()
    }
}

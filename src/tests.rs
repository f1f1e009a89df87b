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

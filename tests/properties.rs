//! Property tests: arbitrary event sequences never panic, a rejected event leaves the
//! message unchanged, and wire JSON survives serialise → parse → serialise unchanged.
#![cfg(not(target_arch = "wasm32"))]

use agentscope_message::Framer;
use agentscope_message::{AgentEvent, Msg, MsgOptions, assistant_msg};
use proptest::prelude::*;
use serde_json::{Value, json};

const TYPES: [&str; 28] = [
    "REPLY_START",
    "REPLY_END",
    "MODEL_CALL_START",
    "MODEL_CALL_END",
    "TEXT_BLOCK_START",
    "TEXT_BLOCK_DELTA",
    "TEXT_BLOCK_END",
    "DATA_BLOCK_START",
    "DATA_BLOCK_DELTA",
    "DATA_BLOCK_END",
    "THINKING_BLOCK_START",
    "THINKING_BLOCK_DELTA",
    "THINKING_BLOCK_END",
    "HINT_BLOCK",
    "TOOL_CALL_START",
    "TOOL_CALL_DELTA",
    "TOOL_CALL_END",
    "TOOL_RESULT_START",
    "TOOL_RESULT_TEXT_DELTA",
    "TOOL_RESULT_DATA_DELTA",
    "TOOL_RESULT_END",
    "EXCEED_MAX_ITERS",
    "REQUIRE_USER_CONFIRM",
    "REQUIRE_EXTERNAL_EXECUTION",
    "USER_CONFIRM_RESULT",
    "USER_INTERRUPT",
    "EXTERNAL_EXECUTION_RESULT",
    "CUSTOM",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-zA-Z0-9+/=]{0,12}",
        "\\PC{0,8}",
        Just("aGVsbG8=".to_owned()),
        Just("AAA".to_owned()),
        Just("https://example.com/a.png".to_owned()),
        Just("not a url".to_owned()),
    ]
}

fn opt_text() -> impl Strategy<Value = Option<String>> {
    prop_oneof![Just(None), text().prop_map(Some)]
}

/// An event as wire JSON: a real type with plausible (sometimes wrong) fields.
fn event() -> impl Strategy<Value = Value> {
    (
        0..TYPES.len(),
        prop_oneof![Just("r"), Just("r"), Just("r"), Just("other")],
        prop_oneof![Just("a"), Just("b")],
        text(),
        opt_text(),
        opt_text(),
        any::<bool>(),
        prop_oneof![Just("success"), Just("error"), Just("bogus")],
    )
        .prop_map(|(t, reply, id, delta, data, url, flag, state)| {
            let call = json!({"id": id, "name": "f", "input": "{}", "suggested_rules": []});
            json!({
                "type": TYPES[t], "reply_id": reply, "session_id": "s", "name": "n",
                "block_id": id, "tool_call_id": id, "tool_call_name": "f", "delta": delta,
                "text": if flag { Value::Null } else { json!(delta) },
                "media_type": "image/png", "data": data, "url": url,
                "input_tokens": 3, "output_tokens": 4, "model_name": "m", "state": state,
                "hint": if flag { json!(delta) } else { json!([{"type": "text", "text": delta}]) },
                "tool_calls": [call.clone()],
                "confirm_results": [{"confirmed": flag, "tool_call": call}],
                "execution_results": [{"id": id, "name": "f", "output": delta}],
            })
        })
}

fn fresh() -> Msg {
    let options = MsgOptions {
        id: Some("r".into()),
        ..MsgOptions::default()
    };
    assistant_msg("Friday", vec![], options).expect("valid")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_event_sequences_never_panic_and_errors_change_nothing(events in prop::collection::vec(event(), 0..40)) {
        let mut msg = fresh();
        for value in &events {
            let Ok(event) = AgentEvent::from_value(value) else { continue };
            // an event survives its own wire JSON
            prop_assert_eq!(AgentEvent::from_json(&event.to_json()).map(|e| e.to_json()), Ok(event.to_json()));
            let before = msg.to_json();
            if msg.append_event(&event).is_err() {
                prop_assert_eq!(msg.to_json(), before);
            }
        }
        let wire = msg.to_json();
        let again = Msg::from_json(&wire).expect("own output parses");
        prop_assert_eq!(again.to_json(), wire);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_decoders(bytes in prop::collection::vec(any::<u8>(), 0..200), cut in 0usize..200) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = AgentEvent::from_json(&text);
        let _ = Msg::from_json(&text);
        let cut = cut.min(bytes.len());
        let mut framer = Framer::new();
        framer.feed(&bytes[..cut]);
        framer.feed(&bytes[cut..]);
        framer.end();
        while framer.next_frame().is_some() {}
        let mut session = agentscope_message::Session::new(Default::default());
        let _ = session.feed(&bytes[..cut]);
        let _ = session.feed(&bytes[cut..]);
        let _ = session.end();
    }

    #[test]
    fn chunk_boundaries_do_not_change_the_events(cut in 0usize..400) {
        let sse = "data: {\"type\":\"CUSTOM\",\"name\":\"a\"}\n\n: ping\n\ndata: {\"type\":\"CUSTOM\",\"name\":\"b\"}\n\n";
        let jsonl = "{\"type\":\"CUSTOM\",\"name\":\"a\"}\r\n\n{\"type\":\"CUSTOM\",\"name\":\"b\"}";
        let array = "[ {\"type\":\"CUSTOM\",\"name\":\"a\"} ,\r\n{\"type\":\"CUSTOM\",\"name\":\"b\",\"value\":{\"s\":\"]\\\"[\"}}]";
        for input in [sse, jsonl, array] {
            let cut = cut.min(input.len());
            let mut framer = Framer::new();
            framer.feed(&input.as_bytes()[..cut]);
            framer.feed(&input.as_bytes()[cut..]);
            framer.end();
            let mut names = Vec::new();
            while let Some(frame) = framer.next_frame() {
                names.push(AgentEvent::from_json(&frame.expect("a frame").data).expect("an event").to_json());
            }
            prop_assert_eq!(names.len(), 2, "{}", input);
            prop_assert!(names[0].contains("\"name\":\"a\"") && names[1].contains("\"name\":\"b\""));
        }
    }
}

#[test]
fn a_byte_order_mark_split_across_chunks_is_skipped() {
    for body in [
        "{\"type\":\"CUSTOM\",\"name\":\"a\"}\n",
        "data: {\"type\":\"CUSTOM\",\"name\":\"a\"}\n\n",
        "[{\"type\":\"CUSTOM\",\"name\":\"a\"}]",
    ] {
        let input = format!("\u{FEFF}{body}");
        let mut framer = Framer::new();
        for byte in input.as_bytes() {
            framer.feed(std::slice::from_ref(byte));
        }
        framer.end();
        let mut seen = Vec::new();
        while let Some(frame) = framer.next_frame() {
            seen.push(frame.expect("a frame").data);
        }
        assert_eq!(seen, ["{\"type\":\"CUSTOM\",\"name\":\"a\"}"], "{body:?}");
    }
}

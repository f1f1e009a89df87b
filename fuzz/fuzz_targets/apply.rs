//! Event sequences applied to a message (one event per line): an event that is refused
//! leaves the message exactly as it was, and the message always writes valid wire JSON.
#![no_main]

use agentscope_message::{AgentEvent, BlockMatch, Matching, Msg, MsgOptions, ToolCallMatch, assistant_msg};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let options = MsgOptions {
        id: Some("r".into()),
        ..MsgOptions::default()
    };
    let mut msg: Msg = assistant_msg("Friday", vec![], options).expect("a valid message");
    let how = if text.len() % 2 == 0 {
        Matching::default()
    } else {
        Matching {
            tool_calls: ToolCallMatch::Newest,
            blocks: BlockMatch::Newest,
        }
    };
    for line in text.lines() {
        let Ok(event) = AgentEvent::from_json(line) else {
            continue;
        };
        let before = msg.to_json();
        if msg.append_event_with(&event, how).is_err() {
            assert_eq!(msg.to_json(), before, "a refused event changed the message");
        }
    }
    Msg::from_json(&msg.to_json()).expect("the message's own wire JSON validates");
});

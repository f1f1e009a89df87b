//! Event decoding: any text is an event or a typed error; a decoded event's wire JSON
//! decodes to an event with the same wire JSON (doubles to their last place, see common.rs).
#![no_main]

use agentscope_message::AgentEvent;
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(event) = AgentEvent::from_json(text) {
        let json = event.to_json();
        let again = AgentEvent::from_json(&json).expect("an event's own wire JSON decodes");
        assert!(common::same_json(&again.to_json(), &json), "{json}");
    }
});

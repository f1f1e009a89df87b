//! Event decoding: any text is an event or a typed error; a decoded event's wire JSON
//! decodes to an event with the same wire JSON.
#![no_main]

use agentscope_message::AgentEvent;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(event) = AgentEvent::from_json(text) {
        let json = event.to_json();
        let again = AgentEvent::from_json(&json).expect("an event's own wire JSON decodes");
        assert_eq!(again.to_json(), json);
    }
});

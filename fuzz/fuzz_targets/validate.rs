//! Message validation: any text is a message or a typed error; a valid message writes
//! wire JSON that validates to the same message.
#![no_main]

use agentscope_message::Msg;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(msg) = Msg::from_json(text) {
        let json = msg.to_json();
        let again = Msg::from_json(&json).expect("a message's own wire JSON validates");
        assert_eq!(again.to_json(), json);
    }
});

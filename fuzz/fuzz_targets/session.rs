//! Whole streams through a Session: any bytes, in any chunks, with any options, never
//! panic, and a checkpoint restores to the same messages. The first byte picks the
//! options and the chunk size.
#![no_main]

use agentscope_message::{BlockMatch, Session, SessionOptions, ToolCallMatch};
use libfuzzer_sys::fuzz_target;

fn messages(session: &Session) -> Vec<String> {
    session.messages().map(|m| m.to_json()).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, bytes)) = data.split_first() else {
        return;
    };
    let options = SessionOptions {
        strict: mode & 1 != 0,
        dedup: mode & 2 != 0,
        tool_call_match: if mode & 4 != 0 {
            ToolCallMatch::Newest
        } else {
            ToolCallMatch::First
        },
        block_match: if mode & 4 != 0 {
            BlockMatch::Newest
        } else {
            BlockMatch::First
        },
        // a small cap now and then, so that oversized frames are met too
        max_frame_bytes: if mode & 0x80 != 0 { 64 } else { 1 << 20 },
        // and small caps on what events add, so that refusals by them are met too
        max_block_bytes: if mode & 0x40 != 0 { 200 } else { 1 << 20 },
        max_blocks: if mode & 0x40 != 0 { 3 } else { 0 },
        ..SessionOptions::default()
    };
    let mut session = Session::new(options);
    for chunk in bytes.chunks(usize::from(mode >> 3) + 1) {
        // after a refused event the frames behind it wait for the next feed
        let mut result = session.feed(chunk);
        while result.is_err() {
            result = session.feed(b"");
        }
    }
    while session.end().is_err() {}
    let restored = Session::restore(&session.checkpoint()).expect("a checkpoint restores");
    assert_eq!(messages(&restored), messages(&session));
});

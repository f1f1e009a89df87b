//! Stream framing: any bytes, split anywhere, give the same frames (or errors) as the
//! bytes fed whole. The first byte picks the split points.
#![no_main]

use agentscope_message::{Frame, Framer};
use libfuzzer_sys::fuzz_target;

fn frames(chunks: &[&[u8]]) -> Vec<Result<Frame, String>> {
    let mut framer = Framer::new();
    let mut out = Vec::new();
    let mut take = |framer: &mut Framer| {
        while let Some(frame) = framer.next_frame() {
            out.push(frame.map_err(|e| e.code().to_owned()));
        }
    };
    for chunk in chunks {
        framer.feed(chunk);
        take(&mut framer);
    }
    framer.end();
    take(&mut framer);
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, bytes)) = data.split_first() else {
        return;
    };
    let step = usize::from(step % 13) + 1;
    let split: Vec<&[u8]> = bytes.chunks(step).collect();
    assert_eq!(frames(&split), frames(&[bytes]));
});

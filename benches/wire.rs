//! From the wire to the final message, natively: each workload's AgentScope SSE file
//! (written by `node bench/write-workloads.mjs`, the same bytes the npm benchmark feeds
//! the package) through `Session::feed` in 64 KiB chunks (W1-100000 also as one chunk),
//! `end()`, and the message's
//! wire JSON. Run with `cargo bench --bench wire` (part of `npm run bench`); the folder
//! is `BENCH_WORKLOADS`, else `target/bench-workloads`. Reports figures; asserts nothing
//! about time.

use std::path::PathBuf;
use std::time::Duration;

use agentscope_message::{Session, SessionOptions};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The workload's SSE bytes, fed in chunks of `chunk` bytes → the final message's wire
/// JSON.
fn replay(bytes: &[u8], chunk: usize) -> String {
    let mut session = Session::new(SessionOptions::default());
    for chunk in bytes.chunks(chunk) {
        session.feed(chunk).expect("a valid stream");
    }
    session.end().expect("a valid stream");
    session.message(0).expect("one reply").to_json()
}

fn wire(c: &mut Criterion) {
    let dir = std::env::var_os("BENCH_WORKLOADS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-workloads"),
        PathBuf::from,
    );
    let mut group = c.benchmark_group("wire");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for name in ["W1-10000", "W1-100000", "W1-1000000", "W2", "W3", "W4"] {
        let path = dir.join(format!("{name}.sse"));
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!(
                "{} is missing: run `node bench/write-workloads.mjs` first",
                path.display()
            );
            continue;
        };
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(name, |b| b.iter(|| replay(&bytes, 64 * 1024)));
        if name == "W1-100000" {
            // the whole file as one chunk (a body read whole)
            group.bench_function("W1-100000 one chunk", |b| b.iter(|| replay(&bytes, bytes.len())));
        }
    }
    group.finish();
}

criterion_group!(benches, wire);
criterion_main!(benches);

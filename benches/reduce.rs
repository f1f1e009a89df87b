//! Reducer throughput on the peer-benchmark workloads and the long fixtures.
//! Run with `cargo bench --bench reduce`; prints figures, asserts nothing about time.

use std::time::Instant;

use agentscope_message::{AgentEvent, Msg, MsgOptions, assistant_msg};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

fn fresh() -> Msg {
    let options = MsgOptions {
        id: Some("r".into()),
        ..MsgOptions::default()
    };
    assistant_msg("Friday", vec![], options).expect("valid")
}

/// Parses and applies `lines`, printing parse and apply time separately.
fn run(name: &str, lines: &[String]) {
    let t0 = Instant::now();
    let events: Vec<AgentEvent> = lines.iter().map(|l| AgentEvent::from_json(l).expect("event")).collect();
    let parse = t0.elapsed();
    let mut msg = fresh();
    let t1 = Instant::now();
    for e in &events {
        msg.append_event(e).expect("applies");
    }
    let apply = t1.elapsed();
    let t2 = Instant::now();
    let json = msg.to_json();
    let ser = t2.elapsed();
    let n = events.len() as f64;
    println!(
        "{name:<34} {:>8} events  parse {:>8.2} ms  apply {:>8.2} ms ({:>6.0}k ev/s)  serialise {:>7.2} ms  ({} B)",
        events.len(),
        parse.as_secs_f64() * 1e3,
        apply.as_secs_f64() * 1e3,
        n / apply.as_secs_f64() / 1e3,
        ser.as_secs_f64() * 1e3,
        json.len()
    );
}

fn ev(body: &str) -> String {
    format!(r#"{{"id":"e","created_at":"2025-06-01T12:00:00.000000","metadata":{{}},"reply_id":"r",{body}}}"#)
}

fn fixture(name: &str) -> Vec<String> {
    let path = format!("{}/tests/fixtures/conformance/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let case: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json");
    case["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e.to_string())
        .collect()
}

fn main() {
    let mut w1 = vec![ev(r#""type":"TEXT_BLOCK_START","block_id":"t""#)];
    w1.extend((0..100_000).map(|_| ev(r#""type":"TEXT_BLOCK_DELTA","block_id":"t","delta":"abcd""#)));
    run("W1 100k text deltas", &w1);

    let mut w2 = Vec::new();
    for c in 0..1000 {
        w2.push(ev(&format!(
            r#""type":"TOOL_CALL_START","tool_call_id":"c{c}","tool_call_name":"f""#
        )));
        for _ in 0..50 {
            w2.push(ev(&format!(
                r#""type":"TOOL_CALL_DELTA","tool_call_id":"c{c}","delta":"{{\"a\":""#
            )));
        }
    }
    run("W2 1000 tool calls x 50 deltas", &w2);

    for (name, total, chunk) in [
        ("W3 10 MB base64, 4 KB chunks", 10 << 20, 4096),
        ("2 MiB base64, 1 KiB chunks", 2 << 20, 1024),
    ] {
        let bytes: Vec<u8> = (0..total as u32).map(|i| (i * 31 % 256) as u8).collect();
        let mut w3 = vec![ev(
            r#""type":"DATA_BLOCK_START","block_id":"d","media_type":"image/png""#,
        )];
        w3.extend(bytes.chunks(chunk).map(|c| {
            ev(&format!(
                r#""type":"DATA_BLOCK_DELTA","block_id":"d","media_type":"image/png","data":"{}""#,
                STANDARD.encode(c)
            ))
        }));
        run(name, &w3);
    }

    for name in ["perf_long_text_stream", "perf_long_react_session"] {
        let mut lines = fixture(name);
        // the fixtures' reply id
        let reply = serde_json::from_str::<serde_json::Value>(&lines[0]).expect("json")["reply_id"].clone();
        for l in &mut lines {
            *l = l.replace(&reply.to_string(), "\"r\"");
        }
        run(name, &lines);
    }
}

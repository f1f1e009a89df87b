//! A relay in front of an AgentScope event stream, over agentscope-message's `UpdateStream`.
//!
//! Three parts run in this one process, on loopback ports the system picks:
//! - an upstream (axum) that serves each recording's `events.sse` and `events.jsonl`
//!   (`examples/recordings/<name>/`) in chunks of random sizes;
//! - the relay (axum): `GET /relay/<name>/<file>` fetches the upstream with reqwest,
//!   forwards its bytes unchanged to its own client, feeds them through an
//!   `UpdateStream` and stores each finished reply (one `Msg::to_json()` per ended reply);
//! - a client (reqwest) that reads every recording through the relay.
//!
//! It checks that the client received the upstream bytes byte-identical and that every
//! stored reply equals the reference's message (`final_msg.json`, with the values the
//! reducer makes up itself nulled, as `tests/recordings.rs` compares them), and exits
//! non-zero otherwise. `--out FILE` writes the stored replies as JSON Lines.
//!
//! Run: `cargo run --manifest-path examples/relay/Cargo.toml -- [--out FILE]`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use agentscope_message::json::{self, Value};
use agentscope_message::{Session, SessionOptions, UpdateKind, UpdateStream};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path as UrlPath, State};
use axum::http::StatusCode;
use axum::routing::get;
use futures_util::StreamExt;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// The stored replies of each stream the relay read, by `<name>/<file>`.
type Store = Arc<Mutex<HashMap<String, Vec<String>>>>;

#[derive(Clone)]
struct Relay {
    upstream: String,
    client: reqwest::Client,
    store: Store,
}

fn recordings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../recordings")
}

/// A tiny deterministic generator (xorshift) for the chunk sizes.
struct Cuts(u64);

impl Cuts {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The upstream: a recording's file in chunks of 1 to 4096 bytes, each sent on its own.
async fn upstream(UrlPath((name, file)): UrlPath<(String, String)>) -> Result<Body, StatusCode> {
    if !matches!(file.as_str(), "events.sse" | "events.jsonl") || name.contains(['/', '.']) {
        return Err(StatusCode::NOT_FOUND);
    }
    let bytes =
        Bytes::from(std::fs::read(recordings_dir().join(&name).join(&file)).map_err(|_| StatusCode::NOT_FOUND)?);
    let seed = name.bytes().fold(0x5eed_u64, |h, b| h.rotate_left(5) ^ u64::from(b)) | 1;
    let chunks = futures_util::stream::unfold((bytes, Cuts(seed)), |(mut rest, mut cuts)| async move {
        if rest.is_empty() {
            return None;
        }
        let chunk = rest.split_to((1 + cuts.below(4096)).min(rest.len()));
        tokio::task::yield_now().await; // a chunk per write, not one coalesced body
        Some((Ok::<_, std::io::Error>(chunk), (rest, cuts)))
    });
    Ok(Body::from_stream(chunks))
}

/// The relay: forwards the upstream's bytes as they come and stores each finished reply.
async fn relay(
    State(relay): State<Relay>,
    UrlPath((name, file)): UrlPath<(String, String)>,
) -> Result<Body, StatusCode> {
    let url = format!("{}/recordings/{name}/{file}", relay.upstream);
    let response = relay
        .client
        .get(url)
        .send()
        .await
        .map_err(|_| StatusCode::BAD_GATEWAY)?;
    if !response.status().is_success() {
        return Err(response.status());
    }
    let (forward, to_client) = mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    // every chunk goes to the client unchanged (a `Bytes` clone shares the buffer) and on
    // into the session
    let tee = response.bytes_stream().then(move |chunk| {
        let forward = forward.clone();
        async move {
            if let Ok(bytes) = &chunk {
                // a client that went away stops nothing: the replies are stored all the same
                let _ = forward.send(Ok(bytes.clone())).await;
            }
            chunk
        }
    });
    tokio::spawn(async move {
        let mut updates = Box::pin(UpdateStream::new(Session::new(SessionOptions::default()), tee));
        let mut stored = Vec::new();
        while let Some(update) = updates.next().await {
            match update {
                Ok(update) => {
                    if let Some(msg) = update.ended() {
                        stored.push(msg.to_json());
                    }
                    if let UpdateKind::Refused(error) = &update.kind {
                        eprintln!("relay {name}/{file}: {error}");
                    }
                }
                Err(error) => eprintln!("relay {name}/{file}: upstream: {error}"),
            }
        }
        relay
            .store
            .lock()
            .expect("store")
            .insert(format!("{name}/{file}"), stored);
        // the client's body ends only now (its sender goes with the stream): once it has
        // read the whole body, the replies are stored
        drop(updates);
    });
    let body = futures_util::stream::unfold(to_client, |mut rx| async move { rx.recv().await.map(|c| (c, rx)) });
    Ok(Body::from_stream(body))
}

async fn serve(router: Router) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
    let address = listener.local_addr().expect("its address");
    tokio::spawn(async move { axum::serve(listener, router).await.expect("serves") });
    format!("http://{address}")
}

/// Nulls what the reducer makes up itself (the recordings' README): the message's and
/// each block's `created_at` (also inside tool-result outputs), hint blocks'
/// `finished_at`, the ids of text blocks inside tool-result outputs. The values are the
/// library's own (`json::Value`: key order and digits as the reference's), so the
/// comparison is of their text, key order included.
fn stable(mut msg: Value) -> String {
    null(&mut msg, "created_at");
    for block in msg
        .get_mut("content")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        null(block, "created_at");
        if block["type"] == "hint" {
            null(block, "finished_at");
        }
        for item in block
            .get_mut("output")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            null(item, "created_at");
            if item["type"] == "text" {
                null(item, "id");
            }
        }
    }
    msg.to_string()
}

fn null(value: &mut Value, key: &str) {
    if let Some(v) = value.get_mut(key) {
        *v = Value::Null;
    }
}

fn reference(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(recordings_dir().join(name).join("final_msg.json")).expect("final_msg.json");
    match json::from_str(&text).expect("JSON") {
        Value::Array(msgs) => msgs,
        msg => vec![msg],
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = match args.as_slice() {
        [] => None,
        [flag, file] if flag == "--out" => Some(PathBuf::from(file)),
        _ => {
            eprintln!("usage: agentscope-relay [--out FILE]");
            std::process::exit(2);
        }
    };
    let upstream_url = serve(Router::new().route("/recordings/{name}/{file}", get(upstream))).await;
    let store = Store::default();
    let state = Relay {
        upstream: upstream_url,
        client: reqwest::Client::new(),
        store: store.clone(),
    };
    let relay_url = serve(
        Router::new()
            .route("/relay/{name}/{file}", get(relay))
            .with_state(state),
    )
    .await;

    let mut names: Vec<String> = std::fs::read_dir(recordings_dir())
        .expect("examples/recordings")
        .filter_map(|e| e.ok().filter(|e| e.path().is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("a client");
    let (mut passed, mut failed, mut replies) = (0, 0, Vec::new());
    for name in &names {
        let want: Vec<String> = reference(name).into_iter().map(stable).collect();
        for file in ["events.sse", "events.jsonl"] {
            let what = format!("{name}/{file}");
            let sent = std::fs::read(recordings_dir().join(name).join(file)).expect("the recording");
            let got = async {
                client
                    .get(format!("{relay_url}/relay/{what}"))
                    .send()
                    .await?
                    .error_for_status()?
                    .bytes()
                    .await
            };
            let mut problems = Vec::new();
            match got.await {
                Ok(got) if got[..] == sent[..] => {}
                Ok(got) => problems.push(format!(
                    "the client got {} bytes, not the upstream's {}",
                    got.len(),
                    sent.len()
                )),
                Err(e) => problems.push(format!("the client: {e}")),
            }
            let stored = store.lock().expect("store").remove(&what).unwrap_or_default();
            let msgs: Vec<String> = stored
                .iter()
                .map(|j| stable(json::from_str(j).expect("JSON")))
                .collect();
            if msgs.len() != want.len() {
                problems.push(format!(
                    "{} replies stored, the reference has {}",
                    msgs.len(),
                    want.len()
                ));
            } else if let Some(i) = (0..msgs.len()).find(|&i| msgs[i] != want[i]) {
                problems.push(format!("reply {i} differs from the reference's message"));
            }
            if problems.is_empty() {
                passed += 1;
                println!(
                    "ok {what}: {} bytes forwarded, {} replies stored",
                    sent.len(),
                    stored.len()
                );
            } else {
                failed += 1;
                println!("FAILED {what}: {}", problems.join("; "));
            }
            replies.extend(stored);
        }
    }
    if let Some(out) = out {
        std::fs::write(&out, replies.iter().map(|r| format!("{r}\n")).collect::<String>()).expect("--out is writable");
        println!("{} replies written to {}", replies.len(), out.display());
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 || passed == 0 {
        std::process::exit(1);
    }
}

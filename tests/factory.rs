//! Injected id and timestamp factories (one test: the factories are process-wide).
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use agentscope_message::{
    AgentEvent, MsgOptions, assistant_msg, generate_id, generate_timestamp, set_id_factory, set_timestamp_factory,
    user_msg,
};

#[test]
fn factories_are_injected_and_defaults_restored() {
    // defaults: uuid4 hex and ISO 8601 UTC with microseconds
    let id = generate_id();
    assert_eq!(id.len(), 32);
    assert!(id.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    let ts = generate_timestamp();
    assert_eq!(ts.len(), "2026-11-29T23:58:50.123456Z".len(), "{ts}");
    assert!(ts.ends_with('Z') && ts.as_bytes()[10] == b'T', "{ts}");

    let n = Arc::new(AtomicUsize::new(0));
    let counter = n.clone();
    set_id_factory(Some(Arc::new(move || {
        format!("id-{}", counter.fetch_add(1, Ordering::SeqCst))
    })));
    set_timestamp_factory(Some(Arc::new(|| "T".to_owned())));

    let msg = user_msg("user", "hi", MsgOptions::default()).unwrap();
    let v = serde_json::to_value(&msg).expect("JSON");
    // the text block is made before the message id, as in the reference factory
    assert_eq!(v["content"][0]["id"], "id-0");
    assert_eq!(v["id"], "id-1");
    assert_eq!(v["created_at"], "T");
    assert_eq!(v["finished_at"], "T", "UserMsg defaults finished_at to created_at");

    let mut reply = assistant_msg(
        "Friday",
        vec![],
        MsgOptions {
            id: Some("r".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&reply).expect("JSON")["finished_at"],
        serde_json::Value::Null
    );
    let hint = AgentEvent::from_json(r#"{"type":"HINT_BLOCK","reply_id":"r","block_id":"h","hint":"x"}"#).unwrap();
    assert_eq!(hint.id(), "id-2", "a missing event id comes from the factory");
    reply.append_event(&hint).unwrap();
    assert_eq!(
        serde_json::to_value(&reply).expect("JSON")["content"][0]["created_at"],
        "T"
    );
    assert_eq!(
        serde_json::to_value(&reply).expect("JSON")["content"][0]["finished_at"],
        "T"
    );

    set_id_factory(None);
    set_timestamp_factory(None);
    assert_eq!(generate_id().len(), 32);
    assert_ne!(generate_timestamp(), "T");
}

#[test]
fn the_url_host_step_keeps_its_old_path_in_factory() {
    // moved to the crate root with URL normalisation; `factory::` still names the same items
    let old: fn(Option<agentscope_message::factory::UrlHostToAscii>) =
        agentscope_message::factory::set_url_host_to_ascii;
    let new: fn(Option<agentscope_message::UrlHostToAscii>) = agentscope_message::set_url_host_to_ascii;
    assert_eq!(old as usize, new as usize);
    assert_eq!(
        agentscope_message::factory::url_host_to_ascii("http://EXAMPLE.com/").as_deref(),
        agentscope_message::url_host_to_ascii("http://EXAMPLE.com/").as_deref()
    );
}

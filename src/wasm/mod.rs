//! The WebAssembly binding (feature `wasm`): a thin, mechanical layer over the core.
//!
//! Every export does the same three things: decode its argument inside the body (wire
//! JSON text, parsed by the core's own decoder, so that browser and backend read events
//! identically), call the core, encode the result (wire JSON text; the TS layer
//! `JSON.parse`s it, so maps arrive as plain objects and `None` as `null`). Errors become
//! a JS `Error` whose `name` is `MsgError` and whose `code` is [`MsgError::code`]; the TS
//! layer rethrows it as its `MsgError` class. Nothing here panics.

mod msg;
mod session;

use std::cell::RefCell;
use std::sync::Arc;

use js_sys::{Function, Reflect};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::error::MsgError;
use crate::factory;

/// A JS `Error` named `MsgError` with a stable `code` (see the Rust `MsgError`).
pub(crate) fn js_error(error: &MsgError) -> JsValue {
    let e = js_sys::Error::new(&error.to_string());
    e.set_name("MsgError");
    // setting a property on a fresh Error object cannot fail
    let _ = Reflect::set(&e, &"code".into(), &error.code().into());
    e.into()
}

/// A refused event of a session: the `MsgError` of [`js_error`], with the event's 1-based
/// `index` and, when known, its `eventId` and `sseId`.
pub(crate) fn js_session_error(error: &crate::SessionError) -> JsValue {
    let e = js_error(&error.error);
    let _ = Reflect::set(&e, &"message".into(), &error.to_string().into());
    let _ = Reflect::set(&e, &"index".into(), &(error.index as f64).into());
    if let Some(id) = &error.event_id {
        let _ = Reflect::set(&e, &"eventId".into(), &id.into());
    }
    if let Some(id) = &error.sse_id {
        let _ = Reflect::set(&e, &"sseId".into(), &id.into());
    }
    e
}

thread_local! {
    static ID_FACTORY: RefCell<Option<Function>> = const { RefCell::new(None) };
    static TIMESTAMP_FACTORY: RefCell<Option<Function>> = const { RefCell::new(None) };
}

fn call_factory(slot: &'static std::thread::LocalKey<RefCell<Option<Function>>>) -> Option<String> {
    // take the function out first: the JS factory may call setIdFactory itself
    let factory = slot.with(|f| f.borrow().clone())?;
    factory.call0(&JsValue::UNDEFINED).ok()?.as_string()
}

thread_local! {
    // the last formatted time, reused within the same millisecond
    static NOW: RefCell<(f64, String)> = const { RefCell::new((f64::NAN, String::new())) };
    // random bytes for ids, fetched from crypto.getRandomValues 4 KiB at a time
    static RANDOM: RefCell<(Vec<u8>, usize)> = const { RefCell::new((Vec::new(), 0)) };
    // ids made without crypto.getRandomValues (see `fallback_random`)
    static FALLBACK_IDS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// `new Date().toISOString()` (UTC, milliseconds), formatted once per millisecond. When
/// the host clock fails (`Date.now` throws or gives `NaN`), the last time made, or
/// `1970-01-01T00:00:00.000Z` before any.
fn js_now() -> String {
    let ms = date_now().unwrap_or(f64::NAN);
    if let Some(same) = NOW.with(|now| {
        let now = now.borrow();
        (now.0 == ms).then(|| now.1.clone())
    }) {
        return same;
    }
    // no borrow is held while the host runs
    let iso = JsDate::new(ms).and_then(|date| date.to_iso_string()).ok();
    NOW.with(|now| {
        let mut now = now.borrow_mut();
        match iso {
            Some(iso) => {
                *now = (ms, iso);
                now.1.clone()
            }
            None if now.1.is_empty() => "1970-01-01T00:00:00.000Z".to_owned(),
            None => now.1.clone(),
        }
    })
}

/// Fills `buf` from the host's `crypto.getRandomValues`; false when there is none.
fn fill_random(buf: &mut [u8]) -> bool {
    let array = js_sys::Uint8Array::new_with_length(buf.len() as u32);
    let filled = Reflect::get(&js_sys::global(), &"crypto".into())
        .and_then(|crypto| {
            let get: Function = Reflect::get(&crypto, &"getRandomValues".into())?.dyn_into()?;
            get.call1(&crypto, &array)
        })
        .is_ok();
    if filled {
        array.copy_to(buf);
    }
    filled
}

/// Random bytes for an id when the host has no `crypto.getRandomValues`: a counter in the
/// first six bytes (so ids never repeat within this module) and `Math.random()` bits.
fn fallback_random() -> [u8; 16] {
    let n = FALLBACK_IDS.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    let bits = (math_random().unwrap_or(0.0) * 9_007_199_254_740_992.0) as u64 ^ date_now().unwrap_or(0.0) as u64;
    let mut bytes = [0u8; 16];
    bytes[..6].copy_from_slice(&n.to_le_bytes()[..6]);
    bytes[9..].copy_from_slice(&bits.to_le_bytes()[..7]);
    bytes
}

/// A uuid4 as 32 hex characters, from pooled randomness (one host call per 256 ids).
/// No borrow of the pool is held while the host runs: a JS exception that unwinds through
/// the call (a `RangeError` when the JS stack is nearly full) would leave it borrowed, and
/// every later id would trap.
fn random_id() -> String {
    let take = || {
        RANDOM.with(|pool| {
            let mut pool = pool.borrow_mut();
            let (buf, used) = &mut *pool;
            (*used + 16 <= buf.len()).then(|| {
                let mut bytes = [0u8; 16];
                bytes.copy_from_slice(&buf[*used..*used + 16]);
                *used += 16;
                bytes
            })
        })
    };
    let bytes = take().or_else(|| {
        let mut buf = vec![0u8; 4096];
        // nothing is kept of a failed fill: the next id asks the host again
        fill_random(&mut buf).then(|| RANDOM.with(|pool| *pool.borrow_mut() = (buf, 0)))?;
        take()
    });
    let bytes = bytes.unwrap_or_else(fallback_random);
    uuid::Builder::from_random_bytes(bytes).into_uuid().simple().to_string()
}

#[wasm_bindgen]
extern "C" {
    /// The host's WHATWG `URL`.
    type Url;
    #[wasm_bindgen(constructor, js_class = "URL", catch)]
    fn new(url: &str) -> Result<Url, JsValue>;
    #[wasm_bindgen(method, getter, js_class = "URL")]
    fn hostname(this: &Url) -> String;

    // Every host call that can throw is imported with `catch`: a JS exception must never
    // unwind through wasm (it would leave a borrow held and leak the shadow stack).
    /// `Date.now()` (a page may replace it with one that throws).
    #[wasm_bindgen(catch, js_namespace = Date, js_name = now)]
    fn date_now() -> Result<f64, JsValue>;
    /// `Math.random()`.
    #[wasm_bindgen(catch, js_namespace = Math, js_name = random)]
    fn math_random() -> Result<f64, JsValue>;
    #[wasm_bindgen(js_name = Date)]
    type JsDate;
    #[wasm_bindgen(constructor, js_class = "Date", catch)]
    fn new(ms: f64) -> Result<JsDate, JsValue>;
    /// Throws a `RangeError` for an invalid date (`NaN`, beyond ±8.64e15 ms).
    #[wasm_bindgen(method, catch, js_class = "Date", js_name = toISOString)]
    fn to_iso_string(this: &JsDate) -> Result<String, JsValue>;
}

/// A domain put in ASCII by the host's WHATWG URL parser, which has the IDNA tables the
/// core lacks: the `hostname` of `https://{domain}.a/`, without its `.a` (so that a
/// domain that ends in a number, e.g. `ü.1`, is converted and then refused by the `url`
/// crate as an invalid IPv4 address, as the reference refuses it). The domain has no
/// forbidden domain code point in ASCII (`crate::url::url_host_to_ascii_with` checks), so
/// it is all host in that URL. `None` when the parser throws (or `URL` is missing).
fn js_domain_to_ascii(domain: &str) -> Option<String> {
    let host = Url::new(&format!("https://{domain}.a/")).ok()?.hostname();
    host.strip_suffix(".a").map(str::to_owned)
}

/// Installs the JS clock and pooled randomness as the default factories when the module
/// starts (the core has no clock on wasm32-unknown-unknown).
#[wasm_bindgen(start)]
fn start() {
    factory::set_timestamp_factory(Some(Arc::new(js_now)));
    factory::set_id_factory(Some(Arc::new(random_id)));
    // and the host's `URL` parser for IDNA: the core has no Unicode tables for it (see
    // `crate::set_url_host_to_ascii`)
    crate::set_url_host_to_ascii(Some(Arc::new(|url: &str| {
        crate::url::url_host_to_ascii_with(url, &js_domain_to_ascii)
    })));
}

/// Replaces the id factory: `fn` returns a fresh id string; `null` restores the default
/// (uuid4 as 32 lowercase hex characters). A call that throws or returns a non-string
/// falls back to the default.
#[wasm_bindgen(js_name = setIdFactory)]
pub fn set_id_factory(factory: Option<Function>) {
    ID_FACTORY.with(|slot| *slot.borrow_mut() = factory);
    factory::set_id_factory(Some(Arc::new(|| call_factory(&ID_FACTORY).unwrap_or_else(random_id))));
}

/// Replaces the timestamp factory: `fn` returns a timestamp string; `null` restores the
/// default (`new Date().toISOString()`, UTC with milliseconds). A call that throws or
/// returns a non-string falls back to the default.
#[wasm_bindgen(js_name = setTimestampFactory)]
pub fn set_timestamp_factory(factory: Option<Function>) {
    TIMESTAMP_FACTORY.with(|slot| *slot.borrow_mut() = factory);
    factory::set_timestamp_factory(Some(Arc::new(|| {
        call_factory(&TIMESTAMP_FACTORY).unwrap_or_else(js_now)
    })));
}

/// Parses one event from wire JSON and returns its normalised wire JSON (defaults
/// filled). Throws `MsgError` (`invalid_json`, `invalid_event`).
#[wasm_bindgen(js_name = parseEvent)]
pub fn parse_event(json: &str) -> Result<String, JsValue> {
    crate::AgentEvent::from_json(json)
        .map(|e| e.to_json())
        .map_err(|e| js_error(&e))
}

//! Injectable id and timestamp sources (REFERENCE.md §0), and the IDNA step of URL
//! normalisation.
//!
//! Every default the model fills in (a block's `id`, a message's `created_at`, the time a
//! reducer-created block was made) comes from these two factories, so a test or a host
//! can make the output deterministic. They are process-wide, like agentscope's
//! `set_id_factory` / `set_timestamp_factory`.

use std::sync::{Arc, RwLock};

/// A function that returns a fresh id or timestamp string.
pub type Factory = Arc<dyn Fn() -> String + Send + Sync>;

/// A function that returns a URL with its host in ASCII (see [`set_url_host_to_ascii`]).
pub type UrlHostToAscii = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

static ID_FACTORY: RwLock<Option<Factory>> = RwLock::new(None);
static TIMESTAMP_FACTORY: RwLock<Option<Factory>> = RwLock::new(None);
static URL_HOST_TO_ASCII: RwLock<Option<UrlHostToAscii>> = RwLock::new(None);

/// Replaces the id factory; `None` restores the default (uuid4 as 32 lowercase hex
/// characters, like the reference's `uuid.uuid4().hex`).
pub fn set_id_factory(factory: Option<Factory>) {
    set(&ID_FACTORY, factory);
}

/// Replaces the timestamp factory; `None` restores the default: the current time as
/// ISO 8601 UTC with microseconds, e.g. `2026-11-29T23:58:50.123456Z`. (The reference
/// uses naive local time; this port uses UTC so that backend and browser agree.)
/// On `wasm32-unknown-unknown` the core has no clock: the JavaScript binding installs
/// one at start-up, and without it the default returns `1970-01-01T00:00:00.000000Z`.
pub fn set_timestamp_factory(factory: Option<Factory>) {
    set(&TIMESTAMP_FACTORY, factory);
}

/// A new id from the current id factory.
pub fn generate_id() -> String {
    call(&ID_FACTORY).unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string())
}

/// A new timestamp from the current timestamp factory.
pub fn generate_timestamp() -> String {
    call(&TIMESTAMP_FACTORY).unwrap_or_else(default_timestamp)
}

/// Replaces the IDNA step of URL normalisation ([`crate::normalize_url`]). The `url`
/// crate is built without Unicode tables (see Cargo.toml), so a URL that is not all
/// ASCII, or has a `%` or an `xn--` in it, goes through this function first: it gets the
/// URL as given and returns it with its host in ASCII if it is a special URL's (`http`,
/// `https`, `ws`, `wss`, `ftp`, `file`) that needs it (`https://bücher.de/x` →
/// `https://xn--bcher-kva.de/x`; a WHATWG `href` will do, as the result is parsed
/// again), or `None` when the host is not a valid international domain name (the URL
/// is then refused as `invalid_url`: "invalid international domain name").
/// The host must be converted as the WHATWG URL standard's "domain to ASCII" does: UTS
/// #46 ToASCII, nontransitional, with CheckBidi and CheckJoiners, without STD3 rules,
/// hyphen or DNS length checks. `None` restores the default: natively, the `idna` crate
/// (its 0.5 line, with Unicode 13's tables); on `wasm32-unknown-unknown` the JavaScript
/// binding installs the host's `URL` parser at start-up, and without it such a URL is
/// refused when its host needs IDNA. Both defaults map what Unicode 15.1 changed and
/// check the result with table-free rules (Punycode labels, part of the bidi rule), so
/// that both give the reference's results (`tests/fixtures/idn.json`); a function set
/// here replaces all of that.
pub fn set_url_host_to_ascii(convert: Option<UrlHostToAscii>) {
    set(&URL_HOST_TO_ASCII, convert);
}

/// `url` with its host in ASCII, from the current conversion (see
/// [`set_url_host_to_ascii`]); `None` when the host is not a valid international domain
/// name.
pub fn url_host_to_ascii(url: &str) -> Option<String> {
    let convert = URL_HOST_TO_ASCII.read().unwrap_or_else(|e| e.into_inner()).clone();
    match convert {
        Some(convert) => convert(url),
        None => default_url_host_to_ascii(url),
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn default_url_host_to_ascii(url: &str) -> Option<String> {
    crate::source::url_host_to_ascii(url, &crate::source::idna_to_ascii)
}

/// Without the JavaScript binding's `URL` parser: a host that is not ASCII is refused,
/// an ASCII one (with `xn--` labels) checked as the binding's results are.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn default_url_host_to_ascii(url: &str) -> Option<String> {
    crate::source::url_host_to_ascii(url, &|domain| domain.is_ascii().then(|| domain.to_ascii_lowercase()))
}

fn set<T>(slot: &RwLock<Option<T>>, value: Option<T>) {
    // A poisoned lock only means another thread panicked while swapping an Arc; the
    // stored value is still a valid Option, so recover it instead of panicking.
    let mut guard = slot.write().unwrap_or_else(|e| e.into_inner());
    *guard = value;
}

fn call(slot: &RwLock<Option<Factory>>) -> Option<String> {
    let factory = slot.read().unwrap_or_else(|e| e.into_inner()).clone();
    factory.map(|f| f())
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn default_timestamp() -> String {
    humantime::format_rfc3339_micros(std::time::SystemTime::now()).to_string()
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn default_timestamp() -> String {
    // `SystemTime::now()` panics on wasm32-unknown-unknown; the binding installs a clock.
    "1970-01-01T00:00:00.000000Z".to_string()
}

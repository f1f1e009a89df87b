//! Injectable id and timestamp sources (REFERENCE.md §0).
//!
//! Every default the model fills in (a block's `id`, a message's `created_at`, the time a
//! reducer-created block was made) comes from these two factories, so a test or a host
//! can make the output deterministic. They are process-wide, like agentscope's
//! `set_id_factory` / `set_timestamp_factory`.

use std::sync::{Arc, RwLock};

// The IDNA step of URL normalisation lives with it (src/url.rs, re-exported at the crate
// root); these paths stay for code that names it here.
#[doc(hidden)]
pub use crate::url::{UrlHostToAscii, set_url_host_to_ascii, url_host_to_ascii};

/// A function that returns a fresh id or timestamp string.
pub type Factory = Arc<dyn Fn() -> String + Send + Sync>;

static ID_FACTORY: RwLock<Option<Factory>> = RwLock::new(None);
static TIMESTAMP_FACTORY: RwLock<Option<Factory>> = RwLock::new(None);

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

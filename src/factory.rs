//! Injectable id and timestamp sources (REFERENCE.md §0).
//!
//! Every default the model fills in (a block's `id`, a message's `created_at`, the time a
//! reducer-created block was made) comes from these two factories, so a test or a host
//! can make the output deterministic. They are process-wide, like agentscope's
//! `set_id_factory` / `set_timestamp_factory`; [`with_factories`] replaces them for one
//! call on one thread, and a [`crate::Session`] can carry its own
//! ([`crate::Session::set_factories`]), so that deterministic sessions run side by side.

use std::cell::RefCell;
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

/// An id factory and a timestamp factory for [`with_factories`] or a session
/// ([`crate::Session::set_factories`]); a `None` one falls back to the process-wide
/// factory ([`set_id_factory`], [`set_timestamp_factory`]).
#[derive(Clone, Default)]
pub struct Factories {
    /// Makes every id the model fills in.
    pub id: Option<Factory>,
    /// Makes every timestamp the model fills in.
    pub timestamp: Option<Factory>,
}

impl std::fmt::Debug for Factories {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Factories")
            .field("id", &self.id.is_some())
            .field("timestamp", &self.timestamp.is_some())
            .finish()
    }
}

thread_local! {
    static SCOPED: RefCell<Factories> = RefCell::new(Factories::default());
}

/// Runs `f` with `factories` in place of the process-wide ones, on this thread only (a
/// `None` one falls back to the process-wide factory); the previous ones are back when
/// `f` returns. Calls nest.
///
/// ```
/// use std::sync::Arc;
/// use agentscope_message::factory::{Factories, generate_id, with_factories};
///
/// let fixed = Factories { id: Some(Arc::new(|| "id-1".to_owned())), timestamp: None };
/// assert_eq!(with_factories(&fixed, generate_id), "id-1");
/// assert_ne!(generate_id(), "id-1");
/// ```
pub fn with_factories<R>(factories: &Factories, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Factories>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(previous) = self.0.take() {
                let _ = SCOPED.try_with(|scoped| *scoped.borrow_mut() = previous);
            }
        }
    }
    let previous = SCOPED.try_with(|scoped| scoped.replace(factories.clone())).ok();
    let _restore = Restore(previous);
    f()
}

/// The factory [`with_factories`] put in place on this thread, if any.
fn scoped(pick: fn(&Factories) -> &Option<Factory>) -> Option<Factory> {
    SCOPED.try_with(|scoped| pick(&scoped.borrow()).clone()).ok().flatten()
}

/// A new id from the current id factory ([`with_factories`]' on this thread, else the
/// process-wide one).
pub fn generate_id() -> String {
    match scoped(|f| &f.id) {
        Some(factory) => factory(),
        None => call(&ID_FACTORY).unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string()),
    }
}

/// A new timestamp from the current timestamp factory ([`with_factories`]' on this
/// thread, else the process-wide one).
pub fn generate_timestamp() -> String {
    match scoped(|f| &f.timestamp) {
        Some(factory) => factory(),
        None => call(&TIMESTAMP_FACTORY).unwrap_or_else(default_timestamp),
    }
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

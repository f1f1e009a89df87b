//! Nothing of its own: this crate is the workspace in which the npm package's .wasm is
//! built (the library itself linked as a cdylib, with the table-free `idna_adapter` of
//! this crate's manifest and lockfile) and the library's wasm tests run (see
//! `Cargo.toml`). A cdylib of this crate that re-exported the library would give the
//! same exports in a .wasm 0.6 KB gzip larger (its code optimised as a dependency's).

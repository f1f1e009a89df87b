//! A host application of agentscope-message: see `tests/host.rs`.

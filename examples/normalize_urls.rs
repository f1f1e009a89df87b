//! Reads a JSON array of URL strings on stdin and writes a JSON array of what
//! [`agentscope_message::normalize_url`] makes of each (the stored URL, or `null` when it is
//! refused). Used by `bench/url-parsers.mjs` to compare the port with the hosts' `URL`.
//!
//! `cargo run --release --example normalize_urls < urls.json`

use std::io::Read;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let urls: Vec<String> = serde_json::from_str(&input)?;
    let normalized: Vec<Option<String>> = urls
        .iter()
        .map(|url| agentscope_message::normalize_url(url).ok())
        .collect();
    println!("{}", serde_json::to_string(&normalized)?);
    Ok(())
}

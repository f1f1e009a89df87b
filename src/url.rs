//! URL normalisation as pydantic's `AnyUrl` does it ([`normalize_url`]), with its IDNA
//! step: a host put in ASCII ([`url_host_to_ascii`]) by UTS #46 as the WHATWG URL
//! standard runs it, replaceable with [`set_url_host_to_ascii`].

use std::sync::{Arc, RwLock};

use crate::error::MsgError;

/// A function that returns a URL with its host in ASCII (see [`set_url_host_to_ascii`]).
pub type UrlHostToAscii = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

static URL_HOST_TO_ASCII: RwLock<Option<UrlHostToAscii>> = RwLock::new(None);

/// Normalises `url` like pydantic's `AnyUrl` (which is built on the same `url` crate).
///
/// The `url` crate is built here without a Unicode back end for IDNA (`idna_adapter`
/// 1.0, see Cargo.toml: its tables would not fit the .wasm size budget): it refuses a
/// host that is not ASCII (and asserts on one in debug builds) and lets a Punycode
/// (`xn--`) label through unchecked. So a URL that is not all ASCII, or has a `%` or an
/// `xn--` in it, first has its host put in ASCII by [`url_host_to_ascii`]
/// (UTS #46 ToASCII as the WHATWG URL standard runs it).
pub fn normalize_url(url: &str) -> Result<String, MsgError> {
    let parsed = if url.is_ascii() && !url.contains('%') && !has_ace_label(url) {
        ::url::Url::parse(url)
    } else {
        match url_host_to_ascii(url) {
            Some(ascii) => ::url::Url::parse(&ascii),
            None => Err(::url::ParseError::IdnaError),
        }
    };
    parsed
        .map(String::from)
        .map_err(|e| MsgError::InvalidUrl(e.to_string()))
}

/// True when `s` has `xn--` in it (in any case).
fn has_ace_label(s: &str) -> bool {
    s.as_bytes().windows(4).any(|w| w.eq_ignore_ascii_case(b"xn--"))
}

/// Replaces the IDNA step of URL normalisation ([`normalize_url`]). The `url`
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
    // A poisoned lock only means another thread panicked while swapping an Arc; the
    // stored value is still a valid Option, so recover it instead of panicking.
    *URL_HOST_TO_ASCII.write().unwrap_or_else(|e| e.into_inner()) = convert;
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
    url_host_to_ascii_with(url, &idna_to_ascii)
}

/// Without the JavaScript binding's `URL` parser: a host that is not ASCII is refused,
/// an ASCII one (with `xn--` labels) checked as the binding's results are.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn default_url_host_to_ascii(url: &str) -> Option<String> {
    url_host_to_ascii_with(url, &|domain| domain.is_ascii().then(|| domain.to_ascii_lowercase()))
}

/// `url` with its host, found as the WHATWG URL parser finds it, converted by
/// `domain_to_ascii` (UTS #46 ToASCII, see [`set_url_host_to_ascii`])
/// when it is the host of a special URL (`http`, `https`, `ws`, `wss`, `ftp`, `file`)
/// and, percent-decoded, not ASCII or has `xn--` in it (else `url` as it is); `None` when
/// the host is not a valid international domain name. The same steps on every target:
/// natively `domain_to_ascii` is [`idna_to_ascii`], in wasm the JS host's `URL` parser.
/// Its result is checked by [`ascii_domain_valid`], and [`unicode_15_1_mapping`] comes
/// before it.
pub(crate) fn url_host_to_ascii_with(url: &str, domain_to_ascii: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let Some((input, start, end)) = find_host(url) else {
        return Some(url.to_owned());
    };
    // (the WHATWG parser reads invalid UTF-8 as U+FFFD, which IDNA refuses)
    let domain = percent_encoding::percent_decode(&input.as_bytes()[start..end])
        .decode_utf8()
        .ok()?;
    if domain.is_ascii() && !has_ace_label(&domain) {
        return Some(url.to_owned());
    }
    // no WHATWG "forbidden domain code point" in it, so that it is all host once put back;
    // one in ASCII stays one through UTS #46, so it is refused before (a JS converter
    // gets the domain inside a URL)
    let is_domain_byte = |c: u8| c > b' ' && c < 0x7f && !b"#%/:<>?@[\\]^|".contains(&c);
    if !domain.bytes().all(|c| !c.is_ascii() || is_domain_byte(c)) {
        return None;
    }
    let ascii = domain_to_ascii(&domain.chars().map(unicode_15_1_mapping).collect::<String>())?;
    if ascii.is_empty() || !ascii.bytes().all(is_domain_byte) || !ascii_domain_valid(&ascii) {
        return None;
    }
    Some([&input[..start], &ascii, &input[end..]].concat())
}

/// UTS #46's mapping of Unicode 15.1 (the reference's tables) where older tables
/// (`idna` 0.5's, node 20's) differ: U+1E9E (ẞ) maps to ß (before: "ss"), and five CJK
/// compatibility ideographs, disallowed before, to their NFKC form.
fn unicode_15_1_mapping(c: char) -> char {
    match c {
        '\u{1E9E}' => '\u{DF}',
        '\u{2F868}' => '\u{36FC}',
        '\u{2F874}' => '\u{5F53}',
        '\u{2F91F}' => '\u{243AB}',
        '\u{2F95F}' => '\u{7AEE}',
        '\u{2F9BF}' => '\u{45D7}',
        c => c,
    }
}

/// The `xn--` payload of a label, if it has one (in any case).
fn ace_payload(label: &str) -> Option<&str> {
    label.get(4..).filter(|_| label[..4].eq_ignore_ascii_case("xn--"))
}

/// The checks of a domain put in ASCII that need no Unicode tables, for converters that
/// skip them (Chromium lets some Punycode labels through unchecked, e.g. `xn--a`, U+0080;
/// node 20 runs RFC 5893's bidi rule on a right-to-left label only, not on the other
/// labels of the domain). Each `xn--` label decodes to what encodes to it again: not
/// empty, not all ASCII, no ASCII capital and no control character (UTS #46 maps the
/// one and disallows the other). Then [`bidi_rule_allowed`] on the decoded labels.
fn ascii_domain_valid(ascii: &str) -> bool {
    let mut labels = Vec::new();
    for label in ascii.split('.') {
        let Some(payload) = ace_payload(label) else {
            labels.push(label.chars().collect());
            continue;
        };
        let Some(decoded) = idna::punycode::decode(payload) else {
            return false;
        };
        let valid = !decoded.iter().all(char::is_ascii)
            && !decoded.iter().any(|c| c.is_ascii_uppercase() || c.is_control())
            && idna::punycode::encode(&decoded).is_some_and(|again| again.eq_ignore_ascii_case(payload));
        if !valid {
            return false;
        }
        labels.push(decoded);
    }
    bidi_rule_allowed(&labels)
}

/// RFC 5893's bidi rule (UTS #46 CheckBidi) where it needs no Unicode tables: only the
/// Bidi_Class of ASCII, of the Hebrew and Arabic letters (R or AL) and of the Arabic-
/// Indic digits (AN; the extended ones are EN) is known here. A domain with one of those
/// letters or AN digits is a bidi domain; then no label starts with anything but a letter
/// (rule 1: an ASCII one, or one not known here), none ends with ASCII that is neither
/// letter nor digit (rules 3 and 6), and a label with a right-to-left character has no
/// ASCII letter (rule 2) and not both kinds of digits (rule 4). Any other violation is
/// left to the converter (`idna` and Chromium check them all, node 20 those within a
/// right-to-left label).
fn bidi_rule_allowed(labels: &[Vec<char>]) -> bool {
    let right_to_left = |c: &char| {
        matches!(c, '\u{5D0}'..='\u{5EA}' | '\u{5EF}'..='\u{5F2}' | '\u{620}'..='\u{64A}' | '\u{660}'..='\u{669}'
            | '\u{66E}'..='\u{66F}' | '\u{671}'..='\u{6D3}')
    };
    let arabic_number = |c: &char| ('\u{660}'..='\u{669}').contains(c);
    let european_number = |c: &char| c.is_ascii_digit() || ('\u{6F0}'..='\u{6F9}').contains(c);
    if !labels.iter().flatten().any(right_to_left) {
        return true;
    }
    // rule 1: a letter first (ASCII, or one not known here); rules 3 and 6: no ASCII but
    // a letter or digit last
    let bad_first = |c: &char| (c.is_ascii() && !c.is_ascii_alphabetic()) || arabic_number(c) || european_number(c);
    let bad_last = |c: &char| c.is_ascii() && !c.is_ascii_alphanumeric();
    labels.iter().all(|label| {
        let rtl = label.iter().any(right_to_left);
        let broken = label.first().is_some_and(bad_first)
            || label.last().is_some_and(bad_last)
            || (rtl && label.iter().any(char::is_ascii_alphabetic))
            || (rtl && label.iter().any(arabic_number) && label.iter().any(european_number));
        !broken
    })
}

/// Where the host of a special URL is, as the WHATWG URL parser finds it: `url` after
/// the parser's first steps (no leading or trailing C0 control or space, no tab or
/// newline) and the host's byte range in it. `None` for another URL, one without a host,
/// or an IPv6 literal.
fn find_host(url: &str) -> Option<(String, usize, usize)> {
    let mut input = url.trim_matches(|c| c <= ' ').to_string();
    input.retain(|c| !matches!(c, '\t' | '\n' | '\r'));
    // all the delimiters are ASCII, so byte positions are character boundaries
    let b = input.as_bytes();
    let find =
        |from: usize, stop: &dyn Fn(u8) -> bool| b[from..].iter().position(|&c| stop(c)).map_or(b.len(), |i| from + i);
    let is_slash = |c: u8| c == b'/' || c == b'\\';
    let ends_authority = |c: u8| is_slash(c) || c == b'?' || c == b'#';
    let colon = find(0, &|c| c == b':');
    let scheme = input.get(..colon)?.to_ascii_lowercase();
    let (start, end) = match scheme.as_str() {
        // `file:`, two slashes, then the host up to the path
        "file" if b.get(colon + 1..colon + 3)?.iter().all(|&c| is_slash(c)) => {
            (colon + 3, find(colon + 3, &ends_authority))
        }
        // any number of slashes, then the authority: userinfo up to its last `@`, the
        // host, then `:port`
        "http" | "https" | "ws" | "wss" | "ftp" => {
            let from = find(colon + 1, &|c| !is_slash(c));
            let authority_end = find(from, &ends_authority);
            let at = b[from..authority_end].iter().rposition(|&c| c == b'@');
            let start = at.map_or(from, |at| from + at + 1);
            (start, find(start, &|c| c == b':').min(authority_end))
        }
        _ => return None,
    };
    if b.get(start) == Some(&b'[') {
        return None;
    }
    Some((input, start, end))
}

/// UTS #46 ToASCII as the WHATWG URL standard runs it (nontransitional, CheckBidi,
/// CheckJoiners; no STD3 rules, hyphen or DNS length checks), natively. The `idna`
/// crate's 0.5 line does it (the 1.x line, the `url` crate's own, has no Unicode tables
/// here: one `idna_adapter` serves every target), with two checks of 1.x that 0.5 lacks:
/// a Punycode label must decode to something neither empty nor all ASCII, and ContextJ.
/// 0.5's tables are Unicode 13's: a later character (e.g. the emoji 🫠) is refused.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn idna_to_ascii(domain: &str) -> Option<String> {
    // (UTS #46 reads these four as label separators)
    for payload in domain
        .split(['.', '\u{3002}', '\u{FF0E}', '\u{FF61}'])
        .filter_map(ace_payload)
    {
        match idna05::punycode::decode_to_string(payload) {
            Some(label) if !label.is_empty() && !label.is_ascii() => {}
            _ => return None,
        }
    }
    let ascii = idna05::domain_to_ascii(domain).ok()?;
    for payload in ascii.split('.').filter_map(ace_payload) {
        if !joiners_allowed(&idna05::punycode::decode(payload)?) {
            return None;
        }
    }
    Some(ascii)
}

/// RFC 5892's ContextJ rules for a label: a ZERO WIDTH JOINER only after a virama; a
/// ZERO WIDTH NON-JOINER after a virama or between a left- or dual-joining and a right-
/// or dual-joining character (transparent ones skipped).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn joiners_allowed(label: &[char]) -> bool {
    use unicode_joining_type::{JoiningType, get_joining_type};
    fn joins<'a>(mut chars: impl Iterator<Item = &'a char>, side: JoiningType) -> bool {
        chars
            .find(|&&c| get_joining_type(c) != JoiningType::Transparent)
            .is_some_and(|&c| matches!(get_joining_type(c), t if t == side || t == JoiningType::DualJoining))
    }
    label.iter().enumerate().all(|(i, &c)| {
        if c != '\u{200C}' && c != '\u{200D}' {
            return true;
        }
        let Some(&previous) = label[..i].last() else {
            return false;
        };
        unicode_normalization::char::canonical_combining_class(previous) == 9 // a virama
            || (c == '\u{200C}'
                && joins(label[..i].iter().rev(), JoiningType::LeftJoining)
                && joins(label[i + 1..].iter(), JoiningType::RightJoining))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_urls_like_any_url() {
        assert_eq!(normalize_url("https://example.com").unwrap(), "https://example.com/");
        assert_eq!(
            normalize_url("HTTPS://EXAMPLE.com:443/a b").unwrap(),
            "https://example.com/a%20b"
        );
        assert_eq!(normalize_url("https://x.y/ü").unwrap(), "https://x.y/%C3%BC");
        assert_eq!(
            normalize_url("not a url").unwrap_err().to_string(),
            "Input should be a valid URL, relative URL without a base"
        );
    }
}

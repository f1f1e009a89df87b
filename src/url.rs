//! URL normalisation as pydantic's `AnyUrl` does it ([`normalize_url`]), with its IDNA
//! step: natively the `url` crate's own; in wasm, or once replaced with
//! [`set_url_host_to_ascii`], a host put in ASCII first ([`url_host_to_ascii`]) by UTS #46
//! as the WHATWG URL standard runs it.

use std::sync::{Arc, RwLock};

use crate::error::MsgError;

/// A function that returns a URL with its host in ASCII (see [`set_url_host_to_ascii`]).
pub type UrlHostToAscii = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

static URL_HOST_TO_ASCII: RwLock<Option<UrlHostToAscii>> = RwLock::new(None);

/// Normalises `url` like pydantic's `AnyUrl` (which is built on the same `url` crate).
///
/// Natively, with no conversion set by [`set_url_host_to_ascii`], this is the `url`
/// crate's own parse, IDNA included: the `idna` crate's UTS #46 with the Unicode tables
/// of whatever `idna_adapter` the build resolves (this crate does not pin it; 1.2 brings
/// ICU4X 2's, Unicode 17 with ICU4X 2.4 as this repository's Cargo.lock has it). The
/// reference's are Unicode 15.1's (`idna_adapter` 1.1, ICU4X 1.5): a character that
/// Unicode 16 or 17 added (e.g. the emoji U+1FAE9, U+1FAEA) is taken here where the
/// reference refuses it. No case of the corpus (`tests/fixtures/idn.json`) has one: on
/// all of it the results are the reference's.
///
/// A build that pins the table-free `idna_adapter` 1.0, as the .wasm's own does
/// (`wasm/Cargo.toml`), has a `url` crate that refuses a host that is not ASCII (and
/// asserts on one in debug builds) and lets a Punycode (`xn--`) label through unchecked.
/// So on `wasm32-unknown-unknown`, and on every target once a conversion is
/// set, a URL that is not all ASCII, or has a `%` or an `xn--` in it, first has its host
/// put in ASCII by [`url_host_to_ascii`] (UTS #46 ToASCII as the WHATWG URL standard runs
/// it), and the result is parsed. Errors: [`MsgError::InvalidUrl`] with the `url` crate's
/// reason ("invalid international domain name" when the conversion refuses the host).
pub fn normalize_url(url: &str) -> Result<String, MsgError> {
    // natively and with no conversion set, the `url` crate's own IDNA (never in wasm: the
    // .wasm's has no tables)
    let url_crate_idna = cfg!(not(all(target_arch = "wasm32", target_os = "unknown"))) && installed().is_none();
    let parsed = if url_crate_idna || (url.is_ascii() && !url.contains('%') && !has_ace_label(url)) {
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

/// Replaces the IDNA step of URL normalisation ([`normalize_url`]). Once a function is
/// set, a URL that is not all ASCII, or has a `%` or an `xn--` in it, goes through it
/// first, on every target: it gets the URL as given and returns it with its host in
/// ASCII if it is a special URL's (`http`, `https`, `ws`, `wss`, `ftp`, `file`) that
/// needs it (`https://bücher.de/x` → `https://xn--bcher-kva.de/x`; a WHATWG `href` will
/// do, as the result is parsed again), or `None` when the host is not a valid
/// international domain name (the URL is then refused as `invalid_url`: "invalid
/// international domain name"). The host must be converted as the WHATWG URL standard's
/// "domain to ASCII" does: UTS #46 ToASCII, nontransitional, with CheckBidi and
/// CheckJoiners, without STD3 rules, hyphen or DNS length checks.
///
/// `None` restores the default. Natively, that is the `url` crate's own IDNA: the `idna`
/// crate (1.x) with the tables of the `idna_adapter` the build resolves, which is what
/// the reference runs (`tests/fixtures/idn.json`); [`url_host_to_ascii`] then converts
/// with that same `idna`. On `wasm32-unknown-unknown` the `url` crate of the shipped
/// .wasm has no Unicode tables (`idna_adapter` 1.0, pinned by `wasm/Cargo.toml` for the
/// size budget): the JavaScript binding installs the host's `URL` parser here at
/// start-up, and without it such a URL is refused when its host needs IDNA. The
/// binding's conversion maps what Unicode 15.1 changed (node 20's tables are older) and
/// checks the result with table-free rules (Punycode labels, part of the bidi rule), so
/// that node and Chromium give the reference's results; a function set here replaces
/// all of that.
pub fn set_url_host_to_ascii(convert: Option<UrlHostToAscii>) {
    // A poisoned lock only means another thread panicked while swapping an Arc; the
    // stored value is still a valid Option, so recover it instead of panicking.
    *URL_HOST_TO_ASCII.write().unwrap_or_else(|e| e.into_inner()) = convert;
}

/// The conversion set by [`set_url_host_to_ascii`], if any.
fn installed() -> Option<UrlHostToAscii> {
    URL_HOST_TO_ASCII.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// `url` with its host in ASCII, from the current conversion (see
/// [`set_url_host_to_ascii`]); `None` when the host is not a valid international domain
/// name (natively, by default: when the `idna` crate refuses it, or maps it to nothing).
pub fn url_host_to_ascii(url: &str) -> Option<String> {
    match installed() {
        Some(convert) => convert(url),
        None => default_url_host_to_ascii(url),
    }
}

/// The `url` crate's own "domain to ASCII" (`idna` 1.x, with the URL standard's
/// forbidden domain code points refused), in the steps of [`url_host_to_ascii_with`].
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn default_url_host_to_ascii(url: &str) -> Option<String> {
    url_host_to_ascii_with(url, &|domain| {
        idna::domain_to_ascii_cow(domain.as_bytes(), idna::AsciiDenyList::URL)
            .ok()
            .map(std::borrow::Cow::into_owned)
    })
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
/// the host is not a valid international domain name. The same steps for every
/// converter: natively `domain_to_ascii` is the `idna` crate's by default (see
/// `default_url_host_to_ascii`), in wasm the JS host's `URL` parser. Its result is
/// checked by [`ascii_domain_valid`], and [`unicode_15_1_mapping`] comes before it.
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
/// (node 20's) differ: U+1E9E (ẞ) maps to ß (before: "ss"), and five CJK compatibility
/// ideographs, disallowed before, to their NFKC form. (Unicode 16's, the `idna` crate's
/// with `idna_adapter` 1.2, map all six so too: then this changes nothing.)
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

    /// Natively the `url` crate does the IDNA step itself (no conversion set here).
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    #[test]
    fn international_domain_names_by_the_url_crate() {
        assert_eq!(
            normalize_url("http://münchen.de/").unwrap(),
            "http://xn--mnchen-3ya.de/"
        );
        assert_eq!(
            url_host_to_ascii("https://bücher.de/x").as_deref(),
            Some("https://xn--bcher-kva.de/x")
        );
        assert_eq!(
            url_host_to_ascii("https://a\u{200B}b.de/x").as_deref(),
            Some("https://ab.de/x")
        );
        assert_eq!(url_host_to_ascii("https://\u{200B}/x"), None);
        assert_eq!(
            normalize_url("https://\u{200B}/x").unwrap_err().to_string(),
            "Input should be a valid URL, empty host"
        );
    }
}

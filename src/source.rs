//! `Base64Source` / `URLSource` (REFERENCE.md §1) and the base64 rules of Python's
//! non-validating `b64decode`. A `URLSource`'s URL is normalised by [`crate::url`].

use std::borrow::Cow;

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::MsgError;
use crate::object::{Member, Model, Object, deserialize_model, deserialize_tagged};
use crate::url::normalize_url;

/// The source of a [`crate::DataBlock`]: inline base64 or a URL. Wire JSON is tagged by
/// `type`: `{"type": "base64", "data", "media_type"}` or `{"type": "url", "url",
/// "media_type"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
#[serde(tag = "type")]
pub enum DataSource {
    /// Inline data.
    #[serde(rename = "base64")]
    Base64(Base64Source),
    /// Data behind a URL.
    #[serde(rename = "url")]
    Url(URLSource),
}

impl<'de> Deserialize<'de> for DataSource {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        const MEMBERS: [Member; 2] = [("base64", &["data", "media_type"]), ("url", &["url", "media_type"])];
        deserialize_tagged(deserializer, "'base64' or 'url'", &MEMBERS, |kind, object| {
            Some(match kind {
                "base64" => Base64Source::from_object(object).map(DataSource::Base64),
                "url" => URLSource::from_object(object).map(DataSource::Url),
                _ => return None,
            })
        })
    }
}

impl DataSource {
    /// The `media_type` of either source, e.g. `image/png`.
    pub fn media_type(&self) -> &str {
        match self {
            DataSource::Base64(s) => &s.media_type,
            DataSource::Url(s) => &s.media_type,
        }
    }
}

/// Inline data. `data` is kept as received (it is not validated, as in the reference)
/// until streamed chunks are appended to it; from then on it is kept as bytes and encoded
/// only when serialised or read, so that accumulating N bytes costs O(N).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct Base64Source {
    #[cfg_attr(feature = "wasm", tsify(type = "string"))]
    data: Base64Data,
    /// MIME type, e.g. `image/png`.
    pub media_type: String,
}

#[derive(Debug, Clone)]
enum Base64Data {
    /// The string as received.
    Encoded(String),
    /// Decoded bytes; serialised as canonical standard base64 with padding.
    Bytes(Vec<u8>),
}

impl Base64Source {
    /// A source holding `data` (a base64 string, stored unvalidated) of `media_type`.
    pub fn new(data: impl Into<String>, media_type: impl Into<String>) -> Base64Source {
        Base64Source {
            data: Base64Data::Encoded(data.into()),
            media_type: media_type.into(),
        }
    }

    /// A source holding raw `bytes`, encoded as base64 when serialised.
    pub fn from_bytes(bytes: Vec<u8>, media_type: impl Into<String>) -> Base64Source {
        Base64Source {
            data: Base64Data::Bytes(bytes),
            media_type: media_type.into(),
        }
    }

    /// The `data` string as it appears on the wire.
    pub fn data(&self) -> Cow<'_, str> {
        match &self.data {
            Base64Data::Encoded(s) => Cow::Borrowed(s),
            Base64Data::Bytes(b) => Cow::Owned(STANDARD.encode(b)),
        }
    }

    /// The decoded bytes, decoded like Python's `base64.b64decode`.
    ///
    /// Errors: [`MsgError::InvalidBase64`] with Python's `binascii.Error` text.
    pub fn decode(&self) -> Result<Cow<'_, [u8]>, MsgError> {
        match &self.data {
            Base64Data::Encoded(s) => b64decode(s).map(Cow::Owned),
            Base64Data::Bytes(b) => Ok(Cow::Borrowed(b)),
        }
    }

    /// Appends already decoded bytes. Call [`Base64Source::decode`] first when the
    /// source may still hold an undecoded string (that is where errors come from).
    pub(crate) fn set_bytes(&mut self, bytes: Vec<u8>) {
        self.data = Base64Data::Bytes(bytes);
    }

    /// The byte buffer, if the data is held decoded.
    pub(crate) fn held_bytes(&self) -> Option<&[u8]> {
        match &self.data {
            Base64Data::Bytes(b) => Some(b),
            Base64Data::Encoded(_) => None,
        }
    }

    /// Mutable access to the byte buffer, if the data is held decoded.
    pub(crate) fn bytes_mut(&mut self) -> Option<&mut Vec<u8>> {
        match &mut self.data {
            Base64Data::Bytes(b) => Some(b),
            Base64Data::Encoded(_) => None,
        }
    }

    /// True when `data` is the empty string (Python: falsy).
    pub(crate) fn is_empty(&self) -> bool {
        match &self.data {
            Base64Data::Encoded(s) => s.is_empty(),
            Base64Data::Bytes(b) => b.is_empty(),
        }
    }
}

impl PartialEq for Base64Source {
    fn eq(&self, other: &Self) -> bool {
        self.media_type == other.media_type && self.data() == other.data()
    }
}

impl Serialize for Base64Data {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Base64Data::Encoded(s) => serializer.serialize_str(s),
            Base64Data::Bytes(b) => serializer.collect_str(&base64::display::Base64Display::new(b, &STANDARD)),
        }
    }
}

impl Model for Base64Source {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(Base64Source {
            data: Base64Data::Encoded(object.required("data")?),
            media_type: object.required("media_type")?,
        })
    }
}

/// Data behind a URL. `url` is normalised on construction as pydantic's `AnyUrl` does
/// (`https://example.com` → `https://example.com/`; scheme and host lower-cased; default
/// port dropped; spaces and non-ASCII percent-encoded).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify), tsify(missing_as_null))]
pub struct URLSource {
    /// The normalised URL.
    pub url: String,
    /// MIME type, e.g. `image/png`.
    pub media_type: String,
}

impl URLSource {
    /// A source for `url` (normalised) of `media_type`.
    ///
    /// Errors: [`MsgError::InvalidUrl`] when the WHATWG URL parser rejects `url` (e.g. a
    /// string without a scheme: "relative URL without a base").
    pub fn new(url: &str, media_type: impl Into<String>) -> Result<URLSource, MsgError> {
        Ok(URLSource {
            url: normalize_url(url)?,
            media_type: media_type.into(),
        })
    }
}

/// `url` is normalised (errors: "Input should be a valid URL, …", see [`normalize_url`]).
impl Model for URLSource {
    fn from_object(object: &Object<'_>) -> Result<Self, String> {
        Ok(URLSource {
            url: normalize_url(&object.required::<String>("url")?).map_err(|e| e.to_string())?,
            media_type: object.required("media_type")?,
        })
    }
}

deserialize_model!(Base64Source, URLSource);

/// Lenient decoder: padding optional (it was checked before), trailing bits allowed.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// Decodes base64 exactly as Python's non-validating `base64.b64decode` does: characters
/// outside the alphabet are discarded, a complete pad sequence ends the input, and a
/// final partial quantum is an error.
///
/// Errors: [`MsgError::InvalidBase64`] with `binascii.Error`'s text ("Incorrect padding",
/// or "Invalid base64-encoded string: number of data characters (N) cannot be 1 more
/// than a multiple of 4").
pub fn b64decode(data: &str) -> Result<Vec<u8>, MsgError> {
    let bytes = data.as_bytes();
    // fast path: canonical, padded input (the strict decoder accepts nothing else)
    if bytes.len().is_multiple_of(4)
        && let Ok(out) = STANDARD.decode(bytes)
    {
        return Ok(out);
    }
    if !data.is_ascii() {
        return Err(MsgError::InvalidBase64(
            "string argument should contain only ASCII characters".into(),
        ));
    }
    let is_alphabet = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let mut clean = Vec::with_capacity(bytes.len());
    let (mut quad, mut pads, mut padded) = (0usize, 0usize, false);
    for &c in bytes {
        if c == b'=' {
            if quad >= 2 {
                pads += 1;
                if quad + pads >= 4 {
                    padded = true;
                    break;
                }
            }
            continue;
        }
        if !is_alphabet(c) {
            continue;
        }
        pads = 0;
        clean.push(c);
        quad = (quad + 1) % 4;
    }
    if !padded && quad == 1 {
        return Err(MsgError::InvalidBase64(format!(
            "Invalid base64-encoded string: number of data characters ({}) cannot be 1 more than a multiple of 4",
            clean.len()
        )));
    }
    if !padded && quad != 0 {
        return Err(MsgError::InvalidBase64("Incorrect padding".into()));
    }
    LENIENT
        .decode(&clean)
        .map_err(|e| MsgError::InvalidBase64(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_like_python() {
        assert_eq!(b64decode("aGk=").unwrap(), b"hi");
        assert_eq!(b64decode("aG\nk= ").unwrap(), b"hi");
        assert_eq!(b64decode("aGk=trailing").unwrap(), b"hi");
        assert_eq!(b64decode("").unwrap(), b"");
        assert_eq!(
            b64decode("QUJD\u{e9}").unwrap_err().to_string(),
            "string argument should contain only ASCII characters"
        );
        assert_eq!(
            b64decode("AAA").unwrap_err(),
            MsgError::InvalidBase64("Incorrect padding".into())
        );
        assert_eq!(
            b64decode("not-base64!").unwrap_err().to_string(),
            "Invalid base64-encoded string: number of data characters (9) cannot be 1 more than a multiple of 4"
        );
    }
}

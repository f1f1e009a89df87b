//! The generic reader of JSON objects that every model reads through (blocks, sources,
//! messages, events, checkpoints): an [`Object`]'s keys and their raw values, a [`Model`]
//! read from them as pydantic reads it, a `type`-tagged union read by its `type` or, with
//! none, picked as pydantic's smart union picks ([`deserialize_tagged`]), and serde_json's
//! errors [`without_position`].

use std::borrow::Cow;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

/// The keys of a JSON object and their raw values, in order. Each value is kept as its
/// own JSON text (a `Box<RawValue>`, which serde_json makes from any of its deserialisers:
/// text, a reader, a `Value`), converted when a field is read.
#[derive(Default)]
pub(crate) struct Object<'a>(pub(crate) Vec<(Cow<'a, str>, Box<RawValue>)>);

impl Object<'_> {
    /// The value of `key`; of its last occurrence when it is given twice, as in Python's
    /// `json`.
    pub(crate) fn get(&self, key: &str) -> Option<&RawValue> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| &**v)
    }

    /// The field `key` converted to `T`, `None` when absent (`null` is a value: `None` for
    /// an `Option`, an error for any other type). Errors: serde_json's text, without a
    /// position.
    pub(crate) fn field<'s, T: Deserialize<'s>>(&'s self, key: &str) -> Result<Option<T>, String> {
        self.get(key)
            .map(|raw| serde_json::from_str(raw.get()).map_err(|e| without_position(&e)))
            .transpose()
    }

    /// A required field: "missing field `key`" when absent.
    pub(crate) fn required<'s, T: Deserialize<'s>>(&'s self, key: &str) -> Result<T, String> {
        self.field(key)?.ok_or_else(|| format!("missing field `{key}`"))
    }

    /// A field with a default, made by `default` when the key is absent.
    pub(crate) fn or<'s, T: Deserialize<'s>>(&'s self, key: &str, default: fn() -> T) -> Result<T, String> {
        Ok(self.field(key)?.unwrap_or_else(default))
    }
}

/// A model read from a JSON object ([`Object`]) as pydantic reads it: its declared keys
/// in declaration order (the first error is returned), a key given twice with its last
/// value, other keys ignored. Its `Deserialize` accepts a JSON object only (from any of
/// serde_json's deserialisers: `from_str`, `from_slice`, `from_reader`, `from_value`).
pub(crate) trait Model: Sized {
    /// The model from the object's keys. Errors: the text of the first field's error.
    fn from_object(object: &Object<'_>) -> Result<Self, String>;
}

/// `impl Deserialize for` each [`Model`].
macro_rules! deserialize_model {
    ($($name:ty),*) => {$(
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let object = <crate::object::Object as serde::Deserialize>::deserialize(deserializer)?;
                <$name as crate::object::Model>::from_object(&object).map_err(serde::de::Error::custom)
            }
        }
    )*};
}
pub(crate) use deserialize_model;

impl<'de> Deserialize<'de> for Object<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = Object<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Object<'de>, M::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Object(entries))
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

/// The JSON error of `json` when it is no JSON at all (Python's `json.loads` raises), for
/// `e`, the error of reading it as a model: a syntax error or an early end, or a list or a
/// number refused as not an object before its end was read (`[1`, `4x`). `None` when
/// `json` is JSON (of the wrong shape).
pub(crate) fn json_error(json: &str, e: &serde_json::Error) -> Option<String> {
    if e.is_syntax() || e.is_eof() {
        return Some(e.to_string());
    }
    serde_json::from_str::<serde::de::IgnoredAny>(json)
        .err()
        .map(|e| e.to_string())
}

/// A serde_json error's text without " at line L column C" (which would point into a
/// fragment, not the input).
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&suffix).map(str::to_owned).unwrap_or(text)
}

/// Deserialises a `type`-tagged union from serde_json: reads the object's keys, then the
/// member its `type` names from them. (serde's own internally tagged enums buffer the
/// value and instantiate every struct's deserialiser twice, which costs a lot of .wasm.)
/// Only a JSON object is a block or a source (pydantic refuses a list for a model).
pub(crate) fn deserialize_tagged<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    expected: &'static str,
    members: &[Member],
    pick: Pick<'de, T>,
) -> Result<T, D::Error> {
    let object = Object::deserialize(deserializer)?;
    // `null` is a value here (an error), not an absent `type`
    let Some(kind) = object.get("type") else {
        return pick_member(&object, members, pick)
            .ok_or_else(|| D::Error::custom(format!("missing field `type`, and no member fits: expected {expected}")));
    };
    let kind: Cow<'_, str> = serde_json::from_str(kind.get())
        .map_err(|_| D::Error::custom(format!("`type` should be {expected}, got {}", kind.get())))?;
    match pick(&kind, &object) {
        Some(result) => result.map_err(D::Error::custom),
        None => Err(D::Error::custom(format!("unknown type {kind:?}, expected {expected}"))),
    }
}

/// Reads the member of a union named by a `type` from an object's keys; `None` for a
/// `type` that is not a member's.
pub(crate) type Pick<'de, T> = fn(&str, &Object<'de>) -> Option<Result<T, String>>;

/// A member of a union of blocks or sources: its `type` and its own fields, in declaration
/// order; a field ending in `*` holds a nested model whose given fields count too.
pub(crate) type Member = (&'static str, &'static [&'static str]);

/// The fields of the one nested model of a [`Member`] (`source*`, a data block's source:
/// either member's, `type` included).
const SOURCE_FIELDS: [&str; 4] = ["type", "data", "url", "media_type"];

/// A block or source without a `type` key, read as pydantic's smart union reads it: among
/// the members that validate, the one with the most fields given (nested models'
/// included), the first in declaration order on a tie.
fn pick_member<'de, T>(keys: &Object<'de>, members: &[Member], pick: Pick<'de, T>) -> Option<T> {
    let given = |fields: &[&str]| -> usize {
        fields
            .iter()
            .map(|f| match keys.get(f.trim_end_matches('*')) {
                None => 0,
                Some(_) if !f.ends_with('*') => 1,
                // the nested model's own fields given (each once; unknown keys do not count)
                Some(nested) => {
                    let count = |o: Object| SOURCE_FIELDS.iter().filter(|k| o.get(k).is_some()).count();
                    1 + serde_json::from_str::<Object>(nested.get()).map_or(0, count)
                }
            })
            .sum()
    };
    let mut best: Option<(usize, T)> = None;
    for (kind, fields) in members {
        let n = given(fields);
        if best.as_ref().is_some_and(|(b, _)| *b >= n) {
            continue;
        }
        if let Some(Ok(value)) = pick(kind, keys) {
            best = Some((n, value));
        }
    }
    best.map(|(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model of its own: `a` required, `b` defaulted (to `Some(0)`).
    #[derive(Debug, PartialEq)]
    struct Pair {
        a: String,
        b: Option<u8>,
    }

    impl Model for Pair {
        fn from_object(object: &Object<'_>) -> Result<Self, String> {
            Ok(Pair {
                a: object.required("a")?,
                b: object.or("b", || Some(0))?,
            })
        }
    }

    deserialize_model!(Pair);

    fn pair(a: &str, b: Option<u8>) -> Pair {
        Pair { a: a.into(), b }
    }

    fn read<T: for<'de> Deserialize<'de>>(json: &str) -> Result<T, String> {
        serde_json::from_str(json).map_err(|e| without_position(&e))
    }

    #[test]
    fn a_model_reads_its_keys_as_pydantic_does() {
        assert_eq!(read::<Pair>(r#"{"a": "x"}"#).unwrap(), pair("x", Some(0)));
        // a key given twice counts with its last value; other keys are ignored
        assert_eq!(
            read::<Pair>(r#"{"a": "x", "b": 1, "a": "y", "c": 2}"#).unwrap(),
            pair("y", Some(1))
        );
        // `null` is a value: `None` for an `Option`, an error for any other type
        assert_eq!(read::<Pair>(r#"{"a": "x", "b": null}"#).unwrap(), pair("x", None));
        assert_eq!(
            read::<Pair>(r#"{"a": null}"#).unwrap_err(),
            "invalid type: null, expected a string"
        );
        assert_eq!(read::<Pair>(r#"{"b": 1}"#).unwrap_err(), "missing field `a`");
        // a JSON object only, from any of serde_json's deserialisers
        assert_eq!(
            read::<Pair>(r#"["x"]"#).unwrap_err(),
            "invalid type: sequence, expected a JSON object"
        );
        let value = serde_json::json!({"a": "v"});
        assert_eq!(serde_json::from_value::<Pair>(value).unwrap(), pair("v", Some(0)));
        assert_eq!(
            serde_json::from_reader::<_, Pair>(&b"{\"a\": \"r\"}"[..]).unwrap(),
            pair("r", Some(0))
        );
    }

    /// A union of two members: `one` with field `a`, `two` with `a` and `b`.
    #[derive(Debug, PartialEq)]
    enum Union {
        One(Pair),
        Two(Pair),
    }

    impl<'de> Deserialize<'de> for Union {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            const MEMBERS: [Member; 2] = [("one", &["a"]), ("two", &["a", "b"])];
            deserialize_tagged(deserializer, "'one' or 'two'", &MEMBERS, |kind, object| {
                Some(match kind {
                    "one" => Pair::from_object(object).map(Union::One),
                    "two" => Pair::from_object(object).map(Union::Two),
                    _ => return None,
                })
            })
        }
    }

    #[test]
    fn a_union_reads_the_member_its_type_names() {
        assert_eq!(
            read::<Union>(r#"{"a": "x", "type": "two"}"#).unwrap(),
            Union::Two(pair("x", Some(0)))
        );
        assert_eq!(
            read::<Union>(r#"{"type": "three"}"#).unwrap_err(),
            r#"unknown type "three", expected 'one' or 'two'"#
        );
        for kind in ["1", "null"] {
            assert_eq!(
                read::<Union>(&format!(r#"{{"type": {kind}}}"#)).unwrap_err(),
                format!("`type` should be 'one' or 'two', got {kind}")
            );
        }
        assert_eq!(read::<Union>(r#"{"type": "one"}"#).unwrap_err(), "missing field `a`");
    }

    #[test]
    fn without_a_type_the_member_with_the_most_fields_given_wins() {
        // the first in declaration order on a tie
        assert_eq!(read::<Union>(r#"{"a": "x"}"#).unwrap(), Union::One(pair("x", Some(0))));
        assert_eq!(
            read::<Union>(r#"{"a": "x", "b": 1}"#).unwrap(),
            Union::Two(pair("x", Some(1)))
        );
        // a member that does not validate is passed over
        assert_eq!(
            read::<Union>(r#"{"b": 1}"#).unwrap_err(),
            "missing field `type`, and no member fits: expected 'one' or 'two'"
        );
    }
}

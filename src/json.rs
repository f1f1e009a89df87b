//! Free-form JSON values as the reference keeps them: [`Value`], [`Map`], [`Number`].
//!
//! The free-form fields of the models (a message's `metadata` and `structured_output`, a
//! tool result's `metadata`, a thinking block's extra keys, an event's `metadata`, a
//! `CUSTOM` event's `value`) hold what Python's `json` read: an object keeps its keys in
//! input order (a key given twice keeps its first place and its last value, as a `dict`
//! does), an integer keeps every digit (a Python `int` has no bound), any other number is
//! a double (`1e400` is read, and written as pydantic writes an infinity: `null`).
//! serde_json's own `Value` does this only with its `preserve_order` and
//! `arbitrary_precision` features, which would change every `serde_json::Map` and
//! `Number` of the application that depends on this crate (Cargo unifies features), so
//! the crate keeps its own, read and written through serde_json:
//!
//! - reading ([`from_str`], `Deserialize`) takes the value's JSON text from serde_json
//!   (a `RawValue`: from serde_json's `from_str`, `from_slice`, `from_reader` or
//!   `from_value`; another format's deserialiser is refused) and keeps the numbers'
//!   digits;
//! - writing (`Serialize`, `Display`) writes integers as read and other numbers as
//!   Python's `repr` of their double (`1.5e-07`, `100000.0`: [`crate::wire::python_repr`]),
//!   as `model_dump_json` does. A float goes out as raw JSON text, so through
//!   `serde_json::to_string` the text is the reference's; through `serde_json::to_value`
//!   it becomes the application's own `serde_json::Number`, written in serde_json's
//!   notation from then on (`1.5e-7`).
//!
//! ```
//! use agentscope_message::json::{self, Value};
//!
//! let value = json::from_str(r#"{"b": 1.5e-7, "a": 123456789012345678901234567890, "b": 2}"#)?;
//! assert_eq!(value.to_string(), r#"{"b":2,"a":123456789012345678901234567890}"#);
//! assert_eq!(value["a"].as_number().map(|n| n.is_integer()), Some(true));
//! let mut metadata = json::Map::new();
//! metadata.insert("score".into(), Value::from(1.5e-7));
//! assert_eq!(Value::from(metadata).to_string(), r#"{"score":1.5e-07}"#);
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::fmt;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// A JSON object's keys and values in input order (indexmap's `IndexMap`, as a Python
/// `dict`: inserting a key again keeps its place and replaces its value).
pub type Map<K = String, V = Value> = indexmap::IndexMap<K, V>;

/// A free-form JSON value (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Value {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, with the digits it was read with.
    Number(Number),
    /// A string.
    String(String),
    /// A list.
    Array(Vec<Value>),
    /// An object, keys in input order.
    Object(Map),
}

/// A JSON number as written: an integer literal (no `.`, `e` or `E`) is a Python `int`
/// of any size, any other number a `float` (a double).
#[derive(Debug, Clone)]
pub struct Number(Box<str>);

/// Numbers are equal as Python compares them: integers by value (`-0 == 0`), any other
/// pair by their doubles (`1.0 == 1.00 == 1`, `1E5 == 100000.0`).
impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        match (self.is_integer(), other.is_integer()) {
            (true, true) => integer_digits(&self.0) == integer_digits(&other.0),
            _ => self.as_f64() == other.as_f64(),
        }
    }
}

/// (no JSON number is NaN: an overflowing one is an infinity, equal to itself)
impl Eq for Number {}

/// An integer literal's sign and digits, without leading zeros (`-0` is `0`).
fn integer_digits(text: &str) -> (bool, &str) {
    let (negative, digits) = text.strip_prefix('-').map_or((false, text), |d| (true, d));
    let digits = digits.trim_start_matches('0');
    (negative && !digits.is_empty(), digits)
}

impl Number {
    /// The number's JSON text as read (`"12"`, `"1.50"`, `"1E400"`).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether it is written as an integer (Python's `json` reads it as an `int`).
    pub fn is_integer(&self) -> bool {
        !self.0.contains(['.', 'e', 'E'])
    }

    /// The nearest double (±infinity past the range of a double).
    pub fn as_f64(&self) -> f64 {
        self.0.parse().unwrap_or(f64::NAN)
    }

    /// The integer, when it is one and fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The integer, when it is one and fits a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    /// The integer, when it is one and fits an `i128`.
    pub fn as_i128(&self) -> Option<i128> {
        self.0.parse().ok()
    }

    /// A float, written as Python's `repr` writes it; `None` for NaN and the infinities
    /// (JSON has no text for them).
    pub fn from_f64(value: f64) -> Option<Number> {
        value
            .is_finite()
            .then(|| Number(crate::wire::python_repr(value).into()))
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Number {
            fn from(value: $t) -> Number {
                Number(value.to_string().into())
            }
        }
        impl From<$t> for Value {
            fn from(value: $t) -> Value {
                Value::Number(value.into())
            }
        }
    )*};
}
from_integer!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

/// A float: a number, or `null` for NaN and the infinities.
impl From<f64> for Value {
    fn from(value: f64) -> Value {
        Number::from_f64(value).map_or(Value::Null, Value::Number)
    }
}

impl From<bool> for Value {
    fn from(value: bool) -> Value {
        Value::Bool(value)
    }
}

impl From<String> for Value {
    fn from(value: String) -> Value {
        Value::String(value)
    }
}

impl From<&str> for Value {
    fn from(value: &str) -> Value {
        Value::String(value.to_owned())
    }
}

impl From<Vec<Value>> for Value {
    fn from(value: Vec<Value>) -> Value {
        Value::Array(value)
    }
}

impl From<Map> for Value {
    fn from(value: Map) -> Value {
        Value::Object(value)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(value: Option<T>) -> Value {
        value.map_or(Value::Null, Into::into)
    }
}

/// A `serde_json::Value` (e.g. from `serde_json::json!`), read through its JSON text: its
/// keys in the order its `Map` gives them, its numbers as serde_json wrote them.
impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Value {
        Value::from(&value)
    }
}

impl From<&serde_json::Value> for Value {
    fn from(value: &serde_json::Value) -> Value {
        from_str(&value.to_string()).unwrap_or_default()
    }
}

/// The application's `serde_json::Value`, read from this value's JSON text (so with the
/// application's serde_json features: without `preserve_order` its keys are sorted,
/// without `arbitrary_precision` an integer past the 64-bit range becomes a float).
impl From<&Value> for serde_json::Value {
    fn from(value: &Value) -> serde_json::Value {
        serde_json::from_str(&value.to_string()).unwrap_or(serde_json::Value::Null)
    }
}

impl From<Value> for serde_json::Value {
    fn from(value: Value) -> serde_json::Value {
        serde_json::Value::from(&value)
    }
}

impl Value {
    /// The value of `key` when this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    /// The object, when it is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The list, when it is one.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The string, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, when it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number, when it is one.
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// The number's nearest double, when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().map(Number::as_f64)
    }

    /// The integer, when it is one that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The integer, when it is one that fits a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// Whether it is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value of `key`, to change, when this is an object that has it.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_object_mut()?.get_mut(key)
    }

    /// The object, to change, when it is one.
    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The list, to change, when it is one.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// `value == "text"`: whether it is that string.
impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

/// `value == "text"`: whether it is that string.
impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

/// `value == true`: whether it is that boolean.
impl PartialEq<bool> for Value {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

/// `value["key"]` of an object; [`Value::Null`] when it is not an object or has no such
/// key (as serde_json's `Value` indexes).
impl std::ops::Index<&str> for Value {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        static NULL: Value = Value::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

/// `value[i]` of a list; [`Value::Null`] past its end or when it is not a list.
impl std::ops::Index<usize> for Value {
    type Output = Value;
    fn index(&self, i: usize) -> &Value {
        static NULL: Value = Value::Null;
        self.as_array().and_then(|items| items.get(i)).unwrap_or(&NULL)
    }
}

/// Compact JSON, written as the reference writes it (see the [module docs](self)).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::wire::to_string(self))
    }
}

/// How deep a value may nest (objects and lists inside it), as serde_json's own reader
/// allows: deeper is an error, never a deep recursion.
pub const MAX_DEPTH: usize = 128;

/// Reads a JSON text, keeping key order and digits (see the [module docs](self)).
///
/// Errors: serde_json's, for text that is not one JSON value; "recursion limit exceeded"
/// for a value nested deeper than [`MAX_DEPTH`] objects and lists.
pub fn from_str(json: &str) -> Result<Value, serde_json::Error> {
    read(json, MAX_DEPTH)
}

/// [`from_str`] with another depth limit (the crate's own output, which nests a value
/// read with [`MAX_DEPTH`] a few levels deeper).
pub(crate) fn read(json: &str, max_depth: usize) -> Result<Value, serde_json::Error> {
    let raw: &RawValue = serde_json::from_str(json)?;
    from_raw(raw, max_depth)
}

/// A value from its JSON text, already checked by serde_json: each object or list read
/// into its members' raw texts (borrowed, not copied), each member read the same way,
/// at most `depth` levels down.
fn from_raw(raw: &RawValue, depth: usize) -> Result<Value, serde_json::Error> {
    let text = raw.get();
    let first = text.as_bytes().first();
    if matches!(first, Some(b'{' | b'[')) && depth == 0 {
        return Err(serde_json::Error::custom("recursion limit exceeded"));
    }
    Ok(match first {
        Some(b'{') => {
            let Members(members) = serde_json::from_str(text)?;
            let mut map = Map::with_capacity(members.len());
            for (key, member) in members {
                map.insert(key, from_raw(member, depth - 1)?);
            }
            Value::Object(map)
        }
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(text)?;
            let items = items.into_iter().map(|item| from_raw(item, depth - 1));
            Value::Array(items.collect::<Result<_, _>>()?)
        }
        Some(b'"') => Value::String(serde_json::from_str(text)?),
        Some(b't') => Value::Bool(true),
        Some(b'f') => Value::Bool(false),
        Some(b'n') => Value::Null,
        _ => Value::Number(Number(text.into())),
    })
}

/// An object's keys and their members' raw texts, in order.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> serde::de::Visitor<'de> for Keys {
            type Value = Members<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Members<'de>, M::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

/// Reads the value's JSON text from one of serde_json's deserialisers (any other refuses
/// a `RawValue`, and so does serde's buffered content: inside `#[serde(flatten)]`, an
/// internally tagged or an untagged enum), keeping key order and digits; at most
/// [`MAX_DEPTH`] levels deep.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        from_raw(&raw, MAX_DEPTH).map_err(D::Error::custom)
    }
}

/// As `model_dump_json` writes it: an integer as read (`-0` as `0`, as Python's `int`
/// reads it), any other number as Python's `repr` of its double, as raw JSON text
/// (`null` past ±1.8e308, as pydantic writes an infinity).
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => serializer.collect_seq(items),
            Value::Object(map) => serializer.collect_map(map),
        }
    }
}

/// See [`Value`]'s `Serialize`.
impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_integer() {
            if let Some(n) = self.as_i64() {
                return serializer.serialize_i64(n);
            }
            if let Some(n) = self.as_u64() {
                return serializer.serialize_u64(n);
            }
            return raw(serializer, self.0.trim_start_matches('+').to_owned());
        }
        let value = self.as_f64();
        if !value.is_finite() {
            return serializer.serialize_unit();
        }
        raw(serializer, crate::wire::python_repr(value))
    }
}

fn raw<S: Serializer>(serializer: S, text: String) -> Result<S::Ok, S::Error> {
    match RawValue::from_string(text) {
        Ok(raw) => raw.serialize(serializer),
        Err(_) => serializer.serialize_unit(),
    }
}

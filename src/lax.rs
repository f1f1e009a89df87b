//! pydantic's lax mode for the two scalar field types that accept more than their own JSON
//! type: integers (token counts) and booleans (`ConfirmResult.confirmed`). Strings, enums
//! and literals are strict in the reference too. The rules are pydantic 2.14's (observed
//! on agentscope 2.0.11, `tests/fixtures/reference-json/`):
//!
//! | field | accepted besides its own type | rejected |
//! |---|---|---|
//! | int | `true` / `false` (1 / 0); a float with no fractional part inside the i64 range (`120.0`); a string of an integer: (Unicode) white space around it, a sign, `_` between digits, leading zeros, a `.0…` fraction (`" 12 "`, `"+12"`, `"1_000"`, `"012"`, `"12.0"`) | `120.5`, `9.3e18`, `"1e3"`, `"12."`, `"0x10"`, `"1,000"`, `"1__0"`, `""` |
//! | bool | `0` / `1`, `0.0` / `1.0`; the strings `0 off f false n no` / `1 on t true y yes` in any case | `2`, `1.5`, `" yes"`, `"maybe"` |

use crate::json::Value;
use serde::de::{self, Deserializer};

/// An integer read as pydantic's lax mode reads an `int` field, kept in 128 bits: the
/// reference's ints have no bound, 128 bits hold every count it can meet (beyond ±2^127
/// is refused: "this port keeps 128 bits").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct LaxInt(pub i128);

impl From<LaxInt> for i128 {
    fn from(v: LaxInt) -> i128 {
        v.0
    }
}

impl<'de> de::Deserialize<'de> for LaxInt {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LaxInt, D::Error> {
        // read as a `Value` first: its numbers keep their digits
        let value = Value::deserialize(deserializer)?;
        lax_int(&value).map(LaxInt).map_err(de::Error::custom)
    }
}

fn lax_int(value: &Value) -> Result<i128, &'static str> {
    match value {
        Value::Number(n) if n.is_integer() => n
            .as_str()
            .parse()
            .map_err(|_| "Input should be a valid integer, this port keeps 128 bits"),
        Value::Number(n) => int_from_float(n.as_f64()),
        Value::Bool(b) => Ok(i128::from(*b)),
        Value::String(s) => parse_int(s).ok_or("Input should be a valid integer, unable to parse string as an integer"),
        _ => Err("Input should be a valid integer"),
    }
}

fn int_from_float(v: f64) -> Result<i128, &'static str> {
    if !v.is_finite() {
        return Err("Input should be a finite number");
    }
    if v.fract() != 0.0 {
        return Err("Input should be a valid integer, got a number with a fractional part");
    }
    // pydantic takes a whole float inside the i64 range only; i64::MAX as f64 rounds up
    // to 2^63, which is out of range, and -2^63 is refused as pydantic refuses it
    if !(v > -9.223_372_036_854_776e18 && v < 9.223_372_036_854_776e18) {
        return Err("Input should be a valid integer, exceeded maximum size");
    }
    Ok(v as i128)
}

/// pydantic's string → int: white space trimmed, an optional sign, ASCII digits with single
/// `_` between them, and an optional fraction of zeros (`"12.0"`).
fn parse_int(text: &str) -> Option<i128> {
    // (Unicode white space, as pydantic trims: U+00A0, U+3000, … too)
    let text = text.trim();
    let (negative, rest) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, "0"));
    if frac.is_empty() || !frac.bytes().all(|b| b == b'0') {
        return None;
    }
    // digits with single `_` between them; accumulated negative (i128::MIN fits)
    let mut value: i128 = 0;
    let mut previous = b'_';
    for b in int.bytes() {
        match b {
            b'0'..=b'9' => value = value.checked_mul(10)?.checked_sub(i128::from(b - b'0'))?,
            b'_' if previous != b'_' => {}
            _ => return None,
        }
        previous = b;
    }
    if previous == b'_' {
        return None; // empty, or ending with `_`
    }
    if negative { Some(value) } else { value.checked_neg() }
}

/// A boolean read as pydantic's lax mode reads a `bool` field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LaxBool(pub bool);

impl<'de> de::Deserialize<'de> for LaxBool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<LaxBool, D::Error> {
        let value = Value::deserialize(deserializer)?;
        lax_bool(&value).map(LaxBool).map_err(de::Error::custom)
    }
}

const NOT_BOOL: &str = "Input should be a valid boolean, unable to interpret input";

fn lax_bool(value: &Value) -> Result<bool, &'static str> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::Number(n) if n.is_integer() => match n.as_str().trim_start_matches('-') {
            "0" => Ok(false),
            "1" if !n.as_str().starts_with('-') => Ok(true),
            _ => Err(NOT_BOOL),
        },
        Value::Number(n) => match n.as_f64() {
            0.0 => Ok(false),
            1.0 => Ok(true),
            _ => Err("Input should be a valid boolean"),
        },
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "0" | "off" | "f" | "false" | "n" | "no" => Ok(false),
            "1" | "on" | "t" | "true" | "y" | "yes" => Ok(true),
            _ => Err(NOT_BOOL),
        },
        _ => Err("Input should be a valid boolean"),
    }
}

#[cfg(test)]
mod tests {
    use super::{LaxBool, LaxInt};

    fn int(json: &str) -> Option<i128> {
        serde_json::from_str::<LaxInt>(json).ok().map(|v| v.0)
    }

    fn boolean(json: &str) -> Option<bool> {
        serde_json::from_str::<LaxBool>(json).ok().map(|v| v.0)
    }

    #[test]
    fn ints_as_pydantic_reads_them() {
        // expected values observed on pydantic 2.14 (tests/fixtures/reference-json)
        for (json, want) in [
            ("12", Some(12)),
            ("true", Some(1)),
            ("false", Some(0)),
            ("120.0", Some(120)),
            ("9.2e18", Some(9_200_000_000_000_000_000)),
            ("\" 12 \"", Some(12)),
            ("\"\\t12\\n\"", Some(12)),
            ("\"\\u00a012\\u3000\"", Some(12)),
            ("\"\\u000b12\\u2028\"", Some(12)),
            ("\"+12\"", Some(12)),
            ("\"-12\"", Some(-12)),
            ("\"-0\"", Some(0)),
            ("\"1_000\"", Some(1000)),
            ("\"012\"", Some(12)),
            ("\"00\"", Some(0)),
            ("\"12.0\"", Some(12)),
            ("120.5", None),
            ("9.3e18", None),
            ("\"1e3\"", None),
            ("\"12.\"", None),
            ("\"0x10\"", None),
            ("\"1,000\"", None),
            ("\"1__0\"", None),
            ("\"_1\"", None),
            ("\"\"", None),
            ("null", None),
            ("[]", None),
        ] {
            assert_eq!(int(json), want, "{json}");
        }
    }

    #[test]
    fn bools_as_pydantic_reads_them() {
        for (json, want) in [
            ("true", Some(true)),
            ("0", Some(false)),
            ("1", Some(true)),
            ("1.0", Some(true)),
            ("0.0", Some(false)),
            ("\"YES\"", Some(true)),
            ("\"off\"", Some(false)),
            ("\"t\"", Some(true)),
            ("\"N\"", Some(false)),
            ("2", None),
            ("1.5", None),
            ("\" yes\"", None),
            ("\"maybe\"", None),
            ("null", None),
        ] {
            assert_eq!(boolean(json), want, "{json}");
        }
    }
}

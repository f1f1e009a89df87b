//! Writing wire JSON: compact, keys in order ([`to_string`], the one place the crate
//! writes JSON text).
//!
//! Floats are written like Python's `repr` ([`python_repr`]: what `json.dumps` of
//! `model_dump(mode="json")` writes in every SSE frame of the reference): the shortest
//! digits that read back as the same double, in fixed notation for 1e-4 ≤ |x| < 1e16
//! with at least one digit after the point (`100000.0`, `0.0001`), otherwise in exponent
//! notation with a signed exponent of at least two digits (`1e+16`, `1.5e-07`, `5e-324`).
//! Floats only occur in free-form values (metadata, structured output, `CUSTOM` values,
//! tool-result metadata, thinking extras): [`crate::json::Value`] writes each float as
//! raw JSON text in that notation. (A second serde_json formatter would do it
//! everywhere but adds 12.5 KB gzip to the `.wasm`.)

use serde::Serialize;

/// Compact wire JSON of `value` (see the module docs). Serialising the crate's types
/// cannot fail (every map key is a string); a failing custom `Serialize` gives `""`.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut buf = Vec::with_capacity(128);
    let mut out = Out {
        buf: &mut buf,
        limit: None,
    };
    match write(&mut out, value) {
        Ok(()) => String::from_utf8(buf).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// Writes the compact wire JSON of `value` (as [`to_string`] writes it) to `out`.
pub(crate) fn write<T: Serialize + ?Sized>(out: &mut Out<'_>, value: &T) -> serde_json::Result<()> {
    serde_json::to_writer(out, value)
}

/// Where wire JSON is written: a buffer that grows as needed (`limit: None`), or whose
/// every allocation may fail (`OutOfMemory`) and that never grows past `limit` bytes (the
/// snapshot's: in wasm, running out of memory there must not abort). One writer type, so
/// that the serialisers are compiled once into the `.wasm`.
pub(crate) struct Out<'a> {
    pub(crate) buf: &'a mut Vec<u8>,
    pub(crate) limit: Option<usize>,
}

impl std::io::Write for Out<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if let Some(limit) = self.limit {
            let full = || std::io::Error::from(std::io::ErrorKind::OutOfMemory);
            if self.buf.len().saturating_add(bytes.len()) > limit {
                return Err(full());
            }
            if self.buf.capacity() - self.buf.len() < bytes.len() {
                // doubling first, then just what is needed
                (self.buf.try_reserve(bytes.len()))
                    .or_else(|_| self.buf.try_reserve_exact(bytes.len()))
                    .map_err(|_| full())?;
            }
        }
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.write(bytes).map(drop)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Python's `repr(float)` of a finite double (`null` for NaN and the infinities).
pub fn python_repr(value: f64) -> String {
    if !value.is_finite() {
        return "null".to_owned();
    }
    // zmij (serde_json's own float writer) gives the shortest round-trip digits, as
    // Python's repr does; only the notation differs. Read its digits and exponent.
    let mut buffer = zmij::Buffer::new();
    let text = buffer.format_finite(value.abs());
    let (mantissa, exponent) = text.split_once(['e', 'E']).unwrap_or((text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let significant = all.trim_start_matches('0');
    let leading = (all.len() - significant.len()) as i32;
    let digits = significant.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    // value = 0.d1d2d3… × 10^point
    let point = int.len() as i32 + exponent - leading;
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if digits == "0" {
        return format!("{sign}0.0");
    }
    if -4 < point && point <= 16 {
        let n = digits.len() as i32;
        let fixed = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point >= n {
            format!("{digits}{}.0", "0".repeat((point - n) as usize))
        } else {
            let (int, frac) = digits.split_at(point as usize);
            format!("{int}.{frac}")
        };
        return format!("{sign}{fixed}");
    }
    let (first, rest) = digits.split_at(1);
    let mantissa = if rest.is_empty() {
        first.to_owned()
    } else {
        format!("{first}.{rest}")
    };
    let e = point - 1;
    let esign = if e < 0 { '-' } else { '+' };
    format!("{sign}{mantissa}e{esign}{:02}", e.abs())
}

#[cfg(test)]
mod tests {
    use super::python_repr;

    #[test]
    fn floats_are_written_as_python_writes_them() {
        // expected values: CPython 3.11 repr()
        for (value, want) in [
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (100000.0, "100000.0"),
            (1e15, "1000000000000000.0"),
            (1e16, "1e+16"),
            (1e22, "1e+22"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (0.1, "0.1"),
            (2.5, "2.5"),
            (123456789.12345679, "123456789.12345679"),
            (3.0000000000000004, "3.0000000000000004"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (-1234.5, "-1234.5"),
            (f64::NAN, "null"),
            (f64::INFINITY, "null"),
        ] {
            assert_eq!(python_repr(value), want, "{value:e}");
        }
    }
}

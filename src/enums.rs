//! Reading the wire strings of the unit enums (`Role`, the states, the reasons …).
//!
//! serde's derive gives each enum its own visitor (string, bytes and index forms of the
//! variant), about 1 KB of `.wasm` apiece; here every enum reads a string and looks it up
//! in its own table of names, one shared function. The names are those the enum's
//! `Serialize` (serde's `rename_all = "snake_case"`) writes, which a test checks for every
//! variant (src/tests.rs); a variant left out of the table fails the build. An unknown
//! name is serde's own error (``unknown variant `x`, expected one of `a`, `b` ``); a value
//! that is not a string is "invalid type: …, expected variant identifier", as with the
//! derive.

use std::fmt;

use serde::de::{Deserializer, Error, Visitor};

/// `wire_enum!(Type { Variant = "name", ... })`: `Deserialize` for a unit enum from its
/// wire string, and `Type::VARIANTS` (every variant with its name, in declaration order).
macro_rules! wire_enum {
    ($name:ident { $($variant:ident = $wire:literal),* $(,)? }) => {
        impl $name {
            /// Every variant with its wire string, in declaration order.
            #[allow(dead_code)]
            pub(crate) const VARIANTS: &'static [($name, &'static str)] = &[$(($name::$variant, $wire)),*];
        }

        // every variant must be listed: a missing one makes this match non-exhaustive, and
        // the build fails
        const _: fn($name) = |variant| match variant {
            $($name::$variant => {})*
        };

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$name, D::Error> {
                const NAMES: &[&str] = &[$($wire),*];
                const ALL: &[$name] = &[$($name::$variant),*];
                let index = crate::enums::variant_index(deserializer, NAMES)?;
                // `variant_index` returns an index into NAMES, which ALL matches one to one
                Ok(ALL.get(index).copied().unwrap_or(ALL[0]))
            }
        }
    };
}

pub(crate) use wire_enum;

/// Reads a string and returns its position in `names`, or serde's unknown-variant error
/// (raised inside the deserializer, so serde_json adds its position, as for a derive).
pub(crate) fn variant_index<'de, D: Deserializer<'de>>(
    deserializer: D,
    names: &'static [&'static str],
) -> Result<usize, D::Error> {
    deserializer.deserialize_str(Names(names))
}

struct Names(&'static [&'static str]);

impl Visitor<'_> for Names {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: Error>(self, text: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|name| *name == text)
            .ok_or_else(|| E::unknown_variant(text, self.0))
    }
}

//! JSON objects read key by key into raw values (`Option<&RawValue>` per known key), the
//! way Python's `json.loads` reads them: a key given twice keeps its last value; unknown
//! keys are skipped. Each field is converted afterwards, so that `null` and absence stay
//! apart and errors can name the field.

/// `raw_object!(Name { "json key" => field, ... })`: the struct and its `Deserialize`.
macro_rules! raw_object {
    ($(#[$doc:meta])* $name:ident { $($key:literal => $field:ident),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Default, Clone, Copy)]
        struct $name<'a> {
            $($field: Option<&'a serde_json::value::RawValue>,)*
        }

        #[allow(dead_code)]
        impl $name<'_> {
            /// Whether the object has the key `key`.
            fn has(&self, key: &str) -> bool {
                match key {
                    $($key => self.$field.is_some(),)*
                    _ => false,
                }
            }
        }

        impl<'de> serde::Deserialize<'de> for $name<'de> {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Keys;
                impl<'de> serde::de::Visitor<'de> for Keys {
                    type Value = $name<'de>;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str("a JSON object")
                    }
                    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<$name<'de>, M::Error> {
                        let mut raw = $name::default();
                        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                            let slot = match key.as_ref() {
                                $($key => &mut raw.$field,)*
                                _ => {
                                    map.next_value::<serde::de::IgnoredAny>()?;
                                    continue;
                                }
                            };
                            *slot = Some(map.next_value()?);
                        }
                        Ok(raw)
                    }
                }
                deserializer.deserialize_map(Keys)
            }
        }
    };
}

pub(crate) use raw_object;

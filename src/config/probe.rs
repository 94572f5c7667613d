//! The default of one configuration key, found by serializing the defaults
//! along that key's path only: typing a flag's value needs its key's
//! default, and encoding every default as a JSON tree for it cost more than
//! the rest of the flag's handling.

use serde::Serialize;
use serde::ser::{self, Impossible};
use serde_json::Value;

/// The value of dotted `key` in `root` as JSON: what
/// `serde_json::to_value(root)` has at that path, or `None` when it has nothing there.
pub fn value_at<T: Serialize>(root: &T, key: &str) -> Option<Value> {
    let segments: Vec<&str> = key.split('.').collect();
    root.serialize(Probe { path: &segments }).ok().flatten()
}

/// Anything but a struct on the way to the key: the probe gives up.
#[derive(Debug)]
struct Miss;

impl std::fmt::Display for Miss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("no struct field on the key's path")
    }
}

impl std::error::Error for Miss {}

impl ser::Error for Miss {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Miss
    }
}

/// Serializes a value some of whose fields lead to `path` (never empty).
struct Probe<'a> {
    path: &'a [&'a str],
}

/// A struct's fields, looking for the one named by the path's first segment.
struct Fields<'a> {
    path: &'a [&'a str],
    found: Option<Value>,
}

type Nothing = Impossible<Option<Value>, Miss>;

macro_rules! misses {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $ty),*) -> Result<Self::Ok, Miss> { Err(Miss) })*
    };
}

impl<'a> ser::Serializer for Probe<'a> {
    type Ok = Option<Value>;
    type Error = Miss;
    type SerializeSeq = Nothing;
    type SerializeTuple = Nothing;
    type SerializeTupleStruct = Nothing;
    type SerializeTupleVariant = Nothing;
    type SerializeMap = Nothing;
    type SerializeStruct = Fields<'a>;
    type SerializeStructVariant = Nothing;

    misses!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Self::Ok, Miss> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Self::Ok, Miss> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Self::Ok, Miss> {
        Err(Miss)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Nothing, Miss> {
        Err(Miss)
    }

    fn serialize_tuple(self, _: usize) -> Result<Nothing, Miss> {
        Err(Miss)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Nothing, Miss> {
        Err(Miss)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Nothing, Miss> {
        Err(Miss)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Nothing, Miss> {
        Err(Miss)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'a>, Miss> {
        Ok(Fields {
            path: self.path,
            found: None,
        })
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Nothing, Miss> {
        Err(Miss)
    }
}

impl ser::SerializeStruct for Fields<'_> {
    type Ok = Option<Value>;
    type Error = Miss;

    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Miss> {
        match self.path.split_first() {
            Some((first, [])) if *first == key => {
                self.found = Some(serde_json::to_value(value).map_err(|_| Miss)?);
            }
            Some((first, rest)) if *first == key => {
                self.found = value.serialize(Probe { path: rest })?;
            }
            _ => {}
        }
        Ok(())
    }

    fn end(self) -> Result<Option<Value>, Miss> {
        Ok(self.found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn every_key_has_the_value_the_whole_tree_has_there() {
        let config = Config::default();
        let tree = serde_json::to_value(&config).unwrap();
        let leaves: Vec<(String, &Value)> = crate::config::tree::leaves(&tree).collect();
        assert!(leaves.len() > 10);
        for (key, value) in leaves {
            assert_eq!(value_at(&config, &key).as_ref(), Some(value), "{key}");
        }
        for section in ["services", "services.loopDetection", "snapshots"] {
            let pointer = format!("/{}", section.replace('.', "/"));
            assert_eq!(value_at(&config, section).as_ref(), tree.pointer(&pointer));
        }
        for missing in [
            "",
            "nope",
            "services.nope",
            "services.session.maxSessions.x",
        ] {
            assert_eq!(value_at(&config, missing), None, "{missing}");
        }
    }
}

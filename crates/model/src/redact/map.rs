//! The `--redact-map` file: every value learnt and its token, saved as
//! JSON and read back, streamed, within the redactor's budget.

use super::{ALL_CATS, Cat, MAX_BYTES, Redactor, run_char};
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::io::Read;

const MAP_ABOUT: &str = "mqdiag --redact-map: real values and their tokens; keep it private";

/// The `--redact-map` file, as written.
#[derive(serde::Serialize)]
struct MapFileRef<'a> {
    about: &'static str,
    tokens: Vec<MapEntryRef<'a>>,
}

#[derive(serde::Serialize)]
struct MapEntryRef<'a> {
    category: &'static str,
    value: &'a str,
    token: &'a str,
}

/// An entry as read.
#[derive(serde::Deserialize)]
struct MapEntry {
    category: String,
    value: String,
    token: String,
}

/// Why a saved map (`--redact-map`) could not be loaded.
#[derive(Debug)]
pub enum MapError {
    /// Not the JSON `map_json` writes.
    Json(serde_json::Error),
    /// A category no token has.
    UnknownCategory(String),
    /// A token that is not its category's prefix and a number.
    NotAToken {
        token: String,
        category: &'static str,
    },
    /// More values than the redactor holds (`MAX_NAMES`, `MAX_BYTES`).
    TooLarge { max_names: usize, max_bytes: usize },
}

impl std::fmt::Display for MapError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapError::Json(e) => e.fmt(f),
            MapError::UnknownCategory(c) => write!(f, "unknown category `{c}`"),
            MapError::NotAToken { token, category } => {
                write!(f, "`{token}` is not a {category} token")
            }
            MapError::TooLarge {
                max_names,
                max_bytes,
            } => write!(
                f,
                "more than {max_names} values or {} MB of them: more than the redactor holds",
                max_bytes >> 20
            ),
        }
    }
}

impl std::error::Error for MapError {}

/// The map's top level: `about` skipped, each of `tokens` loaded as it is
/// read (the file is never held whole). A failure of ours is kept in
/// `err` (serde only carries a message).
struct Doc<'a> {
    r: &'a mut Redactor,
    err: Option<MapError>,
}

impl<'de> DeserializeSeed<'de> for &mut Doc<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_struct("MapFile", &["about", "tokens"], self)
    }
}

impl<'de> Visitor<'de> for &mut Doc<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a redaction map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        let mut tokens = false;
        while let Some(k) = m.next_key::<String>()? {
            if k == "tokens" {
                m.next_value_seed(Entries(&mut *self))?;
                tokens = true;
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        if !tokens {
            return Err(de::Error::missing_field("tokens"));
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
        if s.next_element::<IgnoredAny>()?.is_none()
            || s.next_element_seed(Entries(&mut *self))?.is_none()
        {
            return Err(de::Error::invalid_length(0, &"about and tokens"));
        }
        Ok(())
    }
}

/// The `tokens` list, one entry at a time.
struct Entries<'a, 'b>(&'a mut Doc<'b>);

impl<'de> DeserializeSeed<'de> for Entries<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Entries<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of tokens")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
        while let Some(e) = s.next_element::<MapEntry>()? {
            if let Err(e) = self.0.r.load_entry(e) {
                self.0.err = Some(e);
                return Err(de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
}

impl Redactor {
    /// Read a map saved by `map_json` (`--redact-map`): its tokens are
    /// kept, its names are learnt, and new values are numbered after it.
    pub fn load_map(&mut self, text: &str) -> Result<(), MapError> {
        self.load_map_from(text.as_bytes())
    }

    /// `load_map` from a reader, streamed: each entry is learnt as it is
    /// read, and a map of more values than the redactor holds is refused
    /// when its entries pass the budget, not after reading it whole. The
    /// reader is not buffered here.
    pub fn load_map_from(&mut self, r: impl Read) -> Result<(), MapError> {
        let mut doc = Doc { r: self, err: None };
        let mut de = serde_json::Deserializer::from_reader(r);
        let res = (&mut doc).deserialize(&mut de).and_then(|()| de.end());
        match (doc.err, res) {
            (Some(e), _) => Err(e),
            (None, Err(e)) => Err(MapError::Json(e)),
            (None, Ok(())) => Ok(()),
        }
    }

    fn load_entry(&mut self, e: MapEntry) -> Result<(), MapError> {
        let cat = ALL_CATS
            .iter()
            .copied()
            .find(|c| c.prefix() == e.category)
            .ok_or_else(|| MapError::UnknownCategory(e.category.clone()))?;
        let n = e
            .token
            .strip_prefix(cat.prefix())
            .and_then(|t| t.strip_prefix('-'))
            .and_then(|t| t.parse::<u32>().ok())
            .ok_or_else(|| MapError::NotAToken {
                token: e.token.clone(),
                category: cat.prefix(),
            })?;
        // One value counts once, as while learning (`over_budget`).
        if self.tokens.len.max(self.names.len()) >= self.max_names
            || self.name_bytes + e.value.len() > MAX_BYTES
        {
            return Err(MapError::TooLarge {
                max_names: self.max_names,
                max_bytes: MAX_BYTES,
            });
        }
        let next = &mut self.tokens.next[cat.index()];
        *next = (*next).max(n);
        if !matches!(cat, Cat::Ip | Cat::Dn | Cat::Addr | Cat::Secret)
            && e.value.chars().all(run_char)
            && !self.names.contains_key(&e.value)
        {
            self.names.insert(&e.value, cat);
        }
        // Every value's bytes count, names or not: the budget is memory.
        self.name_bytes += e.value.len();
        self.tokens.set(cat, &e.value, e.token);
        Ok(())
    }

    /// Every value learnt and its token, as JSON (`--redact-map`), by
    /// category and token number. It holds the real names: it is for the
    /// one who redacts, never to be sent with the output.
    pub fn map_json(&self) -> String {
        let mut out = Vec::new();
        // Writing to a vector cannot fail.
        let _ = self.write_map(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// `map_json` written to `w` as it is made: the entries borrow the
    /// redactor's values, so saving a large map costs a list of
    /// references, not a copy of every name and of the whole text.
    pub fn write_map(&self, w: impl std::io::Write) -> std::io::Result<()> {
        let mut v: Vec<(usize, u32, MapEntryRef<'_>)> = self
            .tokens
            .iter()
            .map(|(cat, value, token)| {
                let n = token
                    .rsplit('-')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                let e = MapEntryRef {
                    category: cat.prefix(),
                    value,
                    token,
                };
                (cat.index(), n, e)
            })
            .collect();
        v.sort_unstable_by(|a, b| (a.0, a.1, a.2.value).cmp(&(b.0, b.1, b.2.value)));
        let doc = MapFileRef {
            about: MAP_ABOUT,
            tokens: v.into_iter().map(|(_, _, e)| e).collect(),
        };
        let mut w = std::io::BufWriter::with_capacity(256 * 1024, w);
        serde_json::to_writer_pretty(&mut w, &doc)?;
        std::io::Write::write_all(&mut w, b"\n")?;
        std::io::Write::flush(&mut w)
    }
}

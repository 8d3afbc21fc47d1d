//! One data row seen through its header: typed access by column name.

use super::columns::Layout;
use super::csvline::{self, Field};
use super::value;
use chrono::NaiveDateTime;
use mqdiag_model::text::decode_lossy;
use std::borrow::Cow;

pub(crate) struct Row<'a> {
    pub(crate) layout: &'a Layout,
    pub(crate) line: &'a [u8],
    /// The line as text when it is UTF-8 (nearly always): cells are then
    /// sliced from it without checking each again.
    pub(crate) text: Option<&'a str>,
    /// Exactly `layout.width()` fields, or the first of them when the
    /// rest of the line holds no quote (`fit_prefix`): cells past them are
    /// then found by counting commas, and the layout learns to split
    /// further.
    pub(crate) fields: &'a [Field],
}

impl<'a> Row<'a> {
    pub(crate) fn new(layout: &'a Layout, line: &'a [u8], fields: &'a [Field]) -> Row<'a> {
        Row {
            layout,
            line,
            text: std::str::from_utf8(line).ok(),
            fields,
        }
    }

    /// The cell as written (quotes and `=` removed), decoded.
    pub(crate) fn raw(&self, i: usize) -> Cow<'a, str> {
        let f = match self.fields.get(i) {
            Some(f) => *f,
            None => match self.rest_field(i) {
                Some(f) => f,
                None => return Cow::Borrowed(""),
            },
        };
        // Fields end at ASCII quotes and commas, so on a UTF-8 line they
        // are whole characters; `get` checks that all the same.
        if let Some(s) = self.text.and_then(|t| t.get(f.start..f.end)) {
            return Cow::Borrowed(s);
        }
        decode_lossy(f.bytes(self.line))
    }

    /// A cell past the fields split, on a row split only in part.
    fn rest_field(&self, i: usize) -> Option<Field> {
        let n = self.fields.len();
        if i >= self.layout.width() || n >= self.layout.width() {
            return None;
        }
        let last = self.fields.last()?;
        self.layout.read_past(i);
        Some(csvline::plain_field(
            self.line,
            csvline::rest_after(self.line, last),
            i - n,
        ))
    }

    /// The cell cleaned: trimmed, with the formatter's placeholders (empty,
    /// dots, and `-1` in columns where it is the "absent" dummy) as `None`.
    pub(crate) fn value(&self, i: usize) -> Option<Cow<'a, str>> {
        let v = match self.raw(i) {
            Cow::Borrowed(s) => Cow::Borrowed(value::clean(s)?),
            Cow::Owned(s) => Cow::Owned(value::clean(&s)?.to_string()),
        };
        if v == "-1" && !self.layout.keep_minus_one.get(i).copied().unwrap_or(false) {
            return None;
        }
        Some(v)
    }

    pub(crate) fn get(&self, name: &str) -> Option<Cow<'a, str>> {
        self.value(self.layout.col(name)?)
    }

    pub(crate) fn int(&self, name: &str) -> Option<i64> {
        // `get` trimmed it already.
        self.get(name)?.parse().ok()
    }

    /// A `X(S)` + `X(US)` duration in microseconds.
    pub(crate) fn dur_us(&self, base: &str) -> Option<i64> {
        let get = |suffix| self.value(self.layout.col2(base, suffix)?);
        value::duration_us(get("(S)").as_deref(), get("(US)").as_deref())
    }

    /// A `X (DATE)` + `X (TIME)` pair as written (no zone). `Err` carries
    /// the text that could not be read.
    pub(crate) fn datetime(&self, base: &str) -> Result<Option<NaiveDateTime>, String> {
        let d = self
            .layout
            .col2(base, " (DATE)")
            .and_then(|i| self.value(i));
        let t = self
            .layout
            .col2(base, " (TIME)")
            .and_then(|i| self.value(i));
        value::date_time(d.as_deref(), t.as_deref()).map_err(|()| {
            format!(
                "`{base}` `{}`,`{}`",
                d.as_deref().unwrap_or(""),
                t.as_deref().unwrap_or("")
            )
        })
    }
}

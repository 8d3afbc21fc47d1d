//! `timeline --format parquet` (cargo feature `parquet`): the timeline as
//! one Parquet file of typed columns, for DuckDB, Spark or Trino. Rows are
//! gathered into column buffers and written one row group at a time, each
//! handed to the output as soon as it is encoded, so memory is bounded by
//! one row group (`ROW_GROUP_ROWS` rows or `ROW_GROUP_BYTES` bytes of
//! text), never by the input.
//!
//! Written with the `parquet` crate's own column writers (no Arrow): the
//! schema is fixed, and Arrow's arrays would add a dozen crates to build
//! for nothing this needs.

use crate::export::{Facts, attr_pairs};
use mqdiag_model::event::Event;
use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::{SerializedColumnWriter, SerializedFileWriter};
use parquet::schema::parser::parse_message_type;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};

/// Rows per row group at most ...
pub(crate) const ROW_GROUP_ROWS: usize = 32 * 1024;
/// ... and about this many bytes of strings (an SMF row carries ~500
/// attributes).
pub(crate) const ROW_GROUP_BYTES: usize = 16 << 20;

/// The columns, in this order. Times are UTC microseconds
/// (`TIMESTAMP(MICROS, true)`: Spark and DuckDB read them as timestamps
/// with zone); `utc_offset_s` keeps the offset the source wrote them in.
const SCHEMA: &str = "
message mqdiag_timeline {
  REQUIRED INT64 ts (TIMESTAMP(MICROS,true));
  REQUIRED INT32 utc_offset_s;
  OPTIONAL INT64 end (TIMESTAMP(MICROS,true));
  REQUIRED BYTE_ARRAY path (UTF8);
  REQUIRED INT64 line;
  REQUIRED BYTE_ARRAY format (UTF8);
  REQUIRED BYTE_ARRAY kind (UTF8);
  OPTIONAL BYTE_ARRAY host (UTF8);
  OPTIONAL INT64 pid;
  OPTIONAL INT64 tid;
  OPTIONAL BYTE_ARRAY ident (UTF8);
  OPTIONAL BYTE_ARRAY qmgr (UTF8);
  OPTIONAL BYTE_ARRAY msgid (UTF8);
  OPTIONAL BYTE_ARRAY level (UTF8);
  OPTIONAL BYTE_ARRAY function (UTF8);
  OPTIONAL BYTE_ARRAY verb (UTF8);
  OPTIONAL BYTE_ARRAY reason (UTF8);
  OPTIONAL BYTE_ARRAY rc (UTF8);
  OPTIONAL INT64 elapsed_us;
  OPTIONAL INT32 depth;
  REQUIRED BYTE_ARRAY text (UTF8);
  OPTIONAL group attrs (MAP) {
    REPEATED group key_value {
      REQUIRED BYTE_ARRAY key (UTF8);
      OPTIONAL BYTE_ARRAY value (UTF8);
    }
  }
}";

fn perr(e: ParquetError) -> io::Error {
    io::Error::other(e.to_string())
}

/// Where the file writer writes: a buffer the caller empties into the real
/// output after each row group (the writer needs a `Send` sink, standard
/// output's lock is not one).
#[derive(Clone, Default)]
struct Chunk(Arc<Mutex<Vec<u8>>>);

impl Write for Chunk {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| io::Error::other("parquet buffer poisoned"))?
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Chunk {
    fn drain_to(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut b = self
            .0
            .lock()
            .map_err(|_| io::Error::other("parquet buffer poisoned"))?;
        out.write_all(&b)?;
        b.clear();
        Ok(())
    }
}

/// An optional column: values of the rows that have one, and a
/// definition level (1 present, 0 null) per row.
#[derive(Default)]
struct Opt<T> {
    vals: Vec<T>,
    defs: Vec<i16>,
}

impl<T> Opt<T> {
    fn push(&mut self, v: Option<T>) {
        self.defs.push(i16::from(v.is_some()));
        self.vals.extend(v);
    }
}

fn bytes(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

#[derive(Default)]
struct Columns {
    ts: Vec<i64>,
    offset: Vec<i32>,
    end: Opt<i64>,
    path: Vec<ByteArray>,
    line: Vec<i64>,
    format: Vec<ByteArray>,
    kind: Vec<ByteArray>,
    host: Opt<ByteArray>,
    pid: Opt<i64>,
    tid: Opt<i64>,
    ident: Opt<ByteArray>,
    qmgr: Opt<ByteArray>,
    msgid: Opt<ByteArray>,
    level: Opt<ByteArray>,
    function: Opt<ByteArray>,
    verb: Opt<ByteArray>,
    reason: Opt<ByteArray>,
    rc: Opt<ByteArray>,
    elapsed_us: Opt<i64>,
    depth: Opt<i32>,
    text: Vec<ByteArray>,
    keys: Vec<ByteArray>,
    vals: Vec<ByteArray>,
    /// Levels of the map's two leaves: key (max definition 2), value (3).
    key_defs: Vec<i16>,
    val_defs: Vec<i16>,
    reps: Vec<i16>,
}

fn micros(t: &mqdiag_model::event::Ts) -> i64 {
    t.timestamp_micros()
}

impl Columns {
    /// Add the event's row; returns about how many bytes it holds.
    fn push(&mut self, e: &Event) -> usize {
        let f = Facts::of(e);
        let s = |v: Option<&str>| v.map(bytes);
        self.ts.push(micros(&e.ts));
        self.offset.push(e.ts.offset().local_minus_utc());
        self.end.push(e.end.as_ref().map(micros));
        self.path.push(bytes(e.path()));
        self.line.push(e.line as i64);
        self.format.push(bytes(e.format().as_str()));
        self.kind.push(bytes(e.kind.as_str()));
        self.host.push(s(f.host));
        self.pid.push(e.pid.map(i64::from));
        self.tid.push(e.tid.map(i64::from));
        self.ident.push(s(e.ident.as_deref()));
        self.qmgr.push(s(f.qmgr));
        self.msgid.push(s(f.msgid));
        self.level.push(f.level.map(|l| bytes(l.as_str())));
        self.function.push(s(e.function.as_deref()));
        self.verb.push(s(f.verb));
        self.reason.push(s(f.reason));
        self.rc.push(s(e.rc.as_deref()));
        self.elapsed_us.push(e.elapsed_us.map(|v| v as i64));
        self.depth.push(e.depth.map(|v| v as i32));
        self.text.push(bytes(&e.text));
        let mut n = 160 + e.path().len() + e.text.len();
        let attrs = attr_pairs(e);
        if attrs.is_empty() {
            self.key_defs.push(0);
            self.val_defs.push(0);
            self.reps.push(0);
        }
        for (i, (k, v)) in attrs.into_iter().enumerate() {
            self.keys.push(bytes(k));
            self.vals.push(bytes(v));
            self.key_defs.push(2);
            self.val_defs.push(3);
            self.reps.push(i16::from(i > 0));
            n += k.len() + v.len() + 32;
        }
        n
    }
}

/// The Parquet writer of a timeline.
pub struct ParquetRows {
    w: SerializedFileWriter<Chunk>,
    chunk: Chunk,
    cols: Columns,
    rows: usize,
    bytes: usize,
    /// Row group limits: rows, bytes.
    limits: (usize, usize),
    /// Rows written in all.
    pub(crate) written: u64,
}

impl ParquetRows {
    pub fn new() -> io::Result<ParquetRows> {
        Self::with_limits(ROW_GROUP_ROWS, ROW_GROUP_BYTES)
    }

    /// With row groups of at most `rows` rows or about `bytes` bytes.
    pub(crate) fn with_limits(rows: usize, bytes: usize) -> io::Result<ParquetRows> {
        let schema = Arc::new(parse_message_type(SCHEMA).map_err(perr)?);
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("mqdiag {}", env!("CARGO_PKG_VERSION")))
            .build();
        let chunk = Chunk::default();
        let w = SerializedFileWriter::new(chunk.clone(), schema, Arc::new(props)).map_err(perr)?;
        Ok(ParquetRows {
            w,
            chunk,
            cols: Columns::default(),
            rows: 0,
            bytes: 0,
            limits: (rows, bytes),
            written: 0,
        })
    }

    /// Add an event's row; a full row group is written out to `out`.
    pub fn push(&mut self, e: &Event, out: &mut dyn Write) -> io::Result<()> {
        self.bytes += self.cols.push(e);
        self.rows += 1;
        if self.rows >= self.limits.0 || self.bytes >= self.limits.1 {
            self.flush(out)?;
        }
        Ok(())
    }

    fn flush(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.rows == 0 {
            return Ok(());
        }
        self.write_group().map_err(perr)?;
        self.written += self.rows as u64;
        self.rows = 0;
        self.bytes = 0;
        self.cols = Columns::default();
        self.chunk.drain_to(out)
    }

    fn write_group(&mut self) -> parquet::errors::Result<()> {
        let c = &self.cols;
        let mut rg = self.w.next_row_group()?;
        let mut i = 0;
        while let Some(mut col) = rg.next_column()? {
            write_leaf(&mut col, c, i)?;
            col.close()?;
            i += 1;
        }
        rg.close()?;
        Ok(())
    }

    /// The last row group and the footer.
    pub fn finish(mut self, out: &mut dyn Write) -> io::Result<u64> {
        self.flush(out)?;
        self.w.close().map_err(perr)?;
        self.chunk.drain_to(out)?;
        Ok(self.written)
    }
}

fn req_i64(col: &mut SerializedColumnWriter<'_>, v: &[i64]) -> parquet::errors::Result<()> {
    col.typed::<Int64Type>()
        .write_batch(v, None, None)
        .map(|_| ())
}

fn opt_i64(col: &mut SerializedColumnWriter<'_>, v: &Opt<i64>) -> parquet::errors::Result<()> {
    col.typed::<Int64Type>()
        .write_batch(&v.vals, Some(&v.defs), None)
        .map(|_| ())
}

fn req_str(col: &mut SerializedColumnWriter<'_>, v: &[ByteArray]) -> parquet::errors::Result<()> {
    col.typed::<ByteArrayType>()
        .write_batch(v, None, None)
        .map(|_| ())
}

fn opt_str(
    col: &mut SerializedColumnWriter<'_>,
    v: &Opt<ByteArray>,
) -> parquet::errors::Result<()> {
    col.typed::<ByteArrayType>()
        .write_batch(&v.vals, Some(&v.defs), None)
        .map(|_| ())
}

/// Leaf `i` of `SCHEMA`, in its order.
fn write_leaf(
    col: &mut SerializedColumnWriter<'_>,
    c: &Columns,
    i: usize,
) -> parquet::errors::Result<()> {
    match i {
        0 => req_i64(col, &c.ts),
        1 => col
            .typed::<Int32Type>()
            .write_batch(&c.offset, None, None)
            .map(|_| ()),
        2 => opt_i64(col, &c.end),
        3 => req_str(col, &c.path),
        4 => req_i64(col, &c.line),
        5 => req_str(col, &c.format),
        6 => req_str(col, &c.kind),
        7 => opt_str(col, &c.host),
        8 => opt_i64(col, &c.pid),
        9 => opt_i64(col, &c.tid),
        10 => opt_str(col, &c.ident),
        11 => opt_str(col, &c.qmgr),
        12 => opt_str(col, &c.msgid),
        13 => opt_str(col, &c.level),
        14 => opt_str(col, &c.function),
        15 => opt_str(col, &c.verb),
        16 => opt_str(col, &c.reason),
        17 => opt_str(col, &c.rc),
        18 => opt_i64(col, &c.elapsed_us),
        19 => col
            .typed::<Int32Type>()
            .write_batch(&c.depth.vals, Some(&c.depth.defs), None)
            .map(|_| ()),
        20 => req_str(col, &c.text),
        21 => col
            .typed::<ByteArrayType>()
            .write_batch(&c.keys, Some(&c.key_defs), Some(&c.reps))
            .map(|_| ()),
        22 => col
            .typed::<ByteArrayType>()
            .write_batch(&c.vals, Some(&c.val_defs), Some(&c.reps))
            .map(|_| ()),
        _ => Err(ParquetError::General(format!(
            "no column {i} in the schema"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::event::{Kind, Origin};
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    fn event(line: u64, attrs: &[(&'static str, &str)]) -> Event {
        let origin = Origin::new(
            Arc::from("case/AMQERR01.LOG"),
            mqdiag_readers::formats::errlog_text::FORMAT,
        );
        let at = chrono::DateTime::parse_from_rfc3339("2025-03-14T11:22:44.512+01:00").unwrap();
        let mut e = Event::new(at, origin, line, Kind::LogRecord, format!("record {line}"));
        e.pid = Some(20417);
        for (k, v) in attrs {
            e.set_attr(k, *v);
        }
        e
    }

    #[test]
    fn rows_go_out_in_row_groups_and_read_back() {
        let mut out = Vec::new();
        let mut w = ParquetRows::with_limits(2, usize::MAX).unwrap();
        let evs = [
            event(
                1,
                &[
                    ("msgid", "AMQ9202E"),
                    ("qmgr", "GW1"),
                    ("local_host", "gw1"),
                ],
            ),
            event(2, &[]),
            event(3, &[("qmgr", "GW2")]),
            event(4, &[("b", "2"), ("a", "1")]),
            event(5, &[]),
        ];
        let mut sizes = Vec::new();
        for e in &evs {
            w.push(e, &mut out).unwrap();
            sizes.push(out.len());
        }
        // Every second row a row group leaves for the output.
        assert_eq!(sizes[0], 0);
        assert!(sizes[1] > 0 && sizes[2] == sizes[1]);
        assert!(sizes[3] > sizes[2] && sizes[4] == sizes[3]);
        assert_eq!(w.finish(&mut out).unwrap(), 5);
        let path = std::env::temp_dir().join(format!("mqdiag-pq-{}.parquet", std::process::id()));
        std::fs::write(&path, &out).unwrap();
        let r = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(r.metadata().num_row_groups(), 3);
        assert_eq!(r.metadata().file_metadata().num_rows(), 5);
        let rows: Vec<_> = r.get_row_iter(None).unwrap().map(|r| r.unwrap()).collect();
        let field = |i: usize, name: &str| {
            rows[i]
                .get_column_iter()
                .find(|(n, _)| n.as_str() == name)
                .map(|(_, f)| f.clone())
                .unwrap()
        };
        let at = chrono::DateTime::parse_from_rfc3339("2025-03-14T10:22:44.512Z").unwrap();
        assert_eq!(
            field(0, "ts"),
            Field::TimestampMicros(at.timestamp_micros())
        );
        assert_eq!(field(0, "utc_offset_s"), Field::Int(3600));
        assert_eq!(field(0, "msgid"), Field::Str("AMQ9202E".into()));
        assert_eq!(field(0, "host"), Field::Str("gw1".into()));
        assert_eq!(field(0, "level"), Field::Str("error".into()));
        assert_eq!(field(1, "msgid"), Field::Null);
        assert_eq!(field(4, "line"), Field::Long(5));
        assert_eq!(field(4, "pid"), Field::Long(20417));
        assert_eq!(field(2, "text"), Field::Str("record 3".into()));
        let map = |i: usize| match field(i, "attrs") {
            Field::MapInternal(m) => m
                .entries()
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<Vec<_>>(),
            Field::Null => Vec::new(),
            other => panic!("attrs: {other:?}"),
        };
        assert_eq!(map(1), Vec::<(String, String)>::new());
        assert_eq!(
            map(3),
            [
                ("\"a\"".to_string(), "\"1\"".to_string()),
                ("\"b\"".to_string(), "\"2\"".to_string())
            ]
        );
        assert_eq!(map(2).len(), 1);
    }

    #[test]
    fn a_big_row_closes_its_group_by_bytes() {
        let mut out = Vec::new();
        let mut w = ParquetRows::with_limits(usize::MAX, 1000).unwrap();
        let long = "x".repeat(2000);
        w.push(&event(1, &[("explanation", &long)]), &mut out)
            .unwrap();
        assert!(!out.is_empty(), "a row group of one big row went out");
        let before = out.len();
        w.push(&event(2, &[]), &mut out).unwrap();
        assert_eq!(out.len(), before);
        assert_eq!(w.finish(&mut out).unwrap(), 2);
    }
}

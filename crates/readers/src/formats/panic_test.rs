//! A reader for tests only (feature `panic-reader`): it reads files whose
//! first line is `MQDIAG-TEST-PANIC AT <n>` as one text event per line
//! (`<RFC 3339 time> <text>`), and panics when it reaches line `n`. It
//! stands for a reader with a bug, so tests can hold the run to what
//! `guard` promises: the file gets a located `reader-panic` problem,
//! every other input is read, and the verbs exit 2.

use super::Reader;
use crate::input::Input;
use crate::source::{ReadOptions, Source};
use mqdiag_model::event::{Event, Format, Kind};
use mqdiag_model::fileinfo::FileInfo;
use std::io::BufRead;

const MAGIC: &[u8] = b"MQDIAG-TEST-PANIC AT ";

pub(crate) struct PanicTestReader;

impl Reader for PanicTestReader {
    fn format(&self) -> Format {
        Format::UNKNOWN
    }

    fn sniff(&self, _name: &str, head: &[u8]) -> u8 {
        if head.starts_with(MAGIC) { 100 } else { 0 }
    }

    fn open_with(
        &self,
        inputs: Vec<Input>,
        _opts: &ReadOptions,
        _: super::Prepared,
    ) -> Box<dyn Source> {
        Box::new(PanicTestSource {
            inputs,
            lines: None,
            origin: None,
            info: Vec::new(),
        })
    }

    fn fuzz(&self) -> Option<super::Fuzz> {
        None
    }
}

type FileLines = std::io::Lines<std::io::BufReader<Box<dyn std::io::Read + Send>>>;

struct PanicTestSource {
    inputs: Vec<Input>,
    /// The file being read: its lines, where it panics, the line number.
    lines: Option<(FileLines, u64, u64)>,
    origin: Option<std::sync::Arc<mqdiag_model::event::Origin>>,
    info: Vec<FileInfo>,
}

impl Source for PanicTestSource {
    fn next_event(&mut self) -> Option<Event> {
        loop {
            if self.lines.is_none() {
                if self.inputs.is_empty() {
                    return None;
                }
                let input = self.inputs.remove(0);
                self.info
                    .push(FileInfo::new(&input.display, Format::UNKNOWN, input.bytes));
                self.origin = Some(input.origin(Format::UNKNOWN));
                let r = input.open().ok()?;
                let mut lines = std::io::BufReader::new(r).lines();
                let first = lines.next()?.ok()?;
                let at = first[MAGIC.len()..].trim().parse().unwrap_or(u64::MAX);
                self.lines = Some((lines, at, 1));
            }
            let (lines, at, n) = self.lines.as_mut()?;
            let Some(Ok(line)) = lines.next() else {
                self.lines = None;
                continue;
            };
            *n += 1;
            if *n == *at {
                panic!("test reader: panic at line {n}");
            }
            let (ts, text) = line.split_once(' ')?;
            let ts = chrono::DateTime::parse_from_rfc3339(ts).ok()?;
            let fi = self.info.last_mut()?;
            fi.lines = *n;
            fi.saw_event(&ts);
            let origin = self.origin.clone()?;
            return Some(Event::new(ts, origin, *n, Kind::Text, text.to_string()));
        }
    }

    fn finish(self: Box<Self>) -> Vec<FileInfo> {
        self.info
    }
}

//! A reader that fails internally (a panic: a bug of ours, never the
//! input's fault) must not take the run down with it, nor lose its files
//! silently. `Guarded` wraps every source `formats::open_all` opens: a
//! panic in `next_event`, `next_rows` or `finish` ends that source only,
//! and becomes a located `reader-panic` problem on the file it was reading;
//! every other source is read as if nothing happened. The verbs exit 2 when
//! any input has that problem (`has_reader_panic`).

use crate::source::Source;
use mqdiag_model::event::{Event, Format, Origin};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{Problem, ProblemCode, Severity};
use mqdiag_model::sink::{RowMeta, RowSink};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

/// A file a source was opened on: what its inventory row says when the
/// source could not say it itself.
#[derive(Debug, Clone)]
pub(crate) struct Opened {
    pub(crate) display: String,
    pub(crate) format: Format,
    pub(crate) bytes: u64,
}

pub(crate) struct Guarded {
    inner: Option<Box<dyn Source>>,
    files: Vec<Opened>,
    /// The file and line of the last event or row given: where a panic is
    /// located (the reader was past it).
    at: Option<(Arc<Origin>, u64)>,
    /// What the panic said, once one happened.
    failed: Option<String>,
}

impl Guarded {
    pub(crate) fn new(inner: Box<dyn Source>, files: Vec<Opened>) -> Guarded {
        Guarded {
            inner: Some(inner),
            files,
            at: None,
            failed: None,
        }
    }

    fn saw(&mut self, origin: &Arc<Origin>, line: u64) {
        match &mut self.at {
            Some((o, l)) if Arc::ptr_eq(o, origin) => *l = line,
            _ => self.at = Some((origin.clone(), line)),
        }
    }

    /// The source panicked: keep what it said, and read nothing more of
    /// it. It is kept for `finish`, which may still give its files' facts
    /// so far (under a guard too).
    fn failed_with(&mut self, payload: Box<dyn std::any::Any + Send>) {
        self.failed = Some(panic_text(payload.as_ref()));
    }
}

/// The message of a panic payload (`panic!` gives `&str` or `String`).
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "no message".to_string()
    }
}

impl Source for Guarded {
    fn next_event(&mut self) -> Option<Event> {
        if self.failed.is_some() {
            return None;
        }
        let inner = self.inner.as_mut()?;
        match catch_unwind(AssertUnwindSafe(|| inner.next_event())) {
            Ok(Some(e)) => {
                self.saw(&e.origin, e.line);
                Some(e)
            }
            Ok(None) => None,
            Err(p) => {
                self.failed_with(p);
                None
            }
        }
    }

    fn next_events(&mut self, out: &mut Vec<Event>, n: usize) -> bool {
        if self.failed.is_some() {
            return false;
        }
        let Some(inner) = self.inner.as_mut() else {
            return false;
        };
        let from = out.len();
        let r = catch_unwind(AssertUnwindSafe(|| inner.next_events(out, n)));
        // The events given before a panic are kept: the last is where the
        // reader was.
        if let Some(e) = out.get(from..).and_then(<[Event]>::last) {
            let (origin, line) = (e.origin.clone(), e.line);
            self.saw(&origin, line);
        }
        match r {
            Ok(more) => more,
            Err(p) => {
                self.failed_with(p);
                false
            }
        }
    }

    fn next_rows(
        &mut self,
        sink: &mut RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(RowMeta, usize, usize),
    ) -> bool {
        let Some(inner) = self.inner.as_mut().filter(|_| self.failed.is_none()) else {
            return false;
        };
        // Where the last row came from: its line, and its file when the
        // row names one (cloned only when the file changes).
        let mut line = None;
        let mut file: Option<Arc<Origin>> = None;
        let r = catch_unwind(AssertUnwindSafe(|| {
            let more = inner.next_rows(sink, out, n, limit, &mut |m, a, b| {
                line = Some(m.line);
                if let Some(o) = &m.origin
                    && !file.as_ref().is_some_and(|f| Arc::ptr_eq(f, o))
                {
                    file = Some(o.clone());
                }
                row(m, a, b)
            });
            (more, inner.current_origin())
        }));
        match r {
            Ok((more, current)) => {
                if let Some(l) = line
                    && let Some(o) = current.or(file)
                {
                    self.saw(&o, l);
                }
                more
            }
            Err(p) => {
                self.failed_with(p);
                false
            }
        }
    }

    fn current_origin(&self) -> Option<Arc<Origin>> {
        if self.failed.is_some() {
            return None;
        }
        self.inner.as_ref()?.current_origin()
    }

    fn finish(mut self: Box<Self>) -> Vec<FileInfo> {
        let mut infos = match self.inner.take() {
            Some(s) => match catch_unwind(AssertUnwindSafe(move || s.finish())) {
                Ok(infos) => infos,
                Err(p) => {
                    // The first panic says more than one in the wreck.
                    self.failed.get_or_insert_with(|| panic_text(p.as_ref()));
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        let Some(why) = self.failed.take() else {
            return infos;
        };
        // Every file of the source has its row, made here when the source
        // could not finish.
        for f in &self.files {
            if !infos.iter().any(|i| i.path == f.display) {
                infos.push(FileInfo::new(&f.display, f.format, f.bytes));
            }
        }
        let (path, line) = match &self.at {
            Some((o, l)) => (o.path.to_string(), Some(*l)),
            None => (
                self.files
                    .first()
                    .map_or_else(String::new, |f| f.display.clone()),
                None,
            ),
        };
        let at = line.map_or_else(String::new, |l| format!(" after line {l}"));
        let i = infos.iter().position(|i| i.path == path).unwrap_or(0);
        if let Some(fi) = infos.get_mut(i) {
            let message = format!(
                "the {} reader failed internally{at} ({why}): the rest of this file was not read; \
                 please report this with the file",
                fi.format.as_str()
            );
            fi.problem(
                ProblemCode::ReaderPanic,
                line,
                Severity::Error,
                0,
                message.clone(),
            );
            // Kept even past the cap on problems kept: the verbs look for it.
            if !fi
                .problems
                .iter()
                .any(|p| p.code == ProblemCode::ReaderPanic)
            {
                fi.problems.push(Problem {
                    line,
                    code: ProblemCode::ReaderPanic,
                    severity: Severity::Error,
                    message,
                    lines_skipped: 0,
                });
            }
        }
        infos
    }
}

/// Whether a reader failed internally on any of these inputs (the verbs
/// then exit 2).
pub fn has_reader_panic(infos: &[FileInfo]) -> Option<&FileInfo> {
    infos.iter().find(|i| {
        i.problems
            .iter()
            .any(|p| p.code == ProblemCode::ReaderPanic)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives one event of `a.log`, then panics: in `next_event` or, with
    /// `in_finish`, only in `finish`.
    struct Buggy {
        given: bool,
        in_finish: bool,
    }

    impl Source for Buggy {
        fn next_event(&mut self) -> Option<Event> {
            if !self.given {
                self.given = true;
                let ts = chrono::DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").unwrap();
                let origin = Origin::new(Arc::from("a.log"), crate::formats::errlog_text::FORMAT);
                return Some(Event::new(
                    ts,
                    origin,
                    7,
                    mqdiag_model::event::Kind::Text,
                    "x".into(),
                ));
            }
            if self.in_finish {
                return None;
            }
            panic!("bug in next_event")
        }
        fn finish(self: Box<Self>) -> Vec<FileInfo> {
            if self.in_finish {
                panic!("bug in finish")
            }
            vec![FileInfo::new(
                "a.log",
                crate::formats::errlog_text::FORMAT,
                10,
            )]
        }
    }

    fn files() -> Vec<Opened> {
        ["a.log", "b.log"]
            .iter()
            .map(|d| Opened {
                display: d.to_string(),
                format: crate::formats::errlog_text::FORMAT,
                bytes: 10,
            })
            .collect()
    }

    #[test]
    fn a_panic_ends_the_source_with_a_located_problem_on_its_file() {
        for in_finish in [false, true] {
            let mut g = Box::new(Guarded::new(
                Box::new(Buggy {
                    given: false,
                    in_finish,
                }),
                files(),
            ));
            assert!(g.next_event().is_some());
            assert!(g.next_event().is_none());
            assert!(g.next_event().is_none(), "nothing more after a panic");
            let infos = g.finish();
            // Both files have their row; the problem is on the one read.
            assert_eq!(infos.len(), 2, "{infos:?}");
            let bad = has_reader_panic(&infos).expect("reader-panic");
            assert_eq!(bad.path, "a.log");
            let p = &bad.problems[0];
            assert_eq!((p.line, p.severity), (Some(7), Severity::Error));
            let want = if in_finish {
                "bug in finish"
            } else {
                "bug in next_event"
            };
            assert!(p.message.contains(want), "{}", p.message);
        }
    }

    #[test]
    fn a_panic_amid_a_burst_keeps_the_events_before_it_and_their_place() {
        let mut g = Box::new(Guarded::new(
            Box::new(Buggy {
                given: false,
                in_finish: false,
            }),
            files(),
        ));
        let mut out = Vec::new();
        assert!(!g.next_events(&mut out, 8), "the panic ends the source");
        assert_eq!(out.len(), 1);
        assert!(!g.next_events(&mut out, 8), "nothing more after a panic");
        assert_eq!(out.len(), 1);
        let infos = g.finish();
        let bad = has_reader_panic(&infos).expect("reader-panic");
        assert_eq!(
            (bad.path.as_str(), bad.problems[0].line),
            ("a.log", Some(7))
        );
    }

    #[test]
    fn a_source_without_a_panic_is_left_alone() {
        let mut g = Box::new(Guarded::new(
            Box::new(crate::formats::Done(vec![])),
            files(),
        ));
        assert!(g.next_event().is_none());
        assert!(g.finish().is_empty());
    }
}

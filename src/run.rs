//! One run of a verb that reads input: which inputs, read how (time zone,
//! date, worker threads), opened (archives unpacked, the report's own file
//! left out), merged, cut to the `--since`/`--until` window, and where the
//! output goes. The verbs (`analyze`, `timeline`, `inventory`) use this and
//! never the command line module, which only parses arguments into it.

use crate::cli::InputArgs;
use crate::outpath::Output;
use crate::progress::Progress;
use mqdiag_analysis::engine::{self, Watch, WindowSpec};
use mqdiag_analysis::timeline::{Merged, TimeWindow};
use mqdiag_model::event::Ts;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::redact::Redactor;
use mqdiag_readers::input::Discovered;
use mqdiag_readers::open::{OpenError, Opened, Request};
use mqdiag_readers::source::{ReadOptions, Source};
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

impl InputArgs {
    pub fn read_options(&self) -> ReadOptions {
        ReadOptions {
            tz: self.tz,
            date: self.date,
            interest: None,
            read_buffer: 0,
            jobs: self.jobs(),
            parallel: Default::default(),
            encoding: self.encoding,
            format_options: Default::default(),
        }
        .with_format_options(mqdiag_readers::formats::smf::SmfOptions {
            stck_tz: self.smf_stck_tz,
        })
    }

    pub fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    }

    /// All sources merged into one time-ordered stream.
    pub fn merged(&self, sources: Vec<Box<dyn Source>>) -> Merged {
        Merged::with_jobs(sources, self.jobs())
    }

    pub fn paths(&self) -> Vec<PathBuf> {
        if self.paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            self.paths.clone()
        }
    }

    /// Whether a progress line may be drawn: standard error is a terminal
    /// and `--quiet` is absent.
    pub fn progress_wanted(&self) -> bool {
        !self.quiet && io::stderr().is_terminal()
    }

    /// Discover and open every input (archives included), with a progress
    /// line on standard error when `progress_wanted()`. The line clears
    /// itself once every source has finished, or when the sources are
    /// dropped. Errors when there is nothing to read.
    pub fn open(&self) -> Result<Opened, String> {
        self.open_with_progress(self.progress_wanted())
    }

    /// As `open`, with the progress line only when `progress` is true.
    pub fn open_with_progress(&self, progress: bool) -> Result<Opened, String> {
        self.open_except(&[], &self.read_options(), progress)
    }

    /// As `open_with_progress`, with these reading options, leaving out
    /// these files (the report being written, a baseline report) when
    /// discovery finds them.
    pub fn open_except(
        &self,
        skip: &[PathBuf],
        opts: &ReadOptions,
        progress: bool,
    ) -> Result<Opened, String> {
        self.open_families(skip, &[], opts, progress)
    }

    /// `open_except` of the files of `families` only (all when empty).
    pub fn open_families(
        &self,
        skip: &[PathBuf],
        families: &[mqdiag_model::event::FormatFamily],
        opts: &ReadOptions,
        progress: bool,
    ) -> Result<Opened, String> {
        let req = Request {
            paths: self.paths(),
            follow: self.follow,
            skip: skip.to_vec(),
            families: families.to_vec(),
        };
        let watch = OpenWatch {
            progress: progress.then(Progress::begin),
            output: crate::outpath::target(self.output.as_deref()),
        };
        mqdiag_readers::open::open(&req, opts, &watch).map_err(|e| e.to_string())
    }

    /// Open the output: the `-o` file (`-` is standard output) or standard
    /// output. Refused when it is an input (see `outpath::check`); call it
    /// before reading anything, and `finish` it at the end.
    pub fn writer(&self) -> Result<Output, String> {
        Output::open(self.output.as_deref(), &self.paths())
    }

    /// The `--since`/`--until` window as asked (resolved by the analysis
    /// against the first event).
    pub fn window_spec(&self) -> WindowSpec {
        WindowSpec {
            since: self.since.clone(),
            until: self.until.clone(),
            tz: self.tz,
            allow_empty: self.allow_empty,
        }
    }

    /// What a verb shows of a run while it reads: the resolved window on
    /// standard error unless `-q`.
    pub fn teller(&self) -> Teller {
        Teller {
            quiet: self.quiet || !self.window_spec().is_set(),
        }
    }

    /// The window resolved against `first`, told as `teller` tells it.
    pub fn window(&self, first: Option<&Ts>) -> Result<TimeWindow, String> {
        let w = self
            .window_spec()
            .resolve(first)
            .map_err(|e| e.to_string())?;
        self.teller().window(&w);
        Ok(w)
    }
}

/// Tells the resolved `--since`/`--until` window on standard error.
pub struct Teller {
    quiet: bool,
}

impl Watch for Teller {
    fn window(&mut self, w: &TimeWindow) {
        if !self.quiet {
            eprintln!("window: {}", w.describe());
        }
    }
}

/// The binary's view of the opening: the progress line, and the check
/// that the `-o` file is not among the inputs.
struct OpenWatch<'a> {
    progress: Option<Arc<Progress>>,
    output: Option<&'a std::path::Path>,
}

impl mqdiag_readers::open::Watch for OpenWatch<'_> {
    fn meter(&self) -> Option<&Arc<mqdiag_model::meter::Meter>> {
        self.progress.as_ref().map(|p| p.meter())
    }

    fn found(&self, found: &Discovered) -> Result<(), OpenError> {
        for e in &found.named_errors {
            crate::exit::path_error(e);
        }
        // Links inside the inputs can lead to the output: refused, whatever
        // path led there.
        let Some(o) = self.output else {
            return Ok(());
        };
        let files = found
            .inputs
            .iter()
            .filter_map(|i| Some((i.file()?, Some(i.bytes))));
        crate::outpath::not_read(
            o,
            files.chain(found.archive_files.iter().map(|p| (p.as_path(), None))),
        )
        .map_err(OpenError::Refused)
    }

    fn reading(&self, inputs: &mut [mqdiag_readers::input::Input]) {
        if let Some(p) = &self.progress {
            p.reading(inputs);
        }
    }

    fn opened(&self, sources: Vec<Box<dyn Source>>) -> Vec<Box<dyn Source>> {
        match &self.progress {
            Some(p) => p.track(sources),
            None => sources,
        }
    }
}

impl InputArgs {
    /// A redactor set as `--redact-names` asks.
    pub fn redactor(&self) -> Redactor {
        Redactor::new().with_object_names(self.redact_names)
    }

    /// With `--redact`: a first pass over every input (every event built,
    /// whatever the verb reads) that learns the names to replace and hands
    /// out tokens in time order, so a streaming verb knows them all before
    /// its first row and every verb gives a value the same token. `skip` as
    /// for `open_except`. Fails (exit 2) when the names pass the
    /// redactor's budget. With `--redact-map` the tokens start from that
    /// file and are saved back to it.
    pub fn learn_redaction(&self, skip: &[PathBuf]) -> Result<Option<Redactor>, String> {
        let Some(r) = self.unlearnt_redactor()? else {
            return Ok(None);
        };
        let r = self.learn_names(skip, r)?;
        self.save_redaction(&r)?;
        Ok(Some(r))
    }

    /// With `--redact`: a redactor before learning, holding the
    /// `--redact-map` file's tokens when it exists.
    pub fn unlearnt_redactor(&self) -> Result<Option<Redactor>, String> {
        if !self.redact {
            return Ok(None);
        }
        let mut r = self.redactor();
        if let Some(m) = &self.redact_map {
            crate::outpath::check_map(m, self.output.as_deref())?;
            crate::outpath::check(m, &self.paths())?;
            if let Some(f) = crate::outpath::open_map(m)? {
                // Streamed: a map larger than the redactor holds is refused
                // when its entries pass the budget.
                r.load_map_from(io::BufReader::with_capacity(256 * 1024, f))
                    .map_err(|e| format!("--redact-map {}: {e}", m.display()))?;
            }
        }
        Ok(Some(r))
    }

    /// `learn_redaction`'s pass over the inputs, into `r`.
    pub fn learn_names(&self, skip: &[PathBuf], mut r: Redactor) -> Result<Redactor, String> {
        let opened = self.open_except(skip, &self.read_options(), self.progress_wanted())?;
        engine::learn_names(opened, self.jobs(), &mut r).map_err(|e| e.to_string())?;
        Ok(r)
    }

    /// With `--redact-map`: the names learnt and their tokens saved to it.
    pub fn save_redaction(&self, r: &Redactor) -> Result<(), String> {
        if let Some(m) = &self.redact_map {
            let mut out = Output::open(Some(m), &self.paths())?;
            r.write_map(&mut out)
                .and_then(|_| out.finish_private())
                .map_err(|e| format!("--redact-map {}: {e}", m.display()))?;
        }
        Ok(())
    }
}

/// The error of a run in which `engine::nothing_read`.
pub fn nothing_read_error(inputs: &[FileInfo]) -> String {
    format!(
        "no readable input: none of the {} file{} could be used (see the unreadable-input problems)",
        inputs.len(),
        if inputs.len() == 1 { "" } else { "s" }
    )
}

/// Exit 2 after a reader failed internally (`reader-panic`): the output
/// was written from every other input, but the run is not whole.
pub fn reader_panic_check(infos: &[FileInfo]) -> Result<(), String> {
    match engine::reader_panic(infos) {
        Some(fi) => Err(format!(
            "the reader of {} failed internally (reader-panic, a defect in mqdiag): the rest of \
             that file was not read; every other input was. Please report it with the file.",
            fi.path
        )),
        None => Ok(()),
    }
}

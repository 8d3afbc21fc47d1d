//! One run of a verb that reads input: which inputs, read how (time zone,
//! date, worker threads), opened (archives unpacked, the report's own file
//! left out), merged, cut to the `--since`/`--until` window, and where the
//! output goes. The verbs (`analyze`, `timeline`, `inventory`) use this and
//! never the command line module, which only parses arguments into it.

use crate::cli::InputArgs;
use crate::event::Ts;
use crate::fileinfo::FileInfo;
use crate::formats::open_all;
use crate::input::discover_following;
use crate::outpath::Output;
use crate::progress::Progress;
use crate::redact::{Cat, Redactor};
use crate::source::{ReadOptions, Source};
use crate::timeline::{Merged, TimeWindow};
use chrono::FixedOffset;
use std::io::{self, IsTerminal};
use std::path::PathBuf;
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
        .with_format_options(crate::formats::smf::SmfOptions {
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
        let progress = progress.then(Progress::begin);
        let mut found = discover_following(
            &self.paths(),
            progress.as_ref().map(|p| p.meter()),
            self.follow,
        );
        // Links inside the inputs can lead to the output: refused, whatever
        // path led there.
        if let Some(o) = crate::outpath::target(self.output.as_deref()) {
            let files = found.inputs.iter().filter_map(|i| match &i.location {
                crate::input::Location::File(p) => Some(p.as_path()),
                _ => None,
            });
            crate::outpath::not_read(
                o,
                files.chain(found.archive_files.iter().map(|p| p.as_path())),
            )?;
        }
        let skip: Vec<PathBuf> = skip
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .collect();
        if !skip.is_empty() {
            found.inputs.retain(|i| match &i.location {
                crate::input::Location::File(p) => std::fs::canonicalize(p)
                    .map(|c| !skip.contains(&c))
                    .unwrap_or(true),
                _ => true,
            });
        }
        // Identical files (loose and in an archive, copies) are read once.
        let (inputs, dups) =
            crate::input::dedupe::drop_duplicates(std::mem::take(&mut found.inputs));
        found.inputs = inputs;
        if !dups.is_empty() {
            found.problems.extend(dups);
            found.problems.sort_by(|a, b| a.path.cmp(&b.path));
        }
        if found.inputs.is_empty() {
            let why: Vec<String> = found
                .problems
                .iter()
                .flat_map(|f| {
                    f.problems
                        .iter()
                        .map(move |p| format!("{}: {}", f.path, p.message))
                })
                .collect();
            // A few reasons say why; thousands (every member of a refused
            // archive) would bury the message.
            const SHOWN: usize = 5;
            let more = why.len().saturating_sub(SHOWN);
            let tail = if more > 0 {
                format!("; and {more} more (`mqdiag inventory` lists them)")
            } else {
                String::new()
            };
            return Err(if why.is_empty() {
                "no input files found".to_string()
            } else {
                format!(
                    "no readable input: {}{tail}",
                    why[..why.len().min(SHOWN)].join("; ")
                )
            });
        }
        if let Some(p) = &progress {
            p.reading(&mut found.inputs);
        }
        let sources = open_all(found.inputs, opts);
        let sources = match progress {
            Some(p) => p.track(sources),
            None => sources,
        };
        Ok((sources, found.problems))
    }

    /// Open the output: the `-o` file (`-` is standard output) or standard
    /// output. Refused when it is an input (see `outpath::check`); call it
    /// before reading anything, and `finish` it at the end.
    pub fn writer(&self) -> Result<Output, String> {
        Output::open(self.output.as_deref(), &self.paths())
    }

    /// The `--since`/`--until` window (see `timewindow`): local forms in
    /// `--tz`, else in the offset of the first event of a trace or error
    /// log (the first event of any input without one), on its day. The
    /// resolved window is told on standard error unless `-q`.
    pub fn window(&self, first: Option<&Ts>) -> Result<TimeWindow, String> {
        if self.since.is_none() && self.until.is_none() {
            return Ok(TimeWindow::default());
        }
        let utc = FixedOffset::east_opt(0).expect("zero");
        let off = self.tz.or(first.map(|f| *f.offset())).unwrap_or(utc);
        let day = first
            .map(|f| f.with_timezone(&off).date_naive())
            .unwrap_or_default();
        let (since, until) =
            crate::timewindow::resolve(self.since.as_deref(), self.until.as_deref(), off, day)?;
        if !self.quiet {
            let show = |t: Option<Ts>| t.map_or_else(|| "…".to_string(), |t| t.to_rfc3339());
            eprintln!("window: {} .. {}", show(since), show(until));
        }
        Ok(TimeWindow { since, until })
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
        if !self.redact {
            return Ok(None);
        }
        let mut r = self.redactor();
        if let Some(m) = &self.redact_map {
            crate::outpath::check(m, &self.paths())?;
            match std::fs::read_to_string(m) {
                Ok(text) => r
                    .load_map(&text)
                    .map_err(|e| format!("--redact-map {}: {e}", m.display()))?,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("--redact-map {}: {e}", m.display())),
            }
        }
        let (sources, discovery_rows) =
            self.open_except(skip, &self.read_options(), self.progress_wanted())?;
        let mut merged = self.merged(sources);
        while let Some(e) = merged.next_ref() {
            r.observe(e);
        }
        let mut inputs = merged.finish();
        inputs.extend(discovery_rows);
        inputs.sort_by(|x, y| x.path.cmp(&y.path));
        for fi in &inputs {
            learn_input(&mut r, fi);
        }
        for fi in &inputs {
            assign_input(&mut r, fi);
        }
        r.check()?;
        if let Some(m) = &self.redact_map {
            let mut out = Output::open(Some(m), &self.paths())?;
            io::Write::write_all(&mut out, r.map_json().as_bytes())
                .and_then(|_| out.finish())
                .map_err(|e| format!("--redact-map {}: {e}", m.display()))?;
        }
        Ok(Some(r))
    }
}

/// Learn what an input's facts name: its host and queue manager, the queue
/// manager in its path, names stated in its problems.
pub fn learn_input(r: &mut Redactor, fi: &FileInfo) {
    if let Some(h) = &fi.host {
        r.add(Cat::Host, h);
    }
    if let Some(q) = &fi.qmgr {
        r.add(Cat::Qmgr, q);
    }
    r.learn_path(&fi.path);
    for p in &fi.problems {
        r.learn_text(&p.message);
    }
}

/// Tokens for what an input's facts show (once every input is learnt).
pub fn assign_input(r: &mut Redactor, fi: &FileInfo) {
    r.assign(&fi.path);
    for p in &fi.problems {
        r.assign(&p.message);
    }
    for n in &fi.notes {
        r.assign(n);
    }
}

/// Replace names in an input's facts.
pub fn redact_input(r: &Redactor, fi: &mut FileInfo) {
    fi.path = r.apply(&fi.path);
    for v in [&mut fi.host, &mut fi.qmgr, &mut fi.process]
        .into_iter()
        .flatten()
    {
        *v = r.apply(v);
    }
    for p in &mut fi.problems {
        p.message = r.apply(&p.message);
    }
    for n in &mut fi.notes {
        *n = r.apply(n);
    }
}

/// Whether no input could be used at all (each gave no event and is of no
/// known format, an unformatted binary trace, or had an error): the run
/// could not be done, exit 2 in every verb, and an existing `-o` file is
/// left as it was. An empty file or a header alone was read: it is not
/// this.
pub fn nothing_read(inputs: &[FileInfo]) -> bool {
    use crate::event::Format;
    inputs.iter().all(|i| {
        i.events == 0
            && ([Format::UNKNOWN, crate::formats::binary_trace::FORMAT].contains(&i.format)
                || i.worst == Some(crate::problem::Severity::Error))
    })
}

/// The error of a run in which `nothing_read`.
pub fn nothing_read_error(inputs: &[FileInfo]) -> String {
    format!(
        "no readable input: none of the {} file{} could be used (see the unreadable-input problems)",
        inputs.len(),
        if inputs.len() == 1 { "" } else { "s" }
    )
}

/// Sources to read, and rows for paths that could not be walked.
pub type Opened = (Vec<Box<dyn Source>>, Vec<FileInfo>);

/// Exit 2 after a reader failed internally (`reader-panic`): the output
/// was written from every other input, but the run is not whole.
pub fn reader_panic_check(infos: &[FileInfo]) -> Result<(), String> {
    match mqdiag_readers::guard::has_reader_panic(infos) {
        Some(fi) => Err(format!(
            "the reader of {} failed internally (reader-panic, a defect in mqdiag): the rest of \
             that file was not read; every other input was. Please report it with the file.",
            fi.path
        )),
        None => Ok(()),
    }
}

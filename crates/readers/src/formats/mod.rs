//! One module per input format, all behind the `Reader` interface. Adding a
//! format is one new module and one line in `READERS`; a line-based format
//! is a `line_source::LineFormat` and `Standalone`, and its reader is
//! `LineReader<ItsFormat>`.

pub(crate) mod activity_trace;
pub mod binary_trace;
pub(crate) mod ccdt_json;
pub(crate) mod config_map;
pub(crate) mod console;
pub mod container_log;
pub(crate) mod dedent;
pub(crate) mod errlog_common;
pub mod errlog_json;
pub mod errlog_text;
pub mod fdc;
pub(crate) mod ffstsummary;
pub(crate) mod flat_json;
pub mod joblog;
pub(crate) mod line_source;
pub(crate) mod message_text;
pub(crate) mod mq_events;
pub(crate) mod mq_ini;
pub(crate) mod mqsc;
#[cfg(feature = "panic-reader")]
pub(crate) mod panic_test;
pub(crate) mod runmqras;
pub mod smf;
pub mod trace;
pub(crate) mod wrapper;

pub use line_source::LineReader;

use crate::encoding::{EncodingNote, LateDecide, TextEncoding, Transcode};
use crate::input::Input;
use crate::source::{Parallel, ReadOptions, Source};
use mqdiag_model::event::{Event, Format};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

/// How many bytes of each file the sniffers see.
pub const SNIFF_BYTES: usize = 16 * 1024;

/// A reader for one input format.
pub trait Reader: Sync {
    fn format(&self) -> Format;

    /// How sure the reader is (0 = not this format, 100 = certain) that a
    /// file with this name and these first bytes is in its format. Content
    /// decides; the name may only break ties.
    fn sniff(&self, name: &str, head: &[u8]) -> u8;

    /// The highest score `sniff` ever gives. A reader whose ceiling is no
    /// higher than a file's best score so far cannot take the file, so it
    /// is not asked (a trace is not scanned by the job-log sniffer).
    fn sniff_ceiling(&self) -> u8 {
        100
    }

    /// Files that must be read as one stream share a group key (a `.TRS`
    /// wrap file and its `.FMT`; rotated error logs); the second value
    /// orders them within the group. `None`: the file is read alone.
    fn group(&self, _input: &Input) -> Option<(String, u32)> {
        None
    }

    /// Once per run, before any file is opened, when the reader took at
    /// least one input: what its sources need to know of the run's other
    /// inputs (SMF files learn their LPAR's clock from their siblings, a
    /// JSON error log its offset from the text logs beside it). What it
    /// returns is handed to `open_with` for each of its sources.
    fn prepare(&self, _siblings: &Siblings, _opts: &ReadOptions) -> Prepared {
        None
    }

    /// Open a source over one file, or over one group in group order,
    /// with what `prepare` learned (`None`: nothing, or not prepared).
    fn open_with(
        &self,
        inputs: Vec<Input>,
        opts: &ReadOptions,
        prepared: Prepared,
    ) -> Box<dyn Source>;

    /// `open_with` without a run around it: the file or group as if read
    /// alone, nothing prepared.
    fn open(&self, inputs: Vec<Input>, opts: &ReadOptions) -> Box<dyn Source> {
        self.open_with(inputs, opts, None)
    }

    /// Its fuzz target (`None`: not fuzzed, test readers only).
    fn fuzz(&self) -> Option<Fuzz>;
}

/// How a reader's fuzz target feeds it: the binary's `fuzzing` module
/// runs every reader that names one, through `prepare` and `open_with`.
#[derive(Debug, Clone, Copy)]
pub struct Fuzz {
    /// The target's name: `fuzz/src/bin/<target>.rs` (Cargo finds it) and
    /// `tests/fuzz_regressions/<target>/`. The target's corpus is seeded
    /// with the fixtures this reader takes.
    pub target: &'static str,
    /// Names the input is given (some readers look at the name): the
    /// input's length picks one.
    pub names: &'static [&'static str],
}

/// What a reader's `prepare` learned, for its own sources only: each reader
/// downcasts to the type it made.
pub(crate) type Prepared = Option<Arc<dyn Any + Send + Sync>>;

/// The inputs of a run, each with the format it was taken as: what a
/// reader's `prepare` may look at.
pub struct Siblings<'a>(Vec<(Format, &'a Input)>);

impl<'a> Siblings<'a> {
    pub fn new(inputs: Vec<(Format, &'a Input)>) -> Siblings<'a> {
        Siblings(inputs)
    }

    /// The inputs taken as this format, in run order.
    pub(crate) fn of(&self, format: Format) -> Vec<&'a Input> {
        self.0
            .iter()
            .filter(|(f, _)| *f == format)
            .map(|(_, i)| *i)
            .collect()
    }
}

/// Every reader, most specific first: the one table of formats. Each
/// reader's `format()` carries its facts (name, family, local time) and
/// `fuzz()` its fuzz target.
pub static READERS: &[&dyn Reader] = &[
    &trace::TraceReader,
    &binary_trace::BinaryTraceReader,
    &LineReader::<errlog_text::ErrlogText>::new(),
    &LineReader::<errlog_json::ErrlogJson>::new(),
    &LineReader::<fdc::Fdc>::new(),
    &LineReader::<ffstsummary::FfstSummary>::new(),
    &LineReader::<joblog::Joblog>::new(),
    &LineReader::<mq_events::MqEvents>::new(),
    &LineReader::<activity_trace::ActivityTrace>::new(),
    &container_log::ContainerLogReader,
    &smf::SmfCsvReader,
    &LineReader::<mq_ini::MqIni>::new(),
    &LineReader::<config_map::ConfigMap>::new(),
    &LineReader::<mqsc::Mqsc>::new(),
    &LineReader::<ccdt_json::CcdtJson>::new(),
    &LineReader::<runmqras::Runmqras>::new(),
    // Last: message text without dates, when no format of dated text takes
    // the file.
    &LineReader::<message_text::MessageText>::new(),
    #[cfg(feature = "panic-reader")]
    &panic_test::PanicTestReader,
];

/// Whether this format's reader builds fewer or other events under a
/// `ReadOptions::interest` (trace lines skipped, calls stacked among those
/// of interest only, SMF columns dropped). Every other reader builds the
/// same events with or without one, so a read with the analysis's
/// interest shows `--redact` the very events its learning pass would.
/// Guarded by a test over every fixture (`interest_changes_only_these`).
pub fn interest_applies(f: Format) -> bool {
    f == trace::FORMAT || f == smf::FORMAT
}

/// The result of sniffing one file.
pub struct Sniffed {
    pub(crate) input: Input,
    pub reader: Option<&'static dyn Reader>,
    /// The reader's place in `READERS`.
    pub(crate) slot: Option<usize>,
    /// Set when the file could not even be opened.
    pub(crate) error: Option<String>,
    /// The indentation common to every line, taken off (`dedent`).
    pub(crate) indent: Option<Vec<u8>>,
}

/// The most the sniffers are shown of one file.
const MAX_SNIFF_BYTES: usize = 1 << 20;

/// The first bytes the sniffers see: `SNIFF_BYTES`, or more when those do
/// not hold two whole lines (a JSON log whose first record is 20 KB), up
/// to `MAX_SNIFF_BYTES`: formats are told by whole records.
fn sniff_head(input: &Input) -> std::io::Result<Vec<u8>> {
    let mut n = SNIFF_BYTES;
    loop {
        let h = input.head(n)?;
        if h.len() < n || n >= MAX_SNIFF_BYTES || memchr::memchr_iter(b'\n', &h).nth(1).is_some() {
            return Ok(h);
        }
        n *= 4;
    }
}

/// How far past an over-long first line the sniffers look for its end: a
/// file whose first line is longer is not sniffed by its body.
const MAX_SKIPPED_LINE: u64 = 64 << 20;

/// The `n` bytes after a first line longer than `MAX_SNIFF_BYTES` (a line
/// of junk or one huge record before ordinary ones), grown as `sniff_head`
/// grows to hold two lines; `None` when the first line is shorter, or
/// ends past `MAX_SKIPPED_LINE` or not at all. Its start was read; its rest
/// is skipped unread by the sniffers (the readers report it cut).
pub(crate) fn past_long_first_line(input: &Input, n: usize) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut r = input.open_uncounted()?;
    let mut buf = vec![0u8; 64 << 10];
    let mut at: u64 = 0;
    let rest = loop {
        let got = r.read(&mut buf)?;
        if got == 0 || at > MAX_SKIPPED_LINE {
            return Ok(None);
        }
        if let Some(i) = memchr::memchr(b'\n', &buf[..got]) {
            if at + (i as u64) < MAX_SNIFF_BYTES as u64 {
                return Ok(None);
            }
            break buf[i + 1..got].to_vec();
        }
        at += got as u64;
    };
    let mut head = rest;
    let mut want = n;
    loop {
        if head.len() < want {
            let mut more = Vec::new();
            (&mut r)
                .take((want - head.len()) as u64)
                .read_to_end(&mut more)?;
            let eof = more.len() < want - head.len();
            head.extend_from_slice(&more);
            if eof {
                return Ok(Some(head));
            }
        }
        if want >= MAX_SNIFF_BYTES || memchr::memchr_iter(b'\n', &head).nth(1).is_some() {
            head.truncate(want);
            return Ok(Some(head));
        }
        want *= 4;
    }
}

/// An input's first `n` bytes as a reader decides its layout by them: past
/// an over-long first line (`past_long_first_line`) when there is one.
pub(crate) fn body_head(input: &Input, n: usize) -> std::io::Result<Vec<u8>> {
    let h = input.head(n)?;
    if h.len() < n || memchr::memchr(b'\n', &h).is_some() {
        return Ok(h);
    }
    Ok(past_long_first_line(input, n)?.unwrap_or(h))
}

/// Decide each file's format by content.
pub fn sniff(input: Input) -> Sniffed {
    sniff_in(input, None)
}

/// As `sniff`, the sniffers seeing the first bytes as UTF-8 when the file
/// is in another character set that must be converted (a Russian or
/// Japanese log), `forced` by `--encoding` or decided from those bytes.
pub(crate) fn sniff_in(input: Input, forced: Option<TextEncoding>) -> Sniffed {
    let head = match sniff_head(&input).and_then(|h| {
        // A first line of a megabyte or more: the sniffers see what follows.
        if h.len() >= MAX_SNIFF_BYTES && memchr::memchr(b'\n', &h).is_none() {
            Ok(past_long_first_line(&input, SNIFF_BYTES)?.unwrap_or(h))
        } else {
            Ok(h)
        }
    }) {
        Ok(h) => h,
        Err(e) => {
            return Sniffed {
                input,
                reader: None,
                slot: None,
                error: Some(format!("cannot read: {e}")),
                indent: None,
            };
        }
    };
    let verdict = judge(&input.name, &head, forced);
    sniffed_as(input, verdict)
}

/// What sniffing decided of one file, kept without the file's bytes: the
/// reader's place in `READERS` and the indentation taken off.
#[derive(Debug, Clone)]
pub(crate) struct Verdict {
    slot: Option<u8>,
    indent: Option<Box<[u8]>>,
}

/// The verdict on a file from its first bytes in memory (`block`; `whole`:
/// they are all of it), as `sniff` would decide it: `None` when `sniff`
/// would look at more bytes than the block holds. Discovery reads a small
/// file whole anyway; this spares it a second open to be sniffed.
pub(crate) fn verdict_of_block(name: &str, block: &[u8], whole: bool) -> Option<Verdict> {
    // `sniff_head` over the block.
    let mut n = SNIFF_BYTES;
    let head = loop {
        if n > block.len() && !whole {
            return None;
        }
        let h = &block[..n.min(block.len())];
        if h.len() < n || n >= MAX_SNIFF_BYTES || memchr::memchr_iter(b'\n', h).nth(1).is_some() {
            break h;
        }
        n *= 4;
    };
    // `sniff_in` reads on past an over-long first line, which no block holds.
    if head.len() >= MAX_SNIFF_BYTES {
        return None;
    }
    Some(judge(name, head, None))
}

/// The sniffers' verdict on a file's first bytes.
fn judge(name: &str, head: &[u8], forced: Option<TextEncoding>) -> Verdict {
    let enc = forced.unwrap_or_else(|| crate::encoding::detect(head));
    let head = crate::encoding::decode_head(head, enc);
    let mut best = best_of(name, &head);
    let mut indent = None;
    // Every line indented alike (text as pasted): the file without the
    // indentation, when that is more clearly in a format. Only where the
    // file's bytes are the lines' (not converted from another set).
    if !enc.transcodes()
        && let Some(p) = dedent::common_indent(&head, head.len() >= SNIFF_BYTES)
    {
        let flat = best_of(name, &dedent::dedent_head(&head, &p));
        if flat.is_some_and(|(_, s)| best.is_none_or(|(_, b)| s > b)) {
            best = flat;
            indent = Some(p.into_boxed_slice());
        }
    }
    Verdict {
        // `READERS` has fewer than 256 readers (a test holds it).
        slot: best.map(|(i, _)| i as u8),
        indent,
    }
}

/// A file as its verdict says to read it.
fn sniffed_as(input: Input, v: Verdict) -> Sniffed {
    let slot = v.slot.map(usize::from);
    let (input, indent) = match v.indent {
        Some(p) => {
            let p = p.into_vec();
            (dedent::dedented(input, p.clone()), Some(p))
        }
        None => (input, None),
    };
    Sniffed {
        input,
        reader: slot.map(|i| READERS[i]),
        slot,
        error: None,
        indent,
    }
}

/// The reader that scores highest on these first bytes, and its score.
fn best_of(name: &str, head: &[u8]) -> Option<(usize, u8)> {
    let mut best: Option<(usize, u8)> = None;
    for (i, r) in READERS.iter().enumerate() {
        // Ties go to the earlier reader: one that can at most tie is skipped.
        if best.is_some_and(|(_, s)| r.sniff_ceiling() <= s) {
            continue;
        }
        let score = r.sniff(name, head);
        if score > 0 && best.is_none_or(|(_, s)| score > s) {
            best = Some((i, score));
        }
    }
    best
}

/// Sniff every input, group them as their readers ask, and open one source
/// per file or group. Sources come in a stable order (by first path).
/// Memory for the read buffers of trace files, over all files open at once
/// (the merge keeps every file open).
const READ_BUDGET: usize = 16 << 20;

/// A trace file's read buffer when `n` files are read: large buffers mean
/// fewer reads and longer runs of lines handled in one go (1 GB `timeline`
/// 1.6-1.75 s at 256 KB against 1.9-2.3 s at 64 KB, in runs on a noisy
/// machine with examples/bench/main.rs), within the budget.
/// Past 256 files the buffers shrink below 64 KB (to 8 KB from 2,048
/// files): every file stays open during the merge, and 4,096 traces at
/// 64 KB each were 256 MB of buffers alone.
fn read_buffer_for(n: usize) -> usize {
    (READ_BUDGET / n.max(1)).clamp(8 << 10, 256 << 10)
}

/// Helper threads for each large trace file: one worker per file keeps
/// every core busy when there are at least as many large files as
/// workers; fewer, and the workers left over help read them. At most
/// eight per file: blocks in flight (four per helper) hold memory, and
/// one file's source stitches them on one thread.
fn helpers_for(large: usize, jobs: usize) -> usize {
    if large == 0 || large >= jobs {
        0
    } else {
        (jobs / large).min(MAX_HELPERS)
    }
}

const MAX_HELPERS: usize = 8;

pub fn open_all(inputs: Vec<Input>, opts: &ReadOptions) -> Vec<Box<dyn Source>> {
    open_all_of(inputs, opts, &[])
}

/// `open_all` of the inputs whose format is of one of `families` (all when
/// empty); the others are sniffed and not read.
pub fn open_all_of(
    inputs: Vec<Input>,
    opts: &ReadOptions,
    families: &[mqdiag_model::event::FormatFamily],
) -> Vec<Box<dyn Source>> {
    let n = inputs.len();
    let mut sniffed: Vec<Sniffed> = inputs
        .into_iter()
        .map(|mut i| match i.sniffed.take() {
            // Sniffed when discovery read it, unless the read names the
            // encoding (the sniffers then see the head converted).
            Some(v) if opts.encoding.is_none() => sniffed_as(i, v),
            _ => sniff_in(i, opts.encoding),
        })
        .collect();
    if !families.is_empty() {
        sniffed.retain(|s| {
            let keep = s.error.is_none()
                && s.reader
                    .is_some_and(|r| families.contains(&r.format().family()));
            if !keep && let Some(m) = &s.input.progress {
                m.not_work(&s.input.display, s.input.bytes);
            }
            keep
        });
    }
    let large = sniffed
        .iter()
        .filter(|s| {
            s.error.is_none()
                && s.reader
                    .is_some_and(|r| r.format() == crate::formats::trace::FORMAT)
                && s.input.bytes >= opts.parallel.min_bytes
        })
        .count();
    let opts = &ReadOptions {
        read_buffer: read_buffer_for(n),
        parallel: Parallel {
            helpers: helpers_for(large, opts.jobs),
            ..opts.parallel
        },
        ..opts.clone()
    };
    // Each reader that took an input looks at the run once, before any
    // file is read.
    let siblings = Siblings::new(
        sniffed
            .iter()
            .filter(|s| s.error.is_none())
            .filter_map(|s| Some((s.reader?.format(), &s.input)))
            .collect(),
    );
    let prepared: Vec<Prepared> = READERS
        .iter()
        .enumerate()
        .map(|(i, r)| {
            sniffed
                .iter()
                .any(|s| s.error.is_none() && s.slot == Some(i))
                .then(|| r.prepare(&siblings, opts))
                .flatten()
        })
        .collect();
    // Files read without their common indentation, said on their rows.
    let dedented: Vec<(Arc<str>, String)> = sniffed
        .iter()
        .filter_map(|s| {
            Some((
                s.input.display.clone(),
                dedent::describe(s.indent.as_ref()?),
            ))
        })
        .collect();
    let noted = |inputs: &[Input], src: Box<dyn Source>| -> Box<dyn Source> {
        let mine: Vec<(Arc<str>, String)> = dedented
            .iter()
            .filter(|(d, _)| inputs.iter().any(|i| i.display == *d))
            .cloned()
            .collect();
        if mine.is_empty() {
            src
        } else {
            Box::new(dedent::Noted {
                inner: src,
                dedented: mine,
            })
        }
    };
    let mut groups: BTreeMap<(Format, String), Vec<(u32, Input)>> = BTreeMap::new();
    let mut singles: Vec<(String, Box<dyn Source>)> = Vec::new();
    let mut readers: BTreeMap<(Format, String), (&'static dyn Reader, Prepared)> = BTreeMap::new();
    for s in sniffed {
        // Files no reader takes are not work for the progress line.
        if (s.reader.is_none() || s.error.is_some())
            && let Some(m) = &s.input.progress
        {
            m.not_work(&s.input.display, s.input.bytes);
        }
        match (s.reader, s.error) {
            (_, Some(err)) => {
                let mut fi = FileInfo::new(&s.input.display, Format::UNKNOWN, s.input.bytes);
                fi.problem(ProblemCode::UnreadableFile, None, Severity::Error, 0, err);
                singles.push((s.input.display.to_string(), Box::new(Done(vec![fi]))));
            }
            (None, None) => {
                let mut fi = FileInfo::new(&s.input.display, Format::UNKNOWN, s.input.bytes);
                fi.variant = Some("not recognised".to_string());
                singles.push((s.input.display.to_string(), Box::new(Done(vec![fi]))));
            }
            (Some(r), None) => match r.group(&s.input) {
                Some((key, order)) => {
                    let k = (r.format(), key);
                    let p = s.slot.and_then(|i| prepared[i].clone());
                    readers.insert(k.clone(), (r, p));
                    groups.entry(k).or_default().push((order, s.input));
                }
                None => {
                    let name = s.input.display.to_string();
                    let p = s.slot.and_then(|i| prepared[i].clone());
                    let inputs = vec![s.input];
                    let src = if dedented.is_empty() {
                        guarded(r, inputs, opts, p)
                    } else {
                        noted(&inputs.clone(), guarded(r, inputs, opts, p))
                    };
                    singles.push((name, src));
                }
            },
        }
    }
    for (k, mut members) in groups {
        members.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.display.cmp(&b.1.display)));
        let first = members[0].1.display.to_string();
        let inputs: Vec<Input> = members.into_iter().map(|(_, i)| i).collect();
        let (r, p) = readers[&k].clone();
        let src = if dedented.is_empty() {
            guarded(r, inputs, opts, p)
        } else {
            noted(&inputs.clone(), guarded(r, inputs, opts, p))
        };
        singles.push((first, src));
    }
    singles.sort_by(|a, b| a.0.cmp(&b.0));
    singles.into_iter().map(|(_, s)| s).collect()
}

/// Open a source over these inputs, guarded: a panic of the reader ends
/// that source only, as a `reader-panic` problem (see `guard`).
fn guarded(
    r: &dyn Reader,
    inputs: Vec<Input>,
    opts: &ReadOptions,
    prepared: Prepared,
) -> Box<dyn Source> {
    let files = inputs
        .iter()
        .map(|i| crate::guard::Opened {
            display: i.display.to_string(),
            format: r.format(),
            bytes: i.bytes,
        })
        .collect();
    Box::new(crate::guard::Guarded::new(
        r.open_with(inputs, opts, prepared),
        files,
    ))
}

/// Lines of an input, read as a stream.
pub(crate) type Lines = crate::lines::LineReader<Box<dyn std::io::Read + Send>>;

/// Open an input for reading line by line; a file that cannot be opened is
/// an error problem on its row (and `None`).
pub(crate) fn open_lines(input: &Input, info: &mut FileInfo) -> Option<Lines> {
    open_lines_with(input, info, 0)
}

/// As `open_lines`, with a read buffer of `cap` bytes (0: the default).
pub(crate) fn open_lines_with(input: &Input, info: &mut FileInfo, cap: usize) -> Option<Lines> {
    match input.open() {
        Ok(r) if cap > 0 => Some(crate::lines::LineReader::with_capacity(cap, r)),
        Ok(r) => Some(crate::lines::LineReader::new(r)),
        Err(e) => unreadable(info, e),
    }
}

/// A file that cannot be opened: an error problem on its row.
fn unreadable(info: &mut FileInfo, e: std::io::Error) -> Option<Lines> {
    info.problem(
        ProblemCode::UnreadableFile,
        None,
        Severity::Error,
        0,
        format!("cannot read: {e}"),
    );
    None
}

/// Open a text input for reading line by line in its character set:
/// `--encoding`, else decided from its first bytes; recorded on its row.
/// UTF-8 and Western single-byte files are read as they are (their lines
/// are decoded by `text::decode_line`); others are converted to UTF-8 as
/// they are read.
pub(crate) fn open_text(input: &Input, info: &mut FileInfo, opts: &ReadOptions) -> Option<Lines> {
    match open_decoded_with_offsets(input, opts.encoding) {
        Ok((r, note, converted)) => {
            info.encoding = Some(note);
            let mut lines = crate::lines::LineReader::new(r);
            if let Some(starts) = converted {
                lines.map_offsets(starts);
            }
            Some(lines)
        }
        Err(e) => unreadable(info, e),
    }
}

/// An input's bytes as the line readers take them (see `open_text`), and
/// the character set decided. A head of plain ASCII decides nothing: the
/// decision is then taken at the first non-ASCII byte (`LateDecide`).
pub(crate) fn open_decoded(
    input: &Input,
    forced: Option<TextEncoding>,
) -> std::io::Result<(Box<dyn std::io::Read + Send>, EncodingNote)> {
    open_decoded_with_offsets(input, forced).map(|(r, note, _)| (r, note))
}

/// `open_decoded`, and where the lines start in the file when its bytes
/// may be converted (`LineReader::map_offsets`).
pub(crate) fn open_decoded_with_offsets(
    input: &Input,
    forced: Option<TextEncoding>,
) -> std::io::Result<(
    Box<dyn std::io::Read + Send>,
    EncodingNote,
    Option<crate::encoding::RawStarts>,
)> {
    let r = input.open()?;
    let (enc, ascii, r) = match forced {
        Some(e) => (e, false, r),
        None => {
            // The head is read from the reader itself and put back in
            // front of the rest: opening the input again for it was two
            // of a small file's opens.
            let mut r = r;
            let head = crate::input::blob::read_head_sized(&mut r, SNIFF_BYTES, input.bytes)?;
            // Only a full head can be followed by more bytes.
            let (enc, ascii) = (
                crate::encoding::detect(&head),
                head.len() >= SNIFF_BYTES && head.is_ascii(),
            );
            let r: Box<dyn std::io::Read + Send> =
                Box::new(std::io::Read::chain(std::io::Cursor::new(head), r));
            (enc, ascii, r)
        }
    };
    Ok(if enc.transcodes() {
        let starts = crate::encoding::RawStarts::default();
        (
            Box::new(Transcode::with_offsets(r, enc, starts.clone(), 0, 0)),
            EncodingNote::new(enc, None),
            Some(starts),
        )
    } else if ascii {
        let (r, later) = LateDecide::new(r);
        let starts = r.starts();
        (
            Box::new(r),
            EncodingNote::new(enc, Some(later)),
            Some(starts),
        )
    } else {
        (r, EncodingNote::new(enc, None), None)
    })
}

/// Raise a row's size to the bytes its reader read (a file that grew
/// while it was read), unless the file was converted to UTF-8: those bytes
/// are the UTF-8 form's, not the file's.
pub(crate) fn raise_bytes(info: &mut FileInfo, read: u64) {
    let converted = info.encoding.as_ref().is_some_and(|e| e.get().transcodes());
    if !converted {
        info.bytes = info.bytes.max(read);
    }
}

/// The next line, `None` at the end; a read error ends the file as a
/// located problem. Keeps the row's line count.
pub(crate) fn read_line<'a>(
    reader: &'a mut Lines,
    info: &mut FileInfo,
) -> Option<(crate::lines::LineMeta, &'a [u8])> {
    let n = reader.line_no() + 1;
    match reader.next_line() {
        Ok(Some((meta, bytes))) => {
            info.lines = meta.no;
            Some((meta, bytes))
        }
        Ok(None) => None,
        Err(e) => {
            info.problem(
                ProblemCode::UnreadableFile,
                Some(n),
                Severity::Error,
                0,
                format!("read error: {e}"),
            );
            None
        }
    }
}

/// A source with no events: files known only by their inventory row.
pub struct Done(pub Vec<FileInfo>);

impl Source for Done {
    fn next_event(&mut self) -> Option<Event> {
        None
    }
    fn finish(self: Box<Self>) -> Vec<FileInfo> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::{READERS, helpers_for, sniff, sniffed_as, verdict_of_block};

    #[test]
    fn each_format_and_fuzz_target_is_declared_once() {
        let mut formats: Vec<mqdiag_model::event::Format> = Vec::new();
        let mut targets = Vec::new();
        for r in READERS {
            let f = r.format();
            // Readers may share a format (FDC reports and their summary
            // listings), never a name between two declarations.
            for g in &formats {
                assert!(
                    g.as_str() != f.as_str() || std::ptr::eq(g.info(), f.info()),
                    "{} declared twice",
                    f.as_str()
                );
            }
            formats.push(f);
            if let Some(z) = r.fuzz() {
                assert!(!z.names.is_empty(), "{}", z.target);
                assert!(!targets.contains(&z.target), "{}", z.target);
                targets.push(z.target);
            }
        }
        assert!(targets.len() >= 9, "{targets:?}");
    }

    /// Every file under the repository's fixtures and test data, as the
    /// sniffers see it, scores no higher than each reader's ceiling: the
    /// ceilings let `sniff_in` skip readers, so a wrong one would change
    /// which reader takes a file.
    #[test]
    fn no_reader_scores_above_its_sniff_ceiling() {
        let mut files = 0;
        for (name, p) in test_files() {
            let input = crate::input::Input::from_path(&name, &p).unwrap();
            let head = super::sniff_head(&input).unwrap();
            let head = crate::encoding::decode_head(&head, crate::encoding::detect(&head));
            for r in READERS {
                let score = r.sniff(&name, &head);
                assert!(
                    score <= r.sniff_ceiling(),
                    "{}: {} scores {score} over its ceiling {}",
                    p.display(),
                    r.format().as_str(),
                    r.sniff_ceiling()
                );
            }
            files += 1;
        }
        assert!(files > 100, "{files}");
    }

    /// Every fixture and test file: its name and path.
    fn test_files() -> Vec<(String, std::path::PathBuf)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut dirs = vec![root.join("fixtures"), root.join("tests/data")];
        let mut files = Vec::new();
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                } else {
                    files.push((p.file_name().unwrap().to_string_lossy().into_owned(), p));
                }
            }
        }
        files
    }

    /// The verdict discovery reaches from the bytes it read is `sniff`'s
    /// on the file: for every fixture and test file, whole when it fits
    /// the block, and cut to a block (a file that grew, or a larger one)
    /// where the block is enough to decide.
    #[test]
    fn a_verdict_from_the_block_is_the_sniffers_own() {
        assert!(READERS.len() < usize::from(u8::MAX));
        let (mut whole, mut cut, mut indented) = (0, 0, 0);
        let block = crate::input::dedupe::BLOCK;
        for (name, p) in test_files() {
            let bytes = std::fs::read(&p).unwrap();
            let want = sniff(crate::input::Input::from_path(&name, &p).unwrap());
            let shown = &bytes[..bytes.len().min(block)];
            let Some(v) = verdict_of_block(&name, shown, bytes.len() < block) else {
                assert!(bytes.len() >= block, "{}", p.display());
                continue;
            };
            if bytes.len() < block {
                whole += 1;
            } else {
                cut += 1;
            }
            indented += usize::from(v.indent.is_some());
            let got = sniffed_as(crate::input::Input::from_path(&name, &p).unwrap(), v);
            assert_eq!(got.slot, want.slot, "{}", p.display());
            assert_eq!(got.indent, want.indent, "{}", p.display());
        }
        assert!(
            whole > 100 && cut > 0 && indented > 0,
            "{whole} {cut} {indented}"
        );
        // A block that holds no two lines is not enough when the file goes
        // on: `sniff` would read further.
        assert!(verdict_of_block("x.log", &vec![b'x'; block], false).is_none());
        assert!(verdict_of_block("x.log", &vec![b'x'; block], true).is_some());
        assert!(verdict_of_block("x.log", b"", true).is_some());
    }

    #[test]
    fn workers_left_over_help_the_large_files() {
        // No large file, or one per worker: none.
        assert_eq!(helpers_for(0, 8), 0);
        assert_eq!(helpers_for(2, 2), 0);
        assert_eq!(helpers_for(16, 2), 0);
        // Fewer large files than workers.
        assert_eq!(helpers_for(1, 2), 2);
        assert_eq!(helpers_for(2, 8), 4);
        assert_eq!(helpers_for(3, 4), 1);
        // -j 1: the file is read alone.
        assert_eq!(helpers_for(1, 1), 0);
        // Many cores, one file.
        assert_eq!(helpers_for(1, 64), 8);
    }
}

//! The interface between the readers and the rest: a `Source` yields events
//! in time order and, when done, the per-file facts `inventory` shows.

use chrono::{FixedOffset, NaiveDate};
use mqdiag_model::event::Event;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};

/// What the consumer will look at. Readers may skip building events for
/// anything else: `analyze` needs only a small share of trace lines, and
/// the cheapest event is the one never made. Headers and log records are
/// always kept.
#[derive(Debug, Clone)]
pub struct Interest {
    functions: std::collections::HashSet<String, rustc_hash::FxBuildHasher>,
    function_prefixes: Vec<String>,
    /// Name endings compared ignoring ASCII case (`GetAddrInfo`: MQ's
    /// resolver wrappers such as `cciTcpGetAddrInfo`).
    function_suffixes: Vec<String>,
    /// Every literal the byte check looks for (`any` is built from it).
    words: Vec<String>,
    text: Option<regex::Regex>,
    /// Any of the names, prefixes or keywords anywhere in a raw line: the
    /// byte check that lets readers skip a line without parsing it.
    any: Option<Candidates>,
    /// Functions told by a test rather than listed, and a text every one
    /// of their names contains, searched for on its own (`with_function_
    /// anchor`).
    anchor: Option<Anchor>,
    /// SMF CSV columns read by name. Rows keep only these of their cells
    /// (and every attribute the reader derives): a WQ row has ~300 cells,
    /// the passes read a dozen names.
    smf_columns: std::collections::HashSet<&'static str, rustc_hash::FxBuildHasher>,
    /// Whether SMF rows need more than their times and line numbers.
    smf_detail: bool,
}

impl Interest {
    /// Interest in no trace line at all (headers and log records are still
    /// read): `inventory` needs only each file's counts, times and problems.
    pub fn nothing() -> Self {
        Interest {
            smf_detail: false,
            ..Interest::new(&[], &[], &[])
        }
    }
}

impl Interest {
    /// `functions`: exact function names whose entries and exits matter;
    /// `function_prefixes`: name prefixes (`gsk_`); `text_keywords`: literal
    /// substrings that make a text line matter (`QTime(`).
    pub fn new(functions: &[&str], function_prefixes: &[&str], text_keywords: &[&str]) -> Self {
        let text = if text_keywords.is_empty() {
            None
        } else {
            let alts: Vec<String> = text_keywords.iter().map(|k| regex::escape(k)).collect();
            // Literal alternations compile to a fast multi-substring search.
            regex::Regex::new(&alts.join("|")).ok()
        };
        let words: Vec<String> = functions
            .iter()
            .chain(function_prefixes)
            .chain(text_keywords)
            .filter(|k| !k.is_empty())
            .map(|k| k.to_string())
            .collect();
        Interest {
            any: candidates_of(&words),
            words,
            function_suffixes: Vec::new(),
            functions: functions.iter().map(|s| s.to_string()).collect(),
            function_prefixes: function_prefixes.iter().map(|s| s.to_string()).collect(),
            text,
            anchor: None,
            smf_columns: Default::default(),
            smf_detail: true,
        }
    }

    /// Also count as of interest every function `test` accepts; each of
    /// their names contains `anchor`. A whole family of names (MQI verbs
    /// under their layer prefixes, some 125) is then one substring search
    /// of its own, not 125 more literals in the byte check (past about 30
    /// the few-pattern search slows down, and names are few on a line).
    pub fn with_function_anchor(mut self, anchor: &str, test: fn(&str) -> bool) -> Self {
        self.anchor = Some(Anchor {
            text: memchr::memmem::Finder::new(anchor.as_bytes()).into_owned(),
            test,
        });
        self
    }

    /// Also count as of interest every function whose name ends in one of
    /// these, ignoring ASCII case; lines with the suffix as written or in
    /// lower case are candidates (each literal more slows the byte check of
    /// every line a little).
    pub fn with_function_suffixes(mut self, suffixes: &[&str]) -> Self {
        for s in suffixes.iter().filter(|s| !s.is_empty()) {
            self.function_suffixes.push(s.to_string());
            for w in [s.to_string(), s.to_ascii_lowercase()] {
                if !self.words.contains(&w) {
                    self.words.push(w);
                }
            }
        }
        self.any = candidates_of(&self.words);
        self
    }

    /// Whether the byte check is the few-pattern SIMD search (Teddy), not
    /// an automaton several times slower (tests hold `analyze` to it).
    #[doc(hidden)]
    pub fn packed_search(&self) -> bool {
        matches!(self.any, Some(Candidates::Packed(_)))
    }

    /// Also keep these SMF columns (or attributes of that name) on rows.
    pub fn with_smf_columns(mut self, names: impl IntoIterator<Item = &'static str>) -> Self {
        self.smf_columns.extend(names);
        self
    }

    /// The name as the consumer gave it, when rows must carry the cell
    /// of this column (stored under it without a copy per row).
    pub(crate) fn smf_column_name(&self, name: &str) -> Option<&'static str> {
        self.smf_columns.get(name).copied()
    }

    /// False when SMF rows are only counted and timed (no text, no
    /// attributes).
    pub(crate) fn smf_detail(&self) -> bool {
        self.smf_detail
    }

    pub fn function(&self, f: &str) -> bool {
        self.functions.contains(f)
            || self.anchor.as_ref().is_some_and(|a| (a.test)(f))
            || self
                .function_prefixes
                .iter()
                .any(|p| f.starts_with(p.as_str()))
            || self.function_suffixes.iter().any(|s| {
                f.len() >= s.len()
                    && f.as_bytes()[f.len() - s.len()..].eq_ignore_ascii_case(s.as_bytes())
            })
    }

    /// Could this raw line be of interest? False when it names none of the
    /// functions, prefixes or keywords (always false for `nothing`).
    pub fn candidate(&self, line: &[u8]) -> bool {
        self.any.as_ref().is_some_and(|c| c.is_match(line))
            || self
                .anchor
                .as_ref()
                .is_some_and(|a| a.text.find(line).is_some())
    }

    /// `first_candidate` of lines read one search after another: `block`
    /// starts at offset `base` of what its reader reads, and `seen` keeps
    /// what the searches found there. Each search answers from what it
    /// found before while that still holds, so neither rescans the lines
    /// the other's candidates are taken from (the anchor may be rare where
    /// the literals are frequent, and the other way round).
    #[cfg(test)]
    pub(crate) fn first_candidate_in(
        &self,
        block: &[u8],
        base: u64,
        seen: &mut Searched,
    ) -> Option<usize> {
        let any = self.literal_in(block, base, seen);
        earlier(any, self.anchor_in(block, base, seen))
    }

    /// The first match of the literals in `block`, from memory (`Searched`).
    fn literal_in(&self, block: &[u8], base: u64, seen: &mut Searched) -> Option<usize> {
        self.any
            .as_ref()
            .and_then(|c| seen.any.recall(block, base, |b| c.find(b)))
    }

    /// The first match of the anchor in `block`, from memory (`Searched`).
    fn anchor_in(&self, block: &[u8], base: u64, seen: &mut Searched) -> Option<usize> {
        self.anchor
            .as_ref()
            .and_then(|a| seen.anchor.recall(block, base, |b| a.text.find(b)))
    }

    /// `first_candidate_in` for a reader that asks whether the block's
    /// first line is a candidate and, when not, where the first one is: a
    /// match of the literals within the first line answers without the
    /// anchor's search (it may then not be the first match of that line).
    /// Where every line is a candidate, that search cost a third of the
    /// byte check.
    pub(crate) fn candidate_in(
        &self,
        block: &[u8],
        base: u64,
        seen: &mut Searched,
    ) -> Option<usize> {
        let any = self.literal_in(block, base, seen);
        if let Some(p) = any
            && memchr::memchr(b'\n', &block[..p]).is_none()
        {
            return Some(p);
        }
        earlier(any, self.anchor_in(block, base, seen))
    }

    /// Where in a block of lines the first candidate begins, if any (what
    /// `first_candidate_in` is tested against).
    #[cfg(test)]
    fn first_candidate(&self, block: &[u8]) -> Option<usize> {
        let found = self.any.as_ref().and_then(|c| c.find(block));
        // The anchor is looked for only before the other candidate: each
        // byte is searched once by each, however many candidates follow.
        let before = &block[..found.unwrap_or(block.len())];
        self.anchor
            .as_ref()
            .and_then(|a| a.text.find(before))
            .or(found)
    }

    pub(crate) fn text(&self, t: &str) -> bool {
        self.text.as_ref().is_some_and(|r| r.is_match(t))
    }
}

/// What the byte check's two searches found in a reader's lines so far
/// (see `Interest::first_candidate_in`).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Searched {
    any: Seen,
    anchor: Seen,
}

/// One search's last answer, in offsets of the reader: from `from` on,
/// the first match is at `hit`, or there is none before `to`.
#[derive(Debug, Default, Clone, Copy)]
struct Seen {
    from: u64,
    to: u64,
    hit: Option<u64>,
}

impl Seen {
    /// The first match in `block` (at offset `base`), by `find`, from what
    /// was found before when it still answers. A block is whole lines and
    /// no literal holds a line end, so no match crosses where a search
    /// stopped.
    fn recall(
        &mut self,
        block: &[u8],
        base: u64,
        find: impl Fn(&[u8]) -> Option<usize>,
    ) -> Option<usize> {
        let end = base + block.len() as u64;
        if self.from <= base && base < self.to.max(self.hit.map_or(0, |h| h + 1)) {
            match self.hit {
                Some(h) if h >= base => {
                    return (h < end).then(|| (h - base) as usize);
                }
                Some(_) => {}
                None if self.to >= end => return None,
                None => {
                    let at = (self.to - base) as usize;
                    let found = find(&block[at..]).map(|i| at + i);
                    self.to = end;
                    self.hit = found.map(|i| base + i as u64);
                    return found;
                }
            }
        }
        let found = find(block);
        *self = Seen {
            from: base,
            to: end,
            hit: found.map(|i| base + i as u64),
        };
        found
    }
}

/// Functions told by a test, and the text each of their names contains.
#[derive(Clone)]
struct Anchor {
    text: memchr::memmem::Finder<'static>,
    test: fn(&str) -> bool,
}

impl std::fmt::Debug for Anchor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = String::from_utf8_lossy(self.text.needle());
        f.debug_struct("Anchor").field("text", &text).finish()
    }
}

/// The byte check for a set of literals.
fn candidates_of(words: &[String]) -> Option<Candidates> {
    let all: Vec<&str> = words.iter().map(String::as_str).collect();
    // A line that contains a pattern contains every pattern inside it
    // (`zstMQGET` contains `MQGET`): keep only the innermost, so that
    // the search stays few-pattern SIMD (Teddy) instead of falling back
    // to an automaton several times slower when names multiply.
    let all: Vec<&str> = all
        .iter()
        .enumerate()
        .filter(|(i, k)| {
            !all.iter()
                .enumerate()
                .any(|(j, o)| j != *i && k.contains(o) && (o.len() < k.len() || j < *i))
        })
        .map(|(_, k)| *k)
        .collect();
    if all.is_empty() {
        None
    } else {
        Candidates::new(&all)
    }
}

/// A multi-substring search: SIMD (Teddy) when the patterns allow it, an
/// Aho-Corasick automaton otherwise. Neither keeps a shared match cache (as
/// `regex` does), so many threads can use one cheaply.
#[derive(Debug, Clone)]
enum Candidates {
    Packed(aho_corasick::packed::Searcher),
    Automaton(aho_corasick::AhoCorasick),
}

impl Candidates {
    fn new(patterns: &[&str]) -> Option<Candidates> {
        aho_corasick::packed::Searcher::new(patterns.iter())
            .map(Candidates::Packed)
            .or_else(|| {
                aho_corasick::AhoCorasick::new(patterns)
                    .ok()
                    .map(Candidates::Automaton)
            })
    }

    fn is_match(&self, hay: &[u8]) -> bool {
        self.find(hay).is_some()
    }

    fn find(&self, hay: &[u8]) -> Option<usize> {
        match self {
            Candidates::Packed(s) => s.find(hay).map(|m| m.start()),
            Candidates::Automaton(a) => a.find(hay).map(|m| m.start()),
        }
    }
}

/// Options every reader may need.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// What the consumer needs; `None`: every event.
    pub interest: Option<std::sync::Arc<Interest>>,
    /// `--tz`: the offset for files that state none.
    pub tz: Option<FixedOffset>,
    /// `--date`: the date for trace files that state none (formatted with
    /// `dspmqtrc -h`). Without it, the file's modification date is used.
    pub date: Option<NaiveDate>,
    /// Read buffer of each open trace file, in bytes (0: the line reader's
    /// default). `open_all` sets it from the number of files.
    pub read_buffer: usize,
    /// Worker threads of the run (`-j`; 0 counts as 1).
    pub jobs: usize,
    /// How one large trace file is spread over more cores (`open_all`
    /// sets it when there are fewer large files than workers).
    pub parallel: Parallel,
    /// `--encoding`: the character set of every text input (`None`: each
    /// file's is decided from its first bytes).
    pub encoding: Option<crate::encoding::TextEncoding>,
    /// Options of one format only (`--smf-stck-tz`): each reader reads its
    /// own type.
    pub format_options: FormatOptions,
}

/// Options that belong to one format, set by the binary from its flags;
/// each reader looks up the type it declares (`smf::SmfOptions`). What a
/// reader learns from the run's files goes through `Reader::prepare`.
#[derive(Clone, Default)]
pub struct FormatOptions(Vec<std::sync::Arc<dyn std::any::Any + Send + Sync>>);

impl FormatOptions {
    /// These options, with `value` in place of any of its type.
    pub(crate) fn with<T: std::any::Any + Send + Sync>(mut self, value: T) -> Self {
        self.0.retain(|v| !v.is::<T>());
        self.0.push(std::sync::Arc::new(value));
        self
    }

    pub(crate) fn get<T: std::any::Any>(&self) -> Option<&T> {
        self.0.iter().find_map(|v| v.downcast_ref::<T>())
    }
}

impl std::fmt::Debug for FormatOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FormatOptions({} set)", self.0.len())
    }
}

/// Helper threads for the lines of one large trace file, and the size of
/// the blocks they take. The output is the same with or without them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parallel {
    /// Threads rendering blocks ahead (0: none, the file is read alone).
    pub helpers: usize,
    /// Bytes of whole lines per block.
    pub block: usize,
    /// Files smaller than this are read alone.
    pub min_bytes: u64,
    /// Blocks of events stitched before the file's density decides
    /// whether the helpers go on (0: they always do). Where most lines
    /// become events, handing each over costs more than reading it alone,
    /// and the merge that takes them sets the pace anyway.
    pub dense_after: u64,
}

impl Default for Parallel {
    fn default() -> Self {
        Parallel {
            helpers: 0,
            // Large enough that a block's set-up is a small share of its
            // work, small enough that blocks in flight stay a few MB.
            block: 1 << 20,
            min_bytes: 64 << 20,
            dense_after: 4,
        }
    }
}

impl ReadOptions {
    /// These options with one format's own (`FormatOptions::with`).
    pub fn with_format_options<T: std::any::Any + Send + Sync>(mut self, value: T) -> Self {
        self.format_options = self.format_options.with(value);
        self
    }

    /// The offset for a file that states none, and where it came from;
    /// records an info problem when UTC had to be assumed.
    pub(crate) fn fallback_offset(&self, info: &mut FileInfo) -> FixedOffset {
        match self.tz {
            Some(tz) => {
                info.set_offset(tz, "--tz");
                tz
            }
            None => {
                let utc = FixedOffset::east_opt(0).expect("zero offset");
                info.set_offset(utc, "assumed-utc");
                info.problem(
                    ProblemCode::AssumedUtc,
                    None,
                    Severity::Info,
                    0,
                    "no UTC offset in the file and no --tz given: UTC assumed",
                );
                utc
            }
        }
    }
}

/// A stream of events from one input (or one group of inputs read as one,
/// such as a `.TRS` wrap file and its `.FMT`, or rotated error logs).
///
/// Events come in non-decreasing time order; the reorder buffer in
/// `timeline` takes care of small local disorder.
pub trait Source: Send {
    fn next_event(&mut self) -> Option<Event>;
    /// Up to `n` next events appended to `out`, as that many calls of
    /// `next_event` would give them; false once the source has no more
    /// (with what it had last appended). A reader that queues its events
    /// overrides it: an event is then moved once, not through every
    /// layer's return value.
    fn next_events(&mut self, out: &mut Vec<Event>, n: usize) -> bool {
        for _ in 0..n {
            match self.next_event() {
                Some(e) => out.push(e),
                None => return false,
            }
        }
        true
    }
    /// The facts about each file read, available once `next_event` returned
    /// `None` (or earlier, partially).
    fn finish(self: Box<Self>) -> Vec<FileInfo>;
    /// The next wanted `timeline` rows, appended to `out`: up to `n`,
    /// stopping once `out` holds `limit` bytes; `row` is told of each with
    /// where it lies in `out`. Returns false when the source is done. A
    /// reader that can render rows straight from its input overrides this;
    /// the rest build each event and render it.
    fn next_rows(
        &mut self,
        sink: &mut mqdiag_model::sink::RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(mqdiag_model::sink::RowMeta, usize, usize),
    ) -> bool {
        rows_of_events(self, sink, out, n, limit, row)
    }
    /// The file being read, for a reader that renders its own rows.
    fn current_origin(&self) -> Option<std::sync::Arc<mqdiag_model::event::Origin>> {
        None
    }
}

/// The rows of the source's next wanted events: what `Source::next_rows`
/// does unless a reader renders rows itself. Up to `n` rows, stopping once
/// `out` holds `limit` bytes; `row` is told of each with where it lies in
/// `out`. Returns false when the source is done.
pub(crate) fn rows_of_events<S: Source + ?Sized>(
    src: &mut S,
    sink: &mut mqdiag_model::sink::RowSink,
    out: &mut Vec<u8>,
    n: usize,
    limit: usize,
    row: &mut dyn FnMut(mqdiag_model::sink::RowMeta, usize, usize),
) -> bool {
    for k in 0..n {
        if k > 0 && out.len() >= limit {
            return true;
        }
        let Some(e) = (loop {
            match src.next_event() {
                Some(e) if !sink.spec.wants(&e) => continue,
                other => break other,
            }
        }) else {
            return false;
        };
        let start = out.len();
        let m = sink.event_row(e, out);
        row(m, start, out.len());
    }
    true
}

/// The earlier of two positions, either of which may be missing.
fn earlier(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mq_verb(f: &str) -> bool {
        f.starts_with("MQ") && f.len() > 4
    }

    /// Searching again after each line taken, from what was found before,
    /// finds what a fresh search of the lines left finds: with lines taken
    /// before, at and after each candidate, and lines added as a reader's
    /// buffer fills.
    #[test]
    fn remembered_searches_agree_with_fresh_ones() {
        let i = Interest::new(&[], &[], &["QTime("]).with_function_anchor("MQ", mq_verb);
        assert!(i.function("MQGET") && !i.function("MQ"));
        let kinds: [&[u8]; 4] = [
            b" 10:00:00.000001 1.1 : -{  xcsGetMem\n",
            b" 10:00:00.000001 1.1 : Empty(FALSE) QTime(42)\n",
            b" 10:00:00.000001 1.1 : -{  zstMQGET\n",
            b" 10:00:00.000001 1.1 : 0x0000: 00000000 |....|\n",
        ];
        let mut rng = mqdiag_model::testrng::Rng::new(7);
        for round in 0..200 {
            // Mostly one kind of line, so one search hits often and the
            // other seldom.
            let common = rng.below(4);
            let mut data = Vec::new();
            let mut ends = Vec::new();
            for _ in 0..400 {
                let k = if rng.below(5) == 0 {
                    rng.below(4)
                } else {
                    common
                };
                data.extend_from_slice(kinds[k]);
                ends.push(data.len());
            }
            let mut seen = Searched::default();
            let mut seen_line = Searched::default();
            let (mut pos, mut filled) = (0usize, ends[rng.below(50)]);
            while pos < data.len() {
                if filled <= pos || rng.below(2) == 0 {
                    filled = *ends
                        .iter()
                        .find(|&&e| e > filled.max(pos))
                        .unwrap_or(&data.len());
                }
                let block = &data[pos..filled];
                let got = i.first_candidate_in(block, pos as u64, &mut seen);
                assert_eq!(got, i.first_candidate(block), "round {round} at {pos}");
                // The same, but for a candidate in the first line: one in
                // that line.
                let line = i.candidate_in(block, pos as u64, &mut seen_line);
                let first_end = memchr::memchr(b'\n', block).unwrap_or(block.len());
                match got {
                    Some(c) if c < first_end => {
                        assert!(
                            line.is_some_and(|l| l >= c && l < first_end),
                            "{round} {pos}"
                        )
                    }
                    _ => assert_eq!(line, got, "round {round} at {pos}"),
                }
                // Take the lines up to the candidate, or a few lines, or
                // the candidate's line too.
                let stop = got.map_or(block.len(), |c| c + 1);
                let lines: Vec<usize> = ends
                    .iter()
                    .copied()
                    .filter(|&e| e > pos && e <= pos + stop.max(1) + 40)
                    .collect();
                pos = match lines.len() {
                    0 => *ends.iter().find(|&&e| e > pos).expect("a line"),
                    n => lines[rng.below(n)],
                };
            }
        }
    }

    #[test]
    fn function_suffixes_match_in_any_case_and_are_candidates() {
        let i = Interest::new(&["getaddrinfo"], &[], &[]).with_function_suffixes(&["GetAddrInfo"]);
        for f in ["cciTcpGetAddrInfo", "xyzgetaddrinfo", "getaddrinfo"] {
            assert!(i.function(f), "{f}");
            assert!(i.candidate(format!("--}}  {f} rc=OK").as_bytes()), "{f}");
        }
        assert!(i.function("xyzGETADDRINFO"));
        assert!(!i.function("cciTcpGetAddrInfoX"));
        assert!(!i.candidate(b"--}  cciTcpConnect rc=OK"));
        // Without the suffixes the wrapper is neither.
        let plain = Interest::new(&["getaddrinfo"], &[], &[]);
        assert!(!plain.function("cciTcpGetAddrInfo"));
        assert!(!plain.candidate(b"--}  cciTcpGetAddrInfo rc=OK"));
    }
}

//! `unreadable-input`: every input problem the readers recorded (the
//! `FileInfo` problems), one finding per file, graded by its worst
//! problem; files of no known format are info.

use mqdiag_model::findings::Part;
use crate::passes::{Pass, RuleInfo, Settings};
use mqdiag_model::event::{Event, Format};
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::findings::{Evidence, Finding, MAX_EVIDENCE, Metric, thousands};
use mqdiag_model::problem::{ProblemCode, Severity};
use std::collections::BTreeMap;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "unreadable-input",
    severity: Severity::Warning,
    summary: "Files, or parts of files, that could not be used",
    trigger: "Every input file with problems recorded by its reader or by file discovery: \
        binary traces not yet formatted with dspmqtrc (warning), GSKit binary traces (info), \
        lines that are not records of the file's format, truncated or cut lines, counter gaps, \
        files that cannot be read (error), empty files, events too far out of time order. \
        Reading notes (an assumed UTC offset, a copy read once, a last record without its \
        closing line) are not findings: the reports list them under Reading notes. One finding per file; its severity is the worst problem's, \
        its `lines_skipped` the lines that could not be used. A file of no recognised format is \
        an info finding.",
    thresholds: &[],
    advice: "Format binary traces with `dspmqtrc` on the machine that wrote them; give `--tz` \
        for files without a UTC offset; collect the files again if they were cut or damaged.",
    fingerprint: &[Part::Key("format and problems")],
    metrics: &["lines_skipped"],
    functions: &[],
    keywords: &[],
    smf_columns: &[],
    make: |_s: &Settings| Box::new(UnreadableInput),
    ..RuleInfo::BASE
};

pub(crate) struct UnreadableInput;

impl Pass for UnreadableInput {
    fn observe(&mut self, _e: &Event) {}

    fn finish(&mut self, inputs: &[FileInfo]) -> Vec<Finding> {
        let mut out = Vec::new();
        // Files with only notes (info) of the same first kind are reported
        // together: twenty SMF files without a UTC offset are one finding.
        let mut notes: BTreeMap<String, Vec<&FileInfo>> = BTreeMap::new();
        for fi in inputs {
            let unknown = not_recognised(fi);
            if fi.problem_count == 0 && !unknown {
                continue;
            }
            let severity = if unknown {
                Severity::Info
            } else {
                fi.worst.unwrap_or(Severity::Warning)
            };
            if severity == Severity::Info {
                // Copies name the file they copy: one finding for them all.
                let key = match fi.problems.first() {
                    Some(p) if p.code == ProblemCode::DuplicateFile => DUPLICATES.to_string(),
                    _ => first_message(fi).to_string(),
                };
                notes.entry(key).or_default().push(fi);
            } else {
                out.push(file_finding(fi, severity));
            }
        }
        for (msg, files) in notes {
            if files.len() == 1 {
                out.push(file_finding(files[0], Severity::Info));
            } else {
                out.push(group_finding(&msg, &files));
            }
        }
        out
    }
}

fn first_message(fi: &FileInfo) -> &str {
    fi.problems
        .first()
        .map(|p| p.message.as_str())
        .unwrap_or(NOT_RECOGNISED)
}

const NOT_RECOGNISED: &str = "format not recognised: not analysed";

/// A file no reader took, with nothing else said about it (a copy read
/// once under another name is also of no format, but has its note).
fn not_recognised(fi: &FileInfo) -> bool {
    fi.format == Format::UNKNOWN && fi.problem_count == 0 && fi.notes.is_empty()
}
const DUPLICATES: &str = "duplicates of other inputs: identical content, read once";

fn file_finding(fi: &FileInfo, severity: Severity) -> Finding {
    let unknown = not_recognised(fi);
    let first_msg = first_message(fi);
    let title = if fi.problem_count > 1 {
        format!(
            "{}: {} problems, first: {}",
            short(&fi.path),
            thousands(fi.problem_count),
            first_msg
        )
    } else {
        format!("{}: {first_msg}", short(&fi.path))
    };
    let mut f = Finding::new(RULE.id, severity, title);
    f.severity_reason = if unknown {
        "info, not warning: a file of no known format is listed, not an error".to_string()
    } else if severity == RULE.severity {
        "warning: the worst problem in the file is a warning".to_string()
    } else {
        format!(
            "{}, not warning: the worst problem in the file is {}",
            severity.as_str(),
            if severity == Severity::Info { "a note" } else { "an error" }
        )
    };
    // No time range: problems are located by line, and a file's first/last
    // event depend on what the readers were asked for.
    f.count = fi.problem_count.max(1);
    f.metrics
        .set("lines_skipped", Metric::int(fi.lines_skipped));
    f.metrics.set("problems", Metric::int(fi.problem_count));
    f.metrics
        .set("format", Metric::Str(fi.format.as_str().to_string()));
    if let Some(v) = &fi.variant {
        f.metrics.set("variant", Metric::Str(v.clone()));
    }
    // Worst problems first, then in file order.
    let mut probs: Vec<_> = fi.problems.iter().collect();
    probs.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.line.cmp(&b.line)));
    f.evidence = probs
        .iter()
        .take(MAX_EVIDENCE)
        .map(|p| Evidence {
            path: fi.path.clone(),
            line: p.line.unwrap_or(1).max(1),
            text: format!("{}: {}", p.severity.as_str(), p.message),
            offset: None,
        })
        .collect();
    f.evidence.sort_by_key(|e| e.line);
    if f.evidence.is_empty() {
        f.evidence.push(Evidence {
            path: fi.path.clone(),
            line: 1,
            text: NOT_RECOGNISED.to_string(),
            offset: None,
        });
    }
    // What is wrong with the file, not its name (which may hold a pid).
    let mut codes: Vec<&str> = fi.problems.iter().map(|p| p.code.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    f.key = format!("{}/{}", fi.format.as_str(), codes.join(","));
    f.advice = advice(fi, unknown);
    f
}

fn group_finding(msg: &str, files: &[&FileInfo]) -> Finding {
    let n = files.len() as u64;
    let mut f = Finding::new(
        RULE.id,
        Severity::Info,
        format!("{} files: {msg}", thousands(n)),
    );
    f.count = n;
    f.severity_reason = "info, not warning: notes on files that were read".to_string();
    let sum = |g: fn(&FileInfo) -> u64| files.iter().map(|fi| g(fi)).sum::<u64>();
    f.metrics
        .set("lines_skipped", Metric::int(sum(|fi| fi.lines_skipped)));
    f.metrics
        .set("problems", Metric::int(sum(|fi| fi.problem_count)));
    f.metrics.set("files", Metric::int(n));
    f.evidence = files
        .iter()
        .take(MAX_EVIDENCE)
        .map(|fi| Evidence {
            path: fi.path.clone(),
            line: fi.problems.first().and_then(|p| p.line).unwrap_or(1).max(1),
            // Each file's own words: a copy names the file it copies.
            text: format!("info: {}", first_message(fi)),
            offset: None,
        })
        .collect();
    f.key = msg.to_string();
    let unknown = not_recognised(files[0]);
    let more = if n as usize > MAX_EVIDENCE {
        format!(" The first {MAX_EVIDENCE} files are listed;")
    } else {
        String::new()
    };
    f.advice = format!(
        "{}{more} `mqdiag inventory` lists every file with all its notes.",
        advice(files[0], unknown)
    );
    f
}

/// The file name, for titles (the full path is in the evidence).
fn short(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

fn advice(fi: &FileInfo, unknown: bool) -> String {
    if unknown {
        return "mqdiag does not know this file's format, so it was not analysed. If it is MQ \
            data (a trace, error log, FDC or SMF CSV), check that it is complete and not \
            compressed in an unsupported way."
            .to_string();
    }
    // Advice keys on the problems' codes, never on their wording.
    let has = |codes: &[ProblemCode]| fi.problems.iter().any(|p| codes.contains(&p.code));
    let mut parts = Vec::new();
    if fi.format == mqdiag_readers::formats::binary_trace::FORMAT
        || has(&[ProblemCode::BinaryTrace])
    {
        parts.push(
            "Binary trace files cannot be read offline: run `dspmqtrc` on the machine (same \
             MQ level) that wrote them and collect the .FMT files.",
        );
    }
    if has(&[ProblemCode::AssumedUtc]) {
        parts.push(
            "The file states no UTC offset: give `--tz ±HH:MM` so its events line up with the \
             other files.",
        );
    }
    if has(&[ProblemCode::NoDate]) {
        parts.push(if fi.format == mqdiag_readers::formats::trace::FORMAT {
            "The file has no date (formatted with `dspmqtrc -h`): give `--date YYYY-MM-DD` if the \
             file's modification date is not the day it was written."
        } else {
            "The file has no date: give `--date YYYY-MM-DD` if the file's modification date is \
             not the day it was written."
        });
    }
    if has(&[ProblemCode::CounterGap]) {
        parts.push(
            "The trace counter has gaps: records were lost (the trace buffer wrapped or the file \
             was cut); timings across a gap are not reliable.",
        );
    }
    if has(&[ProblemCode::CutFile, ProblemCode::CutRecord]) {
        parts.push("The file looks cut off: collect it again once the writer has finished.");
    }
    if has(&[ProblemCode::UnreadableFile]) {
        parts.push("Check the file's permissions and that it still exists.");
    }
    if has(&[ProblemCode::OutOfOrder]) {
        parts.push(
            "Records of this file go back in time further than the merge could wait for them \
             (a clock change, or rotated files that overlap; the problem says how far): every \
             record was analysed, but those records sit in the timeline where they were read, \
             not at their time.",
        );
    }
    if has(&[ProblemCode::ReaderPanic]) {
        parts.push(
            "mqdiag's reader of this format failed on this file (a defect in mqdiag, not in the \
             file): the records after the line named were not analysed. Please report it with \
             the file; the other inputs were read in full.",
        );
    }
    if has(&[ProblemCode::ClockJump]) {
        parts.push(
            "The time of day steps back by hours where no midnight can be (a clock set back, or \
             lines from another file): the date was kept, and those records sit in the timeline \
             at the time they state.",
        );
    }
    if parts.is_empty() {
        parts.push(
            "The lines listed could not be read as records of this format and were skipped; \
             the rest of the file was analysed.",
        );
    }
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testutil::*;
    use mqdiag_model::findings::Metric;

    #[test]
    fn graded_per_file() {
        let mut bin = FileInfo::new(
            "case/AMQ1.0.TRC",
            mqdiag_readers::formats::binary_trace::FORMAT,
            10,
        );
        bin.problem(
            ProblemCode::BinaryTrace,
            None,
            Severity::Warning,
            0,
            "binary trace not formatted: run `dspmqtrc` ...",
        );
        let mut tz = FileInfo::new(
            "case/AMQ2.0.FMT",
            mqdiag_readers::formats::trace::FORMAT,
            10,
        );
        tz.problem(
            ProblemCode::AssumedUtc,
            None,
            Severity::Info,
            0,
            "no UTC offset in the file and no --tz given: UTC assumed",
        );
        let mut bad = FileInfo::new(
            "case/AMQ3.0.FMT",
            mqdiag_readers::formats::trace::FORMAT,
            10,
        );
        bad.problem(
            ProblemCode::BadLine,
            Some(7),
            Severity::Warning,
            1,
            "not a trace record: `garbage`",
        );
        bad.problem(
            ProblemCode::BadLine,
            Some(9),
            Severity::Warning,
            1,
            "not a trace record: `more`",
        );
        bad.problem(
            ProblemCode::AssumedUtc,
            None,
            Severity::Info,
            0,
            "no UTC offset in the file and no --tz given: UTC assumed",
        );
        let clean = FileInfo::new(
            "case/AMQ4.0.FMT",
            mqdiag_readers::formats::trace::FORMAT,
            10,
        );
        let mut nodate = FileInfo::new(
            "case/AMQ5.0.FMT",
            mqdiag_readers::formats::trace::FORMAT,
            10,
        );
        nodate.problem(
            ProblemCode::NoDate,
            None,
            Severity::Info,
            0,
            "no date in the file (formatted with `dspmqtrc -h`?)",
        );
        let unknown = FileInfo::new("case/notes.txt", Format::UNKNOWN, 10);
        // An assumed offset is a reading note, not a problem.
        assert_eq!(tz.problem_count, 0);
        assert_eq!(
            tz.notes,
            ["no UTC offset in the file and no --tz given: UTC assumed"]
        );
        let out = run_with(&RULE, &[], &[], &[bin, tz, bad, clean, nodate, unknown]);
        assert_eq!(out.len(), 4);
        // Warnings per file first (in input order), then the notes.
        assert_eq!(out[0].severity, Severity::Warning);
        assert!(out[0].advice.contains("dspmqtrc"));
        assert_eq!(out[1].severity, Severity::Warning);
        assert_eq!(metric(&out[1], "lines_skipped"), Metric::Int(2));
        assert_eq!(out[1].count, 2);
        assert_eq!(
            out[1].evidence.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![7, 9]
        );
        assert!(
            out[1]
                .title
                .starts_with("AMQ3.0.FMT: 2 problems, first: not a trace record")
        );
        assert!(!out.iter().any(|f| f.title.starts_with("AMQ2.0.FMT")));
        // Notes come after warnings, grouped by their first message.
        let nodate = out
            .iter()
            .find(|f| f.title.starts_with("AMQ5.0.FMT"))
            .unwrap();
        assert!(nodate.advice.contains("--date") && !nodate.advice.contains("Binary"));
        let unknown = out
            .iter()
            .find(|f| f.title.starts_with("notes.txt"))
            .unwrap();
        assert_eq!(unknown.severity, Severity::Info);
        assert_eq!(unknown.evidence[0].line, 1);
    }

    #[test]
    fn advice_follows_the_code_not_the_wording() {
        // A date that "cannot be read" is no permissions problem; a cut
        // record is "cut" whatever its message says.
        let mut f = FileInfo::new(
            "AMQERR01.LOG",
            mqdiag_readers::formats::errlog_text::FORMAT,
            10,
        );
        f.problem(
            ProblemCode::BadTime,
            Some(4),
            Severity::Warning,
            1,
            "date `x` cannot be read",
        );
        f.problem(ProblemCode::CutRecord, Some(9), Severity::Warning, 1, "odd");
        let a = advice(&f, false);
        assert!(!a.contains("permissions"), "{a}");
        assert!(a.contains("cut off"), "{a}");
        let mut g = FileInfo::new("x.FMT", mqdiag_readers::formats::trace::FORMAT, 10);
        g.problem(
            ProblemCode::UnreadableFile,
            None,
            Severity::Error,
            0,
            "gone",
        );
        assert!(advice(&g, false).contains("permissions"));
    }

    #[test]
    fn copies_and_assumed_offsets_are_notes_not_findings() {
        let mut infos = Vec::new();
        for (copy, of) in [("b/AMQERR01.LOG", "a/AMQERR01.LOG"), ("b/X.FDC", "a/X.FDC")] {
            let mut fi = FileInfo::new(copy, Format::UNKNOWN, 10);
            fi.problem(
                ProblemCode::DuplicateFile,
                None,
                Severity::Info,
                0,
                format!("duplicate of {of}: identical content, read once"),
            );
            assert_eq!(fi.notes.len(), 1);
            infos.push(fi);
        }
        let mut cut = FileInfo::new(
            "c/AMQERR01.LOG",
            mqdiag_readers::formats::errlog_text::FORMAT,
            10,
        );
        cut.problem(
            ProblemCode::CutFile,
            Some(40),
            Severity::Info,
            0,
            "last record (line 40) has no closing separator line",
        );
        assert_eq!(
            cut.notes[0],
            "last record (line 40) has no closing separator line"
        );
        infos.push(cut);
        assert!(UnreadableInput.finish(&infos).is_empty());
    }

    #[test]
    fn notes_of_many_files_are_one_finding() {
        let files: Vec<FileInfo> = (0..8)
            .map(|i| {
                let mut f = FileInfo::new(
                    &format!("trace/AMQ{i}.0.FMT"),
                    mqdiag_readers::formats::trace::FORMAT,
                    10,
                );
                f.problem(
                    ProblemCode::NoDate,
                    None,
                    Severity::Info,
                    0,
                    "no date in the file (formatted with `dspmqtrc -h`?)",
                );
                f
            })
            .collect();
        let out = run_with(&RULE, &[], &[], &files);
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(f.severity, Severity::Info);
        assert_eq!(f.count, 8);
        assert_eq!(metric(f, "files"), Metric::Int(8));
        assert_eq!(f.evidence.len(), MAX_EVIDENCE);
        assert!(f.title.starts_with("8 files: no date"));
        assert!(f.advice.contains("--date") && f.advice.contains("inventory"));
    }

    #[test]
    fn late_records_are_explained_not_called_skipped() {
        let mut fi = FileInfo::new(
            "errors/AMQERR02.LOG",
            mqdiag_readers::formats::errlog_text::FORMAT,
            10,
        );
        crate::timeline::report_late(
            std::slice::from_mut(&mut fi),
            3,
            100_000_000,
            Some(("errors/AMQERR02.LOG".into(), 7)),
        );
        let out = run_with(&RULE, &[], &[], &[fi]);
        assert_eq!(out.len(), 1);
        assert!(out[0].advice.contains("every record was analysed"));
        assert!(!out[0].advice.contains("skipped"), "{}", out[0].advice);
    }
}

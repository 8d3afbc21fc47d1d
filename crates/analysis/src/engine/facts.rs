//! Facts of a run drawn from its inputs' rows: whether anything could be
//! read, whether a reader failed, and `--redact` on the rows themselves.

use mqdiag_model::event::Format;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::Severity;
use mqdiag_model::redact::{Cat, Redactor};

/// Whether no input could be used at all (each gave no event and is of no
/// known format, an unformatted binary trace, or had an error): the run
/// could not be done, exit 2 in every verb, and an existing `-o` file is
/// left as it was. An empty file or a header alone was read: it is not
/// this.
pub fn nothing_read(inputs: &[FileInfo]) -> bool {
    inputs.iter().all(|i| {
        i.events == 0
            && ([
                Format::UNKNOWN,
                mqdiag_readers::formats::binary_trace::FORMAT,
            ]
            .contains(&i.format)
                || i.worst == Some(Severity::Error))
    })
}

/// The input whose reader failed internally (`reader-panic`), if any: the
/// output was made from every other input, but the run is not whole.
pub fn reader_panic(inputs: &[FileInfo]) -> Option<&FileInfo> {
    mqdiag_readers::guard::has_reader_panic(inputs)
}

/// Learn what an input's facts name: its host and queue manager, the queue
/// manager in its path, names stated in its problems.
pub(crate) fn learn_input(r: &mut Redactor, fi: &FileInfo) {
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
pub(crate) fn assign_input(r: &mut Redactor, fi: &FileInfo) {
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
    for v in [
        &mut fi.host,
        &mut fi.qmgr,
        &mut fi.process,
        &mut fi.utc_offset_source,
    ]
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

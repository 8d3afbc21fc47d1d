//! Binary (unformatted) trace files: recognised, not readable offline. They
//! must be formatted with `dspmqtrc` on the machine that wrote them.

use super::{Done, Reader};
use crate::input::Input;
use crate::source::{ReadOptions, Source};
use mqdiag_model::event::Format;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::{ProblemCode, Severity};
use mqdiag_model::text::looks_like_text;

pub(crate) struct BinaryTraceReader;

/// `AMQ<pid>.<n>.TRC`, `AMQ<pid>.TRC`, `.TRS`, any case.
pub(crate) fn is_trace_name(name: &str) -> bool {
    let up = name.to_ascii_uppercase();
    let Some(rest) = up.strip_prefix("AMQ") else {
        return false;
    };
    let parts: Vec<&str> = rest.split('.').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [pid, ext] => digits(pid) && matches!(*ext, "TRC" | "TRS" | "FMT"),
        [pid, n, ext] => digits(pid) && digits(n) && matches!(*ext, "TRC" | "TRS" | "FMT"),
        _ => false,
    }
}

/// Unformatted binary traces: known, not read. Its facts for the rest of the program.
pub static FORMAT: Format = Format::of(&mqdiag_model::event::FormatInfo {
    name: "binary-trace",
    family: mqdiag_model::event::FormatFamily::Trace,
    states_local_time: false,
    dataset: "ibmmq.trace",
    host_is_writer: false,
});

impl Reader for BinaryTraceReader {
    fn format(&self) -> Format {
        FORMAT
    }

    fn sniff_ceiling(&self) -> u8 {
        60
    }

    fn sniff(&self, name: &str, head: &[u8]) -> u8 {
        if head.is_empty() || looks_like_text(head) {
            return 0;
        }
        let up = name.to_ascii_uppercase();
        if up.starts_with("AMQ.SSL.TRC") {
            // GSKit's own binary trace: IBM documents that it cannot be formatted.
            return 60;
        }
        if is_trace_name(name) { 60 } else { 0 }
    }

    fn open_with(
        &self,
        inputs: Vec<Input>,
        _opts: &ReadOptions,
        _: super::Prepared,
    ) -> Box<dyn Source> {
        let rows = inputs
            .into_iter()
            .map(|i| {
                let mut fi = FileInfo::new(&i.display, FORMAT, i.bytes);
                let ssl = i.name.to_ascii_uppercase().starts_with("AMQ.SSL.TRC");
                if ssl {
                    fi.variant = Some("gskit".to_string());
                    fi.problem( ProblemCode::BinaryGskitTrace,
                        None,
                        Severity::Info,
                        0,
                        "binary GSKit (TLS) trace: IBM provides no formatter for it; send it to IBM support as it is",
                    );
                } else {
                    fi.variant = Some("unformatted".to_string());
                    fi.problem( ProblemCode::BinaryTrace,
                        None,
                        Severity::Warning,
                        0,
                        "binary trace not formatted: run `dspmqtrc` on the machine that wrote it and collect the .FMT output",
                    );
                }
                fi
            })
            .collect();
        Box::new(Done(rows))
    }

    fn fuzz(&self) -> Option<super::Fuzz> {
        Some(super::Fuzz {
            target: "binary_trace",
            names: &["AMQ1234.0.TRC"],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_names() {
        assert!(is_trace_name("AMQ622742.0.TRC"));
        assert!(is_trace_name("amq1234.12.trs"));
        assert!(is_trace_name("AMQ1234.TRC"));
        assert!(!is_trace_name("AMQ.SSL.TRC"));
        assert!(!is_trace_name("AMQERR01.LOG"));
        assert!(!is_trace_name("AMQ1234.0.FDC"));
    }

    #[test]
    fn sniffs_binary_only() {
        let r = BinaryTraceReader;
        assert!(r.sniff("AMQ1.0.TRC", b"\x00\x01\x02binary") > 0);
        assert_eq!(r.sniff("AMQ1.0.TRC", b"Timestamp  Process.Thread"), 0);
        assert_eq!(r.sniff("random.bin", b"\x00\x01"), 0);
    }
}

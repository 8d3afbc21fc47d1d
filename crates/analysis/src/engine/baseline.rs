//! `--baseline`: the fingerprints of an earlier JSON report.

use super::Error;
use std::collections::HashSet;
use std::path::Path;

/// Largest baseline read: a report of a very large case is a few MB; a
/// path naming something else (a device, a huge file) is refused rather
/// than read into memory.
pub(crate) const MAX_BASELINE_BYTES: u64 = 64 << 20;

/// The fingerprints of an earlier JSON report.
pub fn read_baseline(p: &Path) -> Result<HashSet<String>, Error> {
    use std::io::Read;
    let cannot = |e: &dyn std::fmt::Display| {
        Error::Baseline(format!("cannot read baseline {}: {e}", p.display()))
    };
    // Checked before opening: opening a FIFO for reading waits for a writer.
    let md = std::fs::metadata(p).map_err(|e| cannot(&e))?;
    if !md.is_file() {
        return Err(cannot(&"not a regular file"));
    }
    if md.len() > MAX_BASELINE_BYTES {
        return Err(cannot(&format!(
            "{} bytes, more than the {} MiB a baseline report may have",
            md.len(),
            MAX_BASELINE_BYTES >> 20
        )));
    }
    // Streamed, keeping only the fingerprints: a report's evidence and
    // inputs are skipped as they are read, not built (a 51 MB report took
    // 2.3 GB read whole).
    let f = std::fs::File::open(p).map_err(|e| cannot(&e))?;
    // It may grow while it is read.
    let r = std::io::BufReader::new(f.take(MAX_BASELINE_BYTES + 1));
    let doc: BaselineDoc = serde_json::from_reader(r).map_err(|e| {
        Error::Baseline(format!(
            "baseline {} is not a JSON report: {e}",
            p.display()
        ))
    })?;
    let findings = doc.findings.ok_or_else(|| {
        Error::Baseline(format!(
            "baseline {} is not an mqdiag JSON report (no `findings` list)",
            p.display()
        ))
    })?;
    Ok(findings.into_iter().filter_map(|f| f.fingerprint).collect())
}

/// What a baseline report is read for; every other field is skipped.
#[derive(serde::Deserialize)]
struct BaselineDoc {
    findings: Option<Vec<BaselineFinding>>,
}

#[derive(serde::Deserialize)]
struct BaselineFinding {
    #[serde(default, deserialize_with = "string_or_skip")]
    fingerprint: Option<String>,
}

/// A fingerprint that is a string; anything else is no fingerprint.
fn string_or_skip<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    use serde::Deserialize;
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum S {
        Str(String),
        Other(serde::de::IgnoredAny),
    }
    Ok(match S::deserialize(d)? {
        S::Str(s) => Some(s),
        S::Other(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_must_be_a_regular_file_of_bounded_size() {
        let d = tempfile::tempdir().unwrap();
        let ok = d.path().join("ok.json");
        std::fs::write(
            &ok,
            r#"{"findings": [{"fingerprint": "abc"}, {"fingerprint": 3}]}"#,
        )
        .unwrap();
        assert_eq!(read_baseline(&ok).unwrap().len(), 1);
        let err = read_baseline(d.path()).unwrap_err().to_string();
        assert!(err.contains("not a regular file"), "{err}");
        // Sparse: nothing is written, but its size is past the limit.
        let big = d.path().join("big.json");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_BASELINE_BYTES + 1).unwrap();
        let err = read_baseline(&big).unwrap_err().to_string();
        assert!(err.contains("more than the 64 MiB"), "{err}");
        let other = d.path().join("other.json");
        std::fs::write(&other, r#"{"rules": []}"#).unwrap();
        let err = read_baseline(&other).unwrap_err().to_string();
        assert!(err.contains("no `findings` list"), "{err}");
        #[cfg(unix)]
        {
            let fifo = d.path().join("fifo");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Refused at once, not waited on.
                let err = read_baseline(&fifo).unwrap_err().to_string();
                assert!(err.contains("not a regular file"), "{err}");
            }
        }
    }
}

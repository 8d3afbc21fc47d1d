//! A row of the calls table as the reports show it, and how each format
//! names it.

use super::*;

/// One row of the summary.
#[derive(Debug, Clone)]
pub struct Row {
    pub key: Key,
    pub(crate) by: By,
    pub process: Option<String>,
    /// The process's host, when its trace names it.
    pub host: Option<String>,
    /// Else the trace file (wrap group) that stands for the process.
    pub trace: Option<String>,
    pub stats: Stats,
    /// For the row of the entities past the budget (`MAX_ROWS`): how many
    /// it holds (`process` says so); 0 for every other row.
    pub others: u64,
}

impl Row {
    /// Most time spent first, then most calls; the key breaks ties, so
    /// the order is the same on every run.
    pub(super) fn by_time_spent(a: &Row, b: &Row) -> std::cmp::Ordering {
        b.stats
            .total_us
            .cmp(&a.stats.total_us)
            .then(b.stats.calls.cmp(&a.stats.calls))
            .then_with(|| a.key.cmp(&b.key))
    }
}

impl Row {
    /// `--redact`: every string the row shows (its process, connection,
    /// where its slowest call was, its reasons' evidence).
    pub(crate) fn redact(&mut self, r: &mqdiag_model::redact::Redactor) {
        for v in [
            &mut self.process,
            &mut self.key.ident,
            &mut self.host,
            &mut self.trace,
        ]
        .into_iter()
        .flatten()
        {
            *v = r.apply(v);
        }
        if let Some(p) = &mut self.key.place {
            *p = Arc::from(r.apply(p));
        }
        if let Some((path, _)) = &mut self.stats.max_at {
            *path = Arc::from(r.apply(path));
        }
        for rs in self.stats.reasons.values_mut() {
            for e in &mut rs.evidence {
                e.path = r.apply(&e.path);
                e.text = r.apply(&e.text);
            }
        }
    }

    pub fn timed(&self) -> u64 {
        self.stats.sketch.count()
    }

    pub fn mean_us(&self) -> Option<u64> {
        let n = self.timed();
        (n > 0).then(|| self.stats.total_us / n)
    }

    pub fn p50_us(&self) -> Option<u64> {
        self.stats.sketch.percentile(50.0)
    }

    pub fn p95_us(&self) -> Option<u64> {
        self.stats.sketch.percentile(95.0)
    }

    /// The contract's JSON object for this row.
    pub fn to_json(&self) -> JsonRow<'_> {
        let s = &self.stats;
        JsonRow {
            host: self.host.as_deref(),
            trace: self.trace.as_deref(),
            pid: self.key.pid,
            process: self.process.as_deref(),
            tid: (self.by == By::Thread).then_some(self.key.tid).flatten(),
            ident: (self.by == By::Connection)
                .then_some(self.key.ident.as_deref())
                .flatten(),
            verb: self.key.verb,
            calls: s.calls,
            ok: s.ok,
            warnings: s.warnings,
            failed: s.failed,
            open: s.open,
            total_us: s.total_us,
            mean_us: self.mean_us(),
            p50_us: self.p50_us(),
            p95_us: self.p95_us(),
            max_us: s.max_us,
            max_at: s.max_at.as_ref().map(|(p, l)| At { path: p, line: *l }),
            timing: s.timing,
            reasons: s
                .reasons
                .iter()
                .map(|(k, r)| (k.as_str(), r.count))
                .collect(),
        }
    }
}

/// `mqhost01:622742 amqrmppa` (host and pid; the trace file's name when
/// it names no host), or `(all)` when grouped by verb: how findings and
/// every format name a row's process.
pub fn process_text(row: &Row) -> String {
    let place = match (&row.host, &row.trace) {
        (Some(h), _) => h.clone(),
        (None, Some(t)) => t.rsplit(['/', '\\', '!']).next().unwrap_or(t).to_string(),
        (None, None) => String::new(),
    };
    let at = if place.is_empty() {
        String::new()
    } else {
        format!("{place}:")
    };
    match (row.key.pid, &row.process) {
        (Some(p), Some(n)) => format!("{at}{p} {n}"),
        (Some(p), None) => format!("{at}{p}"),
        (None, Some(n)) if row.others > 0 => n.clone(),
        (None, _) => "(all)".into(),
    }
}

/// A row as the contract writes it (`calls --format json`, analyze `calls`).
#[derive(Debug, serde::Serialize)]
pub struct JsonRow<'a> {
    /// With `pid`, the process: its host (`null` when its trace names
    /// none; `trace` then names the file).
    pub host: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) trace: Option<&'a str>,
    pub pid: Option<u32>,
    pub process: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tid: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) ident: Option<&'a str>,
    pub verb: &'a str,
    pub calls: u64,
    pub(crate) ok: u64,
    pub(crate) warnings: u64,
    pub failed: u64,
    pub(crate) open: u64,
    pub(crate) total_us: u64,
    pub(crate) mean_us: Option<u64>,
    pub p50_us: Option<u64>,
    pub p95_us: Option<u64>,
    pub max_us: Option<u64>,
    pub(crate) max_at: Option<At<'a>>,
    /// Who timed the calls when not a formatted trace (absent then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) timing: Option<&'static str>,
    pub(crate) reasons: BTreeMap<&'a str, u64>,
}

#[derive(Debug, serde::Serialize)]
pub(crate) struct At<'a> {
    pub(crate) path: &'a str,
    pub(crate) line: u64,
}

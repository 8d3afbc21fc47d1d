//! The LPAR clock: the offset between STCK and local time decided from
//! the rows read so far, each row placed by it, and what was estimated
//! said once per file.

use super::*;

impl FileState {
    /// Decide the clock offset from the rows read so far and place them.
    pub(super) fn settle(&mut self) {
        self.settled = true;
        let timing = self.timing();
        if let Some(off) = self.votes.decide() {
            // Strong anchors: begin with the first row's own offset, so a
            // change later in the file is reported where it happens.
            // (Only timings with a strong anchor can have one: WQ rows
            // need not all be split again to find none.)
            let has_strong = timing.anchors().iter().any(|(_, strong)| *strong);
            let first_strong = self
                .pending
                .iter()
                .filter(|_| has_strong)
                .find_map(|p| p.anchor.filter(|a| a.0).map(|a| a.1));
            self.start = Some(first_strong.unwrap_or(off));
            self.current = self.start;
        } else if timing.needs_offset() && !self.pending.is_empty() {
            // Too few anchors of its own: another file of the same queue
            // manager may have had enough.
            let p = &self.pending[0];
            let mut f = Vec::new();
            let fitted = refit(&p.layout, &p.bytes, p.cells.as_ref(), &mut f);
            let (bytes, layout) = (p.bytes.clone(), p.layout.clone());
            if fitted {
                let r = Row::new(&layout, &bytes, &f);
                if let Some(c) = self.evidence(&r) {
                    self.start = Some(c.stck_minus_local);
                    self.current = self.start;
                    self.borrowed = Some(c);
                }
            }
        }
        let pending = std::mem::take(&mut self.pending);
        self.pending_bytes = 0;
        let mut f = Vec::new();
        for p in pending {
            if !refit(&p.layout, &p.bytes, p.cells.as_ref(), &mut f) {
                continue;
            }
            let r = Row::new(&p.layout, &p.bytes, &f);
            let placed = self.place(Timing::of(&p.layout), &r, p.line_no, p.record, p.anchor);
            let lpar = self.lpar_offset(&r, p.line_no);
            self.hold(
                placed,
                lpar,
                p.record,
                (p.line_no, p.at),
                p.bytes,
                p.cells,
                p.layout,
            );
        }
    }

    /// The run's clock evidence for a row's LPAR and queue manager.
    pub(super) fn evidence(&mut self, row: &Row) -> Option<LparClock> {
        let clocks = self.clocks.as_ref()?;
        let lpar = row.get("LPAR").unwrap_or_default();
        let qmgr = row.get("QMgr").unwrap_or_default();
        // Rows of one queue manager come together: one lookup for a run.
        if let Some((l, q, c)) = &self.looked_up
            && *l == lpar
            && *q == qmgr
        {
            return c.clone();
        }
        let c = clocks.get(&lpar, &qmgr).cloned();
        self.looked_up = Some((lpar.into_owned(), qmgr.into_owned(), c.clone()));
        c
    }

    /// The UTC offset (seconds) of the LPAR that wrote a row: `--tz`, else
    /// what its clocks reveal (this file's, or another file's of its queue
    /// manager), else UTC, said once per LPAR.
    ///
    /// STCK columns are UTC as the formatter rendered them (in
    /// `--smf-stck-tz`, else UTC); `Date`/`Time` are LPAR local. So when
    /// STCK reads `c` ahead of `Date`/`Time`, the LPAR is at STCK zone
    /// minus `c`. Families that agree (`c` = 0) tell nothing, unless the
    /// STCK zone was given: the formatter may simply have run in the
    /// LPAR's zone.
    pub(super) fn lpar_offset(&mut self, row: &Row, no: u64) -> i32 {
        if let Some(tz) = self.tz {
            if !self.offset_set {
                self.offset_set = true;
                self.info.set_offset(tz, "--tz");
            }
            return tz.local_minus_utc();
        }
        let (c, other) = match self.current {
            Some(c) => (Some(c), self.borrowed.clone()),
            None => match self.evidence(row) {
                Some(e) => (Some(e.stck_minus_local), Some(e)),
                None => (None, None),
            },
        };
        let stck = self.stck_tz.map_or(0, |z| z.local_minus_utc());
        let known = c
            .filter(|c| *c != 0 || self.stck_tz.is_some())
            .and_then(|c| FixedOffset::east_opt(stck - c));
        if let Some(off) = known {
            if !self.offset_set {
                self.offset_set = true;
                self.info.set_offset(off, "data");
            }
            if let Some(e) = other
                && self.sibling.is_none()
                && e.path != self.path
            {
                self.sibling = Some((off.local_minus_utc(), e));
            }
            return off.local_minus_utc();
        }
        let utc = FixedOffset::east_opt(0).expect("zero offset");
        if !self.offset_set {
            self.offset_set = true;
            self.info.set_offset(utc, "assumed-utc");
        }
        let lpar = row.get("LPAR").unwrap_or_default();
        if !self.unknown.contains(lpar.as_ref()) {
            // Said by the first file of the LPAR in the run expected to
            // find its zone unknown; by each file the survey did not
            // expect it of.
            let first = self
                .clocks
                .as_ref()
                .and_then(|c| c.first_file.get(lpar.as_ref()));
            if first.is_none_or(|p| *p == self.path) {
                let at = if first.is_some() { None } else { Some(no) };
                self.info.problem(
                    ProblemCode::AssumedUtc,
                    at,
                    Severity::Info,
                    0,
                    format!(
                        "no UTC offset for LPAR `{lpar}` in its SMF clocks (STCK columns agree with Date/Time, or there are none) and no --tz given: UTC assumed, in all its files"
                    ),
                );
            }
            self.unknown.insert(lpar.into_owned());
        }
        0
    }

    /// Place one row, following the offset where a strong anchor shows it
    /// changed (daylight saving on the LPAR, files appended from runs in
    /// different zones).
    pub(super) fn place(
        &mut self,
        timing: Timing,
        row: &Row,
        no: u64,
        record: NaiveDateTime,
        anchored: Option<(bool, i32)>,
    ) -> Placed {
        if let Some((true, c)) = anchored
            && let Some(cur) = self.current
            && c != cur
        {
            self.changes += 1;
            if self.changes <= MAX_CHANGE_REPORTS {
                self.info.problem( ProblemCode::ClockOffset,
                    Some(no),
                    Severity::Info,
                    0,
                    format!(
                        "STCK timestamps read {} against the LPAR-local Date/Time from here (before: {}): daylight saving change, or output of runs in different zones joined",
                        clock::offset_text(c),
                        clock::offset_text(cur)
                    ),
                );
            }
            self.current = Some(c);
        }
        let mut bad = Vec::new();
        let placed = self
            .timer
            .place(timing, row, record, self.current, &mut bad);
        for what in bad {
            self.info.problem(
                ProblemCode::BadTime,
                Some(no),
                Severity::Warning,
                0,
                format!("{what} is not a date and time: ignored"),
            );
        }
        placed
    }

    /// Say what was estimated about the two clocks, over the whole file,
    /// and where the LPAR's UTC offset came from.
    pub(super) fn clock_summary(&mut self) {
        let timing = self.timing();
        if self.rows == 0 {
            return;
        }
        let stck = match self.stck_tz {
            Some(z) => format!(
                "{} (--smf-stck-tz)",
                clock::offset_text(z.local_minus_utc())
            ),
            None => "UTC".to_string(),
        };
        if !timing.needs_offset() {
            if let Some((l, e)) = &self.sibling {
                self.info.note(format!(
                    "STCK columns read as {stck}; LPAR offset {} from {} of {}",
                    clock::offset_text(*l),
                    rows_text(e.rows),
                    e.path
                ));
            }
            return;
        }
        let anchor_name = timing
            .anchors()
            .iter()
            .map(|a| format!("`{}`", a.0))
            .collect::<Vec<_>>()
            .join("/");
        let Some(start) = self.start else {
            self.info.problem( ProblemCode::ClockOffset,
                None,
                Severity::Info,
                0,
                format!(
                    "offset between STCK timestamps and the LPAR-local Date/Time could not be estimated from {anchor_name}: rows placed at their record time, STCK columns kept as written"
                ),
            );
            return;
        };
        let (estimate, rows, from) = match &self.borrowed {
            Some(e) => (
                format!(
                    "STCK timestamps read {} against the LPAR-local Date/Time (too few {anchor_name} rows here: taken from {} of {}, same queue manager)",
                    clock::offset_text(start),
                    rows_text(e.rows),
                    e.path
                ),
                e.rows,
                format!(" of {}", e.path),
            ),
            None => {
                let (agree, total) = self.votes.support(start);
                (
                    format!(
                        "STCK timestamps read {} against the LPAR-local Date/Time (estimated from {anchor_name}: {agree} of {total} rows agree)",
                        clock::offset_text(start)
                    ),
                    agree,
                    String::new(),
                )
            }
        };
        let how = if start == 0 {
            "rows placed on the LPAR clock as they are"
        } else {
            "their times moved onto the LPAR clock"
        };
        // An estimate, reported as a note: nothing is wrong with the file.
        let note = if self.tz.is_some() {
            format!("{estimate}: {how}")
        } else if start != 0 || self.stck_tz.is_some() {
            let stck_off = self.stck_tz.map_or(0, |z| z.local_minus_utc());
            let hint = if self.stck_tz.is_none() {
                "; if mqsmfcsv did not run in UTC (TZ=UTC or -g yes), give its zone with --smf-stck-tz"
            } else {
                ""
            };
            format!(
                "STCK columns read as {stck}; LPAR offset {} from {}{from}. {estimate}: {how}{hint}",
                clock::offset_text(stck_off - start),
                rows_text(rows)
            )
        } else {
            format!("{estimate}: {how}; they do not tell the LPAR's UTC offset (--tz gives it)")
        };
        self.info.note(note);
    }
}

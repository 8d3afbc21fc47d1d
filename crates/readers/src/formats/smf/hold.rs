//! The hold: placed rows wait, as raw bytes, until they are old enough
//! (`HORIZON`) or the budget is full, and leave as events in instant order.

use super::*;
use mqdiag_model::event::Key;

impl FileState {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hold(
        &mut self,
        p: Placed,
        lpar: i32,
        record: NaiveDateTime,
        (no, at): (u64, u64),
        bytes: Vec<u8>,
        cells: Option<csvline::Kept>,
        layout: Arc<Layout>,
    ) {
        self.seq += 1;
        self.held_bytes += bytes.len() + HELD_OVERHEAD + cells.as_ref().map_or(0, |k| k.bytes());
        let utc = |t: NaiveDateTime| t - Duration::seconds(lpar.into());
        let record = utc(record);
        self.newest = Some(self.newest.map_or(record, |n| n.max(record)));
        self.heap.push(Reverse(Held {
            key: (utc(p.ts), self.seq),
            end: p.end.map(utc),
            lpar,
            offset: p.offset,
            from: p.from,
            line_no: no,
            at,
            bytes,
            cells,
            layout,
        }));
    }

    /// The earliest row held, as an event, when it is old enough to go.
    /// Asked before every line read, so rows become events one at a time
    /// as they are taken (a clock settled on 2000 rows used to turn most of
    /// them into events at once: 80 MB of WQ events).
    pub(super) fn next_ready(&mut self) -> Option<Event> {
        while let Some(Reverse(top)) = self.heap.peek() {
            let ready = self.held_bytes > self.budget
                || self.newest.is_some_and(|n| top.key.0 + HORIZON < n);
            if !ready {
                return None;
            }
            if let Some(e) = self.next_held() {
                return Some(e);
            }
        }
        None
    }

    /// The earliest row held, as an event. At the end of the input rows are
    /// built one at a time, so memory holds raw rows, not events.
    pub(super) fn next_held(&mut self) -> Option<Event> {
        while let Some(Reverse(h)) = self.heap.pop() {
            self.held_bytes -=
                h.bytes.len() + HELD_OVERHEAD + h.cells.as_ref().map_or(0, |k| k.bytes());
            if let Some(e) = self.event(h) {
                return Some(e);
            }
        }
        None
    }

    /// No more lines: decide the clock if still open.
    pub(super) fn end_of_input(&mut self) {
        self.eof = true;
        if !self.settled {
            self.settle();
        }
    }

    pub(super) fn event(&mut self, h: Held) -> Option<Event> {
        let off = FixedOffset::east_opt(h.lpar)?;
        let (text, attrs) = if self.bare {
            // Only counted and timed: the row fitted when it was read.
            (String::new(), Attrs::default())
        } else {
            let mut f = std::mem::take(&mut self.fields);
            let no_attrs = self.no_attrs;
            let built = refit(&h.layout, &h.bytes, h.cells.as_ref(), &mut f).then(|| {
                let row = Row::new(&h.layout, &h.bytes, &f);
                if no_attrs {
                    // The derived attributes come with the text; dropped.
                    return (derive::derive(&row, None), Attrs::default());
                }
                let n = h.layout.kept() + derive::MAX_DERIVED + 2;
                let mut attrs = Attrs::spare(n, h.bytes.len().min(n * 24));
                cells(&row, &mut attrs);
                let text = derive::derive(&row, Some(&mut attrs));
                attrs.push_key(Key::TsFrom, h.from);
                if let Some(o) = h.offset {
                    attrs.push_key(Key::ClockOffsetS, &o.to_string());
                }
                (text, attrs)
            });
            self.fields = f;
            built?
        };
        let at = |t: NaiveDateTime| off.from_utc_datetime(&t);
        let ts = at(h.key.0);
        let mut e = Event::new(ts, self.origin.clone(), h.line_no, Kind::SmfRecord, text);
        e.offset = h.at;
        e.end = h.end.map(at);
        e.attrs = attrs;
        self.info.saw_event(&ts);
        Some(e)
    }
}

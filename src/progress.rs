//! The progress line on standard error while inputs are read (drawn by
//! indicatif, fed from the `Meter` here): files done,
//! bytes done, MB/s and the time left, redrawn in place every 200 ms and
//! cleared when reading ends. Before that, while inputs are looked for, it
//! shows how much archive content has been unpacked (a large `.tar.gz`
//! takes a while). Shown only when standard error is a terminal
//! and `--quiet` is absent (`InputArgs::open` decides).
//!
//! Counting: every reader that `Input::open()` returns is wrapped in a
//! counter (sniffing uses `Input::head()` and is not counted). When a source
//! finishes, each of its files is done: whatever of it was not read (a
//! format that only looks at the head, a file cut short by an error) is
//! credited then, so the line ends at 100 %.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use mqdiag_model::event::Event;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_readers::input::Input;
use mqdiag_readers::source::Source;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the line is redrawn.
pub const INTERVAL: Duration = Duration::from_millis(200);

pub use mqdiag_model::meter::{Counting, Meter, Snapshot};

fn mb(n: u64) -> String {
    let v = n as f64 / 1e6;
    if v >= 1000.0 {
        format!("{:.1} GB", v / 1000.0)
    } else if v >= 10.0 {
        format!("{v:.0} MB")
    } else {
        format!("{v:.1} MB")
    }
}

fn clock(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// The progress line for a snapshot taken `elapsed` after the start.
pub fn render(s: &Snapshot, elapsed: Duration) -> String {
    if !s.reading {
        return if s.bytes == 0 {
            "mqdiag: looking for inputs".to_string()
        } else {
            let secs = elapsed.as_secs_f64().max(1e-3);
            format!(
                "mqdiag: looking for inputs, {} unpacked from archives, {:.1} MB/s",
                mb(s.bytes),
                s.bytes as f64 / secs / 1e6
            )
        };
    }
    let bytes = s.bytes.min(s.total_bytes);
    let pct = (bytes * 100).checked_div(s.total_bytes).unwrap_or(100);
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { bytes as f64 / secs } else { 0.0 };
    let eta = if bytes >= s.total_bytes {
        "0:00".to_string()
    } else if rate > 0.0 {
        clock(((s.total_bytes - bytes) as f64 / rate).ceil() as u64)
    } else {
        "--:--".to_string()
    };
    // Most telling first: a narrow terminal cuts the end of the line, so
    // rate and time left come before the counts (40 columns keep them).
    let open = if s.open > 0 {
        format!(" ({} open)", s.open)
    } else {
        String::new()
    };
    format!(
        "mqdiag: {pct}%, {:.1} MB/s, ETA {eta}, {}/{} files{open}, {} of {}",
        rate / 1e6,
        s.files.min(s.total_files),
        s.total_files,
        mb(bytes),
        mb(s.total_bytes),
    )
}

/// How often indicatif may redraw the terminal (per second).
const DRAW_HZ: u8 = 5;

/// The drawing thread and the way to stop it.
struct Display {
    stop: mpsc::Sender<()>,
    thread: JoinHandle<()>,
}

/// A progress line for one run. Stops (and clears its line) when every
/// tracked source has finished, or when the last reference is dropped,
/// whichever comes first: on error and panic paths too.
pub struct Progress {
    meter: Arc<Meter>,
    pending: AtomicUsize,
    display: Mutex<Option<Display>>,
}

impl Progress {
    /// Draw the line on standard error, from the looking-for-inputs phase.
    pub fn begin() -> Arc<Progress> {
        Progress::begin_on(ProgressDrawTarget::stderr_with_hz(DRAW_HZ), INTERVAL)
    }

    /// Count the inputs' reads and draw the line on standard error.
    pub fn start(inputs: &mut [Input]) -> Arc<Progress> {
        let p = Progress::begin();
        p.reading(inputs);
        p
    }

    /// As `begin`, drawing on `term` every `every`.
    pub fn begin_with(term: Box<dyn TermLike>, every: Duration) -> Arc<Progress> {
        Progress::begin_on(ProgressDrawTarget::term_like_with_hz(term, 50), every)
    }

    /// indicatif draws the line: cut to the terminal's width (a line that
    /// wraps cannot be redrawn in place), redrawn in place, cleared at the
    /// end. The thread here only feeds it the counters.
    fn begin_on(target: ProgressDrawTarget, every: Duration) -> Arc<Progress> {
        let meter = Arc::new(Meter::new());
        let (tx, rx) = mpsc::channel::<()>();
        let m = meter.clone();
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(ProgressStyle::with_template("{wide_msg}").expect("a valid template"));
        let thread = std::thread::spawn(move || {
            loop {
                bar.set_message(render(&m.snapshot(), m.phase_elapsed()));
                if !matches!(rx.recv_timeout(every), Err(RecvTimeoutError::Timeout)) {
                    break;
                }
            }
            bar.finish_and_clear();
        });
        Arc::new(Progress {
            meter,
            pending: AtomicUsize::new(usize::MAX),
            display: Mutex::new(Some(Display { stop: tx, thread })),
        })
    }

    /// Enter the reading phase: the inputs' reads are counted from now on.
    pub fn reading(&self, inputs: &mut [Input]) {
        let total: u64 = inputs.iter().map(|i| i.bytes).sum();
        for i in inputs.iter_mut() {
            i.progress = Some(self.meter.clone());
        }
        self.meter.start_reading(inputs.len() as u64, total);
    }

    pub fn meter(&self) -> &Arc<Meter> {
        &self.meter
    }

    /// Wrap the sources so that their files count as done when they finish;
    /// the line stops when the last one has.
    pub fn track(self: &Arc<Self>, sources: Vec<Box<dyn Source>>) -> Vec<Box<dyn Source>> {
        self.pending.store(sources.len(), Ordering::SeqCst);
        if sources.is_empty() {
            self.stop();
        }
        sources
            .into_iter()
            .map(|s| {
                Box::new(Tracked {
                    inner: s,
                    progress: self.clone(),
                }) as Box<dyn Source>
            })
            .collect()
    }

    /// Clear the line and stop drawing; waits for the drawing thread, so
    /// that nothing is drawn over what is written next. Idempotent.
    pub fn stop(&self) {
        let d = self
            .display
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(d) = d {
            drop(d.stop);
            let _ = d.thread.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

struct Tracked {
    inner: Box<dyn Source>,
    progress: Arc<Progress>,
}

impl Source for Tracked {
    fn next_event(&mut self) -> Option<Event> {
        self.inner.next_event()
    }

    fn next_rows(
        &mut self,
        sink: &mut mqdiag_model::sink::RowSink,
        out: &mut Vec<u8>,
        n: usize,
        limit: usize,
        row: &mut dyn FnMut(mqdiag_model::sink::RowMeta, usize, usize),
    ) -> bool {
        self.inner.next_rows(sink, out, n, limit, row)
    }

    fn current_origin(&self) -> Option<Arc<mqdiag_model::event::Origin>> {
        self.inner.current_origin()
    }

    fn finish(self: Box<Self>) -> Vec<FileInfo> {
        let Tracked { inner, progress } = *self;
        let infos = inner.finish();
        progress.meter.finished(&infos);
        if progress.pending.fetch_sub(1, Ordering::SeqCst) == 1 {
            progress.stop();
        }
        infos
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mqdiag_model::event::Format;
    use mqdiag_readers::formats::Done;
    use std::io::{self, Read};

    #[test]
    fn renders_counts_rate_and_eta() {
        let s = Snapshot {
            reading: true,
            files: 3,
            open: 0,
            total_files: 10,
            bytes: 250_000_000,
            total_bytes: 1_000_000_000,
        };
        assert_eq!(
            render(&s, Duration::from_secs(5)),
            "mqdiag: 25%, 50.0 MB/s, ETA 0:15, 3/10 files, 250 MB of 1.0 GB"
        );
        // Files read side by side: how many are open says the run moves.
        let s = Snapshot { open: 6, ..s };
        assert_eq!(
            render(&s, Duration::from_secs(5)),
            "mqdiag: 25%, 50.0 MB/s, ETA 0:15, 3/10 files (6 open), 250 MB of 1.0 GB"
        );
        let s = Snapshot {
            reading: true,
            files: 0,
            open: 0,
            total_files: 1,
            bytes: 0,
            total_bytes: 5_000_000,
        };
        assert_eq!(
            render(&s, Duration::ZERO),
            "mqdiag: 0%, 0.0 MB/s, ETA --:--, 0/1 files, 0.0 MB of 5.0 MB"
        );
        assert_eq!(clock(3725), "1:02:05");
        let s = Snapshot {
            reading: false,
            files: 0,
            open: 0,
            total_files: 0,
            bytes: 0,
            total_bytes: 0,
        };
        assert_eq!(
            render(&s, Duration::from_secs(1)),
            "mqdiag: looking for inputs"
        );
        let s = Snapshot {
            bytes: 300_000_000,
            ..s
        };
        assert_eq!(
            render(&s, Duration::from_secs(2)),
            "mqdiag: looking for inputs, 300 MB unpacked from archives, 150.0 MB/s"
        );
    }

    /// A terminal `width` columns wide that records what is drawn: each
    /// entry is one operation, lines written are checked against the width.
    #[derive(Debug, Clone)]
    struct Screen {
        width: u16,
        ops: Arc<Mutex<Vec<String>>>,
    }

    impl Screen {
        fn new(width: u16) -> Screen {
            Screen {
                width,
                ops: Arc::default(),
            }
        }
        fn ops(&self) -> Vec<String> {
            self.ops.lock().unwrap().clone()
        }
        fn push(&self, op: String) -> io::Result<()> {
            self.ops.lock().unwrap().push(op);
            Ok(())
        }
    }

    impl TermLike for Screen {
        fn width(&self) -> u16 {
            self.width
        }
        fn move_cursor_up(&self, n: usize) -> io::Result<()> {
            self.push(format!("up {n}"))
        }
        fn move_cursor_down(&self, n: usize) -> io::Result<()> {
            self.push(format!("down {n}"))
        }
        fn move_cursor_right(&self, n: usize) -> io::Result<()> {
            self.push(format!("right {n}"))
        }
        fn move_cursor_left(&self, n: usize) -> io::Result<()> {
            self.push(format!("left {n}"))
        }
        fn write_line(&self, s: &str) -> io::Result<()> {
            self.push(format!("line {s}"))
        }
        fn write_str(&self, s: &str) -> io::Result<()> {
            self.push(format!("str {s}"))
        }
        fn clear_line(&self) -> io::Result<()> {
            self.push("clear".into())
        }
        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    /// The text drawn, one entry per write.
    fn drawn(ops: &[String]) -> Vec<&str> {
        ops.iter()
            .filter_map(|o| o.strip_prefix("str ").or_else(|| o.strip_prefix("line ")))
            .filter(|t| !t.is_empty())
            .collect()
    }

    #[test]
    fn counts_reads_not_sniffs_and_credits_unread_bytes_at_finish() {
        let mut inputs = vec![
            Input::from_bytes("a", b"0123456789".to_vec()),
            Input::from_bytes("b", b"abcdef".to_vec()),
        ];
        let screen = Screen::new(200);
        let p = Progress::begin_with(Box::new(screen.clone()), Duration::from_millis(5));
        p.meter().unpacked(1000);
        p.reading(&mut inputs);
        assert_eq!(inputs[0].head(4).unwrap(), b"0123");
        assert_eq!(p.meter().snapshot().bytes, 0, "sniffing is not counted");
        let mut r = inputs[0].open().unwrap();
        let mut buf = [0u8; 4];
        r.read_exact(&mut buf).unwrap();
        assert_eq!(p.meter().snapshot().bytes, 4);
        drop(r);
        // b read to its end counts as a done file at once.
        let mut rb = inputs[1].open().unwrap();
        std::io::copy(&mut rb, &mut std::io::sink()).unwrap();
        assert_eq!(p.meter().snapshot().files, 1);
        drop(rb);
        let sources = p.track(vec![
            Box::new(Done(vec![FileInfo::new(
                "a",
                mqdiag_readers::formats::trace::FORMAT,
                10,
            )])),
            Box::new(Done(vec![FileInfo::new("b", Format::UNKNOWN, 6)])),
        ]);
        // Let the line be drawn at least once.
        std::thread::sleep(Duration::from_millis(80));
        let ops = screen.ops();
        assert!(
            drawn(&ops)
                .iter()
                .any(|l| l.contains("1/2 files (1 open), 0.0 MB of 0.0 MB")),
            "{ops:?}"
        );
        let mut infos = Vec::new();
        for s in sources {
            infos.extend(s.finish());
        }
        // Read 4 of a, 6 of b, then 6 of a credited: 16 in all; b is not
        // counted twice.
        let snap = p.meter().snapshot();
        assert_eq!((snap.files, snap.bytes), (2, 16));
        assert_eq!(infos.len(), 2);
        // Finishing the last source stopped the thread and cleared the line.
        let ops = screen.ops();
        let last = ops.iter().rev().find(|o| !o.starts_with("up ")); // moves of 0
        assert_eq!(last.map(String::as_str), Some("clear"), "{ops:?}");
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(screen.ops().len(), ops.len(), "nothing drawn after stop");
    }

    #[test]
    fn open_files_are_counted_and_files_that_are_not_work_leave_the_totals() {
        let mut inputs = vec![
            Input::from_bytes("a", b"0123456789".to_vec()),
            Input::from_bytes("b", b"abcdef".to_vec()),
            Input::from_bytes("done", b"".to_vec()),
        ];
        let p = Progress::begin_with(Box::new(Screen::new(200)), Duration::from_millis(5));
        p.reading(&mut inputs);
        // A marker file no reader knows is not work.
        let m = p.meter();
        m.not_work(&inputs[2].display, 0);
        m.not_work(&inputs[2].display, 0);
        assert_eq!(m.snapshot().total_files, 2);
        let mut a = inputs[0].open().unwrap();
        let mut b = inputs[1].open().unwrap();
        let mut buf = [0u8; 2];
        a.read_exact(&mut buf).unwrap();
        b.read_exact(&mut buf).unwrap();
        assert_eq!((m.snapshot().open, m.snapshot().files), (2, 0));
        std::io::copy(&mut b, &mut std::io::sink()).unwrap();
        assert_eq!((m.snapshot().open, m.snapshot().files), (1, 1));
        drop((a, b));
        let sources = p.track(vec![
            Box::new(Done(vec![FileInfo::new("a", Format::UNKNOWN, 10)])),
            Box::new(Done(vec![FileInfo::new("b", Format::UNKNOWN, 6)])),
            Box::new(Done(vec![FileInfo::new("done", Format::UNKNOWN, 0)])),
        ]);
        for s in sources {
            s.finish();
        }
        let snap = m.snapshot();
        assert_eq!((snap.files, snap.total_files), (2, 2));
        assert_eq!((snap.bytes, snap.total_bytes), (16, 16));
    }

    #[test]
    fn the_line_fits_a_narrow_terminal() {
        let screen = Screen::new(40);
        let mut inputs = vec![Input::from_bytes("a", vec![b'x'; 1000])];
        let p = Progress::begin_with(Box::new(screen.clone()), Duration::from_millis(5));
        p.reading(&mut inputs);
        // Wait (on a busy machine) until the reading line was drawn.
        let reading = |ops: &[String]| {
            drawn(ops)
                .iter()
                .any(|l| l.starts_with("mqdiag: 0%, 0.0 MB/s, ETA"))
        };
        for _ in 0..400 {
            if reading(&screen.ops()) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(p);
        let ops = screen.ops();
        assert!(reading(&ops), "{ops:?}");
        for l in drawn(&ops) {
            assert!(l.chars().count() <= 40, "{l:?} is wider than 40");
        }
        // Every redraw replaces the line in place: never a new line.
        assert!(
            !ops.iter().any(|o| o.starts_with("line ") && o.len() > 5),
            "{ops:?}"
        );
    }

    #[test]
    fn dropping_everything_stops_the_line() {
        let screen = Screen::new(80);
        let p = Progress::begin_with(Box::new(screen.clone()), Duration::from_millis(5));
        std::thread::sleep(Duration::from_millis(30));
        drop(p);
        let n = screen.ops().len();
        assert!(n > 0);
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(screen.ops().len(), n);
    }
}

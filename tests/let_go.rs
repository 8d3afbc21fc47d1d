//! `app::let_go`: what a verb is done with is left to the exit only when
//! `main.rs` said the process ends after the verb (its own test binary:
//! the flag is process-wide).

use std::sync::atomic::{AtomicUsize, Ordering};

static DROPPED: AtomicUsize = AtomicUsize::new(0);

struct Counted;

impl Drop for Counted {
    fn drop(&mut self) {
        DROPPED.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn dropped_unless_the_process_ends_next() {
    mqdiag::app::let_go(Counted);
    assert_eq!(DROPPED.load(Ordering::SeqCst), 1, "dropped by default");
    mqdiag::app::process_ends_after_verb();
    mqdiag::app::let_go(Counted);
    assert_eq!(DROPPED.load(Ordering::SeqCst), 1, "left to the exit");
}

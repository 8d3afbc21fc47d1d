//! What several passes share: per-thread keys, look-up keys of names,
//! ordering by key, durations.

use mqdiag_model::event::Event;
use std::sync::Arc;

/// Per-thread state key: the file (so two traces of one PID stay apart),
/// PID and TID.
pub(crate) type ThreadKey = (Arc<str>, u32, u32);

pub(crate) fn thread_key(e: &Event) -> Option<ThreadKey> {
    Some((e.origin.path.clone(), e.pid?, e.tid?))
}

/// A look-up key of several names in `buf`: each part after its length
/// (`3:QM17:APP.SVR`), so no two lists of parts share a key whatever bytes
/// the names hold. Built into a reused buffer: a group that exists is
/// found without allocating.
pub(crate) fn parts_key(buf: &mut String, parts: &[&str]) {
    buf.clear();
    let mut n = itoa::Buffer::new();
    for p in parts {
        buf.push_str(n.format(p.len()));
        buf.push(':');
        buf.push_str(p);
    }
}

/// `v` in the order of its keys (equal keys in their order in `v`), each
/// pair moved twice: the values are groups and rows of a few hundred
/// bytes, and sorting by moving them was most of a pass's `finish` (which
/// runs after all reading, on one core).
pub(crate) fn by_key<K: Ord, V>(v: Vec<(K, V)>) -> Vec<(K, V)> {
    let mut order: Vec<usize> = (0..v.len()).collect();
    order.sort_by(|&a, &b| v[a].0.cmp(&v[b].0));
    let mut slots: Vec<Option<(K, V)>> = v.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

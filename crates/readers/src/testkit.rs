//! What the readers' unit tests share: a reader run over bytes as the
//! program runs it, and everything it gave back.

use crate::formats::Reader;
use crate::input::Input;
use crate::source::{ReadOptions, Source};
use mqdiag_model::event::Event;
use mqdiag_model::fileinfo::FileInfo;

/// Every event of `src` in the order it gave them, then its files' rows.
pub(crate) fn drain(mut src: Box<dyn Source>) -> (Vec<Event>, Vec<FileInfo>) {
    let mut events = Vec::new();
    while let Some(e) = src.next_event() {
        events.push(e);
    }
    (events, src.finish())
}

/// `reader` over one file called `name` holding `bytes`, read alone
/// (nothing prepared): its events and its row.
pub(crate) fn read(
    reader: &dyn Reader,
    name: &str,
    bytes: impl AsRef<[u8]>,
    opts: &ReadOptions,
) -> (Vec<Event>, Vec<FileInfo>) {
    let input = Input::from_bytes(name, bytes.as_ref());
    read_inputs(reader, vec![input], opts)
}

/// `reader` over `inputs` as one source (a group, in this order), read
/// alone (nothing prepared).
pub(crate) fn read_inputs(
    reader: &dyn Reader,
    inputs: Vec<Input>,
    opts: &ReadOptions,
) -> (Vec<Event>, Vec<FileInfo>) {
    drain(reader.open(inputs, opts))
}

//! Answers about traced function names, remembered by the name's
//! allocation. Readers share one `Arc<str>` per distinct function name,
//! and several rules ask the same question (its verb, its family) of
//! every entry and exit: a remembered answer costs a pointer comparison
//! instead of a hash or a string search.

use std::sync::Arc;

/// Slots of the direct-mapped memo: more than the names a trace's busy
/// threads cycle through between two calls of one rule.
const SLOTS: usize = 64;

/// A direct-mapped memo keyed by the name's allocation. Each slot keeps a
/// clone of its name, so the allocation cannot be freed and reused by
/// another name while its answer is remembered; a name that is not the
/// shared one (equal text, other allocation) is compared by text.
pub(crate) struct NameMemo<T: Copy> {
    slots: Vec<Option<(Arc<str>, T)>>,
}

impl<T: Copy> Default for NameMemo<T> {
    fn default() -> Self {
        NameMemo { slots: Vec::new() }
    }
}

impl<T: Copy> std::fmt::Debug for NameMemo<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.slots.iter().filter(|s| s.is_some()).count();
        write!(f, "NameMemo({kept} names)")
    }
}

impl<T: Copy> NameMemo<T> {
    /// `answer(name)`, remembered.
    pub(crate) fn get(&mut self, name: &Arc<str>, answer: impl FnOnce(&str) -> T) -> T {
        if self.slots.is_empty() {
            self.slots = vec![None; SLOTS];
        }
        // Allocations are at least 8-byte aligned: the low bits say nothing.
        let slot = (Arc::as_ptr(name) as *const u8 as usize >> 3) % SLOTS;
        if let Some((k, v)) = &self.slots[slot]
            && (Arc::ptr_eq(k, name) || **k == **name)
        {
            return *v;
        }
        let v = answer(name);
        self.slots[slot] = Some((name.clone(), v));
        v
    }
}

/// A number for each distinct name, in the order first asked: rules
/// keep these in per-thread state rather than the readers' shared `Arc`s,
/// whose counts a reader's thread updates for every event (a clone or a
/// drop on the rules' thread moved that line between cores). Callers ask
/// only of names from a bounded set (verbs under a few prefixes).
#[derive(Debug, Default)]
pub(crate) struct NameIds(std::collections::HashMap<Box<str>, u32>);

impl NameIds {
    /// The number of `name`, given it if new.
    pub(crate) fn of(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.0.get(name) {
            return i;
        }
        let i = self.0.len() as u32;
        self.0.insert(name.into(), i);
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn an_answer_is_asked_once_per_name_and_never_given_to_another() {
        let mut m: NameMemo<usize> = NameMemo::default();
        let asked = Cell::new(0);
        // The number in the name: no two names share an answer.
        let number = |s: &str| {
            asked.set(asked.get() + 1);
            s[1..].parse::<usize>().unwrap()
        };
        let names: Vec<Arc<str>> = (0..200).map(|i| Arc::from(format!("f{i}"))).collect();
        for (i, n) in names.iter().enumerate() {
            assert_eq!(m.get(n, number), i);
        }
        assert_eq!(asked.get(), 200);
        // The same allocation again: remembered.
        for _ in 0..3 {
            assert_eq!(m.get(&names[199], number), 199);
        }
        assert_eq!(asked.get(), 200);
        // Every name still gets its own answer, whatever shares its slot.
        for (i, n) in names.iter().enumerate().rev() {
            assert_eq!(m.get(n, number), i);
        }
    }

    #[test]
    fn names_are_numbered_in_the_order_first_asked() {
        let mut ids = NameIds::default();
        assert_eq!(
            ["MQPUT", "MQGET", "MQPUT", "zstMQGET", "MQGET"].map(|n| ids.of(n)),
            [0, 1, 0, 2, 1]
        );
    }

    #[test]
    fn a_freed_name_cannot_lend_its_answer_to_a_new_one() {
        let mut m: NameMemo<u8> = NameMemo::default();
        for i in 0..10_000u32 {
            // A fresh allocation each time, often at a freed one's address.
            let n: Arc<str> = Arc::from(format!("{}", i % 7));
            let want = (i % 7) as u8;
            assert_eq!(m.get(&n, |s| s.parse().unwrap()), want);
        }
    }
}

//! "Did you mean" for a mistyped verb. `mqdiag PATH` is `mqdiag analyze
//! PATH`, so without this `mqdiag analyse x` would read `analyse` as a
//! missing input path and report that instead of the typo.

/// Levenshtein distance between two short words (verbs), by characters.
pub fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The verb `word` is probably a typo of, if any: `analyse` (British
/// spelling) or a verb at most two edits away. A word that is a verb, or
/// that names an existing path, is no typo.
pub fn verb_typo<'v>(word: &str, verbs: &[&'v str], exists: bool) -> Option<&'v str> {
    if exists || word.starts_with('-') || verbs.contains(&word) {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    if lower == "analyse" && verbs.contains(&"analyze") {
        return Some("analyze");
    }
    verbs
        .iter()
        .map(|v| (distance(&lower, v), *v))
        // Two edits on a two-letter word is any word: keep the edits
        // under half the word.
        .filter(|(d, _)| *d <= 2 && d * 2 < lower.chars().count())
        .min_by_key(|(d, _)| *d)
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERBS: &[&str] = &["analyze", "timeline", "inventory", "rules", "man"];

    #[test]
    fn distances() {
        assert_eq!(distance("analyse", "analyze"), 1);
        assert_eq!(distance("inventroy", "inventory"), 2);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("rules", "rules"), 0);
    }

    #[test]
    fn typos_and_non_typos() {
        assert_eq!(verb_typo("analyse", VERBS, false), Some("analyze"));
        assert_eq!(verb_typo("inventroy", VERBS, false), Some("inventory"));
        assert_eq!(verb_typo("timelin", VERBS, false), Some("timeline"));
        // An existing file or directory is input, whatever its name.
        assert_eq!(verb_typo("analyse", VERBS, true), None);
        assert_eq!(verb_typo("rules", VERBS, false), None);
        assert_eq!(verb_typo("--format", VERBS, false), None);
        assert_eq!(verb_typo("traces/AMQ1234.FMT", VERBS, false), None);
        assert_eq!(verb_typo("ma", VERBS, false), None);
        assert_eq!(verb_typo("x", VERBS, false), None);
    }
}

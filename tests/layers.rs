//! The library's top-level modules import one another one way only: a cycle
//! among them fails this test, naming the modules on it.
//!
//! The graph is read from the source text: every `crate::X` in non-test code
//! of `src/` is an edge from the file's top-level module to `X` (a directory
//! module such as `formats` or `passes` is one node). Test code is skipped:
//! `tests.rs` files and the item after each `#[cfg(test)]`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The source without test items and comments, line by line.
fn non_test_code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let code = line.split("//").next().unwrap_or("");
        if code.trim() != "#[cfg(test)]" {
            out.push_str(code);
            out.push('\n');
            continue;
        }
        // Skip the item the attribute applies to: one line ending in `;`, or
        // everything up to where its braces close again.
        let mut depth = 0i64;
        let mut opened = false;
        for l in lines.by_ref() {
            let c = l.split("//").next().unwrap_or("");
            if c.trim().starts_with("#[") && !opened {
                continue;
            }
            depth += c.matches('{').count() as i64 - c.matches('}').count() as i64;
            opened |= c.contains('{');
            if (opened && depth <= 0) || (!opened && c.trim_end().ends_with(';')) {
                break;
            }
        }
    }
    out
}

/// The top-level modules that `code` names through `crate::`.
fn crate_refs(code: &str) -> BTreeSet<String> {
    let mut refs = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // e.g. `mycrate::`
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a::B, c};`: each name at the group's top level.
            let mut depth = 0;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        let name: String = group[j..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        refs.insert(name);
                        start = false;
                    }
                    _ => {}
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            refs.insert(name);
        }
    }
    refs
}

fn scan(dir: &Path, root: &Path, graph: &mut Graph) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src dir")
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scan(&p, root, graph);
            continue;
        }
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".rs") || name == "tests.rs" {
            continue;
        }
        let rel = p.strip_prefix(root).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        // The crate root and the binary only declare and call modules.
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("read source");
        let node = graph.entry(top.clone()).or_default();
        for r in crate_refs(&non_test_code(&text)) {
            if r != top {
                node.insert(r);
            }
        }
    }
}

/// One cycle of the graph, first module repeated at the end, if it has one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        n: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        marks.insert(n.to_string(), Mark::Open);
        path.push(n.to_string());
        for m in graph.get(n).into_iter().flatten() {
            match marks.get(m).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = path.iter().position(|p| p == m).unwrap();
                    let mut cycle = path[from..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(m, graph, marks, path) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        path.pop();
        marks.insert(n.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for n in graph.keys() {
        if marks.get(n).copied().unwrap_or(Mark::New) == Mark::New
            && let Some(c) = visit(n, graph, &mut marks, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

#[test]
fn top_level_modules_have_no_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph = Graph::new();
    scan(&src, &src, &mut graph);
    // `crate::name!` macros live at the crate root: only modules are nodes.
    let nodes: BTreeSet<String> = graph.keys().cloned().collect();
    for refs in graph.values_mut() {
        refs.retain(|r| nodes.contains(r));
    }
    assert!(graph.contains_key("formats") && graph.contains_key("event"));
    if let Some(cycle) = find_cycle(&graph) {
        let edges: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("  {} -> {}", w[0], w[1]))
            .collect();
        panic!(
            "import cycle among top-level modules:\n{}\nfull graph: {graph:#?}",
            edges.join("\n")
        );
    }
}

/// Beyond having no cycle: the model imports nothing of ours, and nothing
/// imports the command line (it only parses arguments and calls the rest).
#[test]
fn model_at_the_bottom_command_line_at_the_top() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph = Graph::new();
    scan(&src, &src, &mut graph);
    let nodes: BTreeSet<String> = graph.keys().cloned().collect();
    let event: Vec<_> = graph["event"].intersection(&nodes).collect();
    assert!(event.is_empty(), "event imports {event:?}");
    let users: Vec<_> = graph
        .iter()
        .filter(|(_, refs)| refs.contains("cli"))
        .map(|(n, _)| n)
        .collect();
    assert!(users.is_empty(), "cli is imported by {users:?}");
}

fn graph(edges: &[(&str, &str)]) -> Graph {
    let mut g = Graph::new();
    for (a, b) in edges {
        g.entry(a.to_string()).or_default().insert(b.to_string());
        g.entry(b.to_string()).or_default();
    }
    g
}

#[test]
fn checker_finds_a_cycle_and_accepts_a_dag() {
    let dag = graph(&[
        ("report", "event"),
        ("passes", "event"),
        ("report", "passes"),
    ]);
    assert_eq!(find_cycle(&dag), None);
    let cyc = graph(&[
        ("report", "passes"),
        ("passes", "event"),
        ("event", "input"),
        ("input", "passes"),
    ]);
    assert_eq!(
        find_cycle(&cyc).unwrap(),
        ["event", "input", "passes", "event"]
    );
}

#[test]
fn checker_reads_imports_but_not_test_code_or_comments() {
    let text = "use crate::event::Event;\n\
                use crate::{rows::{A, B}, sink};\n\
                // crate::report is only mentioned\n\
                fn f() { crate::timefmt::x(); }\n\
                #[cfg(test)]\n\
                mod tests {\n    use crate::cli;\n    fn g() {\n    }\n}\n\
                #[cfg(test)]\n\
                use crate::analyze;\n\
                use crate::passes;\n";
    let refs = crate_refs(&non_test_code(text));
    let want: BTreeSet<String> = ["event", "rows", "sink", "timefmt", "passes"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(refs, want);
}

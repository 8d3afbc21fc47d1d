//! The crates of the workspace are the layers of docs/architecture.md, and
//! Cargo refuses an import that points up: a crate can only name the
//! crates it depends on. This test holds the declared dependencies to the
//! order, so a new edge upwards (or a cycle, which Cargo refuses anyway)
//! cannot be added by editing a `Cargo.toml`, and it keeps clap out of the
//! libraries: only the binary parses a command line.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// The layers, bottom first. Each crate may depend on those before it.
const ORDER: &[&str] = &[
    "mqdiag-model",
    "mqdiag-readers",
    "mqdiag-analysis",
    "mqdiag-report",
    "mqdiag",
];

/// Crate name → (dependencies among the workspace's crates, every
/// dependency's name), normal and dev dependencies alike.
type Graph = BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>;

fn workspace_graph() -> Graph {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let members: BTreeSet<String> = v["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| p["name"].as_str().expect("name").to_string())
        .collect();
    let mut graph = Graph::new();
    for p in v["packages"].as_array().expect("packages") {
        let deps: BTreeSet<String> = p["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .map(|d| d["name"].as_str().expect("name").to_string())
            .collect();
        let ours = deps.intersection(&members).cloned().collect();
        graph.insert(p["name"].as_str().expect("name").to_string(), (ours, deps));
    }
    graph
}

/// What is wrong with the graph, one line per fault; empty when it follows
/// `order`.
fn faults(graph: &Graph, order: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for name in graph.keys() {
        if !order.contains(&name.as_str()) {
            out.push(format!("{name} has no place in the layer order"));
        }
    }
    for (i, name) in order.iter().enumerate() {
        let Some((ours, all)) = graph.get(*name) else {
            out.push(format!("{name} is not a workspace crate"));
            continue;
        };
        for d in ours {
            let at = order.iter().position(|o| o == d);
            if at.is_none_or(|j| j >= i) {
                out.push(format!("{name} depends on {d}, which is not below it"));
            }
        }
        let library = i + 1 < order.len();
        if library && all.iter().any(|d| d.starts_with("clap")) {
            out.push(format!("library {name} depends on clap"));
        }
    }
    out
}

#[test]
fn crates_depend_only_on_the_layers_below() {
    let graph = workspace_graph();
    let f = faults(&graph, ORDER);
    assert!(f.is_empty(), "{}\ngraph: {graph:#?}", f.join("\n"));
    // The binary sits on all of them.
    let top = &graph["mqdiag"].0;
    for lib in &ORDER[..ORDER.len() - 1] {
        assert!(top.contains(*lib), "mqdiag does not use {lib}");
    }
}

fn node(ours: &[&str], all: &[&str]) -> (BTreeSet<String>, BTreeSet<String>) {
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    let mut all: BTreeSet<String> = s(all);
    all.extend(s(ours));
    (s(ours), all)
}

#[test]
fn checker_refuses_upward_edges_clap_in_libraries_and_unplaced_crates() {
    let order = ["m", "r", "a", "bin"];
    let mut g = Graph::new();
    g.insert("m".into(), node(&[], &["chrono"]));
    g.insert("r".into(), node(&["m"], &[]));
    g.insert("a".into(), node(&["m", "r"], &[]));
    g.insert("bin".into(), node(&["a", "r", "m"], &["clap"]));
    assert_eq!(faults(&g, &order), Vec::<String>::new());

    let mut up = g.clone();
    up.insert("r".into(), node(&["m", "a"], &[]));
    assert_eq!(
        faults(&up, &order),
        ["r depends on a, which is not below it"]
    );

    let mut own = g.clone();
    own.insert("m".into(), node(&["m"], &[]));
    assert_eq!(
        faults(&own, &order),
        ["m depends on m, which is not below it"]
    );

    let mut clap = g.clone();
    clap.insert("a".into(), node(&["m"], &["clap_complete"]));
    assert_eq!(faults(&clap, &order), ["library a depends on clap"]);

    let mut new = g.clone();
    new.insert("x".into(), node(&[], &[]));
    assert_eq!(faults(&new, &order), ["x has no place in the layer order"]);
}

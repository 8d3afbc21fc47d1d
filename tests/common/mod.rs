//! Helpers for the end-to-end tests: run the built binary from the crate
//! root (so fixture paths in the output are the relative paths given), read
//! what it wrote, make scratch directories.
//!
//! Every test binary compiles this module and uses a part of it: the
//! allowance below is for that, not for code no test uses (each helper here
//! is used by some test file).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Run `mqdiag` with these arguments from the crate root.
pub fn mqdiag(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_mqdiag"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run mqdiag");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// The standard output of a `mqdiag` run that must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let r = mqdiag(args);
    assert_eq!(r.code, 0, "mqdiag {args:?} failed: {}", r.stderr);
    r.stdout
}

/// JSON lines of a `timeline --format jsonl` run.
pub fn jsonl(s: &str) -> Vec<serde_json::Value> {
    s.lines()
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

/// A scratch directory removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let p = std::env::temp_dir().join(format!(
            "mqdiag-test-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("scratch dir");
        Scratch(p)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        std::fs::write(&p, bytes).expect("write");
        p
    }

    pub fn str(&self) -> String {
        self.0.to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Instants of RFC 3339 timestamps, for order checks.
pub fn instant(ts: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(ts)
        .expect("RFC 3339")
        .timestamp_nanos_opt()
        .expect("in range")
}

// Reports: `analyze --format json` and what its findings hold.

use serde_json::Value;

/// `analyze --format json` on these paths (plus extra args); exit 0 expected.
pub fn analyze_json(args: &[&str]) -> Value {
    let mut a = vec!["analyze", "--format", "json"];
    a.extend_from_slice(args);
    let r = mqdiag(&a);
    assert_eq!(r.code, 0, "exit code; stderr: {}", r.stderr);
    serde_json::from_str(&r.stdout).expect("JSON report")
}

pub fn findings<'a>(v: &'a Value, rule: &str) -> Vec<&'a Value> {
    v["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// `timeline --format jsonl` of `path` as rows; the run must succeed.
pub fn timeline_rows(path: &str) -> Vec<Value> {
    let r = mqdiag(&["timeline", path, "--format", "jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    jsonl(&r.stdout)
}

/// The inventory row of the one file `path`; the run must succeed.
pub fn inventory_row(path: &str) -> Value {
    let r = mqdiag(&["inventory", path, "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["files"][0].clone()
}

/// The one finding of `rule`; fails when there are none or several.
pub fn one<'a>(v: &'a Value, rule: &str) -> &'a Value {
    let f = findings(v, rule);
    assert_eq!(f.len(), 1, "expected one {rule} finding, got {f:#?}");
    f[0]
}

pub fn evidence_lines(f: &Value) -> Vec<u64> {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect()
}

/// A finding's metric `k`, whatever its type (`Null` when absent).
pub fn metric<'a>(f: &'a Value, k: &str) -> &'a Value {
    &f["metrics"][k]
}

/// A finding's string field `k`; fails when it is not a string.
pub fn field<'a>(f: &'a Value, k: &str) -> &'a str {
    f[k].as_str().unwrap_or_else(|| panic!("{k} in {f:#}"))
}

pub fn num(f: &Value, metric: &str) -> f64 {
    f["metrics"][metric]
        .as_f64()
        .unwrap_or_else(|| panic!("metric {metric} is not a number in {f:#}"))
}

// Reports of a run of every rule: what depends on the rules registered is
// checked against the registry, then written as a placeholder, so that a
// snapshot does not change when a rule that finds nothing is added.

use mqdiag_analysis::passes::RULES;

/// A report's `all N rules ran` line: N must be every registered rule
/// (`RULES`), said once; it is written `all [RULES.len()] rules ran`.
pub fn every_rule_ran(report: &str) -> String {
    let line = format!("all {} rules ran", RULES.len());
    assert_eq!(
        report.matches(&line).count(),
        1,
        "`{line}` once in:\n{report}"
    );
    report.replacen(&line, "all [RULES.len()] rules ran", 1)
}

/// A SARIF report of a run of every rule, with the rules apart: its
/// `driver.rules` must describe every registered rule in `RULES` order,
/// and each result's `ruleIndex` point at the result's rule. Returns the
/// report with both written as placeholders (and `every_rule_ran`), and
/// the rules' descriptors, for each rule's own snapshot.
pub fn sarif_rules_apart(sarif: &str) -> (String, Vec<Value>) {
    let mut v: Value = serde_json::from_str(sarif).expect("SARIF JSON");
    // The placeholders are written back as the binary writes JSON.
    assert_eq!(
        serde_json::to_string_pretty(&v).unwrap() + "\n",
        sarif,
        "the report reads back as written"
    );
    let run = &mut v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].take();
    let rules = rules.as_array().expect("driver.rules").clone();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let registered: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    assert_eq!(
        ids, registered,
        "driver.rules is every rule, in RULES order"
    );
    run["tool"]["driver"]["rules"] = "[every rule in RULES order: the rules_<id> snapshots]".into();
    for res in run["results"].as_array_mut().expect("results") {
        let id = res["ruleId"].as_str().expect("ruleId").to_string();
        let idx = res["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(ids[idx], id, "ruleIndex of a {id} result");
        res["ruleIndex"] = format!("[index of {id}]").into();
    }
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    (every_rule_ran(&text), rules)
}

// Hostile inputs: archives built at run time, and runs with bounds.

use std::io::Write;

/// A zip of these members, deflated.
pub fn zip_deflated(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (p, b) in files {
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        w.start_file(*p, o).expect("zip member");
        w.write_all(b).expect("zip write");
    }
    w.finish().expect("zip").into_inner()
}

/// A tar of these members (names taken as given, `../` and `/` included:
/// the header is filled in by hand, as the tar crate refuses such names).
pub fn tar_raw(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (p, data) in files {
        let mut h = tar::Header::new_old();
        let name = h.as_old_mut().name.as_mut();
        name[..p.len()].copy_from_slice(p.as_bytes());
        h.set_size(data.len() as u64);
        h.set_mode(0o644);
        h.set_mtime(1_463_310_000);
        h.set_entry_type(tar::EntryType::Regular);
        h.set_cksum();
        out.extend_from_slice(h.as_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    }
    out.resize(out.len() + 1024, 0);
    out
}

/// Every file under `dir`, as (path relative to `dir` with `/`, bytes),
/// sorted.
pub fn files_under(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy();
                out.push((rel.replace('\\', "/"), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Gzip of `data`.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).expect("gzip");
    e.finish().expect("gzip")
}

/// What a bounded run gave.
pub struct Bounded {
    pub code: i32,
    pub stderr: String,
    pub stdout_bytes: u64,
    /// The first 8 MiB of standard output (`MAX_REPORT` in hostile.rs).
    pub stdout_head: String,
    pub secs: f64,
    /// The child's peak resident memory (`VmHWM`) in KiB, as last seen
    /// while it ran (sampled every 20 ms: a run shorter than that may show
    /// none).
    pub peak_rss_kib: Option<u64>,
    /// The largest size seen of a deleted file the child held open in
    /// `dir` (its anonymous temporary file), sampled likewise.
    pub peak_spill: u64,
    /// CPU seconds (user and system, every thread) as last seen while it
    /// ran, sampled likewise.
    pub cpu_secs: f64,
}

/// CPU seconds a running process has used (Linux; None elsewhere).
fn cpu_time(pid: u32) -> Option<f64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name, which may hold spaces: state is field 3,
    // utime and stime fields 14 and 15, in ticks of 1/100 s.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// `VmHWM` of a running process, in KiB (Linux; None elsewhere).
fn vm_hwm(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let l = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    l.split_whitespace().nth(1)?.parse().ok()
}

/// Bytes in the deleted files under `dir` that `pid` holds open.
fn spilled(pid: u32, dir: &Path) -> u64 {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return 0;
    };
    fds.filter_map(|e| e.ok())
        .filter(|e| {
            std::fs::read_link(e.path())
                .is_ok_and(|t| t.starts_with(dir) && t.to_string_lossy().ends_with(" (deleted)"))
        })
        .filter_map(|e| std::fs::metadata(e.path()).ok())
        .map(|m| m.len())
        .sum()
}

/// CPU seconds a hostile case's run may use (issue 30: 10 s each), in an
/// optimised build; the debug build `cargo test` runs is 5-6 times slower
/// (4,096 traces to JSON lines: 1.7 s against 9.7 s), and gets twice the
/// time. CPU time, not wall time: it does not stretch with the load of a
/// shared machine, and a regression to quadratic work still passes it.
pub const HOSTILE_CPU_SECS: u64 = if cfg!(debug_assertions) { 20 } else { 10 };
/// Wall seconds before a hostile run is killed: against hangs (a FIFO, a
/// lock), with room for a machine loaded 10 deep.
pub const HOSTILE_WALL_SECS: u64 = 120;
/// Address space of a hostile run: a wall against runaway growth, so that
/// a regression fails instead of swapping (a debug build's threads reserve
/// far more than they use).
pub const HOSTILE_AS: u64 = 2 << 30;
/// Peak resident memory a hostile run may reach (the run's stated budget,
/// debug build included).
pub const HOSTILE_RSS_KIB: u64 = 256 << 10;

/// Run `mqdiag` on a hostile input in `dir` under every bound above:
/// killed past `HOSTILE_CPU_SECS` of CPU (`prlimit --cpu`), or
/// `HOSTILE_WALL_SECS`, or `HOSTILE_AS` of address space; fails the test
/// when its peak resident memory passed `HOSTILE_RSS_KIB`.
pub fn run_hostile(dir: &Path, args: &[&str]) -> Bounded {
    let r = run_under(
        dir,
        args,
        HOSTILE_WALL_SECS,
        Some(HOSTILE_AS),
        Some(HOSTILE_CPU_SECS),
    );
    eprintln!(
        "{args:?}: exit {} in {:.2} s ({:.2} s CPU), peak RSS {:?} KiB, spilled {} bytes",
        r.code, r.secs, r.cpu_secs, r.peak_rss_kib, r.peak_spill
    );
    if let Some(k) = r.peak_rss_kib {
        assert!(k < HOSTILE_RSS_KIB, "{args:?}: peak RSS {k} KiB");
    }
    r
}

/// Run `mqdiag` in `dir` (TMPDIR there too) with its standard output in a
/// file of `dir`, killed after `limit_secs`, under an address-space limit
/// of `as_bytes` and a CPU limit of `cpu_secs` when given (`prlimit`,
/// Linux). Fails the test when it was killed, died of a signal or
/// panicked.
fn run_under(
    dir: &Path,
    args: &[&str],
    limit_secs: u64,
    as_bytes: Option<u64>,
    cpu_secs: Option<u64>,
) -> Bounded {
    // Outside `dir`, which the run may be reading.
    let outs = tempfile::tempdir().expect("temporary directory");
    let out_path = outs.path().join("stdout");
    let err_path = outs.path().join("stderr");
    let start = std::time::Instant::now();
    let bin = env!("CARGO_BIN_EXE_mqdiag");
    let mut cmd = if as_bytes.is_some() || cpu_secs.is_some() {
        // prlimit sets the limits and executes the program in its place
        // (same process: its memory is still sampled below).
        let mut c = Command::new("prlimit");
        if let Some(n) = as_bytes {
            c.arg(format!("--as={n}"));
        }
        if let Some(n) = cpu_secs {
            c.arg(format!("--cpu={n}"));
        }
        c.arg("--").arg(bin);
        c
    } else {
        Command::new(bin)
    };
    let mut child = cmd
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("run mqdiag");
    let (mut peak_rss_kib, mut peak_spill, mut cpu) = (None, 0, 0.0f64);
    // TMPDIR as the child sees it (the link targets it shows are absolute).
    let tmp = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if let Some(k) = vm_hwm(child.id()) {
            peak_rss_kib = Some(peak_rss_kib.unwrap_or(0).max(k));
        }
        peak_spill = peak_spill.max(spilled(child.id(), &tmp));
        if let Some(c) = cpu_time(child.id()) {
            cpu = cpu.max(c);
        }
        if start.elapsed().as_secs() >= limit_secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mqdiag {args:?} still running after {limit_secs} s: killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let secs = start.elapsed().as_secs_f64();
    let stderr =
        String::from_utf8_lossy(&std::fs::read(&err_path).unwrap_or_default()).into_owned();
    let code = status.code().unwrap_or(-1);
    // SIGXCPU (24 on Linux) is `prlimit --cpu` stopping it.
    assert!(
        matches!(code, 0..=2),
        "mqdiag {args:?}: exit {code} ({status}; CPU limit {cpu_secs:?} s, {cpu:.2} s seen); \
         stderr: {stderr}"
    );
    assert!(
        !stderr.contains("panicked"),
        "mqdiag {args:?} panicked: {stderr}"
    );
    let stdout_bytes = std::fs::metadata(&out_path).map_or(0, |m| m.len());
    let mut head = Vec::new();
    if let Ok(f) = std::fs::File::open(&out_path) {
        use std::io::Read;
        let _ = f.take(8 << 20).read_to_end(&mut head);
    }
    Bounded {
        code,
        stderr,
        stdout_bytes,
        stdout_head: String::from_utf8_lossy(&head).into_owned(),
        secs,
        peak_rss_kib,
        peak_spill,
        cpu_secs: cpu,
    }
}

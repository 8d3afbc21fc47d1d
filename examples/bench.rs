//! Benchmark: generate a realistic set of formatted traces (many processes
//! and threads, every line kind, files overlapping in time), then time what
//! users run today against mqdiag on the same files, in one run.
//!
//! ```text
//! cargo build --release && cargo run --release --example bench -- --size-mb 1024
//! ```
//!
//! Options: `--size-mb N` (total size, default 1024), `--files N` (default
//! 16), `--dir DIR` (default: a folder under the system temp dir), `--keep`
//! (leave the files), `--bin PATH` (default `target/release/mqdiag`),
//! `--only-generate`. Wall time and peak RSS come from `/usr/bin/time`.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A small deterministic generator (xorshift64*), so every run writes the
/// same bytes.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Component prefixes and verbs of MQ's internal function names; combined
/// they give a realistic vocabulary (a real trace names hundreds of
/// functions, and the network calls the rules read are a small share).
const PREFIXES: [&str; 20] = [
    "xcs", "zst", "kpi", "aqh", "aqm", "atx", "zsq", "zut", "rri", "rrx", "cci", "ccx", "xll",
    "xtr", "apl", "alm", "adh", "zfu", "zlu", "kqi",
];
const VERBS: [&str; 10] = [
    "GetMem",
    "FreeMem",
    "RequestMutexSem",
    "ReleaseMutexSem",
    "GetMessage",
    "PutMessage",
    "Lookup",
    "Process",
    "Commit",
    "Check",
];
/// Network calls, drawn 1 time in 50.
const NET: [&str; 4] = ["cciTcpSend", "cciTcpReceive", "ccxSend", "ccxReceive"];

fn call_name(rng: &mut Rng) -> String {
    if rng.below(50) == 0 {
        return NET[rng.below(NET.len() as u64) as usize].to_string();
    }
    let p = PREFIXES[rng.below(PREFIXES.len() as u64) as usize];
    let v = VERBS[rng.below(VERBS.len() as u64) as usize];
    format!("{p}{v}")
}

fn line(out: &mut impl Write, tod_us: u64, pid: u32, tid: u32, ident: &str, data: &str) {
    let t = tod_us % 86_400_000_000;
    let (h, m, s, us) = (
        t / 3_600_000_000,
        t / 60_000_000 % 60,
        t / 1_000_000 % 60,
        t % 1_000_000,
    );
    let pt = format!("{pid}.{tid}");
    let _ = writeln!(out, " {h:02}:{m:02}:{s:02}.{us:06} {pt:>10} {ident} {data}");
}

/// Write one process's trace of about `bytes` bytes, starting at `start_us`
/// (time of day), and return the number of lines.
fn write_trace(path: &Path, pid: u32, start_us: u64, bytes: u64, rng: &mut Rng) -> u64 {
    let f = File::create(path).expect("create trace");
    let mut out = BufWriter::with_capacity(1 << 20, f);
    let _ = writeln!(
        out,
        "Timestamp        Process.Thread  Trace Ident  Trace Data"
    );
    let _ = writeln!(out, "{}", "=".repeat(59));
    let blank = format!("{:>10}:{:<6}", "", "");
    let hdr = [
        "Header.v02:9.3:Linux 5.14.0-70.13.1.el9_0.x86_64:64:-1:1:UTC".to_string(),
        "Version : 9.3.0.5    Level : p935-L230308".to_string(),
        format!("UTC   Date : 03/14/24  Time : {}", tod(start_us)),
        format!("Local Date : 03/14/24  Time : {}  UTC", tod(start_us)),
        format!("PID : {pid} Process : amqrmppa (64-bit)"),
        "Host : benchhost".to_string(),
        "Operating System : Linux 5.14.0-70.13.1.el9_0.x86_64".to_string(),
        "Product Long Name : IBM MQ for Linux (x86-64 platform)".to_string(),
        "-".repeat(32),
    ];
    for h in &hdr {
        line(&mut out, start_us, pid, 1, &blank, h);
    }
    let threads = 8u32;
    let mut now = start_us;
    let mut written = 0u64;
    let mut lines = 0u64;
    let mut depth = [0usize; 8];
    let mut stacks: Vec<Vec<String>> = vec![Vec::new(); 8];
    let mut qtime = 5_000u64;
    while written < bytes {
        let t = rng.below(threads as u64) as usize;
        let tid = t as u32 + 1;
        let ident = format!("{:>10}:{:<6}", "RSESS", format!("{:06x}", tid * 7));
        now += rng.below(40) + 1;
        // Threads write into one buffer: a few µs of disorder.
        let ts = now.saturating_sub(rng.below(5));
        let kind = rng.below(100);
        let data = if kind < 35 && depth[t] < 12 {
            let f = call_name(rng);
            depth[t] += 1;
            let line = format!("{}{{  {f}", "-".repeat(depth[t]));
            stacks[t].push(f);
            line
        } else if kind < 70 && depth[t] > 0 {
            let f = stacks[t].pop().unwrap_or_else(|| "unknown".to_string());
            let d = depth[t];
            depth[t] -= 1;
            if f == "cciTcpSend" && rng.below(20) == 0 {
                format!("{}}}! send rc=Unknown(B)", "-".repeat(d))
            } else {
                format!(
                    "{}}}  {f} rc=OK FunctionTime={}",
                    "-".repeat(d),
                    rng.below(900)
                )
            }
        } else if kind < 80 {
            let off = rng.below(16) * 16;
            format!(
                "     0x{off:04x}:  {:08x} {:08x} {:08x} {:08x}  |................|",
                rng.next() as u32,
                rng.next() as u32,
                rng.next() as u32,
                rng.next() as u32
            )
        } else if kind < 85 {
            qtime += rng.below(2_000);
            format!("     Empty(FALSE) Inherited(FALSE) QTime({qtime})")
        } else if kind < 88 {
            format!(
                "     hmtx is 0x{:012x}, Timeout is -1",
                rng.next() & 0xffff_ffff_ffff
            )
        } else {
            format!(
                "     component:{} function:{} length:{} options:0 cbmindex:-1 *pointer:{:x}",
                rng.below(40),
                rng.below(400),
                rng.below(65_536),
                rng.next() & 0xffff_ffff
            )
        };
        line(&mut out, ts, pid, tid, &ident, &data);
        written += 48 + data.len() as u64;
        lines += 1;
    }
    out.flush().expect("write trace");
    lines
}

fn tod(us: u64) -> String {
    let t = us % 86_400_000_000;
    format!(
        "{:02}:{:02}:{:02}.{:06}",
        t / 3_600_000_000,
        t / 60_000_000 % 60,
        t / 1_000_000 % 60,
        t % 1_000_000
    )
}

#[derive(Clone)]
struct Measured {
    what: String,
    wall: f64,
    rss_mb: f64,
}

/// Run a shell command under `/usr/bin/time`, output to /dev/null.
fn measure(what: &str, shell: &str) -> Measured {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%e %M", "sh", "-c", shell])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("run /usr/bin/time");
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().last().unwrap_or("");
    let mut it = last.split_whitespace();
    let wall: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
    let kb: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(f64::NAN);
    if !out.status.success() {
        eprintln!("warning: `{shell}` exited with {}: {err}", out.status);
    }
    Measured {
        what: what.to_string(),
        wall,
        rss_mb: kb / 1024.0,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut size_mb = 1024u64;
    let mut files = 16u32;
    let mut dir = std::env::temp_dir().join("mqdiag-bench");
    let mut keep = false;
    let mut only_generate = false;
    let mut with_zip = false;
    let mut bin = PathBuf::from("target/release/mqdiag");
    let mut extra: Vec<String> = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--size-mb" => {
                size_mb = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--size-mb N")
            }
            "--files" => files = args.next().and_then(|v| v.parse().ok()).expect("--files N"),
            "--dir" => dir = PathBuf::from(args.next().expect("--dir DIR")),
            "--bin" => bin = PathBuf::from(args.next().expect("--bin PATH")),
            "--keep" => keep = true,
            "--only-generate" => only_generate = true,
            "--zip" => with_zip = true,
            "--mqdiag-arg" => extra.push(args.next().expect("--mqdiag-arg ARG")),
            _ => {
                eprintln!("unknown argument {a}; see the file's doc comment");
                std::process::exit(2);
            }
        }
    }
    let trace_dir = dir.join(format!("traces-{size_mb}mb-{files}f"));
    let per_file = size_mb * 1024 * 1024 / files as u64;
    if !trace_dir.join("done").exists() {
        let _ = fs::remove_dir_all(&trace_dir);
        fs::create_dir_all(&trace_dir).expect("create bench dir");
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut lines = 0;
        for i in 0..files {
            let pid = 100_000 + i * 37;
            // Processes start within a few seconds of each other and overlap.
            let start = 10 * 3_600_000_000 + rng.below(5_000_000);
            let p = trace_dir.join(format!("AMQ{pid}.0.FMT"));
            lines += write_trace(&p, pid, start, per_file, &mut rng);
        }
        fs::write(trace_dir.join("done"), format!("{lines}\n")).expect("marker");
    }
    let total: u64 = fs::read_dir(&trace_dir)
        .expect("read bench dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".FMT"))
        .map(|e| e.metadata().map(|m| m.len()).unwrap_or(0))
        .sum();
    let mb = total as f64 / 1_048_576.0;
    println!(
        "input: {} files, {:.0} MB in {}",
        files,
        mb,
        trace_dir.display()
    );
    if only_generate {
        return;
    }
    let d = trace_dir.display();
    let bin = bin.display();
    let extra = extra.join(" ");
    let runs = [
        measure("cat (I/O floor)", &format!("cat {d}/*.FMT")),
        measure(
            "LC_ALL=C grep -c",
            // Piped: GNU grep stops at the first match when writing to /dev/null.
            &format!("LC_ALL=C grep -c QTime {d}/*.FMT | cat"),
        ),
        measure(
            "LC_ALL=C sort -k1.2,1",
            &format!("LC_ALL=C sort -k1.2,1 {d}/*.FMT"),
        ),
        measure(
            "mqdiag timeline --format text",
            &format!("{bin} timeline {d} --format text -q {extra}"),
        ),
        measure("mqdiag analyze", &format!("{bin} analyze {d} -q {extra}")),
    ];
    let mut runs = runs.to_vec();
    if with_zip {
        // What users do today with a case archive, against reading it in place.
        let zip = dir.join(format!("case-{size_mb}mb.zip"));
        if !zip.exists() {
            let ok = Command::new("sh")
                .args(["-c", &format!("cd {d} && zip -q -1 -r {} .", zip.display())])
                .status()
                .is_ok_and(|s| s.success());
            assert!(
                ok,
                "`zip` failed: the --zip comparison needs the zip command"
            );
        }
        let unz = dir.join("unzipped");
        let z = zip.display();
        let u = unz.display();
        runs.push(measure(
            "unzip + mqdiag analyze",
            &format!("rm -rf {u} && unzip -q {z} -d {u} && {bin} analyze {u} -q {extra}"),
        ));
        runs.push(measure(
            "mqdiag analyze case.zip",
            &format!("{bin} analyze {z} -q {extra}"),
        ));
        let _ = fs::remove_dir_all(&unz);
    }
    let sort = runs[2].wall;
    println!(
        "{:<32} {:>9} {:>10} {:>12} {:>14}",
        "command", "wall (s)", "MB/s", "peak RSS MB", "vs sort (x)"
    );
    for r in &runs {
        println!(
            "{:<32} {:>9.2} {:>10.0} {:>12.1} {:>14.2}",
            r.what,
            r.wall,
            mb / r.wall,
            r.rss_mb,
            sort / r.wall
        );
    }
    if !keep {
        let _ = fs::remove_dir_all(&trace_dir);
    }
}

//! Budgets that must hold for inputs sized to break them, built at run
//! time: each run within the hostile bounds of `common::run_hostile`
//! (CPU time, address space, resident memory).

mod common;

use common::{Scratch, run_hostile};
use std::io::Write;

const TRACE: &str = include_str!("../fixtures/trace/AMQ622742.0.FMT");

/// A 30 MB baseline report (many findings, each with many small evidence
/// objects: built as values, several times its size): only its
/// fingerprints are kept.
#[test]
fn a_large_baseline_is_read_for_its_fingerprints_only() {
    let d = Scratch::new("baseline");
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    let mut f = std::io::BufWriter::new(std::fs::File::create(d.path().join("base.json")).unwrap());
    write!(
        f,
        "{{\"schema_version\": 1, \"inputs\": [], \"findings\": ["
    )
    .unwrap();
    for i in 0..10_000 {
        if i > 0 {
            write!(f, ",").unwrap();
        }
        write!(
            f,
            "{{\"rule\": \"fdc\", \"severity\": \"error\", \"title\": \"t\", \"fingerprint\": \"fdc:{i:016x}\", \"evidence\": ["
        )
        .unwrap();
        for k in 0..80 {
            if k > 0 {
                write!(f, ",").unwrap();
            }
            write!(f, "{{\"path\":\"a\",\"line\":{k},\"text\":\"t\"}}").unwrap();
        }
        write!(f, "]}}").unwrap();
    }
    write!(f, "]}}").unwrap();
    f.flush().unwrap();
    drop(f);
    let r = run_hostile(
        d.path(),
        &[
            "analyze",
            "--format",
            "json",
            "-q",
            "--baseline",
            "base.json",
            "case",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout_head).unwrap();
    assert_eq!(v["run"]["baseline"], "base.json");
}

/// A zip64 archive of `n` one-byte stored members, written by hand.
fn zip_of_many(n: u32) -> Vec<u8> {
    let crc = 0x8cdc_1683u32; // CRC-32 of "x"
    let mut out = Vec::new();
    let mut cd = Vec::new();
    for i in 0..n {
        let name = format!("m{i:07}");
        let off = out.len() as u32;
        out.extend_from_slice(b"PK\x03\x04");
        for v in [20u16, 0, 0, 0, 0x21] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, 1, 1] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.push(b'x');
        cd.extend_from_slice(b"PK\x01\x02");
        for v in [20u16, 20, 0, 0, 0, 0x21] {
            cd.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, 1, 1] {
            cd.extend_from_slice(&v.to_le_bytes());
        }
        cd.extend_from_slice(&(name.len() as u16).to_le_bytes());
        cd.extend_from_slice(&[0; 8]); // extra, comment, disk, internal
        cd.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        cd.extend_from_slice(&off.to_le_bytes());
        cd.extend_from_slice(name.as_bytes());
    }
    let cd_off = out.len() as u64;
    out.extend_from_slice(&cd);
    let z64 = out.len() as u64;
    out.extend_from_slice(b"PK\x06\x06");
    out.extend_from_slice(&44u64.to_le_bytes());
    out.extend_from_slice(&45u16.to_le_bytes());
    out.extend_from_slice(&45u16.to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    for v in [u64::from(n), u64::from(n), cd.len() as u64, cd_off] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(b"PK\x06\x07");
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&z64.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&[0xff; 4]);
    out.extend_from_slice(&[0xff; 8]);
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// A zip listing more members than one archive may have: its central
/// directory is not parsed whole (the zip crate builds every entry
/// first); the first members are found from their local headers.
#[test]
fn a_zip_listing_too_many_members_is_not_parsed_whole() {
    let d = Scratch::new("manyzip");
    d.write("many.zip", &zip_of_many(200_001));
    let r = run_hostile(
        d.path(),
        &["inventory", "--format", "json", "-q", "-j", "1", "many.zip"],
    );
    assert!(
        r.stdout_head
            .contains("central directory not read (it lists 200001 members"),
        "{}",
        &r.stdout_head[..r.stdout_head.len().min(2000)]
    );
}

/// A gzip stream of a tar holding one member of `size` zero bytes, built
/// from one compressed chunk repeated (each ends with a full flush, so
/// none refers back): tens of megabytes without compressing them. The CRC
/// is not computed (the limits must stop reading long before it counts).
fn tgz_of_zeros(size: usize) -> Vec<u8> {
    let fresh = || flate2::Compress::new(flate2::Compression::fast(), false);
    let deflate = |c: &mut flate2::Compress, data: &[u8], out: &mut Vec<u8>| {
        let mut at = 0;
        loop {
            out.reserve(64 << 10);
            let before = c.total_in();
            c.compress_vec(&data[at..], out, flate2::FlushCompress::Full)
                .expect("deflate");
            at += (c.total_in() - before) as usize;
            if at >= data.len() && out.capacity() > out.len() {
                break;
            }
        }
    };
    let mut h = tar::Header::new_ustar();
    h.set_path("AMQ1.0.FMT").unwrap();
    h.set_size(size as u64);
    h.set_mode(0o644);
    h.set_entry_type(tar::EntryType::Regular);
    h.set_cksum();
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    deflate(&mut fresh(), h.as_bytes(), &mut out);
    const CHUNK: usize = 1 << 20;
    let mut one = Vec::new();
    deflate(&mut fresh(), &vec![0u8; CHUNK], &mut one);
    for _ in 0..size / CHUNK {
        out.extend_from_slice(&one);
    }
    // An empty fixed-Huffman block with BFINAL set, then CRC and size.
    out.extend_from_slice(&[0x03, 0x00]);
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&((size + 512) as u32).to_le_bytes());
    out
}

/// A zip of these members, stored (so that a nested archive is read in
/// place, not unpacked).
fn zip_stored(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (p, b) in files {
        let o = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        w.start_file(p.as_str(), o).expect("zip member");
        w.write_all(b).expect("zip write");
    }
    w.finish().expect("zip").into_inner()
}

/// Gzip layers inside one archive: each layer's ratio is fine on its own
/// (a `tar.gz.gz` whose outer layer gives the tgz, whose tgz gives 64 MiB
/// of zeros), but together they multiply. What one archive unpacks into
/// the temporary file is bounded by its own size (200 times, at least
/// 16 MiB), over all its layers; a refused member gives its bytes back at
/// once.
#[test]
fn gzip_layers_share_one_spill_budget() {
    let d = Scratch::new("layers");
    let tgzgz = common::gzip(&tgz_of_zeros(64 << 20));
    let members: Vec<(String, Vec<u8>)> = (0..4)
        .map(|i| (format!("c{i}.tar.gz.gz"), tgzgz.clone()))
        .collect();
    let zip = zip_stored(&members);
    d.write("layers.zip", &zip);
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    let r = run_hostile(
        d.path(),
        &[
            "inventory",
            "--format",
            "json",
            "-q",
            "-j",
            "1",
            "layers.zip",
            "case",
        ],
    );
    eprintln!("spilled at most {} bytes", r.peak_spill);
    // 200 × this small zip is below the floor: 16 MiB for the whole zip.
    assert!(zip.len() * 200 < 16 << 20);
    assert!(r.peak_spill <= 16 << 20, "{} bytes spilled", r.peak_spill);
    assert!(
        r.stdout_head
            .contains("would not fit in the temporary file"),
        "{}",
        &r.stdout_head[..r.stdout_head.len().min(3000)]
    );
}

/// Two archives that each fit the spill budget alone, but not together:
/// the budget is one total for the run (200 times the size of all its
/// archives together, at least 16 MiB), not one per archive, so the second
/// archive's member is refused before it is unpacked.
#[test]
fn two_archives_share_the_run_spill_budget() {
    let d = Scratch::new("two-archives");
    let tgz = tgz_of_zeros(12 << 20);
    d.write("a.tgz", &tgz);
    d.write("b.tgz", &tgz);
    let r = run_hostile(
        d.path(),
        &[
            "inventory",
            "--format",
            "json",
            "-q",
            "-j",
            "1",
            "a.tgz",
            "b.tgz",
        ],
    );
    eprintln!("spilled at most {} bytes", r.peak_spill);
    // Each member fits the run's budget alone, the two do not.
    let budget = (2 * tgz.len() as u64 * 200).max(16 << 20);
    assert!((12 << 20..24 << 20).contains(&budget), "budget {budget}");
    assert!(r.peak_spill <= budget, "{} bytes spilled", r.peak_spill);
    let v: serde_json::Value = serde_json::from_str(&r.stdout_head).expect("inventory");
    let problems = v.to_string();
    assert!(
        problems.contains("would not fit in the temporary file")
            && problems.contains("the run's archives may unpack"),
        "{}",
        &problems[..problems.len().min(3000)]
    );
    // The first archive's member is read; only the second is refused.
    let refused: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f.to_string().contains("would not fit"))
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(refused, ["b.tgz!AMQ1.0.FMT"], "{problems}");
}

/// A trace with a new thread on every line, each opening a call it never
/// closes: the state kept per thread (call stacks in the reader, calls
/// waiting for their end in `calls` and the rules) is bounded by a budget
/// of threads, not by the input (about 4 KB a thread before).
#[test]
fn a_new_thread_on_every_line_keeps_memory_bounded() {
    let d = Scratch::new("threads");
    let mut f = String::new();
    for l in TRACE.lines().take(12) {
        f.push_str(l);
        f.push('\n');
    }
    for i in 0..80_000u32 {
        let us = i * 10;
        f.push_str(&format!(
            " 12:06:{:02}.{:06}   622742.{}           :      {{  MQCONN\n",
            32 + us / 1_000_000,
            us % 1_000_000,
            i + 2
        ));
    }
    d.write("AMQ622742.0.FMT", f.as_bytes());
    for verb in ["analyze", "calls"] {
        let r = run_hostile(
            d.path(),
            &[verb, "--format", "json", "-q", "-j", "2", "AMQ622742.0.FMT"],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        // Every one of them is still counted, as an open call.
        let v: serde_json::Value = serde_json::from_str(&r.stdout_head).unwrap();
        let calls = if verb == "calls" {
            &v["rows"]
        } else {
            &v["calls"]
        };
        assert_eq!(calls[0]["open"], 80_000, "{calls:#}");
    }
}

/// A tar whose pax header gives its member a 30 MB path: the name is not
/// copied over and over (it was printed on every timeline row, 566 MB);
/// a path longer than any file system allows is refused, shown by its
/// start.
#[test]
fn a_thirty_megabyte_member_path_is_refused_cheaply() {
    let d = Scratch::new("paxpath");
    let path = format!("d/{}.FMT", "a".repeat(30 << 20));
    // A pax record is "LEN path=VALUE\n", LEN counting itself.
    let body = format!(" path={path}\n");
    let mut len = body.len();
    while len.to_string().len() + body.len() != len {
        len = len.to_string().len() + body.len();
    }
    let record = format!("{len}{body}");
    let mut x = tar::Header::new_ustar();
    x.set_path("PaxHeader").unwrap();
    x.set_size(record.len() as u64);
    x.set_mode(0o644);
    x.set_entry_type(tar::EntryType::XHeader);
    x.set_cksum();
    let mut h = tar::Header::new_ustar();
    h.set_path("d/short.FMT").unwrap();
    h.set_size(TRACE.len() as u64);
    h.set_mode(0o644);
    h.set_entry_type(tar::EntryType::Regular);
    h.set_cksum();
    let mut tar = Vec::new();
    for (head, data) in [(&x, record.as_bytes()), (&h, TRACE.as_bytes())] {
        tar.extend_from_slice(head.as_bytes());
        tar.extend_from_slice(data);
        tar.resize(tar.len().div_ceil(512) * 512, 0);
    }
    tar.resize(tar.len() + 1024, 0);
    d.write("pax.tar", &tar);
    d.write("case/AMQ622742.0.FMT", TRACE.as_bytes());
    for args in [
        &["timeline", "-q", "-j", "2", "pax.tar", "case"][..],
        &["inventory", "--format", "json", "-q", "pax.tar", "case"],
    ] {
        let r = run_hostile(d.path(), args);
        assert!(r.code <= 1, "{}", r.stderr);
        assert!(
            r.stdout_bytes <= 1 << 20,
            "{args:?}: {} bytes of output",
            r.stdout_bytes
        );
        if args[0] == "inventory" {
            assert!(
                r.stdout_head.contains("member path of 31457286 bytes"),
                "{}",
                &r.stdout_head[..r.stdout_head.len().min(3000)]
            );
        }
    }
}

/// A case 1,000 directories deep: the walk costs what the directories
/// do, not the cube of the depth (each directory was made canonical, one
/// look-up per component: 1,000 levels took 10 to 39 s).
#[test]
fn a_thousand_directories_deep_are_walked_quickly() {
    let d = Scratch::new("deep");
    let rel = "d/".repeat(1000);
    d.write(&format!("case/{rel}AMQ622742.0.FMT"), TRACE.as_bytes());
    let r = run_hostile(
        d.path(),
        &["inventory", "--format", "json", "-q", "-j", "1", "case"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout_head.contains("AMQ622742.0.FMT"),
        "{}",
        &r.stdout_head[..r.stdout_head.len().min(2000)]
    );
}

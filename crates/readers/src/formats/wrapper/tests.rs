use super::parts::{DockerRecord, docker_record};
use super::*;

fn unwrap_text(text: &str) -> (Kind, String, Wrapper) {
    let w = detect(text.as_bytes()).expect("a wrapper");
    let mut out = String::new();
    w.reader(Box::new(io::Cursor::new(text.as_bytes().to_vec())))
        .read_to_string(&mut out)
        .unwrap();
    (w.kind, out, w)
}

const LINE: &str =
    "2024-08-12T08:32:43.944Z AMQ5051I: The queue manager task 'LOGGER-IO' has started.";

/// Lines are handed on many at a time: those read before a read
/// error come first, then the error.
#[test]
fn lines_before_a_read_error_are_handed_on_first() {
    struct Failing(Vec<u8>);
    impl Read for Failing {
        fn read(&mut self, b: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("gone"));
            }
            let n = b.len().min(self.0.len());
            b[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            Ok(n)
        }
    }
    let text = format!("mq_1 | {LINE}\nmq_1 | {LINE}\n");
    let w = detect(text.as_bytes()).expect("compose");
    let mut r = w.reader(Box::new(Failing(text.into_bytes())));
    let (mut out, mut buf) = (Vec::new(), [0u8; 4096]);
    let err = loop {
        match r.read(&mut buf) {
            Ok(0) => panic!("an end instead of the error"),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => break e,
        }
    };
    assert_eq!(String::from_utf8(out).unwrap(), format!("{LINE}\n{LINE}\n"));
    assert_eq!(err.to_string(), "gone");
}

#[test]
fn prefixes_come_off() {
    for (text, kind) in [
        (format!("mq_1       | {LINE}\n"), Kind::Compose),
        (format!("\x1b[36mmq-1  |\x1b[0m {LINE}\n"), Kind::Compose),
        (format!("[pod/mq-0/qmgr] {LINE}\n"), Kind::KubectlPrefix),
        (format!("mq-0 qmgr {LINE}\n"), Kind::Stern),
        (format!("2024-08-12 14:02:43 {LINE}\n"), Kind::Viewer),
        (
            format!("2024-08-12T08:32:43.944123456Z stdout F {LINE}\n"),
            Kind::Cri,
        ),
    ] {
        let (k, out, _) = unwrap_text(&text);
        assert_eq!(k, kind, "{text}");
        assert_eq!(out, format!("{LINE}\n"), "{text}");
    }
}

#[test]
fn viewer_offset_is_measured() {
    let (_, _, w) = unwrap_text(&format!("2024-08-12 14:02:43 {LINE}\n"));
    assert_eq!(w.viewer_offset.as_deref(), Some("+05:30"));
    assert!(w.describe().contains("+05:30"), "{}", w.describe());
}

#[test]
fn cri_partial_lines_are_joined_at_their_first_line() {
    let text = "2024-08-12T08:32:43.944123456Z stdout P 2024-08-12T08:32:43.944Z AMQ9209E: Connection to host 'a'\n\
                2024-08-12T08:32:43.944123457Z stdout P  for channel 'B'\n\
                2024-08-12T08:32:43.944123458Z stdout F  closed.\n\
                2024-08-12T08:32:44.000000000Z stderr F CWPKI0033E: The keystore located at /x did not load\n";
    let (k, out, w) = unwrap_text(text);
    assert_eq!(k, Kind::Cri);
    assert_eq!(
        out,
        "2024-08-12T08:32:43.944Z AMQ9209E: Connection to host 'a' for channel 'B' closed.\n\n\n\
         2024-08-12T08:32:44.000000000Z CWPKI0033E: The keystore located at /x did not load\n"
    );
    assert!(w.describe().contains("for 1 line(s)"), "{}", w.describe());
}

/// A stack dump under a record, each line stamped by the collector in
/// the record's second: it continues the record as in the bare
/// console. On another stream or in a later second a line without a
/// time of its own takes the collector's.
#[test]
fn untimed_lines_written_with_a_record_continue_it() {
    let cri = "2024-03-14T10:00:01.448966123Z stdout F 2024-03-14T10:00:01.448966Z runmqserver: panic: x\n\
               2024-03-14T10:00:01.448966123Z stdout F goroutine 1 [running]:\n\
               2024-03-14T10:00:01.448966200Z stdout F \tmain.go:42 +0x1d\n\
               2024-03-14T10:00:01.500000000Z stderr F on stderr\n\
               2024-03-14T10:00:01.600000000Z stderr F and after it\n\
               2024-03-14T10:00:02.000000000Z stderr F a second later\n";
    let (k, out, w) = unwrap_text(cri);
    assert_eq!(k, Kind::Cri);
    assert_eq!(
        out,
        "2024-03-14T10:00:01.448966Z runmqserver: panic: x\n\
         goroutine 1 [running]:\n\
         \tmain.go:42 +0x1d\n\
         2024-03-14T10:00:01.500000000Z on stderr\n\
         and after it\n\
         2024-03-14T10:00:02.000000000Z a second later\n"
    );
    assert!(w.describe().contains("for 2 line(s)"), "{}", w.describe());
    let docker = concat!(
        r#"{"log":"2024-03-14T10:00:01.448966Z runmqserver: panic: x\n","stream":"stdout","time":"2024-03-14T10:00:01.448966123Z"}"#,
        "\n",
        r#"{"log":"goroutine 1 [running]:\n","stream":"stdout","time":"2024-03-14T10:00:01.448966123Z"}"#,
        "\n",
        r#"{"log":"main.main()\n","stream":"stderr","time":"2024-03-14T10:00:01.448966123Z"}"#,
        "\n",
    );
    let (_, out, _) = unwrap_text(docker);
    assert_eq!(
        out,
        "2024-03-14T10:00:01.448966Z runmqserver: panic: x\n\
         goroutine 1 [running]:\n\
         2024-03-14T10:00:01.448966123Z main.main()\n"
    );
    let prefixed = "[pod/mq-0/qmgr] 2024-03-14T10:00:01.448966123Z 2024-03-14T10:00:01.448966Z runmqserver: panic: x\n\
                    [pod/mq-0/qmgr] 2024-03-14T10:00:01.448966123Z goroutine 1 [running]:\n\
                    [pod/mq-0/qmgr] 2024-03-14T10:00:03.000000000Z later\n";
    let (k, out, w) = unwrap_text(prefixed);
    assert_eq!(k, Kind::KubectlPrefix);
    assert_eq!(
        out,
        "2024-03-14T10:00:01.448966Z runmqserver: panic: x\n\
         goroutine 1 [running]:\n\
         2024-03-14T10:00:03.000000000Z later\n"
    );
    assert!(w.describe().contains("for 1 line(s)"), "{}", w.describe());
    let kubectl = "2024-03-14T10:00:01.448966123Z 2024-03-14T10:00:01.448966Z runmqserver: panic: x\n\
                   2024-03-14T10:00:01.448966123Z goroutine 1 [running]:\n";
    let (k, out, _) = unwrap_text(kubectl);
    assert_eq!(k, Kind::Timestamps);
    assert_eq!(
        out,
        "2024-03-14T10:00:01.448966Z runmqserver: panic: x\ngoroutine 1 [running]:\n"
    );
}

#[test]
fn docker_json_lines_are_decoded_and_partials_joined() {
    let text = concat!(
        r#"{"log":"2024-08-12T08:32:43.944Z AMQ5051I: The queue manager task \u0027LOGGER-IO\u0027 has started.\n","stream":"stdout","time":"2024-08-12T08:32:43.944812345Z"}"#,
        "\n",
        r#"{"log":"{\"ibm_datetime\":\"2024-08-12T08:32:44.001Z\",\"message\":\"part","stream":"stdout","time":"2024-08-12T08:32:44.0012Z"}"#,
        "\n",
        r#"{"log":" two\",\"type\":\"mq_containerlog\"}\n","stream":"stdout","time":"2024-08-12T08:32:44.0013Z"}"#,
        "\n",
    );
    let (k, out, _) = unwrap_text(text);
    assert_eq!(k, Kind::DockerJson);
    assert_eq!(
        out,
        "2024-08-12T08:32:43.944Z AMQ5051I: The queue manager task 'LOGGER-IO' has started.\n\
         {\"ibm_datetime\":\"2024-08-12T08:32:44.001Z\",\"message\":\"part two\",\"type\":\"mq_containerlog\"}\n\n"
    );
}

/// Where the hand readers of json-file records answer (with escapes
/// or without), they answer what `serde_json` reads, on records near
/// Docker's shape.
#[test]
fn docker_records_by_hand_are_what_serde_reads() {
    type Read = (Option<Vec<u8>>, Vec<u8>, bool, Stream);
    let by_serde = |line: &[u8]| -> Option<Read> {
        let r: DockerRecord = serde_json::from_slice(line).ok()?;
        let inner = r.log.trim_end_matches(['\n', '\r']);
        Some((
            r.time.map(|t| t.as_bytes().to_vec()),
            inner.as_bytes().to_vec(),
            !r.log.ends_with('\n'),
            r.stream
                .map_or(Stream::Unnamed, |s| Stream::of(s.as_bytes())),
        ))
    };
    let seeds = [
        r#"{"log":"2024-08-12T08:32:43.944Z AMQ5051I: x\n","stream":"stdout","time":"2024-08-12T08:32:43.944812345Z"}"#,
        r#"{"log":"part","stream":"stderr","time":"2024-08-12T08:32:44Z"}"#,
    ];
    let tokens = [
        "\\n", "\"", "\\", "\\u0027", " ", "}", ",", "\t", "é", "\r", "\\r", "x", "", "\\t",
        "\\\\", "\\\"", "\\ud83d", "\\u00e9",
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(0x5eed_d0c4_e201);
    let (mut sure, mut escaped) = (0, 0);
    for _ in 0..40_000 {
        let t = rng.damaged(&seeds, &tokens, 3);
        if let Some(p) = docker_record(t.as_bytes()) {
            sure += 1;
            escaped += usize::from(matches!(p.inner, std::borrow::Cow::Owned(_)));
            let got = (
                p.outer.map(|o| o.into_owned()),
                p.inner.into_owned(),
                p.partial,
                p.stream,
            );
            assert_eq!(Some(got), by_serde(t.as_bytes()), "{t:?}");
        }
    }
    assert!(sure > 4_000 && escaped > 1_000, "{sure} {escaped}");
}

#[test]
fn prefix_with_timestamps_gives_its_time_to_lines_without_one() {
    let text = format!(
        "[pod/mq-0/qmgr] 2024-08-12T08:32:43.944812345Z {LINE}\n\
         [pod/mq-0/qmgr] 2024-08-12T08:32:43.945000000Z 2024-08-12T08:32:43.945Z runmqserver: x\n\
         [pod/mq-0/qmgr] goroutine 1 [running]:\n"
    );
    let (k, out, w) = unwrap_text(&text);
    assert_eq!(k, Kind::KubectlPrefix);
    assert_eq!(
        out,
        format!("{LINE}\n2024-08-12T08:32:43.945Z runmqserver: x\ngoroutine 1 [running]:\n")
    );
    assert!(
        w.describe().contains("with --timestamps"),
        "{}",
        w.describe()
    );
}

#[test]
fn plain_consoles_and_other_text_have_no_wrapper() {
    assert!(detect(format!("{LINE}\n{LINE}\n").as_bytes()).is_none());
    assert!(detect(b"hello world | this\nand more | text\n").is_none());
    assert!(detect(b"a b c\nd e f\n").is_none());
    assert!(detect(b"").is_none());
}

#[test]
fn odd_bytes_do_not_panic() {
    let mut rng = mqdiag_model::testrng::Rng::new(27);
    let parts = [
        "{\"log\":\"",
        "\\n\"",
        ",\"time\":\"2024-08-12T08:32:43Z\"}",
        "2024-08-12T08:32:43.944Z ",
        " stdout P ",
        " stdout F ",
        "[pod/a/b] ",
        "mq_1 | ",
        "\x1b[3",
        "\n",
        "é",
    ];
    for _ in 0..3000 {
        let mut t = String::new();
        for _ in 0..rng.below(20) {
            t.push_str(parts[rng.below(parts.len())]);
        }
        for kind in Kind::ALL {
            let w = Wrapper {
                kind,
                viewer_offset: None,
                stats: Arc::default(),
            };
            let mut out = Vec::new();
            w.reader(Box::new(io::Cursor::new(t.clone().into_bytes())))
                .read_to_end(&mut out)
                .unwrap();
            // One output line per input line.
            let lines_in = t.bytes().filter(|&b| b == b'\n').count()
                + usize::from(!t.is_empty() && !t.ends_with('\n'));
            let lines_out = out.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(lines_in, lines_out, "{kind:?} {t:?}");
        }
    }
}

/// The lines a file's readers are given, line by line (`LineFilter`, as
/// the line source drives it) or through the reader (`Unwrap`): the same
/// text at the same line, whatever is joined, held at the end or cut.
#[test]
fn line_by_line_is_what_the_reader_gives() {
    fn by_reader(w: &Wrapper, text: &str) -> Vec<(usize, String)> {
        let mut out = String::new();
        w.reader(Box::new(io::Cursor::new(text.as_bytes().to_vec())))
            .read_to_string(&mut out)
            .unwrap();
        out.split('\n')
            .enumerate()
            .filter(|(_, l)| !l.is_empty())
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect()
    }
    fn by_line(w: &Wrapper, text: &str) -> Vec<(usize, String)> {
        let mut f = crate::input::Filter::lines(w);
        let mut out = Vec::new();
        let mut held_at = None;
        let mut keep = |at: usize, l: &[u8]| {
            if !l.is_empty() {
                out.push((at, String::from_utf8_lossy(l).into_owned()));
            }
        };
        let lines = text.strip_suffix('\n').unwrap_or(text).split('\n');
        for (i, raw) in lines.enumerate() {
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            let got = f.line(raw.as_bytes(), false);
            if let Some(h) = got.held {
                keep(held_at.take().unwrap_or(i + 1), h);
            }
            match got.line {
                Some(l) => keep(i + 1, l),
                None if got.held.is_none() => {
                    held_at.get_or_insert(i + 1);
                }
                None => {}
            }
        }
        if let (Some(h), Some(at)) = (f.finish(), held_at) {
            keep(at, h);
        }
        out
    }
    let stamp = "2024-08-12T08:32:43.944123456Z";
    let parts = [
        format!("{stamp} stdout P {LINE} part"),
        format!("{stamp} stdout F {LINE}"),
        format!("{stamp} stderr F goroutine 1 [running]:"),
        format!("{stamp} stdout P  and on"),
        "not a CRI line".to_string(),
        String::new(),
        format!("{stamp} stdout F "),
        format!("{stamp} stdout F \r"),
    ];
    let mut rng = mqdiag_model::testrng::Rng::new(0x11e5_b711);
    let mut checked = 0;
    let w = detect(format!("{}\n", parts[1]).as_bytes()).expect("cri");
    for _ in 0..3_000 {
        let mut text = format!("{stamp} stdout F {LINE}\n");
        for _ in 0..rng.below(8) {
            text.push_str(&parts[rng.below(parts.len())]);
            text.push('\n');
        }
        if rng.below(3) == 0 {
            text.push_str(&parts[0]);
        }
        assert_eq!(by_line(&w, &text), by_reader(&w, &text), "{text:?}");
        checked += 1;
    }
    // Every other wrapper's cases above, too.
    for text in [
        format!("mq_1       | {LINE}\nmq_1 | goroutine 1\nAttaching to mq_1\n"),
        format!("[pod/mq-0/qmgr] 2024-08-12T08:32:43.944812345Z {LINE}\n[pod/mq-0/qmgr] x\n"),
        format!(
            "{{\"log\":\"{LINE} a\",\"stream\":\"stdout\",\"time\":\"{stamp}\"}}\n\
             {{\"log\":\" b\\n\",\"stream\":\"stdout\",\"time\":\"{stamp}\"}}\n\
             {{\"log\":\"\\tat x\\n\",\"stream\":\"stderr\",\"time\":\"{stamp}\"}}\n\
             {{\"log\":\"{LINE} held\",\"stream\":\"stdout\",\"time\":\"{stamp}\"}}"
        ),
    ] {
        let w = detect(text.as_bytes()).expect("a wrapper");
        assert_eq!(by_line(&w, &text), by_reader(&w, &text), "{text:?}");
        checked += 1;
    }
    assert!(checked > 3_000);
}

/// A collected line longer than a joined line may be is read cut, where
/// it is, as a line too long; the lines after it are unwrapped.
#[test]
fn an_overlong_collected_line_is_cut_where_it_is() {
    use crate::formats::container_log::ContainerLogReader;
    let stamp = "2024-08-12T08:32:43.944123456Z";
    let long = "x".repeat(MAX_JOINED + 10);
    let text = format!(
        "{stamp} stdout F {LINE}\n{stamp} stdout P {LINE} {long}\n{stamp} stdout F {LINE}\n"
    );
    let opts = crate::source::ReadOptions::default();
    let (events, infos) = crate::testkit::read(&ContainerLogReader, "pod.log", text, &opts);
    let lines: Vec<_> = events
        .iter()
        .map(|e| (e.line, e.offset, e.text.len()))
        .collect();
    let second = (stamp.len() + 10 + LINE.len() + 1) as u64;
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!((lines[0].0, lines[0].1), (1, 0));
    assert_eq!((lines[1].0, lines[1].1), (2, second));
    assert!(lines[1].2 <= crate::lines::MAX_LINE, "{lines:?}");
    assert_eq!(lines[2].0, 3);
    let cut = infos[0]
        .problems
        .iter()
        .find(|p| p.message.contains("cut to the first"))
        .expect("a line-too-long problem");
    assert_eq!(cut.line, Some(2));
    let raw = stamp.len() + " stdout P ".len() + LINE.len() + 1 + long.len();
    assert!(
        cut.message.starts_with(&format!("line of {raw} bytes")),
        "{}",
        cut.message
    );
}

/// `docker compose` colours its prefixes, and its codes come off; a CRI
/// or json-file collector adds none, and a line inside keeps its own.
#[test]
fn colour_codes_come_off_only_where_the_collector_adds_them() {
    let coloured = format!("\x1b[31m{LINE}\x1b[0m");
    let (_, out, _) = unwrap_text(&format!("\x1b[36mmq-1  |\x1b[0m {coloured}\n"));
    assert_eq!(out, format!("{LINE}\n"));
    let (k, out, _) = unwrap_text(&format!(
        "2024-08-12T08:32:43.944123456Z stdout F {LINE}\n\
         2024-08-12T08:32:43.944123457Z stdout F {coloured}\n"
    ));
    assert_eq!(k, Kind::Cri);
    assert_eq!(out, format!("{LINE}\n{coloured}\n"));
}

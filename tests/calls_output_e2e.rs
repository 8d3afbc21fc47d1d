//! `calls -o FILE` writes the format its extension names, and refuses one
//! it cannot write (exit 2, nothing written), as every other verb does.

mod common;

use common::{Scratch, mqdiag};

#[test]
fn an_extension_calls_cannot_write_is_exit_2() {
    let tmp = Scratch::new("calls-out");
    for name in ["c.html", "c.sarif"] {
        let p = tmp.0.join(name);
        let r = mqdiag(&["calls", "fixtures/calls", "-q", "-o", &p.to_string_lossy()]);
        assert_eq!(r.code, 2, "{name}: {}", r.stderr);
        assert!(r.stderr.contains("calls"), "{}", r.stderr);
        assert!(!p.exists(), "{name} written");
    }
    for (name, starts) in [
        ("c.json", "{"),
        ("c.csv", "host,"),
        ("c.txt", "PROCESS"),
        ("c.md", "# MQI calls"),
    ] {
        let p = tmp.0.join(name);
        let r = mqdiag(&["calls", "fixtures/calls", "-q", "-o", &p.to_string_lossy()]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.starts_with(starts), "{name}: {text}");
    }
}

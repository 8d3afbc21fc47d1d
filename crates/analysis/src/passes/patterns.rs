//! Trace text-line patterns the passes recognise, kept as data, and the
//! errno tables they read rc values with. Each pattern says where its
//! wording was seen in real material; see `shared/formats/trace-fmt.md` §3.
//! Traced functions and their families are the catalogue's
//! (`catalog::functions`).

use regex::Regex;
use std::sync::LazyLock;

/// `Current socket receive buffer size: 262088`, `Socket send buffer size:
/// 32766`, `Final socket send buffer size: 32766`. Seen: seed 004
/// (whitespace collapsed by the slide conversion).
pub(crate) static SOCKET_BUFFER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*(?:-\s+)?(current\s+|final\s+)?socket\s+(send|receive|recv)\s+buffer\s+size\D*(\d+)")
        .expect("regex")
});

/// `Empty(FALSE) Inherited(FALSE) QTime(153205)`. Seen: seed 004, an
/// xmitq's `Empty(..) Inherited(..) QTime(n)`, n in microseconds
/// (inferred). `qtime_us` reads it by hand; the tests hold it to this.
#[cfg(test)]
pub(crate) static QTIME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\bQTime\((\d+)\)").expect("regex"));

/// `gsk_environment_init: input: gsk_env_handle=0x1100938b0`. Seen: seed
/// 004, `input: ...` and `output: ...` on one thread.
pub(crate) static GSK_TEXT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(gsk_[A-Za-z0-9_]+):\s*(input|output)\b").expect("regex"));

/// A socket-buffer line: which (`current`, `requested`, `final`), which
/// direction (`send`, `receive`) and the size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BufferLine {
    pub(crate) stage: Stage,
    pub(crate) send: bool,
    pub(crate) bytes: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stage {
    Current,
    Requested,
    Final,
}

/// Whether `b` holds "buffer size", "Buffer Size" or "BUFFER SIZE": asked
/// of every text line, by searchers made once (three `str::contains` were
/// a fiftieth of a run over a trace of a million processes).
fn names_buffer_size(b: &[u8]) -> bool {
    // Each spelling has a doubled `f`: a line without one (most) is
    // answered by a one-byte search.
    if !memchr::memchr2_iter(b'f', b'F', b).any(|i| b.get(i + 1) == Some(&b[i])) {
        return false;
    }
    static UFFER: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"uffer"));
    static UPPER: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"BUFFER SIZE"));
    UFFER.find_iter(b).any(|i| {
        let rest = &b[i + 5..];
        i > 0
            && ((b[i - 1] == b'b' && rest.starts_with(b" size"))
                || (b[i - 1] == b'B' && rest.starts_with(b" Size")))
    }) || UPPER.find(b).is_some()
}

pub(crate) fn socket_buffer(text: &str) -> Option<BufferLine> {
    if !names_buffer_size(text.as_bytes()) {
        return None;
    }
    let c = SOCKET_BUFFER.captures(text)?;
    let stage = match c.get(1).map(|m| m.as_str().trim().to_ascii_lowercase()) {
        Some(s) if s == "current" => Stage::Current,
        Some(s) if s == "final" => Stage::Final,
        _ => Stage::Requested,
    };
    let send = c[2].eq_ignore_ascii_case("send");
    let bytes = c[3].parse().ok()?;
    Some(BufferLine { stage, send, bytes })
}

/// The `QTime(n)` value; the same as the `QTIME` regex, by hand because
/// it runs on every text line.
pub(crate) fn qtime_us(text: &str) -> Option<u64> {
    // Built once: `memmem::find` builds its searcher on every call.
    static QTIME_OPEN: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"QTime("));
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(i) = QTIME_OPEN.find(&b[from..]).map(|i| i + from) {
        let word_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let digits = b[i + 6..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !word_before && digits > 0 && b.get(i + 6 + digits) == Some(&b')') {
            return text[i + 6..i + 6 + digits].parse().ok();
        }
        from = i + 1;
    }
    None
}

/// `(function, is_output)` of a GSKit input/output text line.
pub(crate) fn gsk_text(text: &str) -> Option<(&str, bool)> {
    if !text.starts_with("gsk_") {
        return None;
    }
    let c = GSK_TEXT.captures(text)?;
    let f = c.get(1)?.as_str();
    Some((f, &c[2] == "output"))
}

/// Operating-system families, for errno meanings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// `MacOs` is the system's name; clippy checks this only on private types.
#[allow(clippy::enum_variant_names)]
pub(crate) enum Os {
    Linux,
    Aix,
    Solaris,
    HpUx,
    MacOs,
    Windows,
}

impl Os {
    /// From a header's platform text (`AIX 7.1`, `Linux`, `Windows 10`).
    pub(crate) fn from_platform(p: &str) -> Option<Os> {
        let l = p.to_ascii_lowercase();
        if l.contains("aix") {
            Some(Os::Aix)
        } else if l.contains("linux") {
            Some(Os::Linux)
        } else if l.contains("windows") {
            Some(Os::Windows)
        } else if l.contains("solaris") || l.contains("sunos") {
            Some(Os::Solaris)
        } else if l.contains("hp-ux") || l.contains("hpux") {
            Some(Os::HpUx)
        } else if l.contains("darwin")
            || l.contains("macos")
            || l.contains("mac os")
            || l.contains("bsd")
        {
            Some(Os::MacOs)
        } else {
            None
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Os::Linux => "Linux",
            Os::Aix => "AIX",
            Os::Solaris => "Solaris",
            Os::HpUx => "HP-UX",
            Os::MacOs => "macOS/BSD",
            Os::Windows => "Windows",
        }
    }
}

/// The errno values that mean "would block" (EAGAIN / EWOULDBLOCK /
/// WSAEWOULDBLOCK) on each platform.
pub(crate) fn would_block_codes(os: Option<Os>) -> &'static [u32] {
    match os {
        Some(Os::Linux) | Some(Os::Aix) | Some(Os::Solaris) => &[11],
        Some(Os::HpUx) => &[11, 246],
        Some(Os::MacOs) => &[35],
        Some(Os::Windows) => &[10035],
        // Unknown platform: 11 (EAGAIN on every UNIX but the BSDs) and the
        // unambiguous Windows code.
        None => &[11, 10035],
    }
}

/// The errno a trace rc stands for: `Unknown(B)` is hexadecimal, a bare
/// number decimal, symbolic names map to a marker value.
pub(crate) fn rc_errno(rc: &str) -> Option<RcCode> {
    let rc = rc.trim();
    if let Some(inner) = rc
        .strip_prefix("Unknown(")
        .and_then(|r| r.strip_suffix(')'))
    {
        return u32::from_str_radix(inner, 16).ok().map(RcCode::Errno);
    }
    if !rc.is_empty() && rc.bytes().all(|b| b.is_ascii_digit()) {
        return rc.parse().ok().map(RcCode::Errno);
    }
    match rc {
        "EAGAIN" | "EWOULDBLOCK" | "WSAEWOULDBLOCK" => Some(RcCode::Named),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RcCode {
    Errno(u32),
    /// Already a would-block name.
    Named,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_size_is_named_as_the_three_spellings_say() {
        for (t, want) in [
            ("Socket send buffer size: 2048", true),
            ("TCP/IP Buffer Size 32768", true),
            ("RECEIVE BUFFER SIZE=65536", true),
            ("buffer Size", false),
            ("Buffer size", false),
            ("buffersize", false),
            ("uffer size", false),
            ("a buffer sized", true),
            ("0xff then a buffer size", true),
            ("bufFer size", false),
            ("ffff", false),
            ("f", false),
            ("", false),
        ] {
            let mine = names_buffer_size(t.as_bytes());
            let std =
                t.contains("buffer size") || t.contains("Buffer Size") || t.contains("BUFFER SIZE");
            assert_eq!(mine, want, "{t}");
            assert_eq!(mine, std, "{t}");
        }
    }

    #[test]
    fn buffer_lines() {
        let b = |s| socket_buffer(s);
        assert_eq!(
            b("Current socket receive buffer size: 262088"),
            Some(BufferLine {
                stage: Stage::Current,
                send: false,
                bytes: 262088
            })
        );
        assert_eq!(
            b("Socket send buffer size: 32766"),
            Some(BufferLine {
                stage: Stage::Requested,
                send: true,
                bytes: 32766
            })
        );
        assert_eq!(
            b("Final socket send buffer size: 32766"),
            Some(BufferLine {
                stage: Stage::Final,
                send: true,
                bytes: 32766
            })
        );
        assert_eq!(
            b(" - Final socket receive buffer size: 2048"),
            Some(BufferLine {
                stage: Stage::Final,
                send: false,
                bytes: 2048
            })
        );
        assert_eq!(b("buffer size unknown"), None);
        assert_eq!(b("Current socket receive buffer size: n/a"), None);
    }

    #[test]
    fn qtime_and_gsk() {
        assert_eq!(
            qtime_us("Empty(TRUE) Inherited(FALSE) QTime(5829)"),
            Some(5829)
        );
        assert_eq!(qtime_us("XQTime(5)"), None);
        assert_eq!(qtime_us("QTime()"), None);
        assert_eq!(qtime_us("a QTime(12 QTime(34)"), Some(34));
        for t in [
            "QTime(5)",
            "x QTime(77) y",
            "_QTime(1)",
            "QTime(1",
            "QTime(99999999999999999999)",
        ] {
            let by_regex = QTIME.captures(t).and_then(|c| c[1].parse::<u64>().ok());
            assert_eq!(qtime_us(t), by_regex, "{t}");
        }
        assert_eq!(
            gsk_text("gsk_environment_init: input: gsk_env_handle=0x1100938b0"),
            Some(("gsk_environment_init", false))
        );
        assert_eq!(
            gsk_text("gsk_environment_init: output: gsk_env_handle=0x1100938b0"),
            Some(("gsk_environment_init", true))
        );
        assert_eq!(gsk_text("gsk_environment_init returned 0"), None);
    }

    #[test]
    fn errno_codes() {
        assert_eq!(rc_errno("Unknown(B)"), Some(RcCode::Errno(11)));
        assert_eq!(rc_errno("Unknown(2733)"), Some(RcCode::Errno(10035)));
        assert_eq!(rc_errno("11"), Some(RcCode::Errno(11)));
        assert_eq!(rc_errno("EWOULDBLOCK"), Some(RcCode::Named));
        assert_eq!(rc_errno("OK"), None);
        assert_eq!(rc_errno("Unknown(ZZ)"), None);
        assert_eq!(Os::from_platform("AIX 7.1"), Some(Os::Aix));
        assert_eq!(Os::from_platform("Linux"), Some(Os::Linux));
        assert_eq!(would_block_codes(Some(Os::HpUx)), &[11, 246]);
        assert_eq!(would_block_codes(Some(Os::MacOs)), &[35]);
        assert_eq!(would_block_codes(Some(Os::Windows)), &[10035]);
    }
}

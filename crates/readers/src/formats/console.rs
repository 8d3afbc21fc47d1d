//! What the readers of a container's console share: the console reader
//! (`container_log`), the JSON error-log reader in its console flavour and
//! the collectors' wrappers (`wrapper`). RFC 3339 stamps measured and read
//! fast, `kubectl logs --timestamps` stamps, and the logs mq-container
//! mirrors into the console. Apart from each reader so that none of them
//! imports another for these.

use chrono::{DateTime, FixedOffset};

/// The length of an RFC 3339 time at the start of `s` (`2021-12-15T23:38:
/// 51.702Z`, `...702318+01:00`), checked by shape only; `None` if there is
/// none.
pub(crate) fn stamp_len(s: &[u8]) -> Option<usize> {
    let d = |i: usize| s.get(i).is_some_and(u8::is_ascii_digit);
    let h = s.first_chunk::<19>()?;
    // Most lines that are not a time say so at once.
    if h[0].wrapping_sub(b'0') >= 10 {
        return None;
    }
    // The fixed 19 bytes tested eight at a time (every line of a console
    // is tested, wrapped ones more than once): `YYYY-MM-`, `DDTHH:MM`
    // (the `T` in either case), `:SS`.
    let word = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().unwrap_or_default());
    const SEP_A: u64 = 0xFF00_00FF_0000_0000;
    const SEP_B: u64 = 0x0000_FF00_00FF_0000;
    let a = word(0);
    let b = word(8) | 0x0000_0000_0020_0000;
    let shape = digits_at(a, !SEP_A)
        & (a & SEP_A == 0x2D00_002D_0000_0000)
        & digits_at(b, !SEP_B)
        & (b & SEP_B == 0x0000_3A00_0074_0000)
        & (h[16] == b':')
        & (h[17].wrapping_sub(b'0') < 10)
        & (h[18].wrapping_sub(b'0') < 10);
    if !shape {
        return None;
    }
    let mut i = 19;
    if s.get(i) == Some(&b'.') {
        i += 1;
        // The fraction's digits, eight at a time while they last.
        while let Some(w) = s.get(i..i + 8) {
            let w = u64::from_le_bytes(w.try_into().unwrap_or_default());
            let other = not_digits(w);
            if other != 0 {
                i += (other.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        while d(i) {
            i += 1;
        }
    }
    match s.get(i) {
        Some(b'Z') | Some(b'z') => Some(i + 1),
        Some(b'+') | Some(b'-') if d(i + 1) && d(i + 2) && s.get(i + 3) == Some(&b':') => {
            (d(i + 4) && d(i + 5)).then_some(i + 6)
        }
        _ => None,
    }
}

/// `YYYY-MM-DD?HH:MM:SS` at the start of `s`, byte by byte, `sep` the
/// byte between the date and the time (what `stamp_len` tests eight bytes
/// at a time).
pub(crate) fn date_time_shape(s: &[u8], sep: impl Fn(u8) -> bool) -> bool {
    let d = |i: usize| s.get(i).is_some_and(u8::is_ascii_digit);
    let at = |i: usize, c: u8| s.get(i) == Some(&c);
    [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        .into_iter()
        .all(d)
        && at(4, b'-')
        && at(7, b'-')
        && s.get(10).is_some_and(|&c| sep(c))
        && at(13, b':')
        && at(16, b':')
}

/// Non-zero bytes where `w`'s bytes (little-endian) are not ASCII digits;
/// the lowest of them marks the first. A byte is a digit when its high
/// half is 3 and stays 3 with 6 added (a byte that carries is not one, and
/// its carry reaches only later bytes).
fn not_digits(w: u64) -> u64 {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    const SIXES: u64 = 0x0606_0606_0606_0606;
    ((w & HIGH) ^ THREES) | ((w.wrapping_add(SIXES) & HIGH) ^ THREES)
}

/// Whether the bytes of `w` that `mask` keeps are all ASCII digits.
fn digits_at(w: u64, mask: u64) -> bool {
    not_digits(w) & mask == 0
}

/// The line after a `kubectl logs --timestamps` time, when it has one: a
/// time followed by a blank and either another time (`basic`) or a JSON
/// object.
pub(crate) fn strip_kubectl_stamp(line: &str) -> Option<&str> {
    let n = stamp_len(line.as_bytes())?;
    let rest = line[n..].strip_prefix(' ')?;
    (rest.starts_with('{') || stamp_len(rest.as_bytes()).is_some()).then_some(rest)
}

/// A stamp `stamp_len` accepted, read without chrono's general parser
/// (which costs as much as the rest of a line): `None` for what it does not
/// cover (more than nine fraction digits, a leap second), which goes to
/// chrono.
pub(crate) fn fast_stamp(s: &str) -> Option<DateTime<FixedOffset>> {
    use chrono::{NaiveDate, NaiveDateTime, NaiveTime, TimeZone};
    let b = s.as_bytes();
    let num = |from: usize, to: usize| -> u32 {
        b[from..to]
            .iter()
            .fold(0u32, |n, &c| n * 10 + u32::from(c - b'0'))
    };
    let mut i = 19;
    let mut nanos = 0u32;
    if b.get(i) == Some(&b'.') {
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        nanos = num(i + 1, i + 1 + digits) * 10u32.pow(9 - digits as u32);
        i += 1 + digits;
    }
    let offset = match b.get(i)? {
        b'Z' | b'z' => 0,
        // Minutes past 59 are chrono's error to report.
        b'+' | b'-' if num(i + 4, i + 6) > 59 => return None,
        sign @ (b'+' | b'-') => {
            let secs = (num(i + 1, i + 3) * 3600 + num(i + 4, i + 6) * 60) as i32;
            if *sign == b'-' { -secs } else { secs }
        }
        _ => return None,
    };
    let sec = num(17, 19);
    if sec > 59 {
        return None;
    }
    let date = NaiveDate::from_ymd_opt(num(0, 4) as i32, num(5, 7), num(8, 10))?;
    let time = NaiveTime::from_hms_nano_opt(num(11, 13), num(14, 16), sec, nanos)?;
    let off = FixedOffset::east_opt(offset)?;
    off.from_local_datetime(&NaiveDateTime::new(date, time))
        .single()
}

/// `DateTime::parse_from_rfc3339`, the common shapes read by `fast_stamp`.
pub(crate) fn rfc3339(s: &str) -> chrono::ParseResult<DateTime<FixedOffset>> {
    match stamp_len(s.as_bytes()) {
        Some(n) if n == s.len() => {
            fast_stamp(s).map_or_else(|| DateTime::parse_from_rfc3339(s), Ok)
        }
        _ => DateTime::parse_from_rfc3339(s),
    }
}

/// The program named on the web server's (Liberty's) lines: the server
/// whose `messages.log` mq-container mirrors
/// (`/var/mqm/web/installations/Installation1/servers/mqweb/logs/
/// messages.log`, `cmd/runmqserver/logging.go`), which its records also
/// name in `ibm_serverName`.
pub(crate) const WEB_SERVER: &str = "mqweb";

/// Who wrote a JSON console record besides MQ and the container's Go
/// programs (which name themselves in `ibm_processName`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Mirrored {
    /// The web server: `"type":"liberty_message"` (`liberty_audit`,
    /// `liberty_trace`, ...), its time written `+0000`.
    Liberty,
    /// The queue manager's start-up MQSC output (`autocfgmqsc.LOG`), which
    /// runmqserver wraps as `{"ibm_datetime","type":"mqsc_log","loglevel",
    /// "message"}`.
    Mqsc,
    /// The developer image's authorization service (`simpleauth.json`):
    /// no `type` and no `ibm_processName`, `module` names its C source.
    SimpleAuth,
}

impl Mirrored {
    /// The program the record's events name.
    pub(crate) fn program(self) -> &'static str {
        match self {
            Mirrored::Liberty => WEB_SERVER,
            Mirrored::Mqsc => "runmqserver",
            Mirrored::SimpleAuth => "mqsimpleauth",
        }
    }
}

/// Which of the mirrored logs a JSON console record comes from, by its
/// `type`, `ibm_processName`, `module` and `message`.
pub(crate) fn mirrored(
    kind: Option<&str>,
    process: Option<&str>,
    module: Option<&str>,
    message: &str,
) -> Option<Mirrored> {
    match kind {
        Some("mq_log" | "mq_containerlog") => None,
        Some("mqsc_log") => Some(Mirrored::Mqsc),
        Some(k) if k.starts_with("liberty_") => Some(Mirrored::Liberty),
        Some(_) => None,
        None if process.is_none()
            && (message.starts_with("mqsimpleauth: ")
                || module.is_some_and(|m| {
                    m.split(':')
                        .next()
                        .is_some_and(|f| f.ends_with("simpleauth.c"))
                })) =>
        {
            Some(Mirrored::SimpleAuth)
        }
        None => None,
    }
}

/// The `ibm_audit_*` fields of the web server's (Liberty's) audit records
/// that say what happened, in the order mq-container's `basic` console
/// writes them (`AUDIT: eventName="SECURITY_AUTHN" ... outcome="success"
/// ...`, `formatBasic` in `cmd/runmqserver/logging.go`; the record's keys
/// as its `logging_test.go` shows a `"type":"liberty_audit"` record, and as
/// Open Liberty's audit events name them: `eventName`, `outcome`,
/// `reason.reasonCode`, `initiator.host.address`, `target.name`, ...).
const AUDIT_FIELDS: &[&str] = &[
    "eventName",
    "outcome",
    "reason.reasonCode",
    "reason.reasonType",
    "initiator.host.address",
    "target.credential.token",
    "target.method",
    "target.name",
];

/// The text of a `liberty_audit` record (which has no `message`) from its
/// `ibm_audit_*` fields: `AUDIT: eventName="SECURITY_AUTHN"
/// outcome="success" ...`, as a `basic` console shows it. Such records are
/// few: read again with serde_json, apart from the keys every record is
/// asked for.
pub(crate) fn audit_text(line: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(line.trim()).ok()?;
    let o = v.as_object()?;
    let mut t = String::from("AUDIT:");
    for f in AUDIT_FIELDS {
        let val = match o.get(&format!("ibm_audit_{f}")) {
            Some(serde_json::Value::String(s)) => s.clone(),
            None | Some(serde_json::Value::Null) => continue,
            Some(other) => other.to_string(),
        };
        t.push_str(&format!(" {f}=\"{val}\""));
    }
    (t.len() > "AUDIT:".len()).then_some(t)
}

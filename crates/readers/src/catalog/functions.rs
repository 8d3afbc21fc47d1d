//! The trace functions the rules read, kept as data: one row per name
//! (or name ending) and its family, what the function does as far as the
//! rules care. A rule declares the families it reads (`RuleInfo::
//! functions`) and asks `family` of a traced name; no rule names a
//! function. Each row says whether its wording was seen in real material
//! (`verified`) or is expected but not yet confirmed by a customer trace;
//! see `shared/formats/trace-fmt.md` §3. Add a function here, as a row.

use std::collections::HashMap;
use std::sync::LazyLock;

/// What a traced function does, as far as the rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// The operating-system call that writes to a socket.
    Send,
    /// MQ's wrapper around it (gives the channel context).
    SendWrapper,
    /// The operating-system call that reads from a socket.
    Receive,
    /// Waiting for a socket to become ready.
    Wait,
    /// Host-name resolution (forward or reverse).
    Dns,
    /// GSKit (TLS) set-up and handshake calls.
    Gskit,
    /// MQI connect.
    Connect,
    /// MQI disconnect.
    Disconnect,
}

/// How a row's name is compared with a traced function's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Match {
    /// The whole name, case-sensitive.
    Exact,
    /// The name's ending, ignoring ASCII case: MQ's own wrappers
    /// (`cciTcpGetAddrInfo`), whose prefix differs per component and
    /// release. Written as the wrappers spell them; readers also look for
    /// the lower-case form.
    Suffix,
}

/// A traced function name and what it does.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FunctionRow {
    pub(crate) family: Family,
    pub(crate) name: &'static str,
    pub(crate) matching: Match,
    /// Seen in a real trace (seed or public sample).
    #[expect(dead_code, reason = "the table's record for maintainers")]
    pub(crate) verified: bool,
    #[expect(dead_code, reason = "the table's record for maintainers")]
    pub(crate) note: &'static str,
}

const fn f(
    family: Family,
    name: &'static str,
    matching: Match,
    verified: bool,
    note: &'static str,
) -> FunctionRow {
    FunctionRow {
        family,
        name,
        matching,
        verified,
        note,
    }
}

use Family::*;
use Match::*;

/// Every function the rules know.
#[rustfmt::skip]
pub(crate) static FUNCTIONS: &[FunctionRow] = &[
    f(Send,        "send",                 Exact, true,  "seed 004: `----}! send rc=Unknown(B)`"),
    f(Send,        "sendmsg",              Exact, false, "POSIX"),
    f(Send,        "WSASend",              Exact, false, "Windows sockets"),
    f(SendWrapper, "cciTcpSend",           Exact, true,  "seed 004: `---{ cciTcpSend`"),
    f(SendWrapper, "ccxSend",              Exact, true,  "seed 004 (IBM L3 analysis table)"),
    f(Receive,     "recv",                 Exact, false, "POSIX"),
    f(Receive,     "cciTcpReceive",        Exact, false, "trace-fmt.md §3.2"),
    f(Receive,     "ccxReceive",           Exact, true,  "seed 004 (IBM L3 analysis table)"),
    f(Wait,        "select",               Exact, false, "seed 002: MQ 'would then enter a select call'"),
    f(Wait,        "poll",                 Exact, false, "seed 004: 'poll() and select() wait for a buffer'"),
    f(Wait,        "pollset_poll",         Exact, false, "AIX pollset interface"),
    f(Wait,        "epoll_wait",           Exact, false, "Linux"),
    f(Wait,        "WSAPoll",              Exact, false, "Windows sockets"),
    f(Dns,         "getaddrinfo",          Exact, false, "AMQ9788W names it (seed 000)"),
    f(Dns,         "getnameinfo",          Exact, false, "AMQ9788W on reverse look-ups (error-log notes)"),
    f(Dns,         "gethostbyname",        Exact, false, "POSIX"),
    f(Dns,         "gethostbyname_r",      Exact, false, "POSIX"),
    f(Dns,         "gethostbyaddr",        Exact, false, "POSIX"),
    f(Dns,         "gethostbyaddr_r",      Exact, false, "POSIX"),
    f(Gskit,       "gsk_environment_open", Exact, false, "GSKit API"),
    f(Gskit,       "gsk_environment_init", Exact, true,  "seed 004: 18 s in this call"),
    f(Gskit,       "gsk_secure_soc_open",  Exact, false, "GSKit API"),
    f(Gskit,       "gsk_secure_soc_init",  Exact, false, "GSKit API: the handshake"),
    f(Gskit,       "gsk_secure_soc_reset", Exact, false, "GSKit API: renegotiation"),
    f(Connect,     "MQCONN",               Exact, false, "MQI"),
    f(Connect,     "MQCONNX",              Exact, false, "MQI"),
    f(Connect,     "zstMQCONN",            Exact, false, "API layer naming (`zstMQ<verb>`, pymqi#147)"),
    f(Connect,     "zstMQCONNX",           Exact, false, "API layer naming"),
    f(Disconnect,  "MQDISC",               Exact, false, "MQI"),
    f(Disconnect,  "zstMQDISC",            Exact, false, "API layer naming"),
    // MQ's own wrappers around the resolver (`cciTcpGetAddrInfo`): slow-dns
    // promises to count any such wrapper as a look-up.
    f(Dns,         "GetAddrInfo",          Suffix, false, "MQ's resolver wrappers (`cciTcpGetAddrInfo`)"),
    f(Dns,         "GetNameInfo",          Suffix, false, "MQ's resolver wrappers, reverse look-ups"),
    f(Dns,         "GetHostByName",        Suffix, false, "MQ's wrappers of the older resolver calls"),
    f(Dns,         "GetHostByAddr",        Suffix, false, "MQ's wrappers of the older resolver calls"),
];

/// Exact names, for a hash lookup on every entry and exit.
static BY_NAME: LazyLock<HashMap<&'static str, Family>> = LazyLock::new(|| {
    FUNCTIONS
        .iter()
        .filter(|p| p.matching == Exact)
        .map(|p| (p.name, p.family))
        .collect()
});

/// Name endings, tried when no exact name matched.
static BY_SUFFIX: LazyLock<Vec<(&'static [u8], Family)>> = LazyLock::new(|| {
    FUNCTIONS
        .iter()
        .filter(|p| p.matching == Suffix)
        .map(|p| (p.name.as_bytes(), p.family))
        .collect()
});

/// The family of a traced function name, if any. No allocation: this runs
/// for every traced exit.
pub fn family(function: &str) -> Option<Family> {
    BY_NAME.get(function).copied().or_else(|| {
        let b = function.as_bytes();
        BY_SUFFIX
            .iter()
            .find(|(s, _)| b.len() >= s.len() && b[b.len() - s.len()..].eq_ignore_ascii_case(s))
            .map(|(_, fam)| *fam)
    })
}

/// The exact function names of a family.
pub fn names_of(family: Family) -> Vec<&'static str> {
    of(family, Exact)
}

/// The name endings (ignoring ASCII case) that also put a function in a
/// family, beyond its exact names.
pub fn suffixes_of(family: Family) -> Vec<&'static str> {
    of(family, Suffix)
}

fn of(family: Family, matching: Match) -> Vec<&'static str> {
    FUNCTIONS
        .iter()
        .filter(|p| p.family == family && p.matching == matching)
        .map(|p| p.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families() {
        assert_eq!(family("send"), Some(Family::Send));
        assert_eq!(family("cciTcpSend"), Some(Family::SendWrapper));
        assert_eq!(family("getaddrinfo"), Some(Family::Dns));
        // MQ's wrappers count by their suffix, in any case.
        assert_eq!(family("Getaddrinfo"), Some(Family::Dns));
        assert_eq!(family("cciTcpGetAddrInfo"), Some(Family::Dns));
        assert_eq!(family("xcsGetNameInfo"), Some(Family::Dns));
        assert_eq!(family("rriGETHOSTBYNAME"), Some(Family::Dns));
        assert_eq!(family("cciGetHostByAddr"), Some(Family::Dns));
        assert_eq!(family("getaddrinfoX"), None);
        assert_eq!(family("addrinfo"), None);
        assert_eq!(family("gsk_environment_init"), Some(Family::Gskit));
        assert_eq!(family("MQCONNX"), Some(Family::Connect));
        assert_eq!(family("MQDISC"), Some(Family::Disconnect));
        assert_eq!(family("sendto_x"), None);
        assert_eq!(family("xcsIsEnvironment"), None);
        assert_eq!(family(""), None);
    }

    #[test]
    fn every_row_is_reachable() {
        for p in FUNCTIONS {
            assert_eq!(family(p.name), Some(p.family), "{}", p.name);
        }
        assert_eq!(names_of(Family::Disconnect), vec!["MQDISC", "zstMQDISC"]);
        assert_eq!(
            suffixes_of(Family::Dns),
            vec![
                "GetAddrInfo",
                "GetNameInfo",
                "GetHostByName",
                "GetHostByAddr"
            ]
        );
        assert!(suffixes_of(Family::Send).is_empty());
    }
}

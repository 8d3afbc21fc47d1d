//! Hosts and addresses as MQ messages write them: the one parser of IP
//! addresses and host specs (`name (ip) (port)`) in mqdiag.

/// `????`: MQ did not know the value.
pub(super) fn is_unknown(v: &str) -> bool {
    v.is_empty() || v.bytes().all(|b| b == b'?')
}

/// A host as messages write it, split.
#[derive(Debug, PartialEq)]
pub struct HostSpec<'a> {
    /// The name, or the address when no name is given.
    pub host: &'a str,
    pub address: Option<&'a str>,
    pub(crate) port: Option<&'a str>,
}

/// `name (ip) (port)`, `name (ip)(port)`, `ip (port)`, `name (ip)`, bare
/// `ip` or name, `host(port)` (CONNAME); `????` is unknown. Every record
/// of a busy log has a host spec or two: this works on bytes (the `str`
/// searchers cost more than these short values).
pub fn split_host(s: &str) -> Option<HostSpec<'_>> {
    let s = mqdiag_model::text::trim(s).trim_end_matches('.');
    if is_unknown(s) {
        return None;
    }
    let b = s.as_bytes();
    let (head, mut rest) = match byte_at(b, b'(') {
        Some(i) => (mqdiag_model::text::trim(&s[..i]), i),
        None => (s, b.len()),
    };
    let mut address = None;
    let mut port = None;
    // `rest` walks the parenthesised parts: `(ip)`, `(port)`.
    while let Some(open) = byte_at(&b[rest..], b'(').map(|i| rest + i) {
        let Some(close) = byte_at(&b[open..], b')').map(|i| open + i) else {
            break;
        };
        let inner = mqdiag_model::text::trim(&s[open + 1..close]);
        if !inner.is_empty() && inner.bytes().all(|c| c.is_ascii_digit()) {
            port.get_or_insert(inner);
        } else if is_ip(inner) {
            address.get_or_insert(inner);
        }
        rest = close + 1;
    }
    if head.is_empty() || is_unknown(head) {
        let a = address?;
        return Some(HostSpec {
            host: a,
            address,
            port,
        });
    }
    if address.is_none() && is_ip(head) {
        address = Some(head);
    }
    Some(HostSpec {
        host: head,
        address,
        port,
    })
}

/// The first `c` in `b` (values are a few dozen bytes: a plain loop).
fn byte_at(b: &[u8], c: u8) -> Option<usize> {
    b.iter().position(|&x| x == c)
}

/// An IPv4 address (four decimal octets, 0 to 255) or an IPv6 literal,
/// bare or in brackets (`[fe80::1]`). Strict on purpose: a name such as
/// `cafe` or an anonymised `10.1.2.999` is not an address, so it is never
/// taken for the peer's IP or turned into a reverse look-up.
pub fn is_ip(s: &str) -> bool {
    // Every record of a busy log asks this of an address or two: bytes
    // and plain loops (an iterator chain and a `str` search cost ten
    // times the answer).
    let b = match s.as_bytes() {
        [b'[', inner @ .., b']'] => inner,
        b => b,
    };
    if is_ipv4(b) {
        return true;
    }
    // IPv6 (rare): the standard parser.
    memchr::memchr(b':', b).is_some()
        && b.iter()
            .all(|&c| c.is_ascii_hexdigit() || c == b'.' || c == b':')
        && std::str::from_utf8(b).is_ok_and(|v| v.parse::<std::net::Ipv6Addr>().is_ok())
}

/// What `Ipv4Addr`'s parser accepts: four dot-separated octets of one to
/// three digits, 0 to 255, no leading zero.
fn is_ipv4(b: &[u8]) -> bool {
    if !(7..=15).contains(&b.len()) {
        return false;
    }
    let (mut dots, mut value, mut digits) = (0, 0u32, 0);
    for &c in b {
        if c.is_ascii_digit() {
            // A leading zero (`01`), or a fourth digit.
            if (digits == 1 && value == 0) || digits == 3 {
                return false;
            }
            value = value * 10 + u32::from(c - b'0');
            digits += 1;
        } else if c == b'.' && digits > 0 && value <= 255 && dots < 3 {
            dots += 1;
            (value, digits) = (0, 0);
        } else {
            return false;
        }
    }
    dots == 3 && digits > 0 && value <= 255
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_shapes() {
        let h = |s| split_host(s).map(|h| (h.host, h.address, h.port));
        let o = |s| Some(s);
        assert_eq!(
            h("localhost (127.0.0.1)"),
            Some(("localhost", o("127.0.0.1"), None))
        );
        assert_eq!(
            h("mqd00 (192.168.134.47)(1416)"),
            Some(("mqd00", o("192.168.134.47"), o("1416")))
        );
        assert_eq!(h("10.0.0.1"), Some(("10.0.0.1", o("10.0.0.1"), None)));
        assert_eq!(h("mqhost(1414)"), Some(("mqhost", None, o("1414"))));
        assert_eq!(
            h("fe80::1 (1414)"),
            Some(("fe80::1", o("fe80::1"), o("1414")))
        );
        assert_eq!(h("????"), None);
        assert_eq!(
            h("???? (10.1.1.1)"),
            Some(("10.1.1.1", o("10.1.1.1"), None))
        );
        assert!(!is_ip("getaddrinfo"));
        assert!(!is_ip("cafe"));
    }

    #[test]
    fn ip_octets_are_0_to_255() {
        assert!(is_ip("1.2.3.4"));
        assert!(is_ip("255.255.255.255"));
        assert!(is_ip("0.0.0.0"));
        assert!(!is_ip("1.2.3.999"));
        assert!(!is_ip("256.1.1.1"));
        assert!(!is_ip("1.2.3"));
        assert!(!is_ip("1.2.3.4.5"));
        assert!(!is_ip("1.2.3.4 "));
        assert!(is_ip("::1"));
        assert!(is_ip("[fe80::1]"));
        assert!(is_ip("::ffff:10.0.0.1"));
        assert!(!is_ip("fe80::1::2"));
        assert!(!is_ip(""));
    }

    /// The hand parser says what the standard one says, on addresses,
    /// near misses and random strings of address characters.
    #[test]
    fn is_ip_agrees_with_the_standard_parser() {
        let std_ip = |s: &str| {
            let s = s
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .unwrap_or(s);
            s.parse::<std::net::IpAddr>().is_ok()
        };
        let fixed = [
            "1.2.3.4",
            "01.2.3.4",
            "1.2.3.04",
            "0.0.0.0",
            "00.0.0.0",
            "255.255.255.255",
            "256.0.0.0",
            "1.2.3.",
            ".1.2.3",
            "1..2.3",
            "1.2.3.4.",
            "1234.1.1.1",
            "+1.2.3.4",
            "1.2.3.4 ",
            " 1.2.3.4",
            "a.b.c.d",
            "::",
            "::1",
            "[::1]",
            "[1.2.3.4]",
            "1:2",
            "::ffff:1.2.3.4",
            "fe80::1%eth0",
            "",
            ".",
            "...",
            "9.9.9.9",
        ];
        for s in fixed {
            assert_eq!(is_ip(s), std_ip(s), "{s:?}");
        }
        let alphabet = b"0123456789.:af[] 5";
        let mut rng = mqdiag_model::testrng::Rng::new(7);
        for _ in 0..200_000 {
            let len = rng.below(16);
            let s: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())] as char)
                .collect();
            assert_eq!(is_ip(&s), std_ip(&s), "{s:?}");
        }
    }
}

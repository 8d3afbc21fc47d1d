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
    pub port: Option<&'a str>,
}

/// `name (ip) (port)`, `name (ip)(port)`, `ip (port)`, `name (ip)`, bare
/// `ip` or name, `host(port)` (CONNAME); `????` is unknown.
pub fn split_host(s: &str) -> Option<HostSpec<'_>> {
    let s = s.trim().trim_end_matches('.');
    if is_unknown(s) {
        return None;
    }
    let (head, rest) = match s.find('(') {
        Some(i) => (s[..i].trim(), &s[i..]),
        None => (s, ""),
    };
    let mut address = None;
    let mut port = None;
    let mut rest = rest;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        let inner = rest[open + 1..open + close].trim();
        if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()) {
            port.get_or_insert(inner);
        } else if is_ip(inner) {
            address.get_or_insert(inner);
        }
        rest = &rest[open + close + 1..];
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

/// An IPv4 address (four decimal octets, 0 to 255) or an IPv6 literal,
/// bare or in brackets (`[fe80::1]`). Strict on purpose: a name such as
/// `cafe` or an anonymised `10.1.2.999` is not an address, so it is never
/// taken for the peer's IP or turned into a reverse look-up.
pub fn is_ip(s: &str) -> bool {
    let s = s
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .unwrap_or(s);
    s.parse::<std::net::IpAddr>().is_ok()
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
}

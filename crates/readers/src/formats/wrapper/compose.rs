//! `docker compose`'s own status lines, which it writes unprefixed among
//! its services' lines: the collector's, not the container's. Their
//! wording, from docker/compose:
//!
//! * v1 (`docker-compose`, tag 1.29.2, 5becea4c): `Attaching to mq_1, web_1`
//!   and `Aborting on container exit...` (`compose/cli/main.py`),
//!   `Gracefully stopping... (press Ctrl+C again to force)` (same file),
//!   `mq_1 exited with code 0` (`compose/cli/log_printer.py`,
//!   `wait_on_exit`);
//! * v2 (`docker compose`, f7297942): `Attaching to mq-1`
//!   (`pkg/compose/attach.go`), `mq-1 exited with code 0`, `... exited with
//!   code 1 (restarting)` and `mq-1 has been recreated`
//!   (`pkg/compose/printer.go`), written after a line reset `\r ESC[K`
//!   (`cmd/formatter/logs.go`, `Status`).

/// Whether an unprefixed line of a compose log is compose's own.
pub(super) fn status_line(line: &[u8]) -> bool {
    // v2's line reset: the `ESC[K` part, and colour codes, are gone
    // already when the line had an escape (`strip_ansi`).
    let mut l = line;
    while let Some((b'\r', rest)) = l.split_first() {
        l = rest;
    }
    if let Some(rest) = l.strip_prefix(b"\x1b[K") {
        l = rest;
    }
    const WHOLE: [&[u8]; 3] = [
        b"Aborting on container exit...",
        b"Gracefully stopping... (press Ctrl+C again to force)",
        b"Gracefully Stopping... press Ctrl+C again to force",
    ];
    if WHOLE.contains(&l) {
        return true;
    }
    if let Some(names) = l.strip_prefix(b"Attaching to ") {
        return !names.is_empty()
            && names
                .split(|&b| b == b',')
                .all(|n| name(n.strip_prefix(b" ").unwrap_or(n)));
    }
    // `<service> exited with code N[ (restarting)]`, `<service> has been
    // recreated`.
    let Some(blank) = l.iter().position(|&b| b == b' ') else {
        return false;
    };
    let (service, rest) = l.split_at(blank);
    if !name(service) {
        return false;
    }
    if rest == b" has been recreated" {
        return true;
    }
    let Some(code) = rest.strip_prefix(b" exited with code ") else {
        return false;
    };
    let code = code.strip_suffix(b" (restarting)").unwrap_or(code);
    let digits = code.strip_prefix(b"-").unwrap_or(code);
    !digits.is_empty() && digits.len() <= 10 && digits.iter().all(u8::is_ascii_digit)
}

/// A service's container name (`mq_1`, `mq-1`, `project-mq-1`).
fn name(n: &[u8]) -> bool {
    !n.is_empty() && n.len() <= 128 && n.iter().all(|&b| super::name_byte(b))
}

#[cfg(test)]
mod tests {
    use super::status_line;

    #[test]
    fn composes_own_lines_in_both_versions() {
        for l in [
            &b"Attaching to mq_1"[..],
            b"Attaching to mq_1, web_1",
            b"Attaching to mq-1",
            b"mq_1 exited with code 0",
            b"\r\x1b[Kmq-1 exited with code 137",
            b"\rproject-mq-1 exited with code 1 (restarting)",
            b"mq-1 has been recreated",
            b"Aborting on container exit...",
            b"Gracefully stopping... (press Ctrl+C again to force)",
        ] {
            assert!(status_line(l), "{}", String::from_utf8_lossy(l));
        }
    }

    #[test]
    fn console_lines_are_not_composes() {
        for l in [
            &b"2024-08-12T08:32:40.102Z Using queue manager name: QM1"[..],
            b"Attaching to ",
            b"Attaching to the queue manager",
            b"mq_1 exited with code",
            b"mq_1 exited with code zero",
            b"goroutine 1 [running]:",
            b"panic: runtime error",
            b"exited with code 0",
            b"",
        ] {
            assert!(!status_line(l), "{}", String::from_utf8_lossy(l));
        }
    }
}

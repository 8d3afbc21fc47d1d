//! Facts of a run drawn from its inputs' rows: whether anything could be
//! read, whether a reader failed, and `--redact` on the rows themselves.

use mqdiag_model::event::Format;
use mqdiag_model::fileinfo::FileInfo;
use mqdiag_model::problem::Severity;
use mqdiag_model::redact::{Cat, Redactor};

/// Whether no input could be used at all (each gave no event and is of no
/// known format, an unformatted binary trace, or had an error): the run
/// could not be done, exit 2 in every verb, and an existing `-o` file is
/// left as it was. An empty file or a header alone was read: it is not
/// this.
pub fn nothing_read(inputs: &[FileInfo]) -> bool {
    inputs.iter().all(|i| {
        i.events == 0
            && ([
                Format::UNKNOWN,
                mqdiag_readers::formats::binary_trace::FORMAT,
            ]
            .contains(&i.format)
                || i.worst == Some(Severity::Error))
    })
}

/// The input whose reader failed internally (`reader-panic`), if any: the
/// output was made from every other input, but the run is not whole.
pub fn reader_panic(inputs: &[FileInfo]) -> Option<&FileInfo> {
    mqdiag_readers::guard::has_reader_panic(inputs)
}

/// Learn what an input's facts name: its host and queue manager, the queue
/// manager in its path, names stated in its problems.
pub(crate) fn learn_input(r: &mut Redactor, fi: &FileInfo) {
    if let Some(h) = &fi.host {
        r.add(Cat::Host, h);
    }
    if let Some(q) = &fi.qmgr {
        r.add(Cat::Qmgr, q);
    }
    r.learn_path(&fi.path);
    for p in &fi.problems {
        r.learn_text(&p.message);
    }
    if let Some(c) = &fi.config {
        learn_config(r, c);
    }
}

/// Learn the names a configuration file states: its queue manager, the
/// objects it defines, the users, addresses, hosts and peers of its
/// CHLAUTH and authority records, the queue managers and hosts of its
/// settings.
fn learn_config(r: &mut Redactor, c: &mqdiag_model::config::ConfigFile) {
    use mqdiag_model::config::Item;
    if let Some(q) = c.scope.qmgr() {
        r.add(Cat::Qmgr, q);
    }
    for f in &c.facts {
        match &f.item {
            Item::Command {
                object,
                name,
                attrs,
                ..
            } => {
                match object.as_str() {
                    "CHANNEL" => r.add(Cat::Channel, name),
                    o if o.starts_with('Q') && o != "QMGR" => r.add(Cat::Queue, name),
                    "CHLAUTH" if !name.contains('*') => r.add(Cat::Channel, name),
                    _ => {}
                }
                for (k, v) in attrs {
                    let items = v.split(',').map(str::trim).filter(|i| !i.is_empty());
                    match k.as_str() {
                        "USERLIST" | "CLNTUSER" | "MCAUSER" | "PRINCIPAL" | "GROUP" => {
                            for u in items.filter(|u| !u.starts_with('*')) {
                                r.add(Cat::User, u);
                            }
                        }
                        "ADDRESS" | "ADDRLIST" => {
                            for a in items {
                                let literal = a.parse::<std::net::IpAddr>().is_ok();
                                r.add(if literal { Cat::Ip } else { Cat::Addr }, a);
                            }
                        }
                        "CONNAME" => {
                            for a in items {
                                let host = a.split('(').next().unwrap_or(a);
                                let literal = host.parse::<std::net::IpAddr>().is_ok();
                                r.add(if literal { Cat::Ip } else { Cat::Host }, host);
                            }
                        }
                        "QMNAME" | "RQMNAME" => r.add(Cat::Qmgr, v),
                        "SSLPEER" | "SSLCERTI" => r.add(Cat::Dn, v),
                        "XMITQ" | "DEADQ" => r.add(Cat::Queue, v),
                        _ => {}
                    }
                }
                r.learn_text(&f.text);
            }
            Item::Setting { stanza, key, value } => {
                let k = key.to_ascii_lowercase();
                if k == "name" && (stanza == "QueueManager" || stanza == "DefaultQueueManager") {
                    r.add(Cat::Qmgr, value);
                } else if k.ends_with("path") || k == "directory" || k == "prefix" {
                    r.learn_path(value);
                } else if k == "serverconnectionparms" {
                    // SYSTEM.DEF.SVRCONN/TCP/host(1414)
                    if let Some(h) = value.rsplit('/').next() {
                        r.add(Cat::Host, h.split('(').next().unwrap_or(h));
                    }
                }
            }
        }
    }
}

/// Tokens for what an input's facts show (once every input is learnt).
pub(crate) fn assign_input(r: &mut Redactor, fi: &FileInfo) {
    r.assign(&fi.path);
    for p in &fi.problems {
        r.assign(&p.message);
    }
    for n in &fi.notes {
        r.assign(n);
    }
    if let Some(c) = &fi.config {
        for f in &c.facts {
            r.assign(&f.text);
        }
    }
}

/// Replace names in an input's facts.
pub fn redact_input(r: &Redactor, fi: &mut FileInfo) {
    fi.path = r.apply(&fi.path);
    for v in [
        &mut fi.host,
        &mut fi.qmgr,
        &mut fi.process,
        &mut fi.utc_offset_source,
    ]
    .into_iter()
    .flatten()
    {
        *v = r.apply(v);
    }
    for p in &mut fi.problems {
        p.message = r.apply(&p.message);
    }
    for n in &mut fi.notes {
        *n = r.apply(n);
    }
    if let Some(c) = &mut fi.config {
        let c = std::sync::Arc::make_mut(c);
        if let mqdiag_model::config::Scope::Qmgr(q) = &mut c.scope {
            *q = r.apply(q);
        }
        c.source = r.apply(&c.source);
        for f in &mut c.facts {
            f.text = r.apply(&f.text);
            match &mut f.item {
                mqdiag_model::config::Item::Command { name, attrs, .. } => {
                    *name = r.apply(name);
                    for (_, v) in attrs {
                        *v = r.apply(v);
                    }
                }
                mqdiag_model::config::Item::Setting { value, .. } => *value = r.apply(value),
            }
        }
    }
}

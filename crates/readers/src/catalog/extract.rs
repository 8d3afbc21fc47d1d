//! Pulling typed values out of a message: its catalogue row's fields,
//! from inserts, patterns (`super::matchers`) and localised text. This is
//! the error-log hot path: changes here are measured.

use super::matchers::fast::{RETURN_CODE_FROM, has_return_code};
use super::matchers::{fast_matcher, generic_matchers, regex_first};
use super::net::{is_ip, is_unknown, split_host};
use super::{
    CATALOG, Field, GENERIC_AMQ, GENERIC_CSQ, REMOTE_HOST, Shape, Src, base_id, localised, row_of,
};
use mqdiag_model::event::CatalogRow;
use std::borrow::Cow;

/// What the catalogue makes of one message; values borrow from the text
/// and inserts where they are written as they are.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Extracted<'a> {
    /// With severity letter when known: `AMQ9999E` even if the log wrote
    /// `AMQ9999`.
    pub(crate) msgid: Cow<'a, str>,
    pub(crate) severity: Option<char>,
    pub(crate) family: Option<&'static str>,
    /// Typed values, in a stable order, each name once.
    pub(crate) attrs: Vec<(&'static str, Cow<'a, str>)>,
    /// The message's catalogue row, for the record's `Event::catalog`.
    pub(crate) row: CatalogRow,
}

/// A value `extract` found.
type Value<'a> = Cow<'a, str>;
type Found<'a> = Vec<(&'static str, Value<'a>)>;

/// Look a message up (`AMQ9999E` or `AMQ9999`: the letter, when written,
/// wins over the catalogue's) and pull its typed values from `inserts` (canonical
/// names: `ArithInsert1`, `CommentInsert1`, `RemoteHost`, ...) and `text`
/// (already normalised).
pub(crate) fn extract<'a>(
    id: &'a str,
    text: &'a str,
    inserts: &[(&str, &'a str)],
) -> Extracted<'a> {
    let row = row_of(id);
    let entry = row.get().flatten().map(|i| &CATALOG[i]);
    let base = base_id(id);
    let letter = (base.len() < id.len()).then(|| id.chars().last()).flatten();
    let severity = letter.or(entry
        .map(|e| e.severity)
        .filter(|&c| c != super::UNVERIFIED));
    let msgid = match severity {
        Some(s) if base.len() == id.len() => Cow::Owned(format!("{base}{s}")),
        _ => Cow::Borrowed(id),
    };
    let csq = base.starts_with("CSQ");
    let (first, generic): (&[Field], &[Field]) = if csq {
        (&[], GENERIC_CSQ)
    } else {
        (REMOTE_HOST, GENERIC_AMQ)
    };
    let own = entry.map(|e| e.fields).unwrap_or(&[]);
    // The generic fields' hand matchers by position (every record runs
    // them: finding each by its pattern cost more than some searches).
    let generic_fast = generic_matchers(csq);
    let specific = first.len() + own.len();
    let mut attrs: Found<'a> = Vec::with_capacity(8);
    let ascii = text.is_ascii();
    // The host spec last applied: the same spec is often found again (an
    // insert, then the message's pattern, then the generic one), and
    // applying it again can set nothing new.
    let mut last_spec: Option<&str> = None;
    // Whether the text holds the words the return-code patterns start
    // with, once searched.
    let mut rc_words: Option<bool> = None;
    for (i, f) in first.iter().chain(own).chain(generic).enumerate() {
        // A field whose every attribute is already set changes nothing
        // (values are set once): skip its search.
        let done = |n: &str| attrs.iter().any(|(k, _)| *k == n);
        let settled = match f.attr {
            "hostspec" => done("host") && done("address") && done("port"),
            "rc_hex" => done("reason") && done("reason_hex"),
            name => done(name),
        };
        if settled {
            continue;
        }
        let value = match f.src {
            Src::Insert(name) => inserts
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.trim())
                .filter(|v| !v.is_empty()),
            // A pattern that starts with words the text lacks cannot
            // match (its hand matcher would search for them and say so).
            Src::Text(p)
                if ascii
                    && p.starts_with(RETURN_CODE_FROM)
                    && !*rc_words.get_or_insert_with(|| has_return_code(text)) =>
            {
                None
            }
            Src::Text(p) => {
                let fast = match i.checked_sub(specific) {
                    Some(g) => generic_fast[g],
                    None => fast_matcher(p),
                };
                match fast.filter(|_| ascii).and_then(|m| m(text)) {
                    Some(sure) => sure,
                    None => regex_first(p, text),
                }
            }
            // After everything else, below.
            Src::Localised { .. } => None,
        };
        if let Some(value) = value {
            if f.attr == "hostspec" {
                if last_spec == Some(value) {
                    continue;
                }
                last_spec = Some(value);
            }
            apply(&mut attrs, f.attr, Cow::Borrowed(value));
        }
    }
    // A localised text: what the inserts and the patterns left unset, from
    // the quoted values by their shapes.
    // The cheap test first: most records have every field from inserts
    // or patterns, and then the text is not searched for its English words.
    let wanted: Vec<(&'static str, Shape)> = own
        .iter()
        .filter_map(|f| match f.src {
            Src::Localised { english, shape } => Some((f.attr, shape, english)),
            _ => None,
        })
        .filter(|&(a, shape, _)| match (a, shape) {
            ("hostspec", _) => !has(&attrs, "host"),
            (_, Shape::ReturnCode) => !has(&attrs, a) || !has(&attrs, "reason_hex"),
            _ => !has(&attrs, a),
        })
        .filter(|&(_, _, english)| !text.contains(english))
        .map(|(a, shape, _)| (a, shape))
        .collect();
    if !wanted.is_empty() {
        let taken: Vec<&str> = attrs.iter().map(|(_, v)| v.as_ref()).collect();
        for (name, value) in localised::values(text, &wanted, &taken) {
            apply(&mut attrs, name, Cow::Owned(value));
        }
    }
    // A slow look-up of an IP address, or through getnameinfo, is a
    // reverse (PTR) look-up: REVDNS(DISABLED) is then the remedy.
    if base == "AMQ9788" {
        let func = attr(&attrs, "function").unwrap_or("");
        let addr = attr(&attrs, "address").unwrap_or("");
        let reverse = func == "getnameinfo" || is_ip(addr);
        set_once(
            &mut attrs,
            "reverse",
            Cow::Borrowed(if reverse { "true" } else { "false" }),
        );
    }
    Extracted {
        msgid,
        severity,
        family: entry.map(|e| e.family.as_str()),
        attrs,
        row,
    }
}

/// Set the attributes `value` gives for field `name` (compound names
/// split), each only when not set yet.
fn apply<'a>(attrs: &mut Found<'a>, name: &'static str, value: Value<'a>) {
    match name {
        "hostspec" => match value {
            // Borrowed parts of a borrowed value; copies of an owned one.
            Cow::Borrowed(v) => {
                for (k, p) in host_parts(v) {
                    set_once(attrs, k, Cow::Borrowed(p));
                }
            }
            Cow::Owned(v) => {
                for (k, p) in host_parts(&v) {
                    set_once(attrs, k, Cow::Owned(p.to_string()));
                }
            }
        },
        "rc_hex" => {
            if let Ok(v) = u64::from_str_radix(&value, 16) {
                set_once(attrs, "reason", Cow::Owned(v.to_string()));
            }
            set_once(attrs, "reason_hex", value);
        }
        "channel" if is_unknown(&value) => {}
        "address" if is_unknown(&value) => {}
        name => set_once(attrs, name, value),
    }
}

/// A host spec's `host`, `address` and `port`, those it states.
fn host_parts(v: &str) -> impl Iterator<Item = (&'static str, &str)> {
    split_host(v).into_iter().flat_map(|h| {
        [
            ("host", Some(h.host)),
            ("address", h.address),
            ("port", h.port),
        ]
        .into_iter()
        .filter_map(|(k, p)| Some((k, p?)))
    })
}

fn has(attrs: &[(&'static str, Value<'_>)], name: &str) -> bool {
    attrs.iter().any(|(k, _)| *k == name)
}

fn attr<'b>(attrs: &'b [(&'static str, Value<'_>)], name: &str) -> Option<&'b str> {
    attrs
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.as_ref())
}

fn set_once<'a>(attrs: &mut Found<'a>, name: &'static str, value: Value<'a>) {
    if attrs.iter().all(|(k, _)| *k != name) {
        attrs.push((name, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::normalise;

    fn get<'a>(x: &'a Extracted, k: &str) -> Option<&'a str> {
        attr(&x.attrs, k)
    }

    #[test]
    fn non_ascii_text_goes_to_the_regex() {
        let x = extract("AMQ9209E", "Connexion à l'hôte 'h1 (1.2.3.4)' fermée", &[]);
        assert_eq!(get(&x, "host"), Some("h1"));
        assert_eq!(get(&x, "address"), Some("1.2.3.4"));
    }

    #[test]
    fn slow_dns_from_wrapped_text() {
        let text = normalise(
            "Slow DNS lookup for address 'LOCALHOST'. An attempt to resolve address\n\
             'LOCALHOST' using the 'getaddrinfo' function call\ntook 5 seconds to complete.",
        );
        let x = extract("AMQ9788W", &text, &[]);
        assert_eq!(x.msgid, "AMQ9788W");
        assert_eq!(x.family, Some("dns"));
        assert_eq!(get(&x, "address"), Some("LOCALHOST"));
        assert_eq!(get(&x, "function"), Some("getaddrinfo"));
        assert_eq!(get(&x, "seconds"), Some("5"));
        assert_eq!(get(&x, "reverse"), Some("false"));
    }

    #[test]
    fn slow_dns_typographic_quotes_and_reverse() {
        let text = normalise(
            "Slow DNS lookup for address \u{2018}10.1.2.3\u{2019}. using the \u{2018}getnameinfo\u{2019} function call took 10 seconds",
        );
        let x = extract("AMQ9788", &text, &[]);
        assert_eq!(x.msgid, "AMQ9788W");
        assert_eq!(x.severity, Some('W'));
        assert_eq!(get(&x, "address"), Some("10.1.2.3"));
        assert_eq!(get(&x, "reverse"), Some("true"));
    }

    #[test]
    fn channel_ended_abnormally_prefers_inserts() {
        let x = extract(
            "AMQ9999E",
            "Channel 'TO.QM2' to host 'other (10.0.0.1)' ended abnormally.",
            &[
                ("CommentInsert1", "TO.QM2"),
                ("CommentInsert2", "5464(12000)"),
                ("CommentInsert3", "qm2host (10.9.8.7)(1414)"),
            ],
        );
        assert_eq!(get(&x, "channel"), Some("TO.QM2"));
        assert_eq!(get(&x, "host"), Some("qm2host"));
        assert_eq!(get(&x, "address"), Some("10.9.8.7"));
        assert_eq!(get(&x, "port"), Some("1414"));
    }

    #[test]
    fn old_release_without_letter_gets_catalogue_severity() {
        let text = normalise(
            "Channel 'NB.SVR' timed out. The address of the remote end of the connection was\n'10.123.1.22'. The return code from the select() [TIMEOUT] 14 seconds call was 4 (X'4').",
        );
        let x = extract("AMQ9271", &text, &[]);
        assert_eq!(x.msgid, "AMQ9271E");
        assert_eq!(get(&x, "channel"), Some("NB.SVR"));
        assert_eq!(get(&x, "host"), Some("10.123.1.22"));
        assert_eq!(get(&x, "address"), Some("10.123.1.22"));
        assert_eq!(get(&x, "seconds"), Some("14"));
        assert_eq!(get(&x, "function"), Some("select"));
        assert_eq!(get(&x, "reason"), Some("4"));
        assert_eq!(get(&x, "reason_hex"), Some("4"));
    }

    #[test]
    fn tcp_return_codes() {
        let x = extract(
            "AMQ9208E",
            "Error on receive from host 'app1 (10.1.1.5)(51234)'. An error occurred receiving data from 'app1 (10.1.1.5)(51234)' over TCP/IP. The return code from the TCP/IP recv() call was 104 (X'68').",
            &[],
        );
        assert_eq!(get(&x, "host"), Some("app1"));
        assert_eq!(get(&x, "port"), Some("51234"));
        assert_eq!(get(&x, "function"), Some("recv"));
        assert_eq!(get(&x, "reason"), Some("104"));
        assert_eq!(get(&x, "reason_hex"), Some("68"));
        let x = extract(
            "AMQ9213",
            "A communications error for TCP/IP occurred. The return code from the TCP/IP (bind) call was 10048 (X'2740').",
            &[],
        );
        assert_eq!(get(&x, "function"), Some("bind"));
        assert_eq!(get(&x, "reason"), Some("10048"));
        let x = extract(
            "AMQ9202",
            "Remote host '11.2.34.55 (1414)' not available, retry later. The return code from TCP/IP is 145 (X'91').",
            &[],
        );
        assert_eq!(get(&x, "host"), Some("11.2.34.55"));
        assert_eq!(get(&x, "port"), Some("1414"));
        assert_eq!(get(&x, "reason"), Some("145"));
        assert_eq!(get(&x, "function"), None);
    }

    #[test]
    fn remote_host_is_authoritative_and_unknown_channel_dropped() {
        let x = extract(
            "AMQ9207E",
            "The data received from host 'scanner.example (192.0.2.9)' on channel '????' is not valid.",
            &[
                ("RemoteHost", "192.0.2.77"),
                ("CommentInsert1", "192.0.2.9"),
            ],
        );
        assert_eq!(get(&x, "channel"), None);
        assert_eq!(get(&x, "host"), Some("scanner.example"));
        assert_eq!(get(&x, "address"), Some("192.0.2.77"));
    }

    #[test]
    fn french_and_german_texts() {
        let x = extract(
            "AMQ9202",
            "Le système hôte éloigné 'farm (192.168.0.58) (14152)' est indisponible.",
            &[],
        );
        assert_eq!(get(&x, "host"), Some("farm"));
        assert_eq!(get(&x, "address"), Some("192.168.0.58"));
        assert_eq!(get(&x, "port"), Some("14152"));
        let x = extract(
            "AMQ9999",
            "Kanal 'A.B' zum Host 'h1' wurde abnormal beendet.",
            &[],
        );
        assert_eq!(get(&x, "channel"), Some("A.B"));
        assert_eq!(get(&x, "host"), Some("h1"));
    }

    #[test]
    fn csqx_fields() {
        let x = extract(
            "CSQX209E",
            "Connection unexpectedly terminated, channel SYSTEM.DEF.SVRCONN connection 9.68.254.236 (9.68.254.236) (queue manager M9AD) TRPTYPE=TCP RC=00000468",
            &[],
        );
        assert_eq!(x.family, Some("channel"));
        assert_eq!(get(&x, "channel"), Some("SYSTEM.DEF.SVRCONN"));
        assert_eq!(get(&x, "host"), Some("9.68.254.236"));
        assert_eq!(get(&x, "address"), Some("9.68.254.236"));
        assert_eq!(get(&x, "trptype"), Some("TCP"));
        assert_eq!(get(&x, "reason"), Some("1128"));
        assert_eq!(get(&x, "reason_hex"), Some("00000468"));
        assert_eq!(get(&x, "qmgr"), Some("M9AD"));
        let x = extract("CSQX000I", "Channel initiator starting", &[]);
        assert_eq!(get(&x, "channel"), None);
        assert_eq!(x.family, None);
        let x = extract(
            "CSQX489E",
            "Maximum instance limit 20, exceeded, channel APP.SVRCONN connection 10.2.3.4",
            &[],
        );
        assert_eq!(get(&x, "limit"), Some("20"));
        assert_eq!(get(&x, "channel"), Some("APP.SVRCONN"));
    }

    /// The values grouping and the rules use.
    fn keyed<'a>(x: &'a Extracted<'_>) -> Vec<(&'static str, &'a str)> {
        let keys = [
            "channel",
            "host",
            "address",
            "port",
            "function",
            "reason",
            "reason_hex",
            "seconds",
            "reverse",
        ];
        let mut v: Vec<_> = x
            .attrs
            .iter()
            .filter(|(k, _)| keys.contains(k))
            .map(|(k, v)| (*k, v.as_ref()))
            .collect();
        v.sort_unstable();
        v
    }

    /// Each localised record, written after the structure of real ones
    /// (summary, explanation, action joined), gives what its English
    /// record gives. Ids with and without the severity letter alike.
    #[test]
    fn localised_records_give_the_english_values() {
        let cases: [(&str, &str, &[&str]); 4] = [
            (
                "AMQ9208E",
                "Error on receive from host 'app1 (10.1.1.5)(51234)'. An error occurred \
                 receiving data from 'app1 (10.1.1.5)(51234)' over TCP/IP. The channel name is \
                 'APP1.SVRCONN'. This may be due to a communications failure. The return code \
                 from the TCP/IP recv() call was 104 (X'68'). Record these values.",
                &[
                    "Fehler beim Empfangen von Host 'app1 (10.1.1.5)(51234)'. Beim Empfangen \
                     von Daten von 'app1 (10.1.1.5)(51234)' über TCP/IP ist ein Fehler \
                     aufgetreten. Der Kanalname ist 'APP1.SVRCONN'. Die Ursache kann ein \
                     Kommunikationsfehler sein. Der Rückgabecode vom TCP/IP-Aufruf recv() war \
                     104 (X'68'). Notieren Sie diese Werte.",
                    "Erreur lors de la réception depuis l'hôte « app1 (10.1.1.5)(51234) ». Une \
                     erreur s'est produite lors de la réception de données de « app1 \
                     (10.1.1.5)(51234) » via TCP/IP. Le nom du canal est « APP1.SVRCONN ». Le \
                     code retour de l'appel TCP/IP recv() était 104 (X'68').",
                    "Ошибка при получении данных с хоста 'app1 (10.1.1.5)(51234)'. При \
                     получении данных с 'app1 (10.1.1.5)(51234)' по TCP/IP произошла ошибка. \
                     Имя канала - 'APP1.SVRCONN'. Код возврата вызова TCP/IP recv() - 104 \
                     (X'68').",
                    "ホスト 'app1 (10.1.1.5)(51234)' からの受信でエラーが発生しました。 TCP/IP \
                     を介した 'app1 (10.1.1.5)(51234)' からのデータ受信中にエラーが発生しました。\
                     チャネル名は「APP1.SVRCONN」です。 TCP/IP の recv() 呼び出しからの戻りコードは \
                     104 (X'68') でした。",
                ],
            ),
            (
                "AMQ9209",
                "Connection to host 'app01 (10.1.2.3)' for channel 'APP1.SVRCONN' closed. An \
                 error occurred receiving data from 'app01 (10.1.2.3)' over TCP/IP.",
                &[
                    "Die Verbindung zum Host 'app01 (10.1.2.3)' für Kanal 'APP1.SVRCONN' wurde \
                     geschlossen.",
                    "La connexion à l'hôte 'app01 (10.1.2.3)' pour le canal 'APP1.SVRCONN' a \
                     été fermée.",
                    "Соединение с хостом 'app01 (10.1.2.3)' для канала 'APP1.SVRCONN' закрыто.",
                    "チャネル 'APP1.SVRCONN' のホスト 'app01 (10.1.2.3)' への接続がクローズされました。",
                ],
            ),
            (
                "AMQ9999E",
                "Channel 'QM1.QM2' to host 'srv02 (10.0.0.5)(1414)' ended abnormally. The \
                 channel program running under process ID 4512(3096) for channel 'QM1.QM2' \
                 ended abnormally.",
                &[
                    "Kanal 'QM1.QM2' zum Host 'srv02 (10.0.0.5)(1414)' wurde abnormal beendet.",
                    "Le canal 'QM1.QM2' vers l'hôte 'srv02 (10.0.0.5)(1414)' s'est arrêté de \
                     façon anormale.",
                    "Канал 'QM1.QM2' к хосту 'srv02 (10.0.0.5)(1414)' аварийно завершил работу. \
                     Программа канала, работавшая в процессе 4512(3096), аварийно завершила \
                     работу. Имя канала: 'QM1.QM2'.",
                    // The host before the channel: shapes, not order.
                    "ホスト 'srv02 (10.0.0.5)(1414)' へのチャネル 'QM1.QM2' が異常終了しました。",
                ],
            ),
            (
                "AMQ9788",
                "Slow DNS lookup for address 'centos6'. An attempt to resolve address \
                 'centos6' using the 'getaddrinfo' function call took 5 seconds to complete.",
                &[
                    "Langsame DNS-Suche für Adresse 'centos6'. Ein Versuch, die Adresse \
                     'centos6' mit dem Funktionsaufruf 'getaddrinfo' aufzulösen, dauerte 5 \
                     Sekunden.",
                    "Recherche DNS lente pour l'adresse 'centos6'. Une tentative de résolution \
                     de l'adresse 'centos6' à l'aide de l'appel de fonction 'getaddrinfo' a \
                     pris 5 secondes.",
                    "Медленный поиск DNS для адреса 'centos6'. Попытка разрешить адрес \
                     'centos6' с помощью вызова функции 'getaddrinfo' заняла 5 секунд.",
                    "アドレス 'centos6' の DNS 検索が低速です。 'getaddrinfo' 関数呼び出しを使用して\
                     アドレス 'centos6' を解決しようとしましたが、完了までに 5 秒かかりました。",
                ],
            ),
        ];
        for (id, english, others) in cases {
            let en_text = normalise(english);
            let en = extract(id, &en_text, &[]);
            assert!(keyed(&en).len() >= 3, "{id}: {:?}", en.attrs);
            for other in others {
                let other = normalise(other);
                let x = extract(id, &other, &[]);
                assert_eq!(x.msgid, en.msgid, "{other}");
                assert_eq!(keyed(&x), keyed(&en), "{other}");
                // Without the letter, the same message.
                let bare = extract(base_id(id), &other, &[]);
                assert_eq!(bare.msgid, en.msgid, "{other}");
                assert_eq!(keyed(&bare), keyed(&en), "{other}");
            }
        }
    }

    /// Every catalogued AMQ message with inserts beyond those above and
    /// without a real localised text (`samples.rs` has those, and names
    /// the rest): the same record in English and in Russian (our
    /// translations, the inserts quoted as MQ quotes them, in another
    /// order where Russian puts them so) gives the same fields. z/OS (CSQ)
    /// messages are written in English only.
    #[test]
    fn every_message_with_inserts_gives_its_fields_in_another_language() {
        let keys = [
            "channel",
            "host",
            "address",
            "port",
            "function",
            "reason",
            "reason_hex",
            "seconds",
            "client_user",
            "appl",
            "object",
            "dlq_location",
            "qmgr",
        ];
        let fields = |x: &Extracted<'_>| -> Vec<(&'static str, String)> {
            let mut v: Vec<_> = x
                .attrs
                .iter()
                .filter(|(k, _)| keys.contains(k))
                .map(|(k, v)| (*k, v.to_string()))
                .collect();
            v.sort_unstable();
            v
        };
        let cases: &[(&str, &str, &str, usize)] = &[
            (
                "AMQ9544",
                "Messages not put to destination queue. During the processing of channel \
                 'QM1.QM2' one or more messages could not be put to the destination queue and \
                 attempts were made to put them to a dead-letter queue. The location of the \
                 queue is 2, where 1 is the local dead-letter queue and 2 is the remote \
                 dead-letter queue. The program identifier (PID) of the processing program \
                 was '3017'.",
                "Сообщения не помещены в целевую очередь. Идентификатор процесса (PID) \
                 программы обработки: '3017'. Во время обработки канала 'QM1.QM2' одно или \
                 несколько сообщений не удалось поместить в целевую очередь. Расположение \
                 очереди - 2, где 1 - локальная очередь недоставленных сообщений, а 2 - \
                 удаленная.",
                2,
            ),
            (
                "AMQ9207",
                "The data received from host '192.0.2.15' on channel '????' is not valid. \
                 Incorrect data format received from host '192.0.2.15' over TCP/IP.",
                "Данные, полученные с хоста '192.0.2.15' по каналу '????', недопустимы.",
                2,
            ),
            (
                "AMQ9271",
                "Channel 'NB.SVR' timed out. The address of the remote end of the connection \
                 was '10.123.1.22'. The return code from the select() [TIMEOUT] 14 seconds \
                 call was 4 (X'4').",
                "Тайм-аут канала 'NB.SVR'. Адрес удаленного конца соединения: '10.123.1.22'. \
                 Ожидание 14 секунд; код возврата вызова select() - 4 (X'4').",
                7,
            ),
            (
                "AMQ9519",
                "Channel 'QA.SVRCONN.CHL' not found. The requested operation failed because \
                 the program could not find a definition of channel 'QA.SVRCONN.CHL'.",
                "Канал 'QA.SVRCONN.CHL' не найден.",
                1,
            ),
            (
                "AMQ9520",
                "Channel not defined remotely. There is no definition of channel 'TO.QM9' \
                 at the remote location.",
                "Канал не определен удаленно. В удаленном расположении нет определения канала \
                 'TO.QM9'.",
                1,
            ),
            (
                "AMQ9780",
                "Channel to remote machine '192.168.253.160' is ending due to an error. \
                 Channel program '???' is ending because an error occurred while \
                 communicating with the remote machine '192.168.253.160'.",
                "Канал к удаленной машине '192.168.253.160' завершается из-за ошибки.",
                2,
            ),
            (
                "AMQ9633",
                "Bad SSL certificate for channel 'APP.TLS.SVRCONN'. A certificate encountered \
                 during SSL handshaking is regarded as bad. The remote host is \
                 'app7 (10.20.30.7)(40112)'.",
                "Недопустимый сертификат SSL для канала 'APP.TLS.SVRCONN'. Удаленный хост: \
                 'app7 (10.20.30.7)(40112)'.",
                4,
            ),
            (
                "AMQ9636",
                "SSL distinguished name does not match peer name, channel 'TO.QM2'. The \
                 remote host is 'qm2host (10.0.0.2)(1414)'.",
                "Отличительное имя SSL не совпадает с именем партнера, канал 'TO.QM2'. \
                 Удаленный хост: 'qm2host (10.0.0.2)(1414)'.",
                4,
            ),
            (
                "AMQ9777",
                "Channel was blocked. The inbound channel 'GW.SVRCONN' was blocked from \
                 address '192.0.2.77' because the active values of the channel matched a \
                 record configured with USERSRC(NOACCESS).",
                "Канал заблокирован. Входящий канал 'GW.SVRCONN' заблокирован для адреса \
                 '192.0.2.77', так как активные значения канала совпали с записью \
                 USERSRC(NOACCESS).",
                3,
            ),
            (
                "AMQ5534",
                "User ID 'appuser' authentication failed. The user ID and password supplied \
                 by the 'amqsputc' program could not be authenticated.",
                "Ошибка идентификации ИД пользователя 'appuser'. ИД пользователя и пароль, \
                 переданные программой 'amqsputc', не прошли проверку.",
                2,
            ),
            // AMQ5540 is tested on a real Japanese record (`samples.rs`).
            (
                "AMQ5541",
                "The failed authentication check was caused by the queue manager CONNAUTH \
                 CHCKCLNT(REQDADM) configuration. The user ID 'mqm' and its password were \
                 checked.",
                "Сбой проверки идентификации вызван конфигурацией CONNAUTH CHCKCLNT(REQDADM) \
                 администратора очередей. Проверены ИД пользователя 'mqm' и его пароль.",
                1,
            ),
            (
                "AMQ5542",
                "The failed authentication check was caused by the queue manager CONNAUTH \
                 CHCKCLNT(REQDADM) configuration. The user ID 'appuser' and its password \
                 were checked.",
                "Сбой проверки идентификации вызван конфигурацией CONNAUTH CHCKCLNT(REQDADM) \
                 администратора очередей. Проверены ИД пользователя 'appuser' и его пароль.",
                1,
            ),
            (
                "AMQ9557",
                "Queue Manager User ID initialization failed for 'root'. The call to \
                 initialize the User ID 'root' failed with CompCode 2 and Reason 2035.",
                "Сбой инициализации ИД пользователя администратора очередей для 'root'.",
                1,
            ),
            (
                "AMQ8077",
                "Entity 'payapp' has insufficient authority to access object 'PAYMENT.IN'. \
                 The following requested permissions are unauthorized: put",
                "У объекта 'payapp' недостаточно прав доступа к объекту 'PAYMENT.IN'.",
                2,
            ),
            (
                "AMQ7463",
                "The log for queue manager 'QMLOG' is full.",
                "Журнал администратора очередей 'QMLOG' переполнен.",
                1,
            ),
        ];
        for &(id, english, other, n) in cases {
            let en_text = normalise(english);
            let en = fields(&extract(id, &en_text, &[]));
            let ru_text = normalise(other);
            let ru = fields(&extract(id, &ru_text, &[]));
            // The values a localised text can hold: the English record's
            // fields that its Russian one repeats.
            let en: Vec<_> = en
                .into_iter()
                .filter(|(k, _)| *k != "reason" || id != "AMQ9557")
                .collect();
            assert_eq!(ru, en, "{id}: {other}");
            assert_eq!(en.len(), n, "{id}: {en:?}");
        }
    }

    #[test]
    fn localised_reverse_lookup_and_bare_names_in_order() {
        let text = normalise(
            "アドレス '10.1.2.3' の DNS 検索が低速です。 'getnameinfo' 関数呼び出しで 10 秒かかりました。",
        );
        let x = extract("AMQ9788W", &text, &[]);
        assert_eq!(get(&x, "address"), Some("10.1.2.3"));
        assert_eq!(get(&x, "function"), Some("getnameinfo"));
        assert_eq!(get(&x, "seconds"), Some("10"));
        assert_eq!(get(&x, "reverse"), Some("true"));
        // Two bare names: the English order (channel, then host).
        let x = extract(
            "AMQ9999",
            "Канал 'QM1.QM2' к хосту 'srv02' аварийно завершил работу.",
            &[],
        );
        assert_eq!(get(&x, "channel"), Some("QM1.QM2"));
        assert_eq!(get(&x, "host"), Some("srv02"));
        assert_eq!(get(&x, "address"), None);
    }

    #[test]
    fn inserts_win_over_localised_text() {
        let text = normalise(
            "Fehler beim Empfangen von Daten 'app1 (10.1.1.5)(51234)'. Der Kanalname ist \
             'APP1.SVRCONN'. Der Rückgabecode vom TCP/IP-Aufruf recv() war 104 (X'68').",
        );
        let x = extract(
            "AMQ9208E",
            &text,
            &[
                ("ArithInsert1", "10054"),
                ("CommentInsert1", "other (10.9.9.9)(1414)"),
                ("CommentInsert2", "TCP/IP"),
                ("CommentInsert3", "send"),
            ],
        );
        assert_eq!(get(&x, "host"), Some("other"));
        assert_eq!(get(&x, "address"), Some("10.9.9.9"));
        assert_eq!(get(&x, "function"), Some("send"));
        assert_eq!(get(&x, "reason"), Some("10054"));
        // The text's own values fill only what the inserts do not carry.
        assert_eq!(get(&x, "reason_hex"), Some("68"));
        assert_eq!(get(&x, "channel"), Some("APP1.SVRCONN"));
    }

    #[test]
    fn english_texts_do_not_use_the_fallback() {
        // The English AMQ9208 names no channel: a quoted MQ name elsewhere
        // in it is not taken for one.
        let x = extract(
            "AMQ9208E",
            "Error on receive from host 'app1 (10.1.1.5)(51234)'. See 'AMQERR01'.",
            &[],
        );
        assert_eq!(get(&x, "channel"), None);
    }
}

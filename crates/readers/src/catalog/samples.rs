//! Every catalogued message against a real text of it in another
//! language: the same record in English and in that language gives the
//! same fields, with and without the inserts MQ 9.1 and later write. A
//! message with no real localised text to test is named in `NOT_COVERED`
//! with the reason, so none is left out unseen.
//!
//! Texts are real, never our translations. Two kinds:
//! * records of real logs: elastic/beats
//!   `x-pack/filebeat/module/ibmmq/errorlog/test/AMQERR01_QM1.log` and
//!   `AMQERR01_QM2.log` (MQ 9.0.0.2 and 9.1.0.0, Windows, a German user
//!   locale, with English records of the same queue manager);
//! * IBM's message reference, whose texts write the inserts as
//!   `<insert_N>` (`<einfügen_N>`, `<inserimento_N>`, `<插入_N>`): the
//!   8.0 pages https://www.ibm.com/docs/de/SSFKSJ_8.0.0/reference/amq9.html,
//!   https://www.ibm.com/docs/it/SSFKSJ_8.0.0/com.ibm.mq.ref.doc/amq9.html,
//!   https://www.ibm.com/docs/zh-tw/SSFKSJ_8.0.0/com.ibm.mq.ref.doc/amq9.htm
//!   and the English https://ibm.com/docs/SSFKSJ_9.2.0/com.ibm.mq.ref.doc/amq9.html
//!   and amq8.html. A record is the template with each insert written as
//!   the log writes it: a name in quotes. (The reference drops the quotes:
//!   its AMQ8003 reads `queue manager <insert_5> started using
//!   V<insert_3>`, the log `queue manager 'QM1' started using V9.0.0.2`.)
//!
//! Insert positions: `<insert_1>`, `<insert_2>` are `ArithInsert1`, `2`;
//! `<insert_3>` to `<insert_5>` are `CommentInsert1` to `3` (AMQ8003 in
//! the beats log: `CommentInsert1(9.1.0.0)`, `CommentInsert3(QM2)`).

use super::{CATALOG, Extracted, extract, normalise};

/// One message in English and another language.
struct Pair {
    id: &'static str,
    english: &'static str,
    /// Language code and text.
    other: &'static [(&'static str, &'static str)],
    /// The inserts a 9.1 record of it carries, as the beats log writes
    /// them, or what the template's positions hold.
    inserts: &'static [(&'static str, &'static str)],
}

/// Summary, explanation and action joined, as the readers join them.
const PAIRS: &[Pair] = &[
    Pair {
        id: "AMQ5051",
        english: "The queue manager task 'LOGGER-IO' has started. The critical utility task \
                  manager has started the LOGGER-IO task. This task has now started 1 times. \
                  None.",
        other: &[(
            "de",
            "Die WS-Manager-Task 'LOGGER-IO' wurde gestartet. Die Task 'LOGGER-IO' wurde vom \
             Task-Manager für kritische Dienstprogramme gestartet. Diese Task wurde jetzt 1 Mal \
             gestartet. Keine.",
        )],
        inserts: &[("ArithInsert2", "1"), ("CommentInsert1", "LOGGER-IO")],
    },
    Pair {
        id: "AMQ5037",
        english: "The queue manager task 'ERROR-LOG' has started. The restartable utility task \
                  manager has started the ERROR-LOG task. This task has now started 1 times. \
                  None.",
        other: &[(
            "de",
            "Die WS-Manager-Task 'ERROR-LOG' wurde gestartet. Die Task 'ERROR-LOG' wurde vom \
             Task-Manager für wieder anlauffähige Dienstprogramme gestartet. Diese Task wurde \
             jetzt 1 Mal gestartet. Keine.",
        )],
        inserts: &[("ArithInsert2", "1"), ("CommentInsert1", "ERROR-LOG")],
    },
    Pair {
        id: "AMQ8003",
        english: "IBM MQ queue manager 'QM1' started using V9.0.0.2. IBM MQ queue manager 'QM1' \
                  started using V9.0.0.2. None.",
        other: &[(
            "de",
            "IBM MQ-WS-Manager 'QM1' wurde mit V9.0.0.2 gestartet. IBM MQ-WS-Manager 'QM1' \
             wurde mit V9.0.0.2 gestartet. Keine.",
        )],
        inserts: &[("CommentInsert1", "9.0.0.2"), ("CommentInsert3", "QM1")],
    },
    Pair {
        id: "AMQ8004",
        // The reference's text; the beats log's German record.
        english: "IBM MQ queue manager 'QM1' ended. IBM MQ queue manager 'QM1' ended. None.",
        other: &[(
            "de",
            "IBM MQ-Warteschlangenmanager 'QM1' wurde beendet. Der IBM \
             MQ-Warteschlangenmanager 'QM1' wurde beendet. Keine.",
        )],
        inserts: &[("CommentInsert3", "QM1")],
    },
    Pair {
        id: "AMQ5540",
        // Both from IBM's technotes on this failure: the English record of
        // swg21680930 and the Japanese one of swg21651526, which quotes
        // the record as the log wrapped it (inside a word) and was read
        // here only up to its summary's last words ("...を提供しま").
        english: "Application 'Sphere MQ\\bin64\\amqsputc.exe' did not supply a user ID and \
                  password. The queue manager is configured to require a user ID and password, \
                  but none was supplied.",
        other: &[(
            "ja",
            "アプリケーション 'Sphere MQ\\bin64\\amqsputc.exe' はユーザー ID とパ\nスワードを提供しま",
        )],
        inserts: &[],
    },
    Pair {
        id: "AMQ9001",
        english: "Channel 'TO.QM2' ended normally. Channel 'TO.QM2' to host \
                  'qm2host (10.0.0.2)(1414)' ended normally. None.",
        other: &[
            (
                "de",
                // The German reference says "abnormal" in the explanation
                // of this message; the text is as IBM wrote it.
                "Kanal 'TO.QM2' normal beendet. Kanal 'TO.QM2' zum Host \
                 'qm2host (10.0.0.2)(1414)' wurde abnormal beendet. Keine.",
            ),
            (
                "it",
                "Canale 'TO.QM2' terminato in modo normale. Canale 'TO.QM2' all'host \
                 'qm2host (10.0.0.2)(1414)' terminato in modo normale. Nessuno.",
            ),
            (
                "zh-tw",
                "通道 'TO.QM2' 已正常結束。 到主機 'qm2host (10.0.0.2)(1414)' 的通道 'TO.QM2' \
                 已正常結束。 無。",
            ),
        ],
        inserts: &[
            ("CommentInsert1", "TO.QM2"),
            ("CommentInsert3", "qm2host (10.0.0.2)(1414)"),
        ],
    },
    Pair {
        id: "AMQ9002",
        english: "Channel 'TO.QM2' is starting. Channel 'TO.QM2' is starting. None.",
        other: &[
            (
                "de",
                "Kanal 'TO.QM2' wird gestartet. Kanal 'TO.QM2' wird gestartet. Keine.",
            ),
            (
                "it",
                "Canale 'TO.QM2' in fase di avvio. Canale 'TO.QM2' in fase di avvio. Nessuna.",
            ),
            (
                "zh-tw",
                "通道 'TO.QM2' 正在啟動。 通道 'TO.QM2' 正在啟動。 無。",
            ),
        ],
        inserts: &[("CommentInsert1", "TO.QM2")],
    },
];

/// No real text in another language was found for these (IBM's
/// reference pages in other languages could be read here only from their
/// start, and no public log of them in another language was found). Their
/// localised records still go through the shape fallback of
/// `localised.rs` where the row has `loc` fields.
const NOT_COVERED: &[&str] = &[
    "AMQ9788", "AMQ9202", "AMQ9203", "AMQ9206", "AMQ9207", "AMQ9208", "AMQ9209", "AMQ9213",
    "AMQ9259", "AMQ9271", "AMQ9503", "AMQ9507", "AMQ9508", "AMQ9513", "AMQ9519", "AMQ9520",
    "AMQ9524", "AMQ9526", "AMQ9544", "AMQ7463", "AMQ9558", "AMQ9999", "AMQ9780", "AMQ9631",
    "AMQ9633", "AMQ9635", "AMQ9636", "AMQ9637", "AMQ9638", "AMQ9639", "AMQ9641", "AMQ9642",
    "AMQ9643", "AMQ9660", "AMQ9665", "AMQ9776", "AMQ9777", "AMQ5534", "AMQ5541", "AMQ5542",
    "AMQ9557", "AMQ8077", "AMQ6184", "AMQ6118", "AMQ6119", "AMQ6125", "AMQ5806", "AMQ6287",
    "AMQ7467", "AMQ7468", "AMQ9542",
    // The German record is real (beats), the English wording was not
    // found in a source here.
    "AMQ5041",
];

/// z/OS channel-initiator (`CSQX`) and RACF (`ICH`) messages: not covered
/// either. IBM's reference documents the CSQX texts in other languages too
/// (its Chinese 9.4 page), but no job log written in another language was
/// seen, so neither its layout nor its inserts' quoting is known.
fn zos_not_covered(id: &str) -> bool {
    id.starts_with("CSQ") || id.starts_with("ICH")
}

fn fields(x: &Extracted<'_>) -> Vec<(&'static str, String)> {
    let mut v: Vec<_> = x.attrs.iter().map(|(k, v)| (*k, v.to_string())).collect();
    v.sort_unstable();
    v
}

#[test]
fn every_catalogued_message_is_covered_or_named() {
    for e in CATALOG {
        let paired = PAIRS.iter().filter(|p| p.id == e.id).count();
        let named = NOT_COVERED.iter().filter(|&&i| i == e.id).count();
        if zos_not_covered(e.id) {
            assert_eq!((paired, named), (0, 0), "{}", e.id);
        } else {
            assert_eq!(paired + named, 1, "{}: in PAIRS or NOT_COVERED, once", e.id);
        }
    }
    for id in PAIRS
        .iter()
        .map(|p| p.id)
        .chain(NOT_COVERED.iter().copied())
    {
        assert!(CATALOG.iter().any(|e| e.id == id), "{id} is not catalogued");
    }
}

#[test]
fn each_localised_record_gives_the_english_fields() {
    for p in PAIRS {
        let en_text = normalise(p.english);
        let en = fields(&extract(p.id, &en_text, &[]));
        // Every covered message gives a field of its own: an empty list
        // would compare equal whatever the reader does.
        assert!(!en.is_empty(), "{}: no field in English", p.id);
        let en_ins = fields(&extract(p.id, &en_text, p.inserts));
        assert_eq!(en_ins, en, "{}: inserts and English text disagree", p.id);
        for (lang, text) in p.other {
            let text = normalise(text);
            let x = fields(&extract(p.id, &text, &[]));
            assert_eq!(x, en, "{} ({lang})", p.id);
            let x = fields(&extract(p.id, &text, p.inserts));
            assert_eq!(x, en, "{} ({lang}) with inserts", p.id);
        }
    }
}

/// The German AMQ5041 of the beats log gives its task from the text and
/// from the insert alike.
#[test]
fn a_german_task_end_gives_its_task() {
    let text = normalise(
        "Die WS-Manager-Task 'LOGGER-IO' wurde beendet. Die WS-Manager-Task 'LOGGER-IO' wurde \
         beendet. Keine.",
    );
    for inserts in [&[][..], &[("CommentInsert1", "LOGGER-IO")][..]] {
        let x = extract("AMQ5041", &text, inserts);
        assert_eq!(fields(&x), [("task", "LOGGER-IO".to_string())]);
    }
}

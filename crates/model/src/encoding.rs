//! How a file's bytes become text: the decision (`TextEncoding`) and what a
//! file's inventory row says of it (`EncodingNote`). The decoders are the
//! readers' (`mqdiag_readers::encoding`).

use std::sync::{Arc, OnceLock};

/// How a file's bytes become text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextEncoding {
    /// UTF-8 or plain ASCII (a UTF-8 BOM is read as text by the readers'
    /// trimming; nothing to convert).
    Utf8,
    /// Western European single-byte text: each non-UTF-8 line decoded as
    /// CP850 or Windows-1252, whichever reads more plausibly.
    Western,
    /// Forced CP850 (not one of `encoding_rs`'s Web encodings).
    Cp850,
    /// Any other character set, transcoded to UTF-8 as a stream.
    Other(&'static encoding_rs::Encoding),
}

impl TextEncoding {
    /// The name recorded in `inventory`.
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "utf-8",
            // Each line is the one or the other (see `text::decode_line`).
            TextEncoding::Western => "windows-1252/cp850",
            TextEncoding::Cp850 => "cp850",
            TextEncoding::Other(e) => pretty(e),
        }
    }

    /// Whether the stream must be converted before it is split into lines.
    pub fn transcodes(self) -> bool {
        matches!(self, TextEncoding::Cp850 | TextEncoding::Other(_))
    }

    /// `--encoding NAME`: any WHATWG label (`windows-1251`, `shift_jis`,
    /// `euc-jp`, `gbk`, `euc-kr`, `big5`, `utf-16le`, `ibm866`), the
    /// Windows spellings `cp1251` / `1251` / `ms932`, `cp850` and `latin1`.
    pub fn by_name(name: &str) -> Option<TextEncoding> {
        let n = name.trim().to_ascii_lowercase();
        match n.as_str() {
            "utf-8" | "utf8" | "ascii" | "us-ascii" => return Some(TextEncoding::Utf8),
            "cp850" | "850" | "ibm850" | "ibm-850" => return Some(TextEncoding::Cp850),
            "western" | "windows-1252/cp850" => return Some(TextEncoding::Western),
            "cp866" | "866" => return Some(TextEncoding::Other(encoding_rs::IBM866)),
            "cp932" | "932" | "ms932" | "sjis" => {
                return Some(TextEncoding::Other(encoding_rs::SHIFT_JIS));
            }
            "cp936" | "936" => return Some(TextEncoding::Other(encoding_rs::GBK)),
            "cp949" | "949" => return Some(TextEncoding::Other(encoding_rs::EUC_KR)),
            "cp950" | "950" => return Some(TextEncoding::Other(encoding_rs::BIG5)),
            _ => {}
        }
        // `cp1251`, `1251` → `windows-1251`.
        let digits = n.strip_prefix("cp").unwrap_or(&n);
        if digits.len() == 4 && digits.starts_with("125") {
            let e = encoding_rs::Encoding::for_label(format!("windows-{digits}").as_bytes())?;
            return Some(of(e));
        }
        encoding_rs::Encoding::for_label(n.as_bytes()).map(of)
    }
}

/// An `encoding_rs` encoding as ours: Windows-1252 (also what the WHATWG
/// labels `latin1` and `iso-8859-1` mean) keeps the per-line Western guess
/// only when detected; forced, it is forced.
pub fn of(e: &'static encoding_rs::Encoding) -> TextEncoding {
    if e == encoding_rs::UTF_8 {
        TextEncoding::Utf8
    } else {
        TextEncoding::Other(e)
    }
}

/// Lower-case names as users write them (`encoding_rs` says `Shift_JIS`).
fn pretty(e: &'static encoding_rs::Encoding) -> &'static str {
    match e.name() {
        "Shift_JIS" => "shift_jis",
        "EUC-JP" => "euc-jp",
        "EUC-KR" => "euc-kr",
        "GBK" => "gbk",
        "gb18030" => "gb18030",
        "Big5" => "big5",
        "UTF-16LE" => "utf-16le",
        "UTF-16BE" => "utf-16be",
        "IBM866" => "cp866",
        "ISO-8859-2" => "iso-8859-2",
        "ISO-8859-5" => "iso-8859-5",
        "ISO-8859-7" => "iso-8859-7",
        "KOI8-R" => "koi8-r",
        "KOI8-U" => "koi8-u",
        other => leak_lower(other),
    }
}

/// `windows-1251` and friends are already lower case; anything else is
/// rare, so a lower-cased copy per name is kept for the run.
fn leak_lower(s: &'static str) -> &'static str {
    if !s.bytes().any(|b| b.is_ascii_uppercase()) {
        return s;
    }
    use std::collections::HashMap;
    use std::sync::{LazyLock, Mutex};
    static NAMES: LazyLock<Mutex<HashMap<&'static str, &'static str>>> =
        LazyLock::new(Default::default);
    let mut m = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    m.entry(s)
        .or_insert_with(|| Box::leak(s.to_ascii_lowercase().into_boxed_str()))
}

/// The decision of a `LateDecide` reader, shared with the file's row.
pub type Later = Arc<OnceLock<TextEncoding>>;

/// A file's character set as its inventory row tells it: decided at open,
/// or (`LateDecide`) once the first non-ASCII byte was read.
#[derive(Debug, Clone)]
pub struct EncodingNote {
    pub(crate) at_open: TextEncoding,
    pub later: Option<Later>,
}

impl EncodingNote {
    pub fn new(at_open: TextEncoding, later: Option<Later>) -> EncodingNote {
        EncodingNote { at_open, later }
    }

    /// The decision in force: the late one once made.
    pub fn get(&self) -> TextEncoding {
        self.later
            .as_ref()
            .and_then(|l| l.get().copied())
            .unwrap_or(self.at_open)
    }
}

impl std::fmt::Display for EncodingNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.get().name())
    }
}

impl serde::Serialize for EncodingNote {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.get().name())
    }
}

//! What the header row says: which structure a file holds, the current name
//! of every column (old spellings mapped through the alias table), and
//! where the columns the reader needs are. Behaviour is data here: adding a
//! structure or a renamed column is one table row.

use mqdiag_model::event::{AttrName, Key};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Structures told apart by columns only they have, most specific first
/// (QCTADP has no column of its own: it is the task layout without the
/// DNS, SSL and dispatcher extras). Old spellings are listed beside the
/// current ones so that files from old formatter builds are recognised.
const SIGNATURES: &[(&str, &[&str])] = &[
    (
        "QCTDNS",
        &["Max_DNS_Request_Duration(S)", "Max_DNS_Request_Time (DATE)"],
    ),
    (
        "QCTSSL",
        &["Max_SSL_Request_Duration(S)", "Max_SSL_Request_Time (DATE)"],
    ),
    ("QCTDSP", &["Task_Channel_Count"]),
    ("QCTADP", &["Task_Elapsed_Time(S)"]),
    ("WQ", &["Open_Name", "OBJNAME"]),
    ("WTAS", &["WTAS_Interval_End (DATE)", "Block_Count"]),
    ("WTID", &["WTAS_Correlator", "Channel_Connection_Name"]),
    ("QMAC", &["Puts_Len_0to99", "Authorisation_ID"]),
    ("QCST", &["Chl_Name", "Collection_Time (DATE)"]),
    ("QQST", &["Queue_Disp", "QTime_Short"]),
    ("QPST", &["Lowest_Stealable"]),
    ("QMST", &["Inql", "Close_Handles"]),
    ("QIST", &["Msg_Browse_Lock", "Gets_From_Disk"]),
    ("QSST", &["Fixed_Pools_Alloc"]),
    ("QJST", &["WRT_Request_Wait", "Log_Writes"]),
    ("QLST", &["Get_Lock_Requests"]),
    ("QEST", &["IXLLSTE_Calls"]),
    ("QESD", &["Blocks_SMDS"]),
    ("QIS1", &["Unused_Pages"]),
    ("QCCT", &["Current_Chl_High_Water"]),
    ("Q5ST", &["Server_Tasks"]),
    ("QTST", &["Total_Subs_Count"]),
    ("QSGM", &["CSECT_Offset"]),
    ("QSPH", &["Records_per_Segment"]),
    ("QSRS", &["PHB_Global_Fixed"]),
];

/// Renamed columns: (structure, old base name, current base name). Base
/// names are without the `(S)`/`(US)`/` (DATE)`/` (TIME)` suffix, so one row
/// covers both halves of a pair. Sources: the mq-smf-csv history (raw
/// field names before June 2016, `Type` before the queue-type column was
/// named `Queue`, `Get_Pageset_Suspend_*` before v5.4.3, `Storage_Usage`
/// before v5.4.5).
const ALIASES: &[(&str, &str, &str)] = &[
    ("WQ", "Type", "Queue"),
    ("WQ", "Get_Pageset_Suspend_ET", "Get_Suspend_ET"),
    ("WQ", "Get_Pageset_Suspend_Count", "Get_Suspend_Count"),
    ("QCCT", "Storage_Usage", "Storage_Usage_31"),
    // WQ before June 2016: the IBM field names.
    ("WQ", "CORREL", "Correlation"),
    ("WQ", "OBJNAME", "Open_Name"),
    ("WQ", "BASENAME", "Base_Name"),
    ("WQ", "OPENTIME", "Open"),
    ("WQ", "CLOSETIME", "Close"),
    ("WQ", "QTYPE", "Queue"),
    ("WQ", "INDXTYPE", "Index"),
    ("WQ", "QSGDISP", "Scope"),
    ("WQ", "OPENET", "Open_ET"),
    ("WQ", "OPENCT", "Open_CT"),
    ("WQ", "OPENN", "Open_Count"),
    ("WQ", "CLOSEET", "Close_ET"),
    ("WQ", "CLOSECT", "Close_CT"),
    ("WQ", "CLOSEN", "Close_Count"),
    ("WQ", "GETET", "Get_ET"),
    ("WQ", "GETCT", "Get_CT"),
    ("WQ", "GETN", "Get_Count"),
    ("WQ", "GETBRWA", "Get_Browse_Any_Count"),
    ("WQ", "GETBRWS", "Get_Browse_Specific_Count"),
    ("WQ", "GETA", "Get_Dest_Any_Count"),
    ("WQ", "GETS", "Get_Dest_Specific_Count"),
    ("WQ", "GETERR", "Get_Invalid"),
    ("WQ", "GETDVAL", "Get_Valid"),
    ("WQ", "GETJWET", "Get_Log_UNF_ET"),
    ("WQ", "GETJWN", "Get_Log_UNF_Count"),
    ("WQ", "GETJCET", "Get_LogForce_ET"),
    ("WQ", "GETJCN", "Get_LogForce_Count"),
    ("WQ", "GETPSET", "Get_Pageset_ET"),
    ("WQ", "GETPSN", "Get_Pageset_Count"),
    ("WQ", "GETSUSET", "Get_Suspend_ET"),
    ("WQ", "GETSUSN", "Get_Suspend_Count"),
    ("WQ", "GETEPAGE", "Get_Pages_Skipped_Count"),
    ("WQ", "GETSMSG", "Get_Messages_Skipped_Count"),
    ("WQ", "GETEXMSG", "Get_Messages_Expired_Count"),
    ("WQ", "PUTET", "Put_ET"),
    ("WQ", "PUTCT", "Put_CT"),
    ("WQ", "PUTN", "Put_Count"),
    ("WQ", "PUTPWG", "Put_Waiting_Getter_Count"),
    ("WQ", "PUTIGQ", "Put_IGQ_Count"),
    ("WQ", "PUTJWET", "Put_Log_UNF_ET"),
    ("WQ", "PUTJWN", "Put_Log_UNF_Count"),
    ("WQ", "PUTJCET", "Put_LogForce_ET"),
    ("WQ", "PUTJCN", "Put_LogForce_Count"),
    ("WQ", "PUTSUSET", "Put_Suspend_ET"),
    ("WQ", "PUTSUSN", "Put_Suspend_Count"),
    ("WQ", "PUTPSET", "Put_Pageset_Access_ET"),
    ("WQ", "PUTPSN", "Put_Pageset_Access_Count"),
    ("WQ", "PUTDDLY", "Put_Delay_Count"),
    ("WQ", "PUT1ET", "Put1_ET"),
    ("WQ", "PUT1CT", "Put1_CT"),
    ("WQ", "PUT1N", "Put1_Count"),
    ("WQ", "PUT1PWG", "Put1_Waiting_Getter_Count"),
    ("WQ", "PUT1IGQ", "Put1_IGQ_Count"),
    ("WQ", "PUT1JWET", "Put1_Log_UNF_ET"),
    ("WQ", "PUT1JWN", "Put1_Log_UNF_Count"),
    ("WQ", "PUT1JCET", "Put1_LogForce_ET"),
    ("WQ", "PUT1JCN", "Put1_LogForce_Count"),
    ("WQ", "PUT1SUSET", "Put1_Suspend_ET"),
    ("WQ", "PUT1SUSN", "Put1_Suspend_Count"),
    ("WQ", "PUT1PSET", "Put1_Pageset_Access_ET"),
    ("WQ", "PUT1PSN", "Put1_Pageset_Access_Count"),
    ("WQ", "INQET", "Inq_ET"),
    ("WQ", "INQCT", "Inq_CT"),
    ("WQ", "INQN", "Inq_Count"),
    ("WQ", "SETET", "Set_ET"),
    ("WQ", "SETCT", "Set_CT"),
    ("WQ", "SETN", "Set_Count"),
    ("WQ", "SETJWET", "Set_UNF_Log_ET"),
    ("WQ", "SETJWN", "Set_UNF_Log_Count"),
    ("WQ", "SETJCET", "Set_LogForce_ET"),
    ("WQ", "SETJCN", "Set_LogForce_Count"),
    ("WQ", "NPS", "Pageset_ID"),
    ("WQ", "CFSTRUCNAME", "CF_Structure"),
    ("WQ", "NBUFFPOOL", "BufferPool_ID"),
    ("WQ", "PUTBYTES", "Total_Bytes_Put"),
    ("WQ", "GETBYTES", "Total_Bytes_Get"),
    ("WQ", "VALIDPUT", "Total_Valid_Puts"),
    ("WQ", "VALIDGET", "Total_Valid_Gets"),
    ("WQ", "NGEN", "Generated_Msgs"),
    ("WQ", "GETMAXMS", "Get_Max_Msg_Size"),
    ("WQ", "GETMINMS", "Get_Min_Msg_Size"),
    ("WQ", "PUTMAXMS", "Put_Max_Msg_Size"),
    ("WQ", "PUTMINMS", "Put_Min_Msg_Size"),
    ("WQ", "MAXLATNT", "Max_Time_On_Queue"),
    ("WQ", "MINLATNT", "Min_Time_On_Queue"),
    ("WQ", "TOTLATNT", "Total_Time_On_Queue"),
    ("WQ", "USE_COUNT", "Use_Count"),
    ("WQ", "TOTAL_USE", "Total_Use"),
    ("WQ", "GETPMSG", "Get_Persistent_Count"),
    ("WQ", "PUTPMSG", "Put_Persistent_Count"),
    ("WQ", "PUT1PMSG", "Put1_Persistent_Count"),
    ("WQ", "MAXQDPTH", "Max_Depth"),
    ("WQ", "SELCOUNT", "Select_Count"),
    ("WQ", "SELMAXLN", "Select_Max_Length"),
    ("WQ", "CBET", "CallBack_ET"),
    ("WQ", "CBCT", "CallBack_CT"),
    ("WQ", "CBN", "CallBack_Count"),
    ("WQ", "OPENSUET", "Open_Suspend_Time"),
    ("WQ", "OPENSUN", "Open_Suspend_Count"),
    ("WQ", "CLOSESUET", "Close_Suspend_Time"),
    ("WQ", "CLOSESUN", "Close_Suspend_Count"),
    ("WQ", "OPENCF0", "Open_NoCF"),
    ("WQ", "CLOSECF0", "Close_NoCF"),
    ("WQ", "PUBLISHEDN", "Published_Count"),
    ("WQ", "TOPICOPENSRB", "TopicOnSRB_Open"),
    ("WQ", "TOPICPUTSRB", "TopicOnSRB_Put"),
    ("WQ", "TOPICPUT1SRB", "TopicOnSRB_Put1"),
    ("WQ", "TOPICCLOSESRB", "TopicOnSRB_Close"),
];

/// Integer columns where `-1` is a value, not the formatter's "absent in
/// this record version" dummy: QQST page set and buffer pool are -1 for
/// shared and for unallocated queues.
const MINUS_ONE_IS_DATA: &[(&str, &str)] = &[("QQST", "Pageset"), ("QQST", "BufferPool")];

/// Structures the formatter can write twice for one record, and the
/// columns that identify a row within it: QPST comes with SMF 115 subtype 2
/// and with 215 (no duplicate seen in the samples; checked defensively).
const DEDUP_KEYS: &[(&str, &[&str])] = &[("QPST", &["LPAR", "QMgr", "BufferPool"])];

pub(crate) fn dedup_key(structure: &str) -> Option<&'static [&'static str]> {
    DEDUP_KEYS
        .iter()
        .find(|(s, _)| *s == structure)
        .map(|(_, k)| *k)
}

/// The suffixes that split one value over two columns.
pub(crate) const SUFFIXES: [&str; 4] = [" (DATE)", " (TIME)", "(S)", "(US)"];

/// `Open (DATE)` → (`Open`, ` (DATE)`); names without a suffix → (name, "").
pub(crate) fn split_suffix(name: &str) -> (&str, &str) {
    for s in SUFFIXES {
        if let Some(b) = name.strip_suffix(s) {
            return (b.trim_end(), s);
        }
    }
    (name, "")
}

/// The current name of a header cell: trimmed (old builds padded some names,
/// `CORREL `), and mapped through the alias table. The second value says
/// whether an alias was used.
pub(crate) fn canonical(structure: &str, header: &str) -> (String, bool) {
    let h = header.trim();
    let (base, suffix) = split_suffix(h);
    for (s, old, new) in ALIASES {
        if *s == structure && *old == base {
            return (format!("{new}{suffix}"), true);
        }
    }
    (h.to_string(), false)
}

/// Which structure a header belongs to, from its columns alone.
pub(crate) fn identify<'a>(names: impl Iterator<Item = &'a str> + Clone) -> Option<&'static str> {
    SIGNATURES.iter().find_map(|(s, cols)| {
        names
            .clone()
            .any(|n| cols.contains(&n.trim()))
            .then_some(*s)
    })
}

/// The structure a `SMF-<STRUCT>.csv` name states.
pub(crate) fn structure_from_name(name: &str) -> Option<String> {
    let stem = name.strip_prefix("SMF-")?;
    let (s, ext) = stem.rsplit_once('.')?;
    let ok = ext.eq_ignore_ascii_case("csv")
        && !s.is_empty()
        && s.len() <= 8
        && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    ok.then(|| s.to_string())
}

/// Whether `-1` in this column is data rather than the dummy.
pub(crate) fn minus_one_is_data(structure: &str, column: &str) -> bool {
    MINUS_ONE_IS_DATA.contains(&(structure, column))
}

/// Whether a header row looks like `mqsmfcsv`'s: the common block first.
/// Returns whether the `QSG` column is there (formatter v5.6 and later).
pub(crate) fn common_block<'a>(mut names: impl Iterator<Item = &'a str>) -> Option<bool> {
    let first: Vec<&str> = names.by_ref().take(6).map(str::trim).collect();
    match first.as_slice() {
        ["Date", "Time", "LPAR", "QMgr", "QSG", "MQ_Version", ..] => Some(true),
        ["Date", "Time", "LPAR", "QMgr", "MQ_Version", ..] => Some(false),
        _ => None,
    }
}

/// A header row, understood.
#[derive(Debug)]
pub(crate) struct Layout {
    /// Structure name (`QCST`); `unknown` when neither header nor file
    /// name says.
    pub(crate) structure: String,
    /// Identified from the columns (not only from the file name).
    pub(crate) by_header: bool,
    /// Current column names, by position.
    pub(crate) names: Vec<String>,
    index: HashMap<String, usize, FxBuildHasher>,
    pub(crate) has_qsg: bool,
    /// How many columns had an old name.
    pub(crate) renamed: usize,
    /// Position of `Interval_Start (DATE)` when it and `Interval_Start
    /// (TIME)`, `Interval_Duration` follow each other (115 files).
    pub(crate) interval_at: Option<usize>,
    /// For a `(DATE)` column the position of its `(TIME)` partner.
    pub(crate) time_of: Vec<Option<usize>>,
    /// Names that are `-1`-is-data columns.
    pub(crate) keep_minus_one: Vec<bool>,
    /// Columns whose cells become attributes of the row's event (all,
    /// unless the consumer said which it reads: `keep_only`).
    pub(crate) keep: Vec<bool>,
    kept: usize,
    /// The attribute name of each kept column: the consumer's own
    /// `&'static` name when it gave one (no copy per row).
    pub(crate) attr: Vec<AttrName>,
    /// The key each column's name is, when it is one (found once here, not
    /// for every row).
    pub(crate) key: Vec<Option<Key>>,
    /// The columns `cells` looks at, in order: the kept ones and the
    /// `(DATE)`s whose placeholder may drop a kept `(TIME)`.
    pub(crate) visit: Vec<usize>,
    /// Rows are split up to this many columns when the rest of the line is
    /// plain (`Row` then counts commas for a cell past it). The cells kept
    /// at first; raised when a row reads past it, so that it settles on
    /// the last column anything reads.
    limit: AtomicUsize,
}

/// The layout a header line gives, or `None` when the line is not a
/// header of the common block (`Date,Time,LPAR,QMgr,...`). A trailing
/// empty cell (a comma at the end of the line) is not a column.
pub(crate) fn header_layout(line: &[u8], file_struct: Option<&str>) -> Option<Layout> {
    let text = mqdiag_model::text::decode_lossy(line);
    let mut cells: Vec<&str> = text.split(',').collect();
    if cells.len() > 1 && cells.last().is_some_and(|c| c.trim().is_empty()) {
        cells.pop();
    }
    common_block(cells.iter().copied())?;
    Some(Layout::new(&cells, file_struct))
}

impl Layout {
    /// Understand a header. `file_struct` is what the file name says.
    pub(crate) fn new(cells: &[&str], file_struct: Option<&str>) -> Layout {
        let has_qsg = common_block(cells.iter().copied()).unwrap_or(false);
        let by_header = identify(cells.iter().copied());
        let structure = by_header
            .map(str::to_string)
            .or_else(|| file_struct.map(str::to_string))
            .unwrap_or_else(|| "unknown".to_string());
        let mut names = Vec::with_capacity(cells.len());
        let mut renamed = 0;
        for c in cells {
            let (n, r) = canonical(&structure, c);
            renamed += usize::from(r);
            names.push(n);
        }
        let mut index = HashMap::with_capacity_and_hasher(names.len(), FxBuildHasher);
        for (i, n) in names.iter().enumerate() {
            // The first of duplicate names wins.
            index.entry(n.clone()).or_insert(i);
        }
        let time_of = names
            .iter()
            .map(|n| {
                n.strip_suffix(" (DATE)")
                    .and_then(|b| index.get(&format!("{b} (TIME)")).copied())
            })
            .collect();
        let interval_at = index.get("Interval_Start (DATE)").copied().filter(|&i| {
            names
                .get(i + 1)
                .is_some_and(|n| n == "Interval_Start (TIME)")
                && names.get(i + 2).is_some_and(|n| n == "Interval_Duration")
        });
        let keep_minus_one: Vec<bool> = names
            .iter()
            .map(|n| minus_one_is_data(&structure, n))
            .collect();
        Layout {
            structure,
            by_header: by_header.is_some(),
            index,
            has_qsg,
            renamed,
            interval_at,
            time_of,
            keep: vec![true; keep_minus_one.len()],
            kept: keep_minus_one.len(),
            attr: names.iter().map(|n| AttrName::Owned(n.clone())).collect(),
            key: names.iter().map(|n| Key::from_name(n)).collect(),
            visit: (0..names.len()).collect(),
            limit: AtomicUsize::new(names.len()),
            keep_minus_one,
            names,
        }
    }

    /// Keep only the cells of the columns `wanted` names (it gives the
    /// name to store them under).
    pub(crate) fn keep_only(&mut self, wanted: impl Fn(&str) -> Option<&'static str>) {
        let names: Vec<Option<&'static str>> = self.names.iter().map(|n| wanted(n)).collect();
        self.keep = names.iter().map(Option::is_some).collect();
        self.kept = self.keep.iter().filter(|k| **k).count();
        for (a, n) in self.attr.iter_mut().zip(&names) {
            if let Some(n) = n {
                *a = AttrName::Borrowed(n);
            }
        }
        // A `(DATE)` whose `(TIME)` is not kept matters only when it comes
        // between a kept pair's two columns (it takes over the pair's
        // "drop the time" mark in `cells`): otherwise not even read.
        let spans: Vec<(usize, usize)> = (0..self.names.len())
            .filter_map(|i| self.time_of[i].map(|t| (i, t)))
            .filter(|&(_, t)| self.keep[t])
            .collect();
        self.visit = (0..self.names.len())
            .filter(|&i| {
                self.keep[i]
                    || self.time_of[i]
                        .is_some_and(|t| self.keep[t] || spans.iter().any(|&(a, b)| a < i && i < b))
            })
            .collect();
        let read = super::derive::READ.iter().filter_map(|n| self.col(n));
        let last = self
            .visit
            .iter()
            .flat_map(|&i| [Some(i), self.time_of[i]])
            .flatten()
            .chain(read)
            .max();
        // The common block (`Date` .. `MQ_Version`) is read for every row.
        let limit = last.map_or(0, |l| l + 1).max(6).min(self.names.len());
        self.limit = AtomicUsize::new(limit);
    }

    /// How many columns a row is split into when read.
    pub(crate) fn split_limit(&self) -> usize {
        self.limit.load(Ordering::Relaxed)
    }

    /// A row read column `i`, past what it was split into: later rows are
    /// split up to it. (A column missing from `derive::READ`.)
    pub(crate) fn read_past(&self, i: usize) {
        debug_assert!(
            false,
            "column `{}` read past the split: list it in derive::READ",
            self.names[i]
        );
        self.limit.fetch_max(i + 1, Ordering::Relaxed);
    }

    /// How many columns are kept.
    pub(crate) fn kept(&self) -> usize {
        self.kept
    }

    pub(crate) fn width(&self) -> usize {
        self.names.len()
    }

    /// Position of a column by its current name.
    pub(crate) fn col(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// Position of the column `base` + `suffix` (`Open` + ` (DATE)`),
    /// without building the name on the heap: rows look up such pairs
    /// several times each.
    pub(crate) fn col2(&self, base: &str, suffix: &str) -> Option<usize> {
        let mut buf = [0u8; 96];
        let n = base.len() + suffix.len();
        if n > buf.len() {
            return self.col(&format!("{base}{suffix}"));
        }
        buf[..base.len()].copy_from_slice(base.as_bytes());
        buf[base.len()..n].copy_from_slice(suffix.as_bytes());
        // Two whole strings joined: still UTF-8.
        let name = std::str::from_utf8(&buf[..n]).ok()?;
        self.col(name)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn signatures() -> &'static [(&'static str, &'static [&'static str])] {
        SIGNATURES
    }

    #[test]
    fn suffixes_and_aliases() {
        assert_eq!(split_suffix("Open (DATE)"), ("Open", " (DATE)"));
        assert_eq!(split_suffix("Get_ET(US)"), ("Get_ET", "(US)"));
        assert_eq!(
            split_suffix("IO_Max_Time{1.1} (TIME)"),
            ("IO_Max_Time{1.1}", " (TIME)")
        );
        assert_eq!(
            split_suffix("Latch_Wait_Count {1}"),
            ("Latch_Wait_Count {1}", "")
        );
        assert_eq!(
            canonical("WQ", "Get_Pageset_Suspend_ET(US)"),
            ("Get_Suspend_ET(US)".to_string(), true)
        );
        assert_eq!(
            canonical("WQ", "MAXLATNT(S)"),
            ("Max_Time_On_Queue(S)".to_string(), true)
        );
        assert_eq!(
            canonical("WQ", "CORREL "),
            ("Correlation".to_string(), true)
        );
        assert_eq!(
            canonical("WQ", "OPENTIME (DATE)"),
            ("Open (DATE)".to_string(), true)
        );
        // `Type` is only renamed in WQ: in QCST it is the channel type.
        assert_eq!(canonical("QCST", "Type"), ("Type".to_string(), false));
        assert_eq!(
            canonical("QCCT", "Storage_Usage"),
            ("Storage_Usage_31".to_string(), true)
        );
    }

    #[test]
    fn identify_by_columns_then_name() {
        let dns = [
            "Date",
            "Time",
            "Task_Number",
            "Task_Elapsed_Time(S)",
            "Max_DNS_Request_Duration(S)",
        ];
        assert_eq!(identify(dns.iter().copied()), Some("QCTDNS"));
        let adp = ["Date", "Time", "Task_Number", "Task_Elapsed_Time(S)"];
        assert_eq!(identify(adp.iter().copied()), Some("QCTADP"));
        let old_wq = [
            "Date",
            "Time",
            "LPAR",
            "QMgr",
            "MQ_Version",
            "CORREL ",
            "OBJNAME",
        ];
        assert_eq!(identify(old_wq.iter().copied()), Some("WQ"));
        assert_eq!(identify(["Date", "Time", "Foo"].iter().copied()), None);
        assert_eq!(
            structure_from_name("SMF-QCTDNS.csv").as_deref(),
            Some("QCTDNS")
        );
        assert_eq!(structure_from_name("SMF-MQTABLES.ddl"), None);
        assert_eq!(structure_from_name("notes.csv"), None);
    }

    #[test]
    fn layout_maps_pairs_and_interval() {
        let cells = [
            "Date",
            "Time",
            "LPAR",
            "QMgr",
            "MQ_Version",
            "Interval_Start (DATE)",
            "Interval_Start (TIME)",
            "Interval_Duration",
            "Queue",
            "Pageset",
        ];
        let l = Layout::new(&cells, Some("QQST"));
        assert!(!l.has_qsg);
        assert!(!l.by_header);
        assert_eq!(l.structure, "QQST");
        assert_eq!(l.interval_at, Some(5));
        assert_eq!(l.time_of[5], Some(6));
        assert_eq!(l.col("Pageset"), Some(9));
        assert!(l.keep_minus_one[9]);
        assert!(!l.keep_minus_one[8]);
    }
}

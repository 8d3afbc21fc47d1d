//! What a zip's central directory says of its members, read before any
//! member is: each entry's facts (`ZipEntry`), entries that share bytes
//! (`overlapping`), zip64 sizes, where a member's data lies, DOS times, and
//! how many members the end of central directory lists (checked before the
//! directory is parsed whole). `archive` decides what to read from these.

use super::blob::Range;
use super::limits::{MAX_RATIO, MemberError, RATIO_FLOOR};
use std::io::Read;
use std::time::{Duration, SystemTime};

/// What is known of a zip member before it is read.
pub(super) struct ZipEntry {
    pub(super) raw: Vec<u8>,
    pub(super) is_dir: bool,
    pub(super) symlink: bool,
    pub(super) encrypted: bool,
    pub(super) method: u16,
    pub(super) csize: u64,
    pub(super) size: u64,
    pub(super) crc: u32,
    /// Where its data starts, or why that is unknown.
    pub(super) start: Result<u64, MemberError>,
    pub(super) mtime: Option<SystemTime>,
}

/// The zip entries (local header offset, entry) whose bytes, from their
/// local header to the end of their data, overlap an earlier one's: the
/// index of each, with the member it overlaps and its own byte range. Of
/// entries sharing bytes the one whose header comes first (then the first
/// listed) is kept. A well-formed zip never shares bytes between members;
/// a hostile one lists one deflated member thousands of times (a 300 KB
/// file standing for 64 GiB). Entries whose data cannot be located are
/// left to `zip_entry` to refuse.
pub(super) fn overlapping(
    entries: &[(u64, ZipEntry)],
) -> std::collections::HashMap<usize, (String, u64, u64)> {
    let mut ranges: Vec<(u64, u64, usize)> = entries
        .iter()
        .enumerate()
        .filter_map(|(k, (header, e))| {
            let start = *e.start.as_ref().ok()?;
            let end = start.checked_add(e.csize)?;
            Some((*header, end.max(*header + 1), k))
        })
        .collect();
    ranges.sort_unstable();
    let mut out = std::collections::HashMap::new();
    // The kept range reaching furthest so far, and its entry.
    let mut reach: Option<(u64, usize)> = None;
    for (lo, hi, k) in ranges {
        match reach {
            Some((end, owner)) if lo < end => {
                let name = mqdiag_model::text::name_bytes_display(&entries[owner].1.raw);
                out.insert(k, (name, lo, hi));
            }
            _ => reach = Some((hi, k)),
        }
    }
    out
}

/// Sizes from a local header's zip64 extra field, when the header says so.
pub(super) fn zip64_sizes(extra: &[u8], size: u64, csize: u64) -> Option<(u64, u64)> {
    if size != 0xFFFF_FFFF && csize != 0xFFFF_FFFF {
        return None;
    }
    let mut i = 0;
    while i + 4 <= extra.len() {
        let id = u16::from_le_bytes([extra[i], extra[i + 1]]);
        let len = usize::from(u16::from_le_bytes([extra[i + 2], extra[i + 3]]));
        let body = extra.get(i + 4..i + 4 + len)?;
        if id == 1 && body.len() >= 16 {
            let u = u64::from_le_bytes(body[..8].try_into().ok()?);
            let c = u64::from_le_bytes(body[8..16].try_into().ok()?);
            return Some((u, c));
        }
        i += 4 + len;
    }
    None
}

/// Inflate a raw deflate stream at the start of `r` to find its compressed
/// length, its size and its CRC.
pub(super) fn inflate_extent(r: &Range) -> Result<(u64, u64, u32), MemberError> {
    use flate2::{Decompress, FlushDecompress, Status};
    let mut w = r.open().map_err(MemberError::Read)?;
    let mut d = Decompress::new(false);
    let mut crc = flate2::Crc::new();
    let mut inbuf = vec![0u8; 64 * 1024];
    let mut outbuf = vec![0u8; 256 * 1024];
    loop {
        let n = w.read(&mut inbuf).map_err(MemberError::Read)?;
        if n == 0 {
            return Err(MemberError::EndsInside(d.total_out()));
        }
        let mut off = 0;
        while off < n {
            let (i0, o0) = (d.total_in(), d.total_out());
            let st = d
                .decompress(&inbuf[off..n], &mut outbuf, FlushDecompress::None)
                .map_err(MemberError::CorruptDeflate)?;
            let used = (d.total_in() - i0) as usize;
            let made = (d.total_out() - o0) as usize;
            crc.update(&outbuf[..made]);
            off += used;
            if st == Status::StreamEnd {
                return Ok((d.total_in(), d.total_out(), crc.sum()));
            }
            if d.total_out() > RATIO_FLOOR && d.total_out() / d.total_in().max(1) > MAX_RATIO {
                return Err(MemberError::Bomb);
            }
            if used == 0 && made == 0 {
                break;
            }
        }
    }
}

/// A DOS date and time, which have no zone, taken as UTC.
pub(super) fn dos_time(d: zip::DateTime) -> Option<SystemTime> {
    let nd = chrono::NaiveDate::from_ymd_opt(d.year().into(), d.month().into(), d.day().into())?;
    let dt = nd.and_hms_opt(d.hour().into(), d.minute().into(), d.second().into())?;
    let secs = u64::try_from(dt.and_utc().timestamp()).ok()?;
    SystemTime::UNIX_EPOCH.checked_add(Duration::from_secs(secs))
}

/// A zip member's modification time: the extended timestamp (UTC) when
/// present, else the DOS time, which has no zone and is taken as UTC (the
/// trace reader only needs its date, and only for undated traces).
pub(super) fn zip_mtime<R: Read>(e: &zip::read::ZipFile<'_, R>) -> Option<SystemTime> {
    for f in e.extra_data_fields() {
        if let zip::extra_fields::ExtraField::ExtendedTimestamp(t) = f
            && let Some(s) = t.mod_time()
        {
            return SystemTime::UNIX_EPOCH.checked_add(Duration::from_secs(u64::from(s)));
        }
    }
    dos_time(e.last_modified()?)
}

/// The member count a zip's end of central directory states (its zip64
/// form when the plain one overflows); `None` when none is found.
pub(super) fn listed_members(blob: &Range) -> Option<u64> {
    let tail = blob.tail(22 + 0xffff).ok()?;
    let at = (0..=tail.len().checked_sub(22)?)
        .rev()
        .find(|&i| tail[i..].starts_with(b"PK\x05\x06"))?;
    let le16 = |b: &[u8], i: usize| u64::from(u16::from_le_bytes([b[i], b[i + 1]]));
    let n = le16(&tail, at + 10);
    if n != 0xffff {
        return Some(n);
    }
    // The zip64 locator, just before: where the zip64 record is.
    let loc = tail.get(at.checked_sub(20)?..at)?;
    if !loc.starts_with(b"PK\x06\x07") {
        return Some(n);
    }
    let off = u64::from_le_bytes(loc[8..16].try_into().ok()?);
    let rec = blob.sub(off, 56).head(56).ok()?;
    if rec.len() < 56 || !rec.starts_with(b"PK\x06\x06") {
        return Some(n);
    }
    Some(u64::from_le_bytes(rec[32..40].try_into().ok()?))
}

//! What unpacking an archive may cost and why a member is refused: the
//! run's budgets, and the refusals `archive` (listing, unpacking) and
//! `zip_directory` (reading a zip's directory) both give.

/// Archive or compression layers opened inside one another (`a.zip!b.tgz!c`
/// is two); a deeper one is refused, which stops recursive bombs.
pub(crate) const MAX_DEPTH: u32 = 3;
/// Bytes that unpacking may produce in one run, over all archives.
pub(crate) const MAX_TOTAL_BYTES: u64 = 64 << 30;
/// Largest expansion accepted for a member above `RATIO_FLOOR`. MQ text
/// diagnostics compress 5 to 30 times; deflate cannot exceed about 1032,
/// which only long runs of one byte reach.
pub const MAX_RATIO: u64 = 200;
/// Members up to this size are never refused for their ratio: they cannot
/// do harm, and small padded files do compress very well.
pub const RATIO_FLOOR: u64 = 16 << 20;
/// Members listed from one archive at most (each costs a few hundred bytes
/// of memory until the run ends).
pub(crate) const MAX_MEMBERS: usize = 200_000;
/// Bytes one archive named on the command line (or found in a directory)
/// may unpack, its nested archives included, so that one hostile archive
/// cannot use the whole run's `MAX_TOTAL_BYTES`.
pub(crate) const MAX_ARCHIVE_BYTES: u64 = 32 << 30;
/// Bytes one member may hold once unpacked, whatever its ratio.
pub(crate) const MAX_MEMBER_BYTES: u64 = 16 << 30;
/// Bytes written to the temporary file (in `$TMPDIR`) in one run: members
/// that cannot be read in place (tar.gz members, archives inside deflated
/// members) are unpacked there. One total for the run, over every archive
/// and all their layers: `MAX_RATIO` times the archives' size together
/// (at least `RATIO_FLOOR`, at most this); the ratio checked per layer
/// alone let `tar.gz.gz` members multiply it, and a budget per archive let
/// many archives add up.
pub const MAX_SPILL_BYTES: u64 = 16 << 30;

/// What the archives of a run, `len` bytes together, may unpack into the
/// temporary file.
pub fn spill_limit(len: u64) -> u64 {
    len.saturating_mul(MAX_RATIO)
        .clamp(RATIO_FLOOR, MAX_SPILL_BYTES)
}

/// Why a member is refused before it is read: its path, or where its data
/// lies. `Display` gives the refusal as the member's problem row says it.
#[derive(Debug)]
pub(crate) enum MemberError {
    NulInPath,
    AbsolutePath,
    /// A `..` component.
    LeavesArchive,
    EmptyPath,
    /// A zip member's local header cannot be read.
    DamagedHeader(zip::result::ZipError),
    /// A zip member's data starts or ends past the archive's end.
    BeyondEnd,
    /// Reading a zip member whose sizes follow its data, to find its end.
    Read(std::io::Error),
    /// ... and the archive ended first, after this many bytes inflated.
    EndsInside(u64),
    CorruptDeflate(flate2::DecompressError),
    Bomb,
}

impl std::fmt::Display for MemberError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("refused: ")?;
        match self {
            MemberError::NulInPath => f.write_str("NUL byte in member path"),
            MemberError::AbsolutePath => {
                f.write_str("absolute member path (an archive must not name files outside itself)")
            }
            MemberError::LeavesArchive => {
                f.write_str("member path leaves the archive (`..`): hostile or damaged archive")
            }
            MemberError::EmptyPath => f.write_str("empty member path"),
            MemberError::DamagedHeader(e) => write!(f, "damaged local header: {e}"),
            MemberError::BeyondEnd => {
                f.write_str("member data lies beyond the end of the archive (truncated archive?)")
            }
            MemberError::Read(e) => write!(f, "{e}"),
            MemberError::EndsInside(after) => write!(
                f,
                "the archive ends inside this member (after {after} bytes; truncated archive)"
            ),
            MemberError::CorruptDeflate(e) => write!(f, "corrupt deflate data: {e}"),
            MemberError::Bomb => write!(
                f,
                "expands more than {MAX_RATIO} times its compressed size (decompression bomb?)"
            ),
        }
    }
}

impl std::error::Error for MemberError {}

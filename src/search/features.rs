//! The search features that can be switched on and off for self-play comparisons, and
//! their command-line names.

/// Search features that can be switched off, for self-play comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning (attackers only). Off by default: it showed no gain in
    /// self-play (docs/experiments.md).
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Aspiration windows at the root (from depth 5). Off by default: no gain in
    /// self-play (docs/experiments.md).
    pub aspiration: bool,
    /// King moves onto free lines to corners in the quiescence search.
    pub qsearch_checks: bool,
    /// Reverse futility pruning: at a shallow non-PV node of the attackers whose static
    /// evaluation beats beta by a margin per ply, the evaluation is returned without a
    /// search. Not at the defenders' nodes: there it cuts the replies to the attackers'
    /// quiet encirclements, which the known-answer suite then finds plies too late. Off by
    /// default until its self-play gain is significant (docs/experiments.md).
    pub reverse_futility: bool,
    /// Late-move pruning: at shallow non-PV nodes of the defenders, the quiet moves ordered
    /// after a count that grows with the depth are not searched. Not at the attackers'
    /// nodes, where the encircling moves are the quiet late ones. Off by default, as
    /// reverse futility.
    pub late_move_pruning: bool,
    /// Late-move reductions that grow with the logarithms of the depth and the move
    /// number (as chess engines reduce) instead of one or two plies. On: its SPRT in
    /// self-play accepted the gain (docs/experiments.md).
    pub log_reductions: bool,
    /// Captures in the quiescence search (for both sides, in its first plies).
    pub qsearch_captures: bool,
    /// Internal iterative reduction: a node deep enough with no move from the table
    /// is searched a ply shallower (its ordering is poor, and the next iteration will
    /// find it with a move to try first). Off by default until its self-play gain is
    /// significant.
    pub iir: bool,
    /// Late-move reductions adjusted by the history of the move: a quiet move that often
    /// caused cut-offs is reduced less, one that seldom did more. Off by default until
    /// its self-play gain is significant.
    pub history_reductions: bool,
    /// With several threads, a move whose position another thread is searching is left
    /// for last at its node (simplified ABDADA, [`Busy`](super::busy)): the threads split
    /// a node's moves instead of searching the same ones side by side. No effect with one
    /// thread.
    pub defer: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            null_move: false,
            lmr: true,
            aspiration: false,
            qsearch_checks: true,
            reverse_futility: false,
            late_move_pruning: false,
            log_reductions: true,
            qsearch_captures: false,
            iir: false,
            history_reductions: false,
            defer: true,
        }
    }
}

/// One switchable search feature, named as on the command line
/// (`hnefi --without lmr`, `hnefi --with null-move`).
///
/// ```
/// use hnefi::search::{Feature, Features};
///
/// let f: Feature = "qsearch-checks".parse().unwrap();
/// let mut features = Features::default();
/// features.set(f, false);
/// assert!(!features.qsearch_checks);
/// assert_eq!(f.to_string(), "qsearch-checks");
/// assert!("lmr2".parse::<Feature>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// [`Features::null_move`].
    NullMove,
    /// [`Features::lmr`].
    Lmr,
    /// [`Features::aspiration`].
    Aspiration,
    /// [`Features::qsearch_checks`].
    QsearchChecks,
    /// [`Features::reverse_futility`].
    ReverseFutility,
    /// [`Features::late_move_pruning`].
    LateMovePruning,
    /// [`Features::log_reductions`].
    LogReductions,
    /// [`Features::qsearch_captures`].
    QsearchCaptures,
    /// [`Features::iir`].
    Iir,
    /// [`Features::history_reductions`].
    HistoryReductions,
    /// [`Features::defer`].
    Defer,
}

impl Feature {
    /// Every feature, in the order of [`Features`].
    pub const ALL: [Feature; 11] = [
        Feature::NullMove,
        Feature::Lmr,
        Feature::Aspiration,
        Feature::QsearchChecks,
        Feature::ReverseFutility,
        Feature::LateMovePruning,
        Feature::LogReductions,
        Feature::QsearchCaptures,
        Feature::Iir,
        Feature::HistoryReductions,
        Feature::Defer,
    ];

    /// The command-line name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Feature::NullMove => "null-move",
            Feature::Lmr => "lmr",
            Feature::Aspiration => "aspiration",
            Feature::QsearchChecks => "qsearch-checks",
            Feature::ReverseFutility => "reverse-futility",
            Feature::LateMovePruning => "late-move-pruning",
            Feature::LogReductions => "log-reductions",
            Feature::QsearchCaptures => "qsearch-captures",
            Feature::Iir => "iir",
            Feature::HistoryReductions => "history-reductions",
            Feature::Defer => "defer",
        }
    }
}

impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`Feature`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search feature {0:?} (expected one of {names})", names = feature_names())]
pub struct UnknownFeature(pub String);

fn feature_names() -> String {
    Feature::ALL.map(Feature::name).join(", ")
}

impl std::str::FromStr for Feature {
    type Err = UnknownFeature;

    fn from_str(s: &str) -> Result<Feature, UnknownFeature> {
        Feature::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFeature(s.to_string()))
    }
}

impl Features {
    /// Switches `feature` on or off.
    pub fn set(&mut self, feature: Feature, on: bool) {
        let flag = match feature {
            Feature::NullMove => &mut self.null_move,
            Feature::Lmr => &mut self.lmr,
            Feature::Aspiration => &mut self.aspiration,
            Feature::QsearchChecks => &mut self.qsearch_checks,
            Feature::ReverseFutility => &mut self.reverse_futility,
            Feature::LateMovePruning => &mut self.late_move_pruning,
            Feature::LogReductions => &mut self.log_reductions,
            Feature::QsearchCaptures => &mut self.qsearch_captures,
            Feature::Iir => &mut self.iir,
            Feature::HistoryReductions => &mut self.history_reductions,
            Feature::Defer => &mut self.defer,
        };
        *flag = on;
    }
}

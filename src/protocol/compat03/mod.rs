//! `--compat 0.3`: the protocol of the `hnefatafl-copenhagen` crate's 0.3.1 release
//! (January 2025), the one hnefi's protocol descends from. Every reply, coordinate, colour
//! name and rule is that release's, while the search stays hnefi's; the framing (ids, the
//! empty line after each reply, `#` comments) is hnefi's own, which 0.3.1 shared.
//!
//! - [`notation`] owns the dialect's formats: squares with files `a`..`l` skipping `i`,
//!   the colours `black` (attackers, first to move) and `white`, the boxed board diagram
//!   and the `final_status` names.
//! - [`commands`] is its command table, the same [`Command`](super::commands::Command)
//!   type as hnefi's own.
//!
//! The rule that differs is repetition: a move by either side that would recreate an
//! earlier board is not allowed
//! ([`RepetitionMode::AnyRepeatIllegal`](crate::core::repetition::RepetitionMode)).

pub mod commands;
pub(crate) mod notation;

use crate::core::repetition::RepetitionMode;

/// The repetition rule of the 0.3.1 release.
pub(crate) const REPETITION: RepetitionMode = RepetitionMode::AnyRepeatIllegal;

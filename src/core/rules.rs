//! A rule set as one value: the data that decides what a move does and when a game ends.
//! What a move decides under it is the [judge](super::judge)'s.

use super::attacker_forts::AttackerForts;
use super::bitboard::BitboardOf;
use super::corners::Corners;
use super::encirclement_mode::EncirclementMode;
use super::geometry::{Bits, EDGE_SQUARE, Geometry};
use super::king::{Escape, Hostility, KingArmed, KingCapture};
use super::referee::Referee;
use super::repetition::RepetitionMode;
use super::role::Role;
use super::shield_walls::ShieldWalls;
use super::speed::SpeedLimits;
use super::square::SquareOf;

/// Everything that decides what a move does and when a game ends under a rule set: its
/// squares, captures, king, wins and draws. The board size, the start position and the
/// side that moves first are the [`Variant`](super::variant::Variant)'s.
///
/// ```
/// use hnefi::core::rules::RuleSet;
/// let rules = RuleSet::default();
/// assert!(rules.edge_fort && rules.encirclement_wins);
/// assert_eq!(rules, RuleSet::COPENHAGEN);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct RuleSet {
    /// The repetition rule.
    pub repetition: RepetitionMode,
    /// How encirclement is judged (when [`RuleSet::encirclement_wins`]).
    pub encirclement: EncirclementMode,
    /// A draw once this many plies have been played (counted from the game's first
    /// position); `None` for no limit.
    pub move_limit: Option<u32>,
    /// Which end-of-game tests follow a move, in which order (Copenhagen, or the
    /// hnefatafl.org server's).
    pub referee: Referee,
    /// Which shield walls capture (docs/RULES.md sections 4 and 17.9).
    pub shield_walls: ShieldWalls,
    /// The defenders win with an edge fort (section 6).
    pub edge_fort: bool,
    /// The attackers win by encircling the defenders (section 7).
    pub encirclement_wins: bool,
    /// The corner squares, restricted squares: only the king may stop on one. Where the
    /// king escapes to the corners he escapes on any of them, and they are hostile as
    /// [`RuleSet::corner_hostility`] says.
    pub corners: Corners,
    /// The centre square is the throne: only the king may stop on it.
    pub throne: bool,
    /// The king may stop on the throne again once he has left it.
    pub king_returns: bool,
    /// The empty throne blocks every slide: nobody may pass it (Foteviken Tablut,
    /// OpenTafl's `cenre:`).
    pub throne_blocks: bool,
    /// The attackers' forts (Foteviken Tablut's citadels): only attacking soldiers that
    /// stand on one may move onto or through them.
    pub attacker_forts: AttackerForts,
    /// To whom an empty corner is hostile.
    pub corner_hostility: Hostility,
    /// To whom the empty throne is hostile.
    pub throne_hostility: Hostility,
    /// The throne with the king on it is hostile to attackers even when the king is not
    /// armed as the far piece of a capture.
    pub occupied_throne_hostile: bool,
    /// How the king is captured.
    pub king_capture: KingCapture,
    /// Whether the king takes part in captures.
    pub king_armed: KingArmed,
    /// Where the king escapes.
    pub escape: Escape,
    /// A defender beside the king on the throne, the king's other three sides held by
    /// attackers, is captured by one attacker against the occupied throne (Linnaean
    /// capture, OpenTafl `linc:y`).
    pub linnaean: bool,
    /// The game's first position is an earlier board for the repetition rule; the
    /// hnefatafl.org server leaves it out of its record on 7x7 and 13x13.
    pub first_position_counts: bool,
    /// How far each kind of piece may slide in one move.
    pub speed: SpeedLimits,
}

impl RuleSet {
    /// hnefi's default: Copenhagen Hnefatafl as docs/RULES.md decides it.
    pub const COPENHAGEN: RuleSet = RuleSet {
        repetition: RepetitionMode::DefenderThirdIllegal,
        encirclement: EncirclementMode::MultiPocket,
        move_limit: None,
        referee: Referee::Copenhagen,
        shield_walls: ShieldWalls::Copenhagen,
        edge_fort: true,
        encirclement_wins: true,
        corners: Corners::Squares,
        throne: true,
        king_returns: true,
        throne_blocks: false,
        attacker_forts: AttackerForts::NONE,
        corner_hostility: Hostility::ALL,
        throne_hostility: Hostility::ALL,
        occupied_throne_hostile: true,
        king_capture: KingCapture::Strong,
        king_armed: KingArmed::Yes,
        escape: Escape::Corners,
        linnaean: false,
        first_position_counts: true,
        speed: SpeedLimits::NONE,
    };

    /// The corner squares: the four corners, or the blocks of 16 squares, or none.
    #[inline(always)]
    pub(crate) fn corner_squares<G: Geometry>(&self) -> BitboardOf<G> {
        BitboardOf::from_bits(self.corner_bits::<G>())
    }

    #[inline(always)]
    fn corner_bits<G: Geometry>(&self) -> G::Bits {
        self.corners.bits::<G>()
    }

    /// The squares on which only the king may stop: the corners and the throne, where
    /// the rule set has them.
    #[inline(always)]
    pub fn restricted<G: Geometry>(&self) -> BitboardOf<G> {
        let mut bits = self.corner_bits::<G>();
        if self.throne {
            bits |= G::THRONE;
        }
        BitboardOf::from_bits(bits)
    }

    /// The squares on which the king may not stop: the throne once he has left it, where
    /// he may not return.
    #[inline(always)]
    pub fn king_barred<G: Geometry>(&self) -> BitboardOf<G> {
        if self.throne && !self.king_returns {
            BitboardOf::THRONE
        } else {
            BitboardOf::EMPTY
        }
    }

    /// True when some square blocks a slide though it is empty (a throne nobody may pass,
    /// forts): the move generator's slower path.
    #[inline(always)]
    pub(crate) fn has_walls(&self) -> bool {
        self.throne_blocks || !self.attacker_forts.is_none()
    }

    /// True when every piece slides as far as the empty squares let it: no walls and no
    /// speed limits. Most rule sets; the move generator tests it once and takes a path
    /// that reads neither.
    #[inline(always)]
    pub(crate) fn slides_freely(&self) -> bool {
        !self.has_walls() && self.speed.is_none()
    }

    /// The empty squares a piece may neither pass nor stop on: the king (`king`), or a
    /// soldier of `role` standing on `from`. An attacking soldier on a fort may move onto
    /// and through the forts; no other piece may enter them.
    #[inline(always)]
    pub(crate) fn walls<G: Geometry>(
        &self,
        role: Role,
        king: bool,
        from: SquareOf<G>,
    ) -> BitboardOf<G> {
        if !self.has_walls() {
            return BitboardOf::EMPTY;
        }
        let on_fort = self.attacker_forts.squares::<G>().contains(from);
        self.walls_of(role == Role::Attacker && !king && on_fort)
    }

    /// [`RuleSet::walls`] of an attacking soldier on a fort (`on_fort`), or of any other
    /// piece.
    #[inline(always)]
    pub(crate) fn walls_of<G: Geometry>(&self, on_fort: bool) -> BitboardOf<G> {
        if !self.has_walls() {
            return BitboardOf::EMPTY;
        }
        let throne = if self.throne && self.throne_blocks {
            BitboardOf::THRONE
        } else {
            BitboardOf::EMPTY
        };
        if on_fort {
            throne
        } else {
            throne | self.attacker_forts.squares::<G>()
        }
    }

    /// The special squares hostile to `piece` when empty (a soldier of that side, or the
    /// king when `king`).
    #[inline(always)]
    pub(crate) fn hostile_squares<G: Geometry>(&self, piece: Role, king: bool) -> BitboardOf<G> {
        let to = |h: Hostility| {
            if king {
                h.king
            } else {
                match piece {
                    Role::Attacker => h.attackers,
                    Role::Defender => h.defenders,
                }
            }
        };
        let mut bits = G::Bits::ZERO;
        if to(self.corner_hostility) {
            bits |= self.corners.bits::<G>();
        }
        if self.throne && to(self.throne_hostility) {
            bits |= G::THRONE;
        }
        BitboardOf::from_bits(bits)
    }

    /// True when the king on `king` has escaped.
    #[inline(always)]
    pub(crate) fn escaped<G: Geometry>(&self, king: SquareOf<G>) -> bool {
        // One read of the square's kind: the king's escape is tested after every move of
        // his side.
        let kind = match self.escape {
            Escape::Corners => self.corners.kind(),
            Escape::Edges => EDGE_SQUARE,
        };
        king.kind() & kind != 0
    }
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::COPENHAGEN
    }
}

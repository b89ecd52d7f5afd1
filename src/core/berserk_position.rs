//! A position of OpenTafl's Berserk (docs/RULES.md section 17.10): the board, its
//! commanders and knights, the side to move, and the piece whose turn continues after a
//! capture; its moves (slides and jumps) and what a move takes (its end-of-game tests are
//! the judge's, `core/judge.rs`). The ordinary rule sets keep [`PositionOf`](super::position::PositionOf),
//! which knows nothing of this.

use super::berserk::{BerserkMode, JumpMode, PieceRules};
use super::berserk_capture::{CaptureBoard, Taken};
use super::berserk_slides::{can_step, slide_targets};
use super::bitboard::BitboardOf;
use super::board::BoardOf;
use super::board::Piece;
use super::geometry::Geometry;
use super::jumps::jump_targets;
use super::movegen::between;
use super::moves::{MoveListOf, MoveOf};
use super::role::Role;
use super::rules::RuleSet;
use super::special_pieces::{PieceKind, SpecialPiecesOf};
use super::square::SquareOf;
use super::zobrist::{self, BerserkKey};

/// The rules of a Berserk game: the squares, king and wins of a [`RuleSet`], and the
/// pieces' jumps and the berserk turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct BerserkRules {
    /// Squares, hostility, the king's capture and arms, escape.
    pub rules: RuleSet,
    /// Jumps, the berserk turn, the sides with commanders or knights.
    pub pieces: PieceRules,
}

/// What one move did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BerserkEffect<G: Geometry> {
    /// The pieces it took (a jumped soldier included).
    pub taken: Taken<G>,
    /// The move was a jump.
    pub jump: bool,
    /// OpenTafl counted the move as capturing before making it (and writes a jump so
    /// as `^`).
    pub listed: bool,
    /// The same piece moves again: the side to move is unchanged.
    pub continues: bool,
}

/// A Berserk position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BerserkPositionOf<G: Geometry> {
    board: BoardOf<G>,
    specials: SpecialPiecesOf<G>,
    to_move: Role,
    /// The piece that must move again (OpenTafl's berserking taflman).
    berserker: Option<SquareOf<G>>,
    /// The king has been taken (the board keeps his last square).
    king_taken: bool,
    /// What OpenTafl's position hash carries beyond the board: it takes a captured piece
    /// off its square and never puts a mercenary back there with its new side, so each
    /// change of side leaves in the hash, for good, the key of a soldier of the new side
    /// on that square. Repetitions are counted on that hash (docs/RULES.md section 17.10).
    /// The squares where mercenaries turned attacker (and defender), each counted
    /// modulo 2, as the keys cancel in pairs.
    turned_attacker: BitboardOf<G>,
    turned_defender: BitboardOf<G>,
}

impl<G: Geometry> std::fmt::Debug for BerserkPositionOf<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:?}\ncommanders {:?} knights {:?}\n{} to move, berserker {:?}",
            self.board,
            self.specials.commanders(),
            self.specials.knights(),
            self.to_move,
            self.berserker
        )
    }
}

impl<G: Geometry> BerserkPositionOf<G> {
    /// A position with no piece pending.
    pub fn new(board: BoardOf<G>, specials: SpecialPiecesOf<G>, to_move: Role) -> Self {
        BerserkPositionOf {
            board,
            specials,
            to_move,
            berserker: None,
            king_taken: false,
            turned_attacker: BitboardOf::EMPTY,
            turned_defender: BitboardOf::EMPTY,
        }
    }

    /// The same position with the piece on `sq` to move again (a berserk turn in
    /// progress); `None` unless `sq` holds a piece of the side to move.
    pub fn with_berserker(self, sq: SquareOf<G>) -> Option<Self> {
        self.board
            .pieces(self.to_move)
            .contains(sq)
            .then_some(BerserkPositionOf {
                berserker: Some(sq),
                ..self
            })
    }

    /// The board (commanders and knights are soldiers on it).
    pub fn board(&self) -> &BoardOf<G> {
        &self.board
    }

    /// The commanders and knights.
    pub fn specials(&self) -> &SpecialPiecesOf<G> {
        &self.specials
    }

    /// The side to move.
    pub fn to_move(&self) -> Role {
        self.to_move
    }

    /// The piece whose turn continues, if any.
    pub fn berserker(&self) -> Option<SquareOf<G>> {
        self.berserker
    }

    /// True when the king has been taken (the game is then over).
    pub fn king_taken(&self) -> bool {
        self.king_taken
    }

    /// The key the repetition rule compares, as OpenTafl hashes a position: the squares
    /// with each piece's side and type (king, knight, commander, other: a mercenary or a
    /// guard is a soldier there) and the side to move, and the mercenaries' past changes
    /// of side that OpenTafl's hash keeps; not the berserker, nor which pieces have moved
    /// (docs/RULES.md section 17.10).
    pub fn repetition_key(&self) -> u64 {
        let mut h = zobrist::hash(&self.board, self.to_move);
        for sq in self.turned_attacker {
            h ^= zobrist::piece_key(Piece::Attacker, sq);
        }
        for sq in self.turned_defender {
            h ^= zobrist::piece_key(Piece::Defender, sq);
        }
        for sq in self.specials.commanders() {
            h ^= zobrist::berserk_key(BerserkKey::Commander, sq);
        }
        for sq in self.specials.knights() {
            h ^= zobrist::berserk_key(BerserkKey::Knight, sq);
        }
        if self.king_taken {
            h ^= zobrist::KING_TAKEN;
        }
        h
    }

    /// The hash of everything that decides the moves to come (the search's table key):
    /// the repetition key, the mercenaries and guards, the berserker's square and the
    /// pieces that have not moved (whose first jump OpenTafl counts as capturing).
    pub fn hash(&self) -> u64 {
        let mut h = self.repetition_key();
        for sq in self.specials.mercenaries() {
            h ^= zobrist::berserk_key(BerserkKey::Mercenary, sq);
        }
        for sq in self.specials.guards() {
            h ^= zobrist::berserk_key(BerserkKey::Guard, sq);
        }
        for sq in self.specials.fresh() {
            h ^= zobrist::berserk_key(BerserkKey::Fresh, sq);
        }
        if let Some(sq) = self.berserker {
            h ^= zobrist::berserk_key(BerserkKey::Berserker, sq);
        }
        h
    }

    /// The kind of the piece on `sq` (a soldier for an empty square).
    pub fn kind_at(&self, sq: SquareOf<G>) -> PieceKind {
        if sq == self.board.king() && !self.king_taken {
            PieceKind::King
        } else {
            self.specials.soldier_kind(sq)
        }
    }

    fn capture_board<'a>(&'a self, r: &'a BerserkRules) -> CaptureBoard<'a, G> {
        CaptureBoard {
            board: &self.board,
            specials: &self.specials,
            rules: &r.rules,
            pieces: &r.pieces,
        }
    }

    /// Where the piece on `from` may go: its slides (not onto a square it may not stop
    /// on) and its jumps.
    fn targets(&self, from: SquareOf<G>, r: &BerserkRules) -> BitboardOf<G> {
        let kind = self.kind_at(from);
        let jumps = self.jumps(from, kind, r);
        let role = self.to_move;
        slide_targets(&self.board, &r.rules, &r.pieces, role, kind, from) | jumps
    }

    /// Where the king could go were his side to move with no berserk turn pending: his
    /// slides and jumps (empty once he is taken). The search reads his threat to reach a
    /// corner from it on either side's move.
    pub(crate) fn king_targets(&self, r: &BerserkRules) -> BitboardOf<G> {
        if self.king_taken {
            return BitboardOf::EMPTY;
        }
        let from = self.board.king();
        let jumps = jump_targets(
            &self.board,
            &self.specials,
            &r.rules,
            &r.pieces,
            Role::Defender,
            PieceKind::King,
            from,
        );
        slide_targets(
            &self.board,
            &r.rules,
            &r.pieces,
            Role::Defender,
            PieceKind::King,
            from,
        ) | jumps
    }

    fn jumps(&self, from: SquareOf<G>, kind: PieceKind, r: &BerserkRules) -> BitboardOf<G> {
        jump_targets(
            &self.board,
            &self.specials,
            &r.rules,
            &r.pieces,
            self.to_move,
            kind,
            from,
        )
    }

    /// Every legal move: of the berserker alone while a turn continues, else of every
    /// piece of the side to move; in (from, to) square order.
    pub fn legal_moves(&self, r: &BerserkRules) -> MoveListOf<G> {
        let mut list = MoveListOf::new();
        let movers = match self.berserker {
            Some(sq) => BitboardOf::from_square(sq),
            None => self.pieces_of(self.to_move),
        };
        for from in movers {
            for to in self.targets(from, r) {
                if let Some(mv) = MoveOf::new(from, to) {
                    list.push(mv);
                }
            }
        }
        list
    }

    /// The pieces of `role` still on the board (the king once taken not among them).
    pub(crate) fn pieces_of(&self, role: Role) -> BitboardOf<G> {
        let mut p = self.board.pieces(role);
        if role == Role::Defender && self.king_taken {
            p &= !self.board.king_bb();
        }
        p
    }

    /// True when `mv` is one of [`BerserkPositionOf::legal_moves`].
    pub fn is_legal(&self, mv: MoveOf<G>, r: &BerserkRules) -> bool {
        self.berserker.is_none_or(|b| b == mv.from)
            && self.pieces_of(self.to_move).contains(mv.from)
            && self.targets(mv.from, r).contains(mv.to)
    }

    /// Plays a legal move (unchecked): moves the piece, takes what it takes, and passes
    /// the turn unless the berserk rule gives the piece another move.
    pub fn play(&mut self, mv: MoveOf<G>, r: &BerserkRules) -> BerserkEffect<G> {
        let role = self.to_move;
        let foe = role.opponent();
        let kind = self.kind_at(mv.from);
        // A move of two squares over a piece is a jump; a slide needs the square free.
        let over = between(mv.from, mv.to) & self.board.occupied();
        let jump = over.any();
        // OpenTafl counts a fresh piece's jump as capturing when the jumped piece, between
        // the landing square and the jumper still on its start, would be sandwiched: not
        // a guard (never taken so), nor jumped by an unarmed king (who takes nothing).
        let fresh_jump = jump
            && self.specials.is_fresh(mv.from)
            && !(self.specials.guards() & over).any()
            && (kind != PieceKind::King || r.rules.king_armed.hammer());
        self.board.move_piece(role, mv.from, mv.to);
        self.specials.move_piece(mv.from, mv.to);
        let jumped_taken = jump && r.pieces.jump(kind) == JumpMode::Capture;
        if jumped_taken {
            self.take(role, over);
        }
        let (mut taken, listed) =
            self.capture_board(r)
                .captures_after(role, kind, mv.to, jumped_taken, fresh_jump);
        self.take(role, taken.soldiers);
        if jumped_taken {
            taken.soldiers |= over;
        }
        if taken.king {
            self.king_taken = true;
        }
        let continues = (taken.soldiers.any() || taken.king)
            && match r.pieces.berserk {
                BerserkMode::Off => false,
                BerserkMode::CaptureAgain => {
                    let jumps = self.jumps(mv.to, kind, r);
                    self.capture_board(r)
                        .has_capturing_move(role, kind, mv.to, jumps)
                }
                BerserkMode::AnyMove => {
                    can_step(&self.board, &r.rules, &r.pieces, role, kind, mv.to)
                }
            };
        if continues {
            self.berserker = Some(mv.to);
        } else {
            self.berserker = None;
            self.to_move = foe;
        }
        BerserkEffect {
            taken,
            jump,
            listed,
            continues,
        }
    }

    /// Takes the soldiers `taken` of `mover`'s enemy: off the board, but a mercenary
    /// changes sides where it stands (OpenTafl's `Taflman.capturedBy`).
    fn take(&mut self, mover: Role, taken: BitboardOf<G>) {
        let turncoats = taken & self.specials.mercenaries();
        self.board.remove_soldiers(mover.opponent(), taken);
        self.board.add_soldiers(mover, turncoats);
        match mover {
            Role::Attacker => self.turned_attacker ^= turncoats,
            Role::Defender => self.turned_defender ^= turncoats,
        }
        self.specials.remove(taken);
    }

    /// This position under a board symmetry.
    pub fn transform(&self, sym: u8) -> Self {
        BerserkPositionOf {
            board: self.board.transform(sym),
            specials: self.specials.transform(sym),
            to_move: self.to_move,
            berserker: self.berserker.map(|s| s.transform(sym)),
            king_taken: self.king_taken,
            turned_attacker: self.turned_attacker.transform(sym),
            turned_defender: self.turned_defender.transform(sym),
        }
    }
}

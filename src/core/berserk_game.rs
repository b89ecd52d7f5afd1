//! A Berserk game (docs/RULES.md section 17.10): the positions played since the start, the
//! moves with what they took, the repetition keys that the judge's end-of-game tests read
//! ([`berserk_outcome`](super::judge::berserk_outcome)), undo, and the game's record in
//! OpenTafl's move notation (`Ne5-d5`, a jump `Nf3^h3xg3`, a continuation `Nh3=h4`,
//! captures `xe4/Kf5`). The ordinary rule sets keep
//! [`GameOf`](super::game::GameOf), which knows nothing of this.

use thiserror::Error;

use super::berserk_position::{BerserkEffect, BerserkPositionOf, BerserkRules};
use super::berserk_variant::BerserkVariant;
use super::bitboard::BitboardOf;
use super::excerpt::excerpt;
use super::geometry::Geometry;
use super::judge::berserk_outcome;
use super::moves::{MoveListOf, MoveOf};
use super::outcome::{Reason, Status};
use super::role::Role;
use super::special_pieces::PieceKind;
use super::square::{Direction, SquareOf};
use super::variant::VariantError;

/// One move played: the move, the kind and side of the piece, and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BerserkPlyOf<G: Geometry> {
    /// The move.
    pub mv: MoveOf<G>,
    /// The side that moved.
    pub role: Role,
    /// The kind of the piece that moved.
    pub kind: PieceKind,
    /// The move continued a berserk turn (the piece had to move again).
    pub continued: bool,
    /// What it did.
    pub effect: BerserkEffect<G>,
    /// The pieces taken with their kinds, in the order OpenTafl writes them (the jumped
    /// piece first, then west, east, south, north of the destination).
    taken: [Option<(SquareOf<G>, PieceKind)>; 5],
}

impl<G: Geometry> BerserkPlyOf<G> {
    /// The move in OpenTafl's record notation (`notation/MoveSerializer`): the piece's
    /// letter (`K`, a knight `N`/`n`, a commander `C`/`c`), from, `-` (`^` a jump OpenTafl
    /// marks, `=` a continuation, `^=` both), to, and `x` with the squares taken, each with
    /// its piece's letter if it is special, separated by `/`.
    pub fn record(&self) -> String {
        let sep = match (self.effect.jump && self.effect.listed, self.continued) {
            (true, true) => "^=",
            (true, false) => "^",
            (false, true) => "=",
            (false, false) => "-",
        };
        let mut s = format!(
            "{}{}{sep}{}",
            letter(self.kind, self.role),
            self.mv.from,
            self.mv.to
        );
        let taken: Vec<String> = self
            .taken
            .iter()
            .flatten()
            .map(|(sq, kind)| format!("{}{sq}", letter(*kind, self.role.opponent())))
            .collect();
        if !taken.is_empty() {
            s.push('x');
            s.push_str(&taken.join("/"));
        }
        s
    }
}

/// The letter OpenTafl writes before a piece of `kind` and `role` (none for a soldier,
/// nor for a guard: `DetailedMoveRecord.getTaflmanCharForFlag` has no letter for one).
fn letter(kind: PieceKind, role: Role) -> &'static str {
    match (kind, role) {
        (PieceKind::Soldier | PieceKind::Guard, _) => "",
        (PieceKind::Mercenary, Role::Attacker) => "m",
        (PieceKind::Mercenary, Role::Defender) => "M",
        (PieceKind::King, _) => "K",
        (PieceKind::Knight, Role::Attacker) => "n",
        (PieceKind::Knight, Role::Defender) => "N",
        (PieceKind::Commander, Role::Attacker) => "c",
        (PieceKind::Commander, Role::Defender) => "C",
    }
}

/// Why a Berserk game refused a move or a record; the game is then unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BerserkMoveError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A berserk turn continues with another piece.
    #[error(
        "{tried} is illegal: the berserk turn continues, the piece on {must} must move again (OpenTafl's error 4)"
    )]
    Berserker {
        /// The move tried.
        tried: String,
        /// The square of the piece that must move.
        must: String,
    },
    /// No piece of the side to move on the square.
    #[error("{tried} is illegal: no {role} piece on {from}")]
    NoPiece {
        /// The move tried.
        tried: String,
        /// The side to move.
        role: Role,
        /// Its origin.
        from: String,
    },
    /// The piece cannot go there.
    #[error(
        "{0} is illegal: the piece cannot go there (blocked, a square it may not stop on, or no jump)"
    )]
    Illegal(String),
    /// A record move that is not OpenTafl's notation.
    #[error("not a Berserk move record: {0}")]
    Syntax(String),
    /// A record move whose captures are not what the move takes.
    #[error("{word}: the move takes {taken}, not what the record says")]
    Captures {
        /// The record's word.
        word: String,
        /// What the move takes.
        taken: String,
    },
    /// A record move marked as a continuation (`=`) where none is, or the reverse.
    #[error("{0}: the record's continuation mark (=) does not match the game")]
    Continuation(String),
    /// The start position does not fit.
    #[error(transparent)]
    Variant(#[from] VariantError),
}

/// A Berserk game on board `G`.
#[derive(Clone, Debug)]
pub struct BerserkGameOf<G: Geometry> {
    rules: BerserkRules,
    /// The positions, the start first: one more than the plies.
    positions: Vec<BerserkPositionOf<G>>,
    /// The repetition keys of the positions.
    keys: Vec<u64>,
    plies: Vec<BerserkPlyOf<G>>,
    resigned: Option<Role>,
}

impl<G: Geometry> BerserkGameOf<G> {
    /// A new game of `variant` from its start position, `first` to move.
    pub fn start(variant: &BerserkVariant, first: Role) -> Result<Self, VariantError> {
        let mut start = variant.position::<G>()?;
        if start.to_move() != first {
            start = BerserkPositionOf::new(*start.board(), *start.specials(), first);
        }
        Ok(Self::from_position(start, *variant.rules()))
    }

    /// A game from `pos` under `rules`, with no history.
    pub fn from_position(pos: BerserkPositionOf<G>, rules: BerserkRules) -> Self {
        BerserkGameOf {
            rules,
            keys: vec![pos.repetition_key()],
            positions: vec![pos],
            plies: Vec::new(),
            resigned: None,
        }
    }

    /// A game of `variant` from its start with the record's moves (OpenTafl's move
    /// records separated by spaces, [`BerserkGameOf::moves_field`]) played.
    pub fn from_record(variant: &BerserkVariant, record: &str) -> Result<Self, BerserkMoveError> {
        let mut g = Self::start(variant, variant.first())?;
        for word in record.split_whitespace() {
            g.play_record(word)?;
        }
        Ok(g)
    }

    /// The rules.
    pub fn rules(&self) -> &BerserkRules {
        &self.rules
    }

    /// The position now.
    pub fn position(&self) -> &BerserkPositionOf<G> {
        // The stack always holds the start.
        self.positions.last().unwrap_or_else(|| unreachable!())
    }

    /// The positions since the start, the current one last.
    pub fn positions(&self) -> &[BerserkPositionOf<G>] {
        &self.positions
    }

    /// The repetition keys of the positions since the start.
    pub fn repetition_keys(&self) -> &[u64] {
        &self.keys
    }

    /// The moves played.
    pub fn plies(&self) -> &[BerserkPlyOf<G>] {
        &self.plies
    }

    /// The side to move.
    pub fn to_move(&self) -> Role {
        self.position().to_move()
    }

    /// The legal moves of the side to move (of the berserker alone while a turn
    /// continues); none once the game is over.
    pub fn legal_moves(&self) -> MoveListOf<G> {
        if self.status().is_over() {
            return MoveListOf::new();
        }
        self.position().legal_moves(&self.rules)
    }

    /// How the game stands.
    pub fn status(&self) -> Status {
        if let Some(loser) = self.resigned {
            return Status::won(loser.opponent(), Reason::Resignation);
        }
        berserk_outcome(
            self.position(),
            &self.rules,
            &self.keys,
            self.plies.last().map(|p| p.role),
        )
    }

    /// Plays `mv` for the side to move; an error naming why, and nothing changes, when it
    /// is not legal.
    pub fn play(&mut self, mv: MoveOf<G>) -> Result<&BerserkPlyOf<G>, BerserkMoveError> {
        if self.status().is_over() {
            return Err(BerserkMoveError::GameOver);
        }
        let pos = *self.position();
        let tried = mv.to_string();
        if let Some(must) = pos.berserker()
            && must != mv.from
        {
            return Err(BerserkMoveError::Berserker {
                tried,
                must: must.to_string(),
            });
        }
        if !pos.board().pieces(pos.to_move()).contains(mv.from)
            || (pos.kind_at(mv.from) == PieceKind::King && pos.king_taken())
        {
            return Err(BerserkMoveError::NoPiece {
                tried,
                role: pos.to_move(),
                from: mv.from.to_string(),
            });
        }
        if !pos.is_legal(mv, &self.rules) {
            return Err(BerserkMoveError::Illegal(tried));
        }
        let role = pos.to_move();
        let kind = pos.kind_at(mv.from);
        let mut next = pos;
        let effect = next.play(mv, &self.rules);
        let mut taken = [None; 5];
        let mut n = 0;
        let jumped = if effect.jump {
            let over = super::movegen::between(mv.from, mv.to);
            (effect.taken.soldiers & over).into_iter().next()
        } else {
            None
        };
        let mut push = |sq: SquareOf<G>| {
            if let Some(slot) = taken.get_mut(n) {
                let kind = pos.kind_at(sq);
                *slot = Some((sq, kind));
                n += 1;
            }
        };
        if let Some(sq) = jumped {
            push(sq);
        }
        for dir in [
            Direction::West,
            Direction::East,
            Direction::South,
            Direction::North,
        ] {
            if let Some(sq) = mv.to.step(dir)
                && Some(sq) != jumped
                && (effect.taken.soldiers.contains(sq)
                    || (effect.taken.king && sq == pos.board().king()))
            {
                push(sq);
            }
        }
        self.plies.push(BerserkPlyOf {
            mv,
            role,
            kind,
            continued: pos.berserker().is_some(),
            effect,
            taken,
        });
        self.keys.push(next.repetition_key());
        self.positions.push(next);
        Ok(self.plies.last().unwrap_or_else(|| unreachable!()))
    }

    /// Plays one move record of OpenTafl's notation ([`BerserkPlyOf::record`]; a trailing
    /// `+` or `-` is read and ignored). When the record lists captures, or marks the move
    /// as a continuation, they must be what the move does here.
    pub fn play_record(&mut self, word: &str) -> Result<&BerserkPlyOf<G>, BerserkMoveError> {
        let rec = parse_record::<G>(word)?;
        let continuing = self.position().berserker().is_some();
        if rec.continued && !continuing {
            return Err(BerserkMoveError::Continuation(excerpt(word)));
        }
        let before = *self.position();
        self.play(rec.mv)?;
        let ply = *self.plies.last().unwrap_or_else(|| unreachable!());
        if let Some(listed) = rec.taken {
            let mut taken = ply.effect.taken.soldiers;
            if ply.effect.taken.king {
                taken.insert(before.board().king());
            }
            if taken != listed {
                self.undo();
                let taken: Vec<String> = taken.into_iter().map(|s| s.to_string()).collect();
                return Err(BerserkMoveError::Captures {
                    word: excerpt(word),
                    taken: if taken.is_empty() {
                        "nothing".into()
                    } else {
                        taken.join("/")
                    },
                });
            }
        }
        Ok(self.plies.last().unwrap_or_else(|| unreachable!()))
    }

    /// Takes back the last move (or a resignation); false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.resigned.take().is_some() {
            return true;
        }
        if self.plies.pop().is_none() {
            return false;
        }
        self.positions.pop();
        self.keys.pop();
        true
    }

    /// `role` resigns; an error when the game is over.
    pub fn resign(&mut self, role: Role) -> Result<(), BerserkMoveError> {
        if self.status().is_over() {
            return Err(BerserkMoveError::GameOver);
        }
        self.resigned = Some(role);
        Ok(())
    }

    /// The moves so far as OpenTafl records them, separated by spaces.
    pub fn moves_field(&self) -> String {
        let words: Vec<String> = self.plies.iter().map(BerserkPlyOf::record).collect();
        words.join(" ")
    }
}

/// A move record read: the move, whether it is marked as a continuation, and the squares
/// it lists as taken (`None`: no `x`).
struct Recorded<G: Geometry> {
    mv: MoveOf<G>,
    continued: bool,
    taken: Option<BitboardOf<G>>,
}

/// A square after an optional piece letter (a letter followed by a letter: `ce9`, `Kc6`).
fn record_square<G: Geometry>(s: &str) -> Option<SquareOf<G>> {
    let b = s.as_bytes();
    let sq = match b {
        [a, c, ..] if a.is_ascii_alphabetic() && c.is_ascii_alphabetic() => s.get(1..)?,
        _ => s,
    };
    sq.parse().ok()
}

fn parse_record<G: Geometry>(word: &str) -> Result<Recorded<G>, BerserkMoveError> {
    let err = || BerserkMoveError::Syntax(excerpt(word));
    let w = word.trim_end_matches(['+', '-']);
    let (mv, taken) = match w.split_once('x') {
        Some((m, t)) => {
            let mut set = BitboardOf::EMPTY;
            for s in t.split('/') {
                set.insert(record_square::<G>(s).ok_or_else(err)?);
            }
            (m, Some(set))
        }
        None => (w, None),
    };
    let sep = mv.find(['-', '^', '=']).ok_or_else(err)?;
    let from = record_square::<G>(mv.get(..sep).ok_or_else(err)?).ok_or_else(err)?;
    let rest = mv.get(sep..).ok_or_else(err)?;
    let to_at = rest
        .find(|c: char| c.is_ascii_alphabetic())
        .ok_or_else(err)?;
    let (marks, to) = rest.split_at(to_at);
    if marks.is_empty() || !marks.chars().all(|c| matches!(c, '-' | '^' | '=')) {
        return Err(err());
    }
    let to: SquareOf<G> = to.parse().map_err(|_| err())?;
    Ok(Recorded {
        mv: MoveOf::new(from, to).ok_or_else(err)?,
        continued: marks.contains('='),
        taken,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::geometry::S11;
    use crate::core::outcome::Outcome;
    use crate::core::repetition::RepetitionMode;
    use crate::core::rules_string::parse_berserk_rules_string;

    const BERSERK: &str = "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";

    fn game() -> BerserkGameOf<S11> {
        let v = parse_berserk_rules_string(BERSERK).unwrap();
        BerserkGameOf::start(&v, v.first()).unwrap()
    }

    #[test]
    fn moves_records_and_undo() {
        let mut g = game();
        assert_eq!(g.to_move(), Role::Defender);
        assert_eq!(g.legal_moves().as_slice().len(), 60);
        let rec = g.play_record("Ne5-d5").unwrap().record();
        assert_eq!(rec, "Ne5-d5");
        assert_eq!(g.to_move(), Role::Attacker);
        assert!(g.play_record("a4-a3xb3").is_err());
        assert_eq!(g.plies().len(), 1);
        assert!(g.undo());
        assert!(!g.undo());
        assert_eq!(g.legal_moves().as_slice().len(), 60);
    }

    #[test]
    fn bad_records_are_named() {
        let mut g = game();
        for bad in ["", "e5", "Ne5d5", "Ne5-q5", "Ne5-e5", "e5-d5x", "é5-d5"] {
            assert!(g.play_record(bad).is_err(), "{bad}");
        }
        let e = g.play_record("a4-a3").unwrap_err().to_string();
        assert!(e.contains("no defender piece on a4"), "{e}");
        assert_eq!(g.plies().len(), 0);
    }

    /// Berserk's rules from a start of the king on h8, the defenders' knight on c3,
    /// attackers on c4, c6 and j1.
    fn small() -> BerserkGameOf<S11> {
        let text = BERSERK.replace(
            "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/",
            "start:/9t1/11/2N8/2t8/11/2t8/11/7K3/11/11/11/",
        );
        let v = parse_berserk_rules_string(&text).unwrap();
        BerserkGameOf::start(&v, v.first()).unwrap()
    }

    #[test]
    fn the_third_occurrence_wins_for_the_repeater_under_tfr_l() {
        let mut g = small();
        let cycle = ["h8-h9", "j1-j2", "h9-h8", "j2-j1"];
        for (i, word) in cycle.iter().chain(&cycle).enumerate() {
            assert_eq!(g.status(), Status::Ongoing, "before ply {}", i + 1);
            g.play_record(word).unwrap();
        }
        // The start position (defenders to move) for the third time, made by the
        // attackers' move: they repeated, and under tfr:l the repeater wins.
        assert_eq!(g.status(), Status::won(Role::Attacker, Reason::Repetition));
        assert!(g.legal_moves().as_slice().is_empty());
        assert!(g.play_record("h8-h9").is_err());
        g.undo();
        assert_eq!(g.status(), Status::Ongoing);
        // Under tfr:w the repeater loses; under tfr:d it is a draw.
        let mut rules = *g.rules();
        rules.rules.repetition = RepetitionMode::ThirdOccurrenceMoverLoses;
        let keys: Vec<u64> = g
            .repetition_keys()
            .iter()
            .copied()
            .chain([g.keys[0]])
            .collect();
        let start = g.positions()[0];
        assert_eq!(
            berserk_outcome(&start, &rules, &keys, Some(Role::Attacker)),
            Status::won(Role::Defender, Reason::Repetition)
        );
        rules.rules.repetition = RepetitionMode::ThirdOccurrenceDraws;
        assert!(matches!(
            berserk_outcome(&start, &rules, &keys, Some(Role::Attacker)),
            Status::Over(Outcome { winner: None, .. })
        ));
    }

    #[test]
    fn no_repetition_is_judged_while_a_berserk_turn_continues() {
        let mut g = small();
        g.play_record("Nc3^c5xc4").unwrap();
        let pos = *g.position();
        assert!(pos.berserker().is_some());
        // The same key three times, but the turn continues: no verdict.
        let key = pos.repetition_key();
        assert_eq!(
            berserk_outcome(&pos, g.rules(), &[key, key, key], Some(Role::Defender)),
            Status::Ongoing
        );
    }

    #[test]
    fn the_hash_has_the_berserker_and_the_special_pieces_and_the_repetition_key_not_the_berserker()
    {
        let mut g = small();
        g.play_record("Nc3^c5xc4").unwrap();
        let mid = *g.position();
        let sq = mid.berserker().unwrap();
        let plain = BerserkPositionOf::new(*mid.board(), *mid.specials(), mid.to_move());
        assert_eq!(plain.repetition_key(), mid.repetition_key());
        assert_ne!(plain.hash(), mid.hash());
        assert_eq!(plain.with_berserker(sq).unwrap().hash(), mid.hash());
        // A knight is not a soldier: the same board without him hashes differently.
        let soldiers = BerserkPositionOf::new(
            *mid.board(),
            crate::core::special_pieces::SpecialPiecesOf::NONE,
            mid.to_move(),
        );
        assert_ne!(soldiers.repetition_key(), plain.repetition_key());
        assert_ne!(soldiers.hash(), plain.hash());
        // The side to move counts.
        let other = BerserkPositionOf::new(*mid.board(), *mid.specials(), Role::Attacker);
        assert_ne!(other.repetition_key(), plain.repetition_key());
    }
}

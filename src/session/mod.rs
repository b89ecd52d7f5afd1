//! The engine session: one game with its rules, the search options, the searcher and the
//! clock. The protocol layer parses a command and calls one method here; every method
//! either succeeds or changes nothing.
//!
//! Files: this one the session's state, its game and moves, and `generate_move`; `setup`
//! which game it plays (rules, board, position); `settings` the options and the
//! evaluation's settings; `limits` what bounds a search (options and clock); `analysis`
//! the searches that play no move (analyze, ponder); `evaluation` the last search's score
//! of a position; `info_sink` where the search's progress goes; `error` why a command is
//! refused.

mod analysis;
mod error;
mod evaluation;
mod info_sink;
mod limits;
mod settings;
mod setup;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::any_game::AnyGame;
use crate::core::any_size::on_size;
use crate::core::any_square::{AnyMove, AnySquare};
use crate::core::berserk_game::BerserkGameOf;
use crate::core::game::{Game, RuleSet};
use crate::core::geometry::BoardSize;
use crate::core::geometry::{Geometry, S11};
use crate::core::outcome::{Outcome, Reason, Status};
use crate::core::preset::RulePreset;
use crate::core::role::{ByRole, Role};
use crate::core::rules_source::RulesSource;
use crate::options;
use crate::players::Player;
use crate::players::level::LevelPlay;
use crate::search::Wdl;
use crate::search::berserk::BerserkSearcher;
use crate::search::wdl::WdlModel;
use crate::search::{Info, Limits, Score, SearchResult, Searcher};
use crate::time_control::Fischer;

pub use error::SessionError;
pub(crate) use evaluation::Evaluation;
pub(crate) use info_sink::InfoSink;
pub use settings::SearchOption;

use error::illegal;
use evaluation::PositionKey;
use limits::SearchLimits;
use setup::RuleOverrides;

/// Deepest perft accepted.
pub(crate) const MAX_PERFT_DEPTH: u64 = 8;

/// The move the engine chose and played, or its resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineMove {
    /// The engine played this move.
    Play(AnyMove),
    /// The engine resigned (it had no move to play).
    Resign,
}

/// One engine session: a game on a board of any size under a rule family or an OpenTafl
/// rules string, search options, a searcher and a clock. The search plays every board and
/// rule set; the scripted players 11x11 only.
#[derive(Debug)]
pub struct Session {
    game: AnyGame,
    /// The Berserk game in progress, when the rules string is of Berserk's kind
    /// ([`RulesSource::Berserk`]); then it, not `game`, is the game played.
    berserk: Option<BerserkGameOf<S11>>,
    /// The search of Berserk games.
    berserk_searcher: BerserkSearcher,
    /// The rule family or rules string: its game on the board's size
    /// ([`RulesSource::variant`]) gives new games their start position, first mover and
    /// rules.
    source: RulesSource,
    /// What `set_rule` changed since the family was chosen.
    overrides: RuleOverrides,
    /// The rules of new games: the variant's, with the overrides.
    rules: RuleSet,
    limits: SearchLimits,
    searcher: Searcher,
    time: Option<Fischer>,
    /// The time each side has left, as the controller last said.
    time_left: ByRole<Option<Duration>>,
    /// Root moves `analyze` reports.
    multipv: usize,
    /// Whether to search the expected reply after the engine's own move (`set_option
    /// ponder`).
    ponder: bool,
    /// The reply the last `generate_move` expects, for the protocol to ponder on.
    expected_reply: Option<AnyMove>,
    /// Whether scores come with their win/draw/loss chances ([`options::SHOW_WDL`]).
    show_wdl: bool,
    /// What the last search found, for the position it found it of ([`Session::evaluation`]).
    evaluation: Option<(PositionKey, Evaluation)>,
    /// Whether `show_board` draws in colour: hnefi's own choice for a terminal
    /// ([`crate::protocol::colour::wanted`]), never a command's.
    colour: bool,
    info: InfoSink,
    /// Set from outside (the protocol's reader thread on `stop`) to end a running
    /// search at once with the best move found so far.
    stop: Arc<AtomicBool>,
    /// The scripted player that answers `generate_move` instead of the search
    /// (`hnefi --player`), if any.
    player: Option<Player>,
    /// The level ([`options::LEVEL`]; 0: full strength); a scripted player outranks it.
    level: u64,
    /// The seed of the scripted players' random choices at a level.
    seed: u64,
    /// When the command being run arrived ([`Session::set_arrival`]): the searches it
    /// starts count their time from it.
    arrival: Option<Instant>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session with the default rules and options, at the start position.
    pub fn new() -> Session {
        let rules = RulePreset::default().rules();
        Session {
            game: AnyGame::S11(Game::new(rules)),
            berserk: None,
            berserk_searcher: BerserkSearcher::default(),
            source: RulesSource::default(),
            overrides: RuleOverrides::default(),
            rules,
            limits: SearchLimits::default(),
            searcher: Searcher::new(
                usize::try_from(options::THREADS.default_whole()).unwrap_or(1),
                usize::try_from(options::HASH_MB.default_whole()).unwrap_or(1),
            ),
            time: None,
            time_left: ByRole::default(),
            multipv: 1,
            ponder: false,
            expected_reply: None,
            show_wdl: false,
            evaluation: None,
            colour: false,
            info: InfoSink::default(),
            stop: Arc::new(AtomicBool::new(false)),
            player: None,
            level: options::LEVEL.default_whole(),
            seed: 0,
            arrival: None,
        }
    }

    /// The command about to run arrived at `at` (the protocol stamps it when it reads the
    /// line; `None`: unknown). A search it starts counts its time from then, and
    /// `generate_move` charges the engine's own clock from then: the time spent before
    /// the search on a loaded machine is the move's.
    pub(crate) fn set_arrival(&mut self, at: Option<Instant>) {
        self.arrival = at;
    }

    /// Lets a scripted player answer `generate_move` instead of the search (`None`: the
    /// search again); every other command is unchanged.
    pub fn set_player(&mut self, player: Option<Player>) {
        self.player = player;
    }

    /// The level (`set_option level`; 0: full strength).
    pub fn level(&self) -> u64 {
        self.level
    }

    /// Seeds the random choices of the strategies a level plays (`hnefi --seed`).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The flag that ends a running search when set (and every search started while it
    /// stays set, at its first check): whoever sets it clears it once the request is
    /// served.
    pub(crate) fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Sends the search's progress to `sink` from now on.
    pub fn set_info_sink(&mut self, sink: impl FnMut(&Info<AnyMove>) + Send + 'static) {
        self.info = InfoSink::new(sink);
    }

    /// The game in progress.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The game in progress if it is on 11x11, the board the scripted players, the 0.3.1
    /// dialect and OTEP play (else [`SessionError::PlayerBoard`]).
    pub(crate) fn game11(&self) -> Result<&Game, SessionError> {
        self.game
            .s11()
            .ok_or(SessionError::PlayerBoard(self.game.size()))
    }

    /// The board size of the game in progress (and of new games).
    pub fn board_size(&self) -> BoardSize {
        self.game.size()
    }

    /// The rule family or rules string new games come from.
    pub fn source(&self) -> &RulesSource {
        &self.source
    }

    /// The rule set new games start with.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The Berserk game in progress, if the game is one.
    pub fn berserk(&self) -> Option<&BerserkGameOf<S11>> {
        self.berserk.as_ref()
    }

    /// The side to move in the game in progress.
    pub fn to_move(&self) -> Role {
        match &self.berserk {
            Some(b) => b.to_move(),
            None => self.game.to_move(),
        }
    }

    /// The board of the game in progress as a diagram (commanders `C`, knights `N` of
    /// a Berserk game among the soldiers `X` and `O`).
    pub(crate) fn diagram(&self) -> String {
        match &self.berserk {
            Some(b) => berserk_diagram(b),
            None => self.game.diagram(),
        }
    }

    /// The board of the game in progress in OpenTafl's notation.
    pub(crate) fn to_opentafl(&self) -> String {
        match &self.berserk {
            Some(b) => berserk_opentafl(b),
            None => self.game.to_opentafl(),
        }
    }

    fn replace_berserk(&mut self, game: BerserkGameOf<S11>) {
        // The ordinary game stands for the board's size and the rules' squares only.
        let pos = crate::core::position::PositionOf::new(*game.position().board(), game.to_move());
        self.game = AnyGame::S11(crate::core::game::GameOf::from_position(
            pos,
            game.rules().rules,
        ));
        self.berserk = Some(game);
        self.time_left = ByRole::default();
        self.berserk_searcher.clear();
        self.evaluation = None;
    }

    fn replace_game(&mut self, game: AnyGame) {
        self.berserk = None;
        self.game = game;
        self.time_left = ByRole::default();
        self.searcher.clear();
        self.evaluation = None;
    }

    /// Plays `mv` for `role` and returns the captured squares sorted by rank then file,
    /// the king's square included when the move captured him (as the reference engine
    /// reports it).
    pub(crate) fn play(&mut self, role: Role, mv: AnyMove) -> Result<Vec<AnySquare>, SessionError> {
        self.check_turn(role)?;
        if let Some(b) = &mut self.berserk {
            return berserk_play(b, mv);
        }
        let mut captured = self.game.play(mv)?;
        if let Status::Over(Outcome {
            winner: Some(_),
            reason: Reason::KingCaptured,
        }) = self.game.status()
        {
            captured.push(self.game.king());
            captured.sort_unstable();
        }
        Ok(captured)
    }

    fn check_turn(&self, role: Role) -> Result<(), SessionError> {
        if self.status().is_over() {
            return Err(SessionError::GameOver);
        }
        if self.to_move() != role {
            return Err(SessionError::NotYourTurn(role));
        }
        Ok(())
    }

    /// Plays a move record of OpenTafl's notation in a Berserk game (its captures, if
    /// listed, checked); an error, and nothing changes, when it is not legal or there is
    /// no Berserk game.
    pub(crate) fn play_berserk_record(&mut self, word: &str) -> Result<(), SessionError> {
        if self.status().is_over() {
            return Err(SessionError::GameOver);
        }
        let b = self
            .berserk
            .as_mut()
            .ok_or(SessionError::NotInBerserk("a Berserk move record"))?;
        b.play_record(word).map_err(SessionError::Berserk)?;
        Ok(())
    }

    /// `role` resigns.
    pub(crate) fn resign(&mut self, role: Role) -> Result<(), SessionError> {
        if let Some(b) = &mut self.berserk {
            return b.resign(role).map_err(SessionError::Berserk);
        }
        self.game.resign(role).map_err(illegal)
    }

    /// Takes back one ply.
    pub(crate) fn undo(&mut self) -> Result<(), SessionError> {
        let undone = match &mut self.berserk {
            Some(b) => b.undo(),
            None => self.game.undo(),
        };
        if undone {
            Ok(())
        } else {
            Err(SessionError::NothingToUndo)
        }
    }

    /// The status of the game.
    pub(crate) fn status(&self) -> Status {
        if let Some(b) = &self.berserk {
            return b.status();
        }
        self.game.status()
    }

    /// Every legal move of the side to move, sorted by from then to.
    pub(crate) fn legal_moves(&self) -> Vec<AnyMove> {
        if let Some(b) = &self.berserk {
            return b
                .legal_moves()
                .as_slice()
                .iter()
                .map(|&m| AnyMove::from(m))
                .collect();
        }
        self.game.legal_moves()
    }

    /// The squares holding a piece of the side to move with a legal move, sorted.
    pub(crate) fn movable_pieces(&self) -> Vec<AnySquare> {
        let mut from: Vec<AnySquare> = self.legal_moves().iter().map(|m| m.from).collect();
        from.dedup();
        from
    }

    /// The legal destinations of the piece of `role` on `from`, sorted.
    pub(crate) fn destinations(
        &self,
        role: Role,
        from: AnySquare,
    ) -> Result<Vec<AnySquare>, SessionError> {
        self.check_turn(role)?;
        let own = match &self.berserk {
            Some(b) => from
                .on::<S11>()
                .is_some_and(|sq| b.position().board().pieces(role).contains(sq)),
            None => self.game.role_at(from) == Some(role),
        };
        if !own {
            return Err(SessionError::NoPiece { role, square: from });
        }
        Ok(self
            .legal_moves()
            .iter()
            .filter(|m| m.from == from)
            .map(|m| m.to)
            .collect())
    }

    /// The moves so far in record notation.
    pub(crate) fn moves_field(&self) -> String {
        if let Some(b) = &self.berserk {
            return b.moves_field();
        }
        self.game.moves_field()
    }

    /// The leaf count `depth` plies below the current position, or
    /// [`SessionError::Stopped`] when the stop flag ended the count.
    pub(crate) fn perft(&self, depth: u32) -> Result<u64, SessionError> {
        if self.status().is_over() {
            return Ok(u64::from(depth == 0));
        }
        if let Some(b) = &self.berserk {
            return Ok(crate::core::perft::berserk_perft(
                b.position(),
                depth,
                b.rules(),
            ));
        }
        self.game
            .perft_until(depth, &self.stop)
            .ok_or(SessionError::Stopped)
    }

    /// Searches under `limits` for `lines` root moves, reporting each iteration to the
    /// [`InfoSink`] and to `extra`.
    fn search(
        &mut self,
        limits: &Limits,
        lines: usize,
        extra: &mut dyn FnMut(&Info<AnyMove>),
    ) -> SearchResult<AnyMove> {
        self.searcher.set_multipv(lines);
        let limits = &Limits {
            since: limits.since.or(self.arrival),
            ..*limits
        };
        let wdl = self.wdl_shown();
        if let Some(b) = &self.berserk {
            let (searcher, info, stop) = (&mut self.berserk_searcher, &mut self.info, &self.stop);
            return searcher
                .search(
                    b.position(),
                    b.rules(),
                    b.repetition_keys(),
                    limits,
                    stop,
                    &mut |i| {
                        let mut i = i.map_moves(AnyMove::from);
                        i.wdl = wdl.map(|(model, mover)| model.wdl(i.score, mover));
                        info.report(&i);
                        extra(&i);
                    },
                )
                .map_moves(AnyMove::from);
        }
        let (searcher, info, stop) = (&mut self.searcher, &mut self.info, &self.stop);
        let result = on_size!(&self.game, AnyGame, game => {
            searcher
                .search(game, limits, stop, &mut |i| {
                    let mut i = i.map_moves(AnyMove::from);
                    i.wdl = wdl.map(|(model, mover)| model.wdl(i.score, mover));
                    info.report(&i);
                    extra(&i);
                })
                .map_moves(AnyMove::from)
        });
        if result.best.is_some() {
            let found = Evaluation {
                score: result.score,
                depth: result.depth,
            };
            self.evaluation = Some((self.position_key(), found));
        }
        result
    }

    /// What tells the position in progress from another for [`Session::evaluation`].
    fn position_key(&self) -> PositionKey {
        PositionKey {
            board: self.game.to_opentafl(),
            to_move: self.game.to_move(),
            rules: self.game.rules(),
        }
    }

    /// The last search's score of the position in progress and its depth, when the last
    /// search was of this position (or played the move that led to it, whose score is
    /// this position's from the other side), under the same rules.
    pub(crate) fn evaluation(&self) -> Option<Evaluation> {
        if self.berserk.is_some() {
            return None;
        }
        self.evaluation
            .as_ref()
            .filter(|(key, _)| *key == self.position_key())
            .map(|(_, found)| *found)
    }

    /// The win/draw/loss model of the game and the side to move, when scores are to show
    /// their chances (`show_wdl`).
    fn wdl_shown(&self) -> Option<(WdlModel, Role)> {
        self.show_wdl.then(|| {
            let model = WdlModel::of_game(&self.source, self.game.size());
            (model, self.to_move())
        })
    }

    /// The side to move's chances at `score` in the game in progress, when scores are to
    /// show them (`show_wdl`).
    pub(crate) fn wdl(&self, score: Score) -> Option<Wdl> {
        self.wdl_shown()
            .map(|(model, mover)| model.wdl(score, mover))
    }

    /// The node count of the search under way, readable from another thread while it
    /// runs (for progress reports between iterations).
    pub(crate) fn node_counter(&self) -> Arc<std::sync::atomic::AtomicU64> {
        self.searcher.node_counter()
    }

    /// Searches for the side to move under the current limits and plays the move (or
    /// plays the scripted player's move, when one is set). The search reports to the
    /// session's [`InfoSink`].
    pub fn generate_move(&mut self) -> Result<(Role, EngineMove), SessionError> {
        if self.status().is_over() {
            return Err(SessionError::GameOver);
        }
        if self.berserk.is_some() {
            return self.generate_berserk_move();
        }
        let role = self.game.to_move();
        let limits = self.limits();
        let now = Instant::now();
        let started = self.arrival.map_or(now, |at| at.min(now));
        self.expected_reply = None;
        // The options table keeps the level in range; an unknown one plays full strength.
        let level = LevelPlay::of(self.level).unwrap_or(LevelPlay::Full);
        let player = self.player.or_else(|| level.player(role, self.seed));
        let (best, pv, found) = match player {
            // The scripted players play 11x11 only.
            Some(player) => (
                player.choose(self.game11()?).map(AnyMove::from),
                Vec::new(),
                None,
            ),
            None => {
                let limits = level.limits(limits);
                let result = self.search(&limits, 1, &mut |_| {});
                let found = Evaluation {
                    score: result.score,
                    depth: result.depth,
                };
                (result.best, result.pv, Some(found))
            }
        };
        let Some(mv) = best else {
            self.game.resign(role).map_err(illegal)?;
            return Ok((role, EngineMove::Resign));
        };
        self.game
            .play(mv)
            .map_err(|source| SessionError::SearchMove {
                mv,
                source: Box::new(source),
            })?;
        self.charge_clock(role, started.elapsed());
        // The search's score of its move is the position after it, from the other side.
        if let Some(found) = found.filter(|_| !self.game.status().is_over()) {
            self.evaluation = Some((self.position_key(), found.after_best_move()));
        }
        if self.ponder && !self.game.status().is_over() {
            self.expected_reply = pv.get(1).copied();
        }
        Ok((role, EngineMove::Play(mv)))
    }
}

impl Session {
    /// [`Session::generate_move`] in a Berserk game: the Berserk search's move (the
    /// scripted players and levels play only the ordinary rule sets).
    fn generate_berserk_move(&mut self) -> Result<(Role, EngineMove), SessionError> {
        let role = self.to_move();
        let limits = self.limits();
        let now = Instant::now();
        let started = self.arrival.map_or(now, |at| at.min(now));
        self.expected_reply = None;
        let result = self.search(&limits, 1, &mut |_| {});
        let Some(b) = &mut self.berserk else {
            return Err(SessionError::GameOver);
        };
        let Some(mv) = result.best else {
            b.resign(role).map_err(SessionError::Berserk)?;
            return Ok((role, EngineMove::Resign));
        };
        berserk_play(b, mv)?;
        self.charge_clock(role, started.elapsed());
        Ok((role, EngineMove::Play(mv)))
    }
}

/// Plays `mv` in a Berserk game and returns the squares taken, sorted by rank then file
/// (the king's among them when he was taken).
fn berserk_play(b: &mut BerserkGameOf<S11>, mv: AnyMove) -> Result<Vec<AnySquare>, SessionError> {
    let m = mv.on::<S11>().ok_or(SessionError::OffBerserkBoard(mv))?;
    let king = b.position().board().king();
    let ply = b.play(m).map_err(SessionError::Berserk)?;
    let mut taken: Vec<AnySquare> = ply
        .effect
        .taken
        .soldiers
        .into_iter()
        .map(AnySquare::from)
        .collect();
    if ply.effect.taken.king {
        taken.push(AnySquare::from(king));
    }
    taken.sort_unstable();
    Ok(taken)
}

/// A Berserk board as a diagram: hnefi's diagram with each commander written `C` and
/// each knight `N` (either side: the side shows in the piece's neighbours' letters no
/// more than in OpenTafl's; the legend says which side has which).
fn berserk_diagram(b: &BerserkGameOf<S11>) -> String {
    let pos = b.position();
    let board = pos.board();
    let mut rows: Vec<Vec<char>> = board
        .to_string()
        .lines()
        .map(|l| l.chars().collect())
        .collect();
    let size = usize::from(S11::SIZE);
    for sq in pos.specials().all() {
        let (file, rank) = (usize::from(sq.file()), usize::from(sq.rank()));
        let Some(row) = rows.get_mut(size - 1 - rank) else {
            continue;
        };
        let letter = match (
            pos.specials().commanders().contains(sq),
            board.attackers().contains(sq),
        ) {
            (true, true) => 'c',
            (true, false) => 'C',
            (false, true) => 'n',
            (false, false) => 'N',
        };
        if let Some(cell) = row.get_mut(4 + 2 * file) {
            *cell = letter;
        }
    }
    let mut out: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    out.push("c n: attacking commander, knight; C N: defending commander, knight".into());
    if let Some(sq) = pos.berserker() {
        out.push(format!("berserk turn: the piece on {sq} moves again"));
    }
    out.join("\n")
}

/// A Berserk board in OpenTafl's notation, commanders and knights with their letters.
fn berserk_opentafl(b: &BerserkGameOf<S11>) -> String {
    let pos = b.position();
    let board = pos.board();
    let mut out = String::from("/");
    for rank in 0..S11::SIZE {
        let mut run = 0;
        for file in 0..S11::SIZE {
            let Some(sq) = crate::core::square::SquareOf::<S11>::from_coords(file, rank) else {
                continue;
            };
            let attacker = board.attackers().contains(sq);
            let c = if sq == board.king() && !pos.king_taken() {
                Some('K')
            } else if attacker || board.defenders_and_king().contains(sq) {
                let kind = pos.specials().soldier_kind(sq);
                Some(match (kind, attacker) {
                    (crate::core::special_pieces::PieceKind::Commander, true) => 'c',
                    (crate::core::special_pieces::PieceKind::Commander, false) => 'C',
                    (crate::core::special_pieces::PieceKind::Knight, true) => 'n',
                    (crate::core::special_pieces::PieceKind::Knight, false) => 'N',
                    (_, true) => 't',
                    (_, false) => 'T',
                })
            } else {
                None
            };
            match c {
                Some(c) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(c);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        out.push('/');
    }
    out
}

/// At most 24 characters of outside text, for messages.
pub(crate) fn short(s: &str) -> String {
    crate::core::record::short(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_reports_to_the_info_sink() {
        let mut s = Session::new();
        s.set_option(SearchOption::Depth(3)).unwrap();
        let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = std::sync::Arc::clone(&lines);
        s.set_info_sink(move |info| sink.lock().unwrap().push(info.to_string()));
        s.generate_move().unwrap();
        let lines = lines.lock().unwrap();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[2].starts_with("depth 3 score "), "{lines:?}");
    }
}

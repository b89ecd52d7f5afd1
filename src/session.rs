//! The engine session: one game with its rules, the search options, the searcher and the
//! clock. The protocol layer parses a command and calls one method here; every method
//! either succeeds or changes nothing.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::core::any_game::{AnyGame, AnyGameError, AnyIllegalMove};
use crate::core::any_size::on_size;
use crate::core::any_square::{AnyMove, AnySquare};
use crate::core::encirclement_mode::EncirclementMode;
use crate::core::game::{Game, RepetitionMode, RuleSet};
use crate::core::geometry::BoardSize;
use crate::core::outcome::{Outcome, Reason, Status};
use crate::core::preset::RulePreset;
use crate::core::role::{ByRole, Role};
use crate::core::rules_source::{RulesSource, RulesSourceError};
use crate::options::{self, EngineOption, OptionError};
use crate::players::Player;
use crate::players::level::LevelPlay;
use crate::search::Networks;
use crate::search::network::NetworkError;
use crate::search::terms::WeightError;
use crate::search::wdl::{Wdl, WdlModel};
use crate::search::{self, Clock, Feature, Info, Limits, Score, SearchResult, Searcher};
use crate::time_control::Fischer;

/// Deepest perft accepted.
pub(crate) const MAX_PERFT_DEPTH: u64 = 8;

/// What a search found of a position: its score for the side to move and the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Evaluation {
    /// The score, from the side to move's view.
    pub(crate) score: Score,
    /// The depth the search completed.
    pub(crate) depth: u32,
}

impl Evaluation {
    /// The evaluation of the position after the best move: the score negated, a proven
    /// result one ply nearer; the search saw that position one ply shallower.
    fn after_best_move(self) -> Evaluation {
        let score = match self.score {
            Score::Cp(c) => Score::Cp(c.saturating_neg()),
            Score::Win(n) => Score::Loss(n.saturating_sub(1)),
            Score::Loss(n) => Score::Win(n.saturating_sub(1)),
        };
        Evaluation {
            score,
            depth: self.depth.saturating_sub(1),
        }
    }
}

/// The position in progress as [`Session::evaluation`] tells positions apart: the board,
/// the side to move and the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PositionKey {
    board: String,
    to_move: Role,
    rules: RuleSet,
}

/// Why a session refused a command; the session is then unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The other side is to move.
    #[error("not {0}'s turn")]
    NotYourTurn(Role),
    /// The square holds no piece of that side.
    #[error("no {role} piece on {square}")]
    NoPiece {
        /// The side named.
        role: Role,
        /// The square named.
        square: AnySquare,
    },
    /// `undo` at the first position.
    #[error("no move to take back: the game is at its first position")]
    NothingToUndo,
    /// The game refused a move, a position or a record, or its rule family has no game
    /// of that board size.
    #[error(transparent)]
    Game(#[from] AnyGameError),
    /// The rule family or rules string has no game of that board size.
    #[error(transparent)]
    Rules(#[from] RulesSourceError),
    /// The scripted players play only the 11x11 board.
    #[error("the scripted players play 11x11 only, and this game is on {0}x{0}")]
    PlayerBoard(BoardSize),
    /// An invalid search option.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// An invalid evaluation weight.
    #[error(transparent)]
    Weight(#[from] WeightError),
    /// A network file that cannot be used.
    #[error(transparent)]
    Network(#[from] NetworkError),
    /// The search chose a move the game refused (a bug; the game is unchanged).
    #[error("the search chose {mv}: {source}")]
    SearchMove {
        /// The move.
        mv: AnyMove,
        /// Why the game refused it (boxed: the error stays small).
        source: Box<AnyGameError>,
    },
    /// `analyze` with no legal move.
    #[error("no legal move to analyze")]
    NothingToAnalyze,
    /// `stop` ended a count before it was complete.
    #[error("stopped before the count was complete")]
    Stopped,
}

/// A search option that `set_option` and the command line can set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOption {
    /// Search threads ([`options::THREADS`]).
    Threads(u64),
    /// Transposition table size in MiB ([`options::HASH_MB`]).
    HashMb(u64),
    /// Depth limit in plies, 0 = none ([`options::DEPTH`]).
    Depth(u64),
    /// Node limit (0 = none).
    Nodes(u64),
    /// Time per move in milliseconds (0 = none).
    MovetimeMs(u64),
    /// Root moves `analyze` reports, each with its own score and pv
    /// ([`options::MULTIPV`]); `generate_move` always searches for the best only.
    MultiPv(u64),
    /// The strength for people ([`options::LEVEL`]; 0: full strength).
    Level(u64),
}

impl SearchOption {
    /// The option called `name` (one of the whole-number options of
    /// [`options::OPTIONS`]) with `value`, checked against its range.
    pub fn from_name(name: &str, value: u64) -> Result<SearchOption, OptionError> {
        let opt = match name {
            "threads" => SearchOption::Threads(value),
            "hash_mb" => SearchOption::HashMb(value),
            "depth" => SearchOption::Depth(value),
            "nodes" => SearchOption::Nodes(value),
            "movetime_ms" => SearchOption::MovetimeMs(value),
            "multipv" => SearchOption::MultiPv(value),
            "level" => SearchOption::Level(value),
            _ => return Err(OptionError::Unknown { name: short(name) }),
        };
        opt.validate()?;
        Ok(opt)
    }

    /// The option's entry in the table, and its value.
    pub(crate) fn entry(self) -> (&'static EngineOption, u64) {
        match self {
            SearchOption::Threads(v) => (&options::THREADS, v),
            SearchOption::HashMb(v) => (&options::HASH_MB, v),
            SearchOption::Depth(v) => (&options::DEPTH, v),
            SearchOption::Nodes(v) => (&options::NODES, v),
            SearchOption::MovetimeMs(v) => (&options::MOVETIME_MS, v),
            SearchOption::MultiPv(v) => (&options::MULTIPV, v),
            SearchOption::Level(v) => (&options::LEVEL, v),
        }
    }

    /// Checks the value against the option's range in the table.
    pub(crate) fn validate(self) -> Result<(), OptionError> {
        let (option, value) = self.entry();
        option.check(value).map(|_| ())
    }
}

/// The search limits set by options (0 = none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SearchLimits {
    depth: u64,
    nodes: u64,
    movetime_ms: u64,
}

/// The move the engine chose and played, or its resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineMove {
    /// The engine played this move.
    Play(AnyMove),
    /// The engine resigned (it had no move to play).
    Resign,
}

/// Where a session reports the search's progress (one [`Info`] per completed iteration):
/// the caller decides (the `hnefi` binary writes `info` lines to stderr); by default,
/// nowhere.
#[derive(Default)]
pub(crate) struct InfoSink(Option<Box<InfoFn>>);

/// The function an [`InfoSink`] calls.
type InfoFn = dyn FnMut(&Info<AnyMove>) + Send;

impl InfoSink {
    fn report(&mut self, info: &Info<AnyMove>) {
        if let Some(f) = self.0.as_mut() {
            f(info);
        }
    }
}

impl std::fmt::Debug for InfoSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "InfoSink(set)"
        } else {
            "InfoSink(none)"
        })
    }
}

/// The rules that `set_rule repetition`, `encirclement` and `move_limit` changed since
/// the rule family (or rules string) was chosen: they hold on every board size of the
/// family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct RuleOverrides {
    repetition: Option<RepetitionMode>,
    encirclement: Option<EncirclementMode>,
    move_limit: Option<Option<u32>>,
}

impl RuleOverrides {
    /// `rules` with these changes.
    fn apply(self, rules: RuleSet) -> RuleSet {
        RuleSet {
            repetition: self.repetition.unwrap_or(rules.repetition),
            encirclement: self.encirclement.unwrap_or(rules.encirclement),
            move_limit: self.move_limit.unwrap_or(rules.move_limit),
            ..rules
        }
    }
}

/// One engine session: a game on a board of any size under a rule family or an OpenTafl
/// rules string, search options, a searcher and a clock. The search plays every board and
/// rule set; the scripted players 11x11 only.
#[derive(Debug)]
pub struct Session {
    game: AnyGame,
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
        self.info = InfoSink(Some(Box::new(sink)));
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

    /// The time control, if any.
    pub fn time_control(&self) -> Option<Fischer> {
        self.time
    }

    fn replace_game(&mut self, game: AnyGame) {
        self.game = game;
        self.time_left = ByRole::default();
        self.searcher.clear();
        self.evaluation = None;
    }

    /// A new game of the family (or rules string) on the current board from its start
    /// position, with `first` to move (the variant's first mover when `None`); rules,
    /// options and time settings are kept.
    pub(crate) fn new_game(&mut self, first: Option<Role>) -> Result<(), SessionError> {
        let variant = self.source.variant(self.board_size())?;
        let first = first.unwrap_or(variant.first());
        let game = AnyGame::start(&variant, first, self.rules).map_err(game_error)?;
        self.replace_game(game);
        Ok(())
    }

    /// A new game on a board of `size`: the family's game of that size ([`RulePreset::
    /// variant`]), or the rules string's game on its own board, its rules with what
    /// `set_rule` changed since the family was chosen. An error, and nothing changes, when
    /// there is no game of that size (a rules string's game has only its own board).
    pub(crate) fn set_board_size(&mut self, size: BoardSize) -> Result<(), SessionError> {
        let variant = self.source.variant(size)?;
        let rules = self.overrides.apply(variant.rules());
        let game = AnyGame::start(&variant, variant.first(), rules).map_err(game_error)?;
        self.rules = rules;
        self.replace_game(game);
        Ok(())
    }

    /// Chooses a rule family or an OpenTafl rules string (`set_rule rules`), dropping
    /// what `set_rule` changed before. A family with a game of the current board size
    /// goes on with the game in progress under its rules there (and new games are that
    /// game); a family without one starts a new game on its usual board (so that a family
    /// whose sizes the current one lacks, tablut's 9x9 under copenhagen, can be reached at
    /// all). A rules string always starts its own game on its own board. On an error
    /// nothing changes.
    pub(crate) fn set_source(&mut self, source: RulesSource) -> Result<(), SessionError> {
        let family = match &source {
            RulesSource::Family(f) if f.sizes().contains(&self.board_size()) => *f,
            _ => return self.start_source(source),
        };
        let variant = family.variant(self.board_size()).map_err(game_error)?;
        self.source = source;
        self.overrides = RuleOverrides::default();
        self.rules = variant.rules();
        self.game.set_rules(self.rules);
        Ok(())
    }

    /// Chooses a rule family or rules string and starts its game on its usual board (`hnefi
    /// --rules`; OTEP's `rules`, whose string names the whole game: its board, start
    /// position, first mover and rules). On an error nothing changes.
    pub fn start_source(&mut self, source: RulesSource) -> Result<(), SessionError> {
        let variant = source.variant(source.usual_size())?;
        let game =
            AnyGame::start(&variant, variant.first(), variant.rules()).map_err(game_error)?;
        self.source = source;
        self.overrides = RuleOverrides::default();
        self.rules = variant.rules();
        self.replace_game(game);
        Ok(())
    }

    /// Chooses a rule family and starts its game on its usual board, as
    /// [`Session::start_source`] does.
    pub fn start_family(&mut self, family: RulePreset) -> Result<(), SessionError> {
        self.start_source(RulesSource::Family(family))
    }

    /// Loads an OpenTafl position of the current board size with `to_move` to move, as a
    /// new game.
    pub(crate) fn set_position(&mut self, otn: &str, to_move: Role) -> Result<(), SessionError> {
        let game = AnyGame::from_opentafl(self.board_size(), otn, to_move, self.rules).map_err(
            |e| match (e, &self.source) {
                // A rules string's game has no other board to switch to first.
                (AnyGameError::PositionSize { position, board }, RulesSource::Custom(c)) => {
                    SessionError::Rules(RulesSourceError::OwnBoard {
                        name: c.variant().name().to_string(),
                        own: board,
                        size: position,
                    })
                }
                (e, _) => e.into(),
            },
        )?;
        self.replace_game(game);
        Ok(())
    }

    /// Plays `mv` for `role` and returns the captured squares sorted by rank then file,
    /// the king's square included when the move captured him (as the reference engine
    /// reports it).
    pub(crate) fn play(&mut self, role: Role, mv: AnyMove) -> Result<Vec<AnySquare>, SessionError> {
        self.check_turn(role)?;
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
        if self.game.status().is_over() {
            return Err(SessionError::GameOver);
        }
        if self.game.to_move() != role {
            return Err(SessionError::NotYourTurn(role));
        }
        Ok(())
    }

    /// `role` resigns.
    pub(crate) fn resign(&mut self, role: Role) -> Result<(), SessionError> {
        self.game.resign(role).map_err(illegal)
    }

    /// Takes back one ply.
    pub(crate) fn undo(&mut self) -> Result<(), SessionError> {
        if self.game.undo() {
            Ok(())
        } else {
            Err(SessionError::NothingToUndo)
        }
    }

    /// The status of the game.
    pub(crate) fn status(&self) -> Status {
        self.game.status()
    }

    /// Every legal move of the side to move, sorted by from then to.
    pub(crate) fn legal_moves(&self) -> Vec<AnyMove> {
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
        if self.game.role_at(from) != Some(role) {
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
        self.game.moves_field()
    }

    /// A new game from the variant's start position (its first mover first) with these
    /// record moves played under the current rules. On an error the game is left as it
    /// was.
    pub(crate) fn load_moves(&mut self, tokens: &[&str]) -> Result<(), SessionError> {
        let variant = self.source.variant(self.board_size())?;
        let game = AnyGame::from_record(&variant, &tokens.join(" "), self.rules)?;
        self.replace_game(game);
        Ok(())
    }

    /// The leaf count `depth` plies below the current position, or
    /// [`SessionError::Stopped`] when the stop flag ended the count.
    pub(crate) fn perft(&self, depth: u32) -> Result<u64, SessionError> {
        if self.game.status().is_over() {
            return Ok(u64::from(depth == 0));
        }
        self.game
            .perft_until(depth, &self.stop)
            .ok_or(SessionError::Stopped)
    }

    /// Sets the repetition rule for new games and the game in progress.
    pub fn set_repetition(&mut self, mode: RepetitionMode) {
        self.overrides.repetition = Some(mode);
        self.rules.repetition = mode;
        self.game.set_rules(self.rules);
    }

    /// Sets the encirclement rule for new games and the game in progress.
    pub(crate) fn set_encirclement(&mut self, mode: EncirclementMode) {
        self.overrides.encirclement = Some(mode);
        self.rules.encirclement = mode;
        self.game.set_rules(self.rules);
    }

    /// Sets the move limit (0 = none) for new games and the game in progress.
    pub fn set_move_limit(&mut self, plies: u32) {
        let limit = (plies > 0).then_some(plies);
        self.overrides.move_limit = Some(limit);
        self.rules.move_limit = limit;
        self.game.set_rules(self.rules);
    }

    /// Switches a search feature on or off (for self-play comparisons).
    pub fn set_feature(&mut self, feature: Feature, on: bool) {
        let mut features = self.searcher.features();
        features.set(feature, on);
        self.searcher.set_features(features);
    }

    /// The learned corrections of both sides' searches, one per board size at most (a new
    /// session has the engine's own, [`Networks::embedded`]).
    #[cfg(test)]
    pub(crate) fn networks(&self) -> &Networks {
        self.searcher.networks()
    }
    /// `--net` and `set_option net` ([`options::NET`]): `none` removes every board's
    /// network (the hand-written evaluation alone); a file's network replaces the one of
    /// the board size its header names, the others stay. Returns that size. On an error
    /// (an unreadable file, not a network, a board hnefi does not play) nothing changes.
    pub fn set_net(&mut self, value: &str) -> Result<Option<u8>, SessionError> {
        if value == "none" {
            self.searcher.set_networks(Networks::none());
            return Ok(None);
        }
        let mut nets = self.searcher.networks().clone();
        let size = nets.install_file(std::path::Path::new(value))?;
        self.searcher.set_networks(nets);
        Ok(Some(size))
    }

    /// Sets one evaluation weight from `NAME=VALUE` (for tuning by self-play) in the
    /// searches for `side`, or for both sides when `side` is `None`; on an error nothing
    /// changes.
    pub fn set_weight(&mut self, side: Option<Role>, assignment: &str) -> Result<(), SessionError> {
        for s in Role::ALL
            .into_iter()
            .filter(|&s| side.is_none_or(|r| r == s))
        {
            let mut w = self.searcher.weights(s);
            w.set(assignment)?;
            self.searcher.set_weights(s, w);
        }
        Ok(())
    }

    /// Sets a search option (checked first).
    pub fn set_option(&mut self, opt: SearchOption) -> Result<(), SessionError> {
        opt.validate()?;
        match opt {
            SearchOption::Threads(n) => self.searcher.set_threads(usize::try_from(n).unwrap_or(1)),
            SearchOption::HashMb(n) => self.searcher.set_hash_mb(usize::try_from(n).unwrap_or(1)),
            SearchOption::Depth(n) => self.limits.depth = n,
            SearchOption::Nodes(n) => self.limits.nodes = n,
            SearchOption::MovetimeMs(n) => self.limits.movetime_ms = n,
            SearchOption::MultiPv(n) => self.multipv = usize::try_from(n).unwrap_or(1),
            SearchOption::Level(n) => self.level = n,
        }
        Ok(())
    }

    /// Sets an option of the table ([`options::OPTIONS`]) to a value read by
    /// [`EngineOption::parse`]; `compat`, which belongs to the protocol engine, is refused
    /// here.
    pub fn set_option_value(
        &mut self,
        option: &EngineOption,
        value: options::Value,
    ) -> Result<(), SessionError> {
        match value {
            options::Value::Whole(v) => self.set_option(SearchOption::from_name(option.name, v)?),
            options::Value::Switch(on) if option.name == options::PONDER.name => {
                self.set_ponder(on);
                Ok(())
            }
            options::Value::Switch(on) if option.name == options::SHOW_WDL.name => {
                self.set_show_wdl(on);
                Ok(())
            }
            _ => Err(OptionError::Unknown {
                name: option.name.to_string(),
            }
            .into()),
        }
    }

    /// Sets or removes the time control; the game goes on.
    pub(crate) fn set_time_control(&mut self, time: Option<Fischer>) {
        self.time = time;
        self.time_left = ByRole::default();
    }

    /// The controller says `role` has `left` on its clock.
    pub(crate) fn set_time_left(&mut self, role: Role, left: Duration) {
        *self.time_left.get_mut(role) = Some(left);
    }

    /// The limits for the side to move: the options, and its clock if there is one.
    pub fn limits(&self) -> Limits {
        let nonzero = |v: u64| (v > 0).then_some(v);
        let clock = self.time.map(|tc| Clock {
            remaining: self.clock_of(self.game.to_move()).unwrap_or(tc.base),
            increment: tc.increment,
        });
        Limits {
            depth: nonzero(self.limits.depth).and_then(|d| u32::try_from(d).ok()),
            nodes: nonzero(self.limits.nodes),
            movetime: nonzero(self.limits.movetime_ms).map(Duration::from_millis),
            clock,
            since: None,
        }
    }

    fn clock_of(&self, role: Role) -> Option<Duration> {
        *self.time_left.get(role)
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
            (model, self.game.to_move())
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
        if self.game.status().is_over() {
            return Err(SessionError::GameOver);
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

    /// Our own estimate of the mover's clock until the controller reports it again: what
    /// it last said (or the base time if it never did), minus the time this search
    /// used, plus the increment.
    fn charge_clock(&mut self, role: Role, used: Duration) {
        if let Some(tc) = self.time {
            let left = self.clock_of(role).unwrap_or(tc.base);
            let after = left.saturating_sub(used).saturating_add(tc.increment);
            self.set_time_left(role, after);
        }
    }

    /// Searches the current position without playing: for `movetime` if given, else under
    /// the current limits, else for one second. The search reports to the session's
    /// [`InfoSink`].
    pub(crate) fn analyze(
        &mut self,
        movetime: Option<Duration>,
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        self.analyze_reporting(movetime, &mut |_| {})
    }

    /// [`Session::analyze`] that also reports each iteration to `on_info` (one report per
    /// line with `set_option multipv`).
    pub(crate) fn analyze_reporting(
        &mut self,
        movetime: Option<Duration>,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        self.check_analyzable()?;
        let mut limits = match movetime {
            Some(t) => Limits {
                movetime: Some(t),
                ..Limits::default()
            },
            None => Limits {
                clock: None,
                ..self.limits()
            },
        };
        if limits == Limits::default() {
            limits.movetime = Some(Duration::from_secs(1));
        }
        self.finish_analysis(&limits, on_info)
    }

    /// Switches pondering on or off: after its own move, the engine searches the reply it
    /// expects until the next command, so that the table is warm if that reply is played.
    pub fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
        self.expected_reply = None;
    }

    /// Switches the win/draw/loss chances beside scores on or off ([`options::SHOW_WDL`]).
    pub fn set_show_wdl(&mut self, on: bool) {
        self.show_wdl = on;
    }

    /// Whether `show_board` draws in colour.
    pub(crate) fn colour(&self) -> bool {
        self.colour
    }

    /// Makes `show_board` draw in colour or not (off, the default: the plain text every
    /// controller reads).
    pub fn set_colour(&mut self, on: bool) {
        self.colour = on;
    }

    /// The reply the last `generate_move` expects, once (`None` with pondering off, or
    /// when its search saw no reply).
    pub(crate) fn take_expected_reply(&mut self) -> Option<AnyMove> {
        self.expected_reply.take()
    }

    /// Ponders: searches the position after `reply` (the opponent's expected move) under
    /// `limits`, or until the stop flag with none, without reporting and without changing
    /// the game. What it finds stays in the table for the next search. Returns false when
    /// `reply` is not legal here or ends the game (nothing to ponder on).
    pub(crate) fn ponder_on(&mut self, reply: AnyMove, limits: Option<Limits>) -> bool {
        let mut game = self.game.clone();
        if game.play(reply).is_err() || game.status().is_over() {
            return false;
        }
        let limits = limits.unwrap_or(Limits {
            depth: Some(search::MAX_DEPTH),
            ..Limits::default()
        });
        self.searcher.set_multipv(1);
        let (searcher, stop) = (&mut self.searcher, &self.stop);
        on_size!(&game, AnyGame, g => {
            searcher.search(g, &limits, stop, &mut |_| {});
        });
        true
    }

    /// True when no depth, nodes or movetime option bounds a search (then `analyze`
    /// without an argument streams until the next command).
    pub(crate) fn unbounded(&self) -> bool {
        self.limits == SearchLimits::default()
    }

    /// Refuses to analyze a finished game or a position without a legal move.
    pub(crate) fn check_analyzable(&self) -> Result<(), SessionError> {
        if self.game.status().is_over() {
            return Err(SessionError::GameOver);
        }
        if self.game.legal_moves().is_empty() {
            return Err(SessionError::NothingToAnalyze);
        }
        Ok(())
    }

    /// The search of a streaming analysis: under the depth, nodes and movetime options if
    /// any are set, else until the stop flag (no one-second default), reporting each
    /// iteration to `on_info` and the [`InfoSink`].
    pub(crate) fn analyze_until_stopped(
        &mut self,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        self.check_analyzable()?;
        let mut limits = Limits {
            clock: None,
            ..self.limits()
        };
        if limits == Limits::default() {
            // The deepest search, with no time limit: only the stop flag ends it sooner.
            limits.depth = Some(search::MAX_DEPTH);
        }
        self.finish_analysis(&limits, on_info)
    }

    fn finish_analysis(
        &mut self,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info<AnyMove>),
    ) -> Result<SearchResult<AnyMove>, SessionError> {
        let result = self.search(limits, self.multipv, on_info);
        if result.best.is_none() {
            return Err(SessionError::NothingToAnalyze);
        }
        Ok(result)
    }
}

/// A game's error as the session's.
fn game_error(e: impl Into<AnyGameError>) -> SessionError {
    SessionError::Game(e.into())
}

/// A refused move as the session's error.
fn illegal(e: AnyIllegalMove) -> SessionError {
    game_error(e)
}

/// At most 24 characters of outside text, for messages.
pub(crate) fn short(s: &str) -> String {
    crate::core::record::short(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::Move;

    #[test]
    fn limits_come_from_the_options_and_the_clock() {
        let mut s = Session::new();
        assert_eq!(s.limits(), Limits::default());
        s.set_option(SearchOption::Depth(3)).unwrap();
        s.set_option(SearchOption::MovetimeMs(250)).unwrap();
        s.set_option(SearchOption::Nodes(0)).unwrap();
        assert!(s.set_option(SearchOption::Threads(0)).is_err());
        s.set_time_control(Some(Fischer {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(2),
        }));
        let l = s.limits();
        assert_eq!((l.depth, l.nodes), (Some(3), None));
        assert_eq!(l.movetime, Some(Duration::from_millis(250)));
        let clock = l.clock.unwrap();
        assert_eq!(clock.remaining, Duration::from_secs(60));
        assert_eq!(clock.increment, Duration::from_secs(2));
        // The clock of the side to move, as the controller reported it.
        s.set_time_left(Role::Defender, Duration::from_secs(5));
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(60));
        s.set_time_left(Role::Attacker, Duration::from_secs(7));
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(7));
        s.play(Role::Attacker, "h1-h3".parse::<Move>().unwrap().into())
            .unwrap();
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(5));
        // A new game keeps the time control but forgets the reported clocks.
        s.new_game(Some(Role::Attacker)).unwrap();
        assert_eq!(s.limits().clock.unwrap().remaining, Duration::from_secs(60));
        s.set_time_control(None);
        assert_eq!(s.limits().clock, None);
    }

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

    #[test]
    fn pondering_the_expected_reply_warms_the_next_search() {
        // The node count of a depth-5 search after the engine's move and the reply,
        // from a fresh searcher or after pondering that reply at depth 5.
        let nodes_after = |ponder: bool| {
            let mut s = Session::new();
            s.set_option(SearchOption::Depth(5)).unwrap();
            s.set_ponder(true);
            s.generate_move().unwrap();
            let reply = s.take_expected_reply().expect("a pv of two moves");
            assert_eq!(s.take_expected_reply(), None, "taken once");
            let before = s.game().moves_played();
            if ponder {
                let depth = Limits {
                    depth: Some(5),
                    ..Limits::default()
                };
                assert!(s.ponder_on(reply, Some(depth)));
            }
            // Pondering changed nothing in the game.
            assert_eq!(s.game().moves_played(), before);
            s.play(s.game().to_move(), reply).unwrap();
            let mut nodes = 0;
            let counter = s.node_counter();
            s.generate_move().unwrap();
            nodes += counter.load(std::sync::atomic::Ordering::Relaxed);
            nodes
        };
        let (fresh, warm) = (nodes_after(false), nodes_after(true));
        assert!(warm < fresh, "after pondering {warm} nodes, fresh {fresh}");
    }

    #[test]
    fn without_ponder_generate_move_expects_no_reply() {
        let mut s = Session::new();
        s.set_option(SearchOption::Depth(3)).unwrap();
        s.generate_move().unwrap();
        assert_eq!(s.take_expected_reply(), None);
        let illegal: Move = "a1-a2".parse().unwrap();
        assert!(!s.ponder_on(illegal.into(), None));
    }

    #[test]
    fn without_time_left_the_engine_charges_its_own_clock() {
        let mut s = Session::new();
        s.set_option(SearchOption::Depth(2)).unwrap();
        s.set_time_control(Some(Fischer {
            base: Duration::from_secs(60),
            increment: Duration::ZERO,
        }));
        s.generate_move().unwrap();
        let after_one = s.time_left.attacker.unwrap();
        assert!(after_one < Duration::from_secs(60), "{after_one:?}");
        s.generate_move().unwrap();
        s.generate_move().unwrap();
        let after_two = s.time_left.attacker.unwrap();
        assert!(after_two < after_one, "{after_two:?} {after_one:?}");
        assert_eq!(
            s.limits().clock.unwrap().remaining,
            s.time_left.defender.unwrap()
        );
    }

    #[test]
    fn generate_move_charges_the_engine_clock_with_the_increment() {
        let mut s = Session::new();
        s.set_option(SearchOption::Depth(1)).unwrap();
        s.set_time_control(Some(Fischer {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(3600),
        }));
        s.set_time_left(Role::Attacker, Duration::from_secs(10));
        let (role, _) = s.generate_move().unwrap();
        assert_eq!(role, Role::Attacker);
        let left = s.time_left.attacker.unwrap();
        // 10 s minus the search time plus the one-hour increment: more than 10 s.
        assert!(left > Duration::from_secs(10) && left <= Duration::from_secs(3610));
    }
}

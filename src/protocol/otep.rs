//! The OpenTafl Engine Protocol (OTEP): `hnefi --otep` is an engine OpenTafl can host,
//! and this module owns the protocol's formats, which the match runner's `otep:` dialect
//! uses from the host's side (`crate::tools::matches::otep`).
//!
//! OpenTafl writes one command per line and acknowledges nothing. The engine says
//! `hello` when it starts; then come `rules RULES` (an OpenTafl rules string, read by
//! [`parse_rules_string`](crate::core::rules_string::parse_rules_string): hnefi plays every game it models, on its board, OpenTafl's
//! Copenhagen as hnefi's Copenhagen, and refuses a string asking for a feature it does
//! not model, or a bad one, naming it: see [`OtepEngine`] for how; a Berserk string is
//! played by hnefi's Berserk game, docs/PROTOCOL.md "Berserk"), `side
//! attackers|defenders`, `start`, and during the game `opponent-move MOVES POSITION`
//! (moves `a4-a1`, several joined by `|`), `clock A D OT AO DO` (milliseconds left, an `*`
//! marking time left in an overtime period; `-1` without a clock), `play SIDE` (answered
//! with `move FROM-TO`), `move POSITION` (our move was accepted), `error CODE` (it was
//! not), `analyze N SECONDS` (answered with `analysis K LINE SCORE ...`: the best K of
//! N root moves, each with its line joined by `|`), `finish CODE` and
//! `goodbye`. Positions are OpenTafl strings, rank 1 first.
//!
//! OpenTafl reads only the engine's stdout (it never reads stderr, and its `.ini` cannot
//! redirect it): a pipe nobody reads fills and would block the engine mid-game. So the
//! engine writes nothing to stderr; what the search found goes to the host as one
//! `status` line before each `move` and each `analysis` (the last completed iteration, as
//! the text protocol's `info` line says it, always with the side to move's win/draw/loss
//! chances, `wdl W D L`), which OpenTafl shows in its status display. The chances are
//! always there, not behind `show_wdl`: OpenTafl only displays a status line's text, it
//! parses none of it. The `analysis` line itself cannot carry them: OpenTafl reads its
//! words after the count as pairs of a move list and a number, and refuses a reply with
//! a word more.

use std::io::{self, BufRead, Write};
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::core::any_square::AnyMove;
use crate::core::bitboard::BitboardOf;
use crate::core::excerpt::excerpt;
use crate::core::geometry::{BoardSize, Geometry};
use crate::core::moves::{Move, MoveOf};
use crate::core::notation::RecordMoveOf;
use crate::core::role::{ByRole, Role};
use crate::core::rules_source::RulesSource;
use crate::core::rules_string::RulesStringError;
use crate::core::square::{Square, SquareOf};
use crate::search::Info;
use crate::session::{EngineMove, SearchOption, Session, SessionError};
use crate::time_control::Fischer;

/// The rules string of Copenhagen Hnefatafl as OpenTafl writes it.
pub const COPENHAGEN_RULES: &str = "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

/// The most root moves `analyze` reports (OpenTafl's own host asks for five): each more
/// one costs the search its time.
const MAX_ANALYSIS_LINES: usize = 16;

/// What is wrong with an OTEP command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OtepError {
    /// A move that is not `FROM-TO`.
    #[error("not a move: {0}")]
    Move(String),
    /// A rules string hnefi cannot read or does not model.
    #[error("rules not supported: {0}")]
    Rules(#[from] RulesStringError),
    /// A rules string whose game the engine cannot start.
    #[error("rules not supported: {0}")]
    Start(#[from] SessionError),
    /// A side that is not `attackers` or `defenders`.
    #[error("not a side: {0}")]
    Side(String),
}

/// The protocol's name of a side.
pub fn side_name(role: Role) -> &'static str {
    match role {
        Role::Attacker => "attackers",
        Role::Defender => "defenders",
    }
}

/// Reads `attackers` or `defenders`.
pub(crate) fn parse_side(s: &str) -> Result<Role, OtepError> {
    match s {
        "attackers" => Ok(Role::Attacker),
        "defenders" => Ok(Role::Defender),
        _ => Err(OtepError::Side(excerpt(s))),
    }
}

/// Reads a move: `a4-a1`, or OpenTafl's full notation, where a piece letter may come
/// first and captures after the destination (`ta4-a1xa2`).
///
/// ```
/// use hnefi::protocol::otep::parse_move;
/// assert_eq!(parse_move("d1-d3").unwrap().to_string(), "d1-d3");
/// assert_eq!(parse_move("Ta10-a11").unwrap().to_string(), "a10-a11");
/// assert_eq!(parse_move("e3-e5xe6").unwrap().to_string(), "e3-e5");
/// assert!(parse_move("d1d3").is_err());
/// assert!(parse_move("d1-e2").is_err());
/// ```
pub fn parse_move(s: &str) -> Result<Move, OtepError> {
    let err = || OtepError::Move(excerpt(s));
    let (from, to) = move_squares(s)?;
    let from = Square::from_str(from).map_err(|_| err())?;
    let to = Square::from_str(to).map_err(|_| err())?;
    Move::new(from, to).ok_or_else(err)
}

/// Reads a move as [`parse_move`] does, on a board of `size`.
pub(crate) fn parse_move_on(s: &str, size: BoardSize) -> Result<AnyMove, OtepError> {
    let (from, to) = move_squares(s)?;
    AnyMove::parse(&format!("{from}-{to}"), size).map_err(|_| OtepError::Move(excerpt(s)))
}

/// Reads a move record of OpenTafl's notation (a game record's move, `opentafl-notation
/// spec` §2) on the board of `G`: an optional piece letter, `FROM-TO`, the captures after
/// an `x` separated by `/` (each with an optional piece letter), and an optional last
/// `+`, `-`, `++` or `--` (the king threatened or captured, his way out open or taken).
/// A captured king is left out of the captures, as hnefi's records leave him out. A
/// jump or a berserk move (`^`, `=`) is no move of these games: a Berserk game reads its
/// records itself (`core::berserk_game`).
pub(crate) fn parse_record_move<G: Geometry>(s: &str) -> Result<RecordMoveOf<G>, OtepError> {
    let err = || OtepError::Move(excerpt(s));
    let (from, to, rest) = move_fields(s)?;
    let mv: MoveOf<G> = format!("{from}-{to}").parse().map_err(|_| err())?;
    let rest = rest.trim_end_matches(['+', '-']);
    let mut captures = BitboardOf::EMPTY;
    if !rest.is_empty() {
        let list = rest.strip_prefix('x').ok_or_else(err)?;
        for location in list.split('/') {
            let (piece, square) = match location.as_bytes() {
                [a, b, ..] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
                    (location.get(..1), location.get(1..))
                }
                _ => (None, Some(location)),
            };
            let square: SquareOf<G> = square.ok_or_else(err)?.parse().map_err(|_| err())?;
            if !matches!(piece, Some("K" | "k")) {
                captures.insert(square);
            }
        }
    }
    Ok(RecordMoveOf { mv, captures })
}

/// The origin and destination squares of a move in OpenTafl's notation, a piece letter
/// and the captures left out.
fn move_squares(s: &str) -> Result<(&str, &str), OtepError> {
    move_fields(s).map(|(from, to, _)| (from, to))
}

/// The origin and destination squares of a move in OpenTafl's notation, a piece letter
/// left out, and what follows the destination (captures, a final mark).
fn move_fields(s: &str) -> Result<(&str, &str, &str), OtepError> {
    let err = || OtepError::Move(excerpt(s));
    let (from, to) = s.split_once('-').ok_or_else(err)?;
    // A piece letter before the square: a letter followed by another letter.
    let from = match from.as_bytes() {
        [a, b, ..] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => from.get(1..),
        _ => Some(from),
    }
    .ok_or_else(err)?;
    let end = to
        .char_indices()
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(to.len(), |(i, _)| i);
    let (to, rest) = (to.get(..end).ok_or_else(err)?, to.get(end..).unwrap_or(""));
    Ok((from, to, rest))
}

/// Reads a rules string into the game the search will play: an error unless hnefi models
/// every feature it asks for ([`parse_rules_string`](crate::core::rules_string::parse_rules_string), whose error names the feature).
/// The search plays every game hnefi models, on its own board.
///
/// ```
/// use hnefi::core::geometry::BoardSize;
/// use hnefi::core::role::Role;
/// use hnefi::protocol::otep::{COPENHAGEN_RULES, parse_rules};
/// assert_eq!(parse_rules(COPENHAGEN_RULES).unwrap().first(), Role::Attacker);
/// let tablut = "dim:9 name:Tablut esc:e start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
/// assert_eq!(parse_rules(tablut).unwrap().size(), BoardSize::S9);
/// assert!(parse_rules("dim:11 start:/11/11/11/11/11/5K5/11/11/11/11/11/").is_ok());
/// assert!(parse_rules("dim:10").is_err());
/// ```
#[cfg(test)]
pub(crate) fn parse_rules(s: &str) -> Result<crate::core::variant::Variant, OtepError> {
    Ok(crate::core::rules_string::parse_rules_string(s)?)
}
/// One side's time as a `clock` command gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SideClock {
    /// No clock (`-1`).
    None,
    /// Main time left, and the overtime period that follows it (zero when the side has
    /// no overtime periods left, or the clock none).
    Main {
        /// The main time left.
        left: Duration,
        /// One overtime period.
        period: Duration,
    },
    /// Time left in the current overtime period (`MS*`).
    Overtime(Duration),
}

/// One side's field of `clock A D OT AO DO`: `period` is the overtime period (`OT`
/// seconds) when that side has periods left (its `AO` or `DO` above zero), else zero.
fn parse_clock_field(s: &str, period: Duration) -> Option<SideClock> {
    let (ms, overtime) = match s.strip_suffix('*') {
        Some(ms) => (ms, true),
        None => (s, false),
    };
    let ms: i64 = ms.parse().ok()?;
    if ms < 0 {
        return Some(SideClock::None);
    }
    let t = Duration::from_millis(u64::try_from(ms).ok()?);
    Some(if overtime {
        SideClock::Overtime(t)
    } else {
        SideClock::Main { left: t, period }
    })
}

/// The overtime period of `clock A D OT AO DO` for each side: `OT` seconds for a side
/// whose count of periods left is above zero, else zero (a missing or bad field: zero).
fn overtime_periods(rest: &[&str]) -> ByRole<Duration> {
    let number = |i: usize| rest.get(i).and_then(|w| w.parse::<u64>().ok());
    let period = Duration::from_secs(number(0).unwrap_or(0));
    let of = |i: usize| {
        if number(i).unwrap_or(0) > 0 {
            period
        } else {
            Duration::ZERO
        }
    };
    ByRole {
        attacker: of(1),
        defender: of(2),
    }
}

/// Keeps a margin for the pipes and the host's clock: a tenth of the time, at least
/// 10 ms, at most a second.
fn with_margin(t: Duration) -> Duration {
    let margin = (t / 10).clamp(Duration::from_millis(10), Duration::from_secs(1));
    t.saturating_sub(margin).max(Duration::from_millis(1))
}

/// The OTEP engine: a session driven by OpenTafl's commands.
///
/// A `rules` line it cannot play gets no answer there: OpenTafl 0.4.8 crashes on an
/// `error` before the game has begun (`ExternalEngineHost.handleErrorCommand` reaches for
/// a game it has not set yet). The engine remembers why instead, plays no game, and
/// answers every `play` and `analyze` with a `status` line saying why and `error -1`
/// with the same text, which OpenTafl shows before it ends the game; `opponent-move`,
/// `move` and `position` change nothing. The next good `rules` line starts its game.
pub struct OtepEngine {
    session: Session,
    /// The time per move given on the command line (restored when a clock has no
    /// overtime).
    movetime_ms: u64,
    side: Option<Role>,
    clocks: ByRole<SideClock>,
    done: bool,
    /// Why the last `rules` line was refused, until a good one arrives.
    refused: Option<String>,
    /// The search's last completed iteration, kept by the session's info sink.
    last_info: Arc<Mutex<Option<Info<AnyMove>>>>,
}

impl OtepEngine {
    /// An engine around `session`; `movetime_ms` is the session's time per move (0 for
    /// none), kept for the moves without a clock. The engine takes the session's info
    /// sink: the search's progress reaches the host as `status` lines, with the chances
    /// (the session's `show_wdl` is switched on).
    pub fn new(mut session: Session, movetime_ms: u64) -> OtepEngine {
        session.set_show_wdl(true);
        let last_info = Arc::new(Mutex::new(None));
        let sink = Arc::clone(&last_info);
        session.set_info_sink(move |info| {
            if let Ok(mut last) = sink.lock() {
                *last = Some(info.clone());
            }
        });
        OtepEngine {
            session,
            movetime_ms,
            side: None,
            clocks: ByRole::new_with(|_| SideClock::None),
            done: false,
            refused: None,
            last_info,
        }
    }

    /// The session (for tests).
    #[cfg(test)]
    pub(crate) fn session(&self) -> &Session {
        &self.session
    }
    /// Reads commands until `goodbye` or the end of the input; writes `hello` first.
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, mut output: W) -> io::Result<()> {
        writeln!(output, "hello")?;
        output.flush()?;
        for line in input.lines() {
            let line = line?;
            // Read in turn (the host waits for each reply): the move's time runs from
            // here, whatever the machine's load delays after.
            self.session.set_arrival(Some(Instant::now()));
            for reply in self.handle(line.trim_end_matches('\r')) {
                writeln!(output, "{reply}")?;
            }
            output.flush()?;
            if self.done {
                break;
            }
        }
        Ok(())
    }

    /// Handles one command and returns the lines to write.
    pub(crate) fn handle(&mut self, line: &str) -> Vec<String> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Vec::new();
        };
        let args: Vec<&str> = words.collect();
        if command == "rules" {
            self.refused = self.rules(&args.join(" ")).err();
            return Vec::new();
        }
        if let Some(why) = &self.refused {
            return match command {
                "play" | "analyze" => {
                    vec![format!("status hnefi: {why}"), format!("error -1 {why}")]
                }
                // No game to follow until a rules line hnefi can play.
                _ => {
                    if command == "goodbye" {
                        self.done = true;
                    }
                    Vec::new()
                }
            };
        }
        match (command, args.as_slice()) {
            ("side", [side]) => match parse_side(side) {
                Ok(role) => {
                    self.side = Some(role);
                    Vec::new()
                }
                Err(e) => vec![format!("error 0 {e}")],
            },
            ("position", [pos, ..]) => {
                let to_move = self.session.to_move();
                self.resync(pos, to_move)
            }
            ("clock", [a, d, rest @ ..]) => {
                let periods = overtime_periods(rest);
                if let (Some(a), Some(d)) = (
                    parse_clock_field(a, periods.attacker),
                    parse_clock_field(d, periods.defender),
                ) {
                    self.clocks = ByRole {
                        attacker: a,
                        defender: d,
                    };
                }
                Vec::new()
            }
            ("opponent-move", [moves, rest @ ..]) => self.opponent_moves(moves, rest.first()),
            ("play", [side]) => match parse_side(side) {
                Ok(role) => self.play(role),
                Err(e) => vec![format!("error 0 {e}")],
            },
            ("move", [pos, ..]) => {
                // The host's board after our move: follow it if ours differs.
                let after = self.session.to_move();
                if self.board_differs(pos) {
                    self.resync(pos, after)
                } else {
                    Vec::new()
                }
            }
            ("error", _) => {
                // Our last move was refused; the host sends the position again next.
                let _ = self.session.undo();
                Vec::new()
            }
            ("analyze", [moves, seconds, ..]) => self.analyze(moves, seconds),
            ("goodbye", _) => {
                self.done = true;
                Vec::new()
            }
            // hello (the host's answer), start, finish, and what hnefi has no use for.
            _ => Vec::new(),
        }
    }

    /// Starts the game of a `rules` line; the message to refuse it with otherwise.
    fn rules(&mut self, text: &str) -> Result<(), String> {
        let source =
            RulesSource::from_rules_string(text).map_err(|e| OtepError::from(e).to_string())?;
        self.session
            .start_source(source)
            .map_err(|e| OtepError::from(e).to_string())
    }

    /// True unless `pos` is the board of the game in progress (a position of another
    /// size, or none, differs). The position is read with the game's own restricted
    /// squares: in a game without corner squares a soldier may stand on a corner.
    fn board_differs(&self, pos: &str) -> bool {
        !self.session.game().shows(pos)
    }

    /// Takes the host's position as a new game with `to_move` to move.
    fn resync(&mut self, pos: &str, to_move: Role) -> Vec<String> {
        match self.session.set_position(pos, to_move) {
            Ok(()) => vec!["status hnefi: took the host's position".to_string()],
            Err(e) => vec![format!("error 0 position: {}", excerpt(&e.to_string()))],
        }
    }

    /// Follows the other side's turn: its moves joined by `|` (several in a Berserk
    /// game's berserk turn, oldest first), then the host's position after them.
    fn opponent_moves(&mut self, moves: &str, pos: Option<&&str>) -> Vec<String> {
        let mut played = 0;
        for token in moves.split('|') {
            if self.session.berserk().is_some() {
                // OpenTafl's notation of a Berserk move (`Nf3^h3xg3`, `e10=g10`), or FROM-TO.
                match self.session.play_berserk_record(token) {
                    Ok(()) => played += 1,
                    Err(_) => break,
                }
                continue;
            }
            let role = self.session.to_move();
            let size = self.session.board_size();
            match parse_move_on(token, size).map(|mv| self.session.play(role, mv)) {
                Ok(Ok(_)) => played += 1,
                _ => break,
            }
        }
        let Some(pos) = pos else {
            return Vec::new();
        };
        if !self.board_differs(pos) {
            return Vec::new();
        }
        // Out of step (a move we could not apply, or one sent again after an error):
        // undo what was applied and take the host's position, with our side to move.
        for _ in 0..played {
            let _ = self.session.undo();
        }
        if !self.board_differs(pos) {
            return Vec::new();
        }
        let to_move = self.side.unwrap_or_else(|| self.session.to_move());
        self.resync(pos, to_move)
    }

    /// Sets the search limits from the last `clock` for `role`.
    ///
    /// On main time with overtime periods to come (OpenTafl's byo-yomi: `clock 64 1160*
    /// 2 3 3`), a move may take the main time left and one whole period without losing a
    /// period (OpenTafl takes a period only when a move overruns it, and gives the next
    /// move a fresh one), and every later move has a period at least: the search plays
    /// on a clock of the main time plus a period, the period as its increment. Counting
    /// the main time alone, the moves shrank with it to a few milliseconds (depth 1 or
    /// 2) while two seconds a move were there to use.
    fn apply_clock(&mut self, role: Role) -> Result<(), String> {
        let own = *self.clocks.get(role);
        let (movetime, main) = match own {
            SideClock::None => (self.movetime_ms, None),
            SideClock::Overtime(t) => (
                duration_ms(with_margin(t)).clamp(1, crate::options::MOVETIME_MS.max()),
                None,
            ),
            SideClock::Main { left, period } => (self.movetime_ms, Some((left, period))),
        };
        self.session
            .set_option(SearchOption::MovetimeMs(movetime))
            .map_err(|e| e.to_string())?;
        match main {
            Some((left, period)) => {
                let usable = left.saturating_add(period);
                self.session.set_time_control(Some(Fischer {
                    base: usable,
                    increment: period,
                }));
                self.session.set_time_left(role, with_margin(usable));
            }
            None => self.session.set_time_control(None),
        }
        Ok(())
    }

    fn play(&mut self, role: Role) -> Vec<String> {
        let mut out = Vec::new();
        if self.session.to_move() != role {
            // Out of step: play for the side OpenTafl asks for, on the same board.
            let pos = self.session.to_opentafl();
            out.extend(self.resync(&pos, role));
        }
        if let Err(e) = self.apply_clock(role) {
            out.push(format!("error 0 {}", excerpt(&e)));
        }
        self.take_info();
        let played = self.session.generate_move();
        if let Some(info) = self.take_info() {
            out.push(format!("status hnefi: {info}"));
        }
        match played {
            Ok((_, EngineMove::Play(mv))) => out.push(format!("move {}-{}", mv.from, mv.to)),
            Ok((_, EngineMove::Resign)) => out.push("error 0 no legal move".into()),
            Err(e) => out.push(format!("error 0 {}", excerpt(&e.to_string()))),
        }
        out
    }

    /// The search's last completed iteration since the last call.
    fn take_info(&self) -> Option<Info<AnyMove>> {
        self.last_info.lock().ok().and_then(|mut last| last.take())
    }

    /// `analyze MOVES SECONDS`: the best MOVES root moves (at most
    /// [`MAX_ANALYSIS_LINES`]) after a search of SECONDS, each with its line and score,
    /// and the search's last report in a `status` line.
    fn analyze(&mut self, moves: &str, seconds: &str) -> Vec<String> {
        let most = crate::options::MOVETIME_MS.max() / 1000;
        let secs = seconds.parse::<u64>().unwrap_or(1).clamp(1, most);
        let lines = moves
            .parse::<usize>()
            .unwrap_or(1)
            .clamp(1, MAX_ANALYSIS_LINES);
        let want = lines.min(self.session.legal_moves().len()).max(1);
        self.take_info();
        // The lines of the deepest iteration that reported all of them: lines of
        // different depths could name one first move twice.
        let mut iteration: Vec<Info<AnyMove>> = Vec::new();
        let mut complete: Vec<Info<AnyMove>> = Vec::new();
        let analyzed = self
            .session
            .analyze_lines(Duration::from_secs(secs), lines, &mut |info| {
                if info.multipv.is_none() {
                    return;
                }
                if iteration.first().is_some_and(|i| i.depth != info.depth) {
                    iteration.clear();
                }
                iteration.retain(|i| i.multipv != info.multipv);
                iteration.push(info.clone());
                if iteration.len() == want {
                    complete.clone_from(&iteration);
                    complete.sort_by_key(|i| i.multipv);
                }
            });
        let status = self.take_info().map(|info| format!("status hnefi: {info}"));
        let mut out: Vec<String> = status.into_iter().collect();
        out.extend(Self::analysis(analyzed, &complete));
        out
    }

    /// The `analysis COUNT LINE SCORE ...` reply: the `lines` of one iteration, best
    /// first, or else the search's result alone; each line its moves joined by `|`, each
    /// score in OpenTafl's units (a soldier 1), a proven win or loss ±1000.
    fn analysis(
        analyzed: Result<crate::search::SearchResult<AnyMove>, SessionError>,
        lines: &[Info<AnyMove>],
    ) -> Vec<String> {
        let pair = |pv: &[AnyMove], score: crate::search::Score| {
            let line: Vec<String> = pv.iter().map(|m| format!("{}-{}", m.from, m.to)).collect();
            let score = match score {
                crate::search::Score::Cp(c) => f64::from(c) / 100.0,
                crate::search::Score::Win(_) => 1000.0,
                crate::search::Score::Loss(_) => -1000.0,
            };
            format!("{} {score}", line.join("|"))
        };
        match analyzed {
            Ok(r) => match r.best {
                Some(mv) => {
                    let mut pairs: Vec<String> = lines
                        .iter()
                        .filter(|l| !l.pv.is_empty())
                        .map(|l| pair(&l.pv, l.score))
                        .collect();
                    if pairs.is_empty() {
                        let pv = if r.pv.is_empty() { vec![mv] } else { r.pv };
                        pairs.push(pair(&pv, r.score));
                    }
                    vec![format!("analysis {} {}", pairs.len(), pairs.join(" "))]
                }
                None => vec!["error 0 no legal move".into()],
            },
            Err(e) => vec![format!("error 0 {}", excerpt(&e.to_string()))],
        }
    }
}

fn duration_ms(t: Duration) -> u64 {
    u64::try_from(t.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenTafl's Sea Battle 9x9: no corner squares (`cor:`), no throne (`cen:`).
    const SEA_BATTLE: &str = "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";

    fn engine() -> OtepEngine {
        let mut session = Session::new();
        session.set_option(SearchOption::Depth(1)).expect("depth 1");
        OtepEngine::new(session, 0)
    }

    #[test]
    fn a_soldier_on_a_corner_square_of_a_cornerless_game_is_no_difference() {
        let mut e = engine();
        assert!(e.handle(&format!("rules {SEA_BATTLE}")).is_empty());
        // d1-a1: an attacker on the corner square a1, which Sea Battle does not have.
        let after = "/t3tt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        assert!(e.handle(&format!("opponent-move d1-a1 {after}")).is_empty());
        assert_eq!(e.session().game().moves_played(), 1);
        let reply = e.handle("play defenders");
        assert!(
            reply.iter().all(|l| !l.contains("took the host")),
            "{reply:?}"
        );
        assert!(
            reply.last().is_some_and(|l| l.starts_with("move ")),
            "{reply:?}"
        );
        let pos = e.session().game().to_opentafl();
        assert!(e.handle(&format!("move {pos}")).is_empty());
        assert_eq!(e.session().game().moves_played(), 2);
    }

    /// On main time with overtime periods left, the clock the search plays on is the
    /// main time plus one period (less the margin), the period its increment: near the
    /// end of the main time a move still gets most of a period, not a few milliseconds.
    /// Without periods left (or without overtime) the main time is all there is.
    #[test]
    fn main_time_before_overtime_counts_one_period() {
        use crate::search::timeman::TimePlan;
        use std::time::Instant;
        let ms = Duration::from_millis;
        let mut e = engine();
        let plan = |e: &OtepEngine| TimePlan::new(&e.session().limits(), Instant::now());
        // The attackers: 64 ms of main time, 2 s periods, 3 left (g25's clock).
        assert!(e.handle("clock 64 1160* 2 3 3").is_empty());
        e.apply_clock(Role::Attacker).unwrap();
        let clock = e.session().limits().clock.expect("a clock");
        assert_eq!(clock.remaining, with_margin(ms(2064)));
        assert_eq!(clock.increment, ms(2000));
        let hard = plan(&e).hard.expect("a deadline");
        assert!(hard >= ms(1000) && hard < ms(2064), "{hard:?}");
        // No periods left for the attackers: the 64 ms are all.
        assert!(e.handle("clock 64 1160* 2 0 3").is_empty());
        e.apply_clock(Role::Attacker).unwrap();
        let clock = e.session().limits().clock.expect("a clock");
        assert_eq!(
            (clock.remaining, clock.increment),
            (with_margin(ms(64)), ms(0))
        );
        assert!(plan(&e).hard.expect("a deadline") < ms(64));
        // No overtime at all (`0 0 0`): sudden death on the main time.
        assert!(e.handle("clock 60000 60000 0 0 0").is_empty());
        e.apply_clock(Role::Attacker).unwrap();
        let clock = e.session().limits().clock.expect("a clock");
        assert_eq!(
            (clock.remaining, clock.increment),
            (with_margin(ms(60000)), ms(0))
        );
        // In overtime: a time per move of the period left, less the margin.
        assert!(e.handle("clock 2000* 50000 2 3 3").is_empty());
        e.apply_clock(Role::Attacker).unwrap();
        let limits = e.session().limits();
        assert!(limits.clock.is_none());
        assert_eq!(limits.movetime, Some(with_margin(ms(2000))));
    }

    #[test]
    fn the_search_reports_in_a_status_line_before_the_move() {
        let mut e = engine();
        let reply = e.handle("play attackers");
        assert_eq!(reply.len(), 2, "{reply:?}");
        assert!(
            reply[0].starts_with("status hnefi: depth 1 score "),
            "{reply:?}"
        );
        assert!(reply[1].starts_with("move "), "{reply:?}");
        assert_chances(&reply[0]);
    }

    /// The status line has the side to move's chances right after the score.
    fn assert_chances(status: &str) {
        let words: Vec<&str> = status.split(' ').collect();
        let at = words.iter().position(|w| *w == "wdl");
        let at = at.unwrap_or_else(|| panic!("no wdl in {status}"));
        assert_eq!(words.get(at - 2), Some(&"score"), "{status}");
        let sum: u32 = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse::<u32>().expect("a number"))
            .sum();
        assert_eq!(sum, 1000, "{status}");
    }

    #[test]
    fn analyze_says_the_chances_in_a_status_line_and_keeps_the_analysis_line_to_its_pairs() {
        let mut e = engine();
        let reply = e.handle("analyze 1 1");
        assert_eq!(reply.len(), 2, "{reply:?}");
        assert!(reply[0].starts_with("status hnefi: depth "), "{reply:?}");
        assert_chances(&reply[0]);
        // `analysis 1 MOVES SCORE`: a move list and a number, nothing more.
        let words: Vec<&str> = reply[1].split(' ').collect();
        assert_eq!(words[..2], ["analysis", "1"], "{reply:?}");
        assert_eq!(words.len(), 4, "{reply:?}");
        assert!(words[3].parse::<f64>().is_ok(), "{reply:?}");
    }

    #[test]
    fn analyze_reports_as_many_root_moves_as_the_host_asks() {
        let mut e = engine();
        let reply = e.handle("analyze 3 1");
        let analysis = reply.last().expect("a reply");
        // `analysis 3 LINE SCORE LINE SCORE LINE SCORE`, as OpenTafl's host reads it: a
        // count, then pairs, three different first moves (one iteration's lines).
        let words: Vec<&str> = analysis.split(' ').collect();
        assert_eq!(words[..2], ["analysis", "3"], "{reply:?}");
        assert_eq!(words.len(), 2 + 2 * 3, "{reply:?}");
        let firsts: Vec<&str> = words[2..]
            .chunks(2)
            .map(|pair| pair[0].split('|').next().unwrap())
            .collect();
        let mut distinct = firsts.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 3, "{reply:?}");
        for pair in words[2..].chunks(2) {
            assert!(pair[1].parse::<f64>().is_ok(), "{reply:?}");
        }
        // More than the legal moves, or a count that is not a number, still answers.
        let reply = e.handle("analyze many 1");
        assert!(
            reply.last().unwrap().starts_with("analysis 1 "),
            "{reply:?}"
        );
    }

    #[test]
    fn a_refused_rules_line_is_answered_at_play_until_a_good_one() {
        let mut e = engine();
        assert!(
            e.handle(&format!("rules {COPENHAGEN_RULES} ber:m"))
                .is_empty()
        );
        // The berserk rule sends it to the special-piece game, which has no shield walls.
        let why = "rules not supported: hnefi does not model sw:s (OpenTafl's shield walls)";
        let refusal = vec![format!("status hnefi: {why}"), format!("error -1 {why}")];
        assert_eq!(e.handle("play attackers"), refusal);
        // Nothing is played or followed on the game hnefi had before.
        assert!(e.handle("opponent-move d1-d3 /3ttttt3/").is_empty());
        assert_eq!(e.session().game().moves_played(), 0);
        assert_eq!(e.handle("play defenders"), refusal);
        assert_eq!(e.handle("analyze 1 1"), refusal);
        assert_eq!(e.session().game().moves_played(), 0);
        // A good rules line starts its game.
        assert!(e.handle(&format!("rules {SEA_BATTLE}")).is_empty());
        assert_eq!(e.session().board_size(), BoardSize::S9);
        let reply = e.handle("play attackers");
        assert!(
            reply.last().is_some_and(|l| l.starts_with("move ")),
            "{reply:?}"
        );
        assert!(e.handle("goodbye").is_empty());
        assert!(e.done);
    }
}

#[cfg(test)]
mod examples {
    //! The examples of this file's documentation, as unit tests: the items they show are
    //! the crate's own, which a doctest (another crate) cannot reach.

    #[test]
    fn parse_move_on() {
        use crate::core::geometry::BoardSize;
        use crate::protocol::otep::parse_move_on;
        assert_eq!(
            parse_move_on("m1-m3", BoardSize::S13).unwrap().to_string(),
            "m1-m3"
        );
        assert_eq!(
            parse_move_on("Ta6-a7xb7", BoardSize::S7)
                .unwrap()
                .to_string(),
            "a6-a7"
        );
        assert!(parse_move_on("m1-m3", BoardSize::S11).is_err());
    }

    #[test]
    fn parse_record_move() {
        use crate::core::geometry::S11;
        use crate::protocol::otep::parse_record_move;
        let m = parse_record_move::<S11>("g11-g9xh9").unwrap();
        assert_eq!(m.to_string(), "g11-g9xh9");
        assert_eq!(
            parse_record_move::<S11>("Kf6-f10-").unwrap().to_string(),
            "f6-f10"
        );
        assert_eq!(
            parse_record_move::<S11>("a3-e3xe2/te4+")
                .unwrap()
                .to_string(),
            "a3-e3xe2xe4"
        );
        assert_eq!(
            parse_record_move::<S11>("e3-e4xKe5++").unwrap().to_string(),
            "e3-e4"
        );
        assert!(parse_record_move::<S11>("Ne6^e8").is_err());
        assert!(parse_record_move::<S11>("e3-e4xq9").is_err());
    }

    #[test]
    fn parse_rules() {
        use crate::core::geometry::BoardSize;
        use crate::core::role::Role;
        use crate::protocol::otep::{COPENHAGEN_RULES, parse_rules};
        assert_eq!(
            parse_rules(COPENHAGEN_RULES).unwrap().first(),
            Role::Attacker
        );
        let tablut =
            "dim:9 name:Tablut esc:e start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
        assert_eq!(parse_rules(tablut).unwrap().size(), BoardSize::S9);
        assert!(parse_rules("dim:11 start:/11/11/11/11/11/5K5/11/11/11/11/11/").is_ok());
        assert!(parse_rules("dim:10").is_err());
    }
}

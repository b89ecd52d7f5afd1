//! One game between two engines, refereed by the rules core, and each engine's side of
//! the conversation in its dialect.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::any_square::AnyMove;
use crate::core::encirclement_mode::EncirclementMode;
use crate::core::game::GameOf;
use crate::core::geometry::{BoardSize, S11};
use crate::core::outcome::{Outcome, Reason as RulesReason};
use crate::core::position::PositionOf;
use crate::core::preset::RulePreset;
use crate::core::referee::Referee;
use crate::core::role::{ByRole, Role};
use crate::core::rules::RuleSet;
use crate::core::rules_source::RulesSource;
use crate::time_control::{Fischer, TimeControl};

use super::clocks::Clocks;
use super::dialect::{EngineDialect, Fault, Generated, NotAMove, Reply, shown};
use super::engine::Process;
use super::match_game::MatchGame;
use super::reason::{Adjudication, MatchReason};
use super::refereed::{BerserkPlay, Refereed};
use super::{otep, uci};

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// The rule family or rules string (`--rules`), which hnefi engines are told.
    pub(crate) source: RulesSource,
    /// The game on the match's board: its size, start position and first mover.
    pub(crate) game: MatchGame,
    /// The rules the runner applies (the variant's, with `--repetition` and
    /// `--move-limit`; sent to hnefi engines); a Berserk game's are its string's.
    pub(crate) rules: RuleSet,
    /// The time control of the match; in a game each engine plays on its own
    /// ([`Entrant::time`]), which differs from it under time odds.
    pub(crate) time: TimeControl,
    /// How far over its time an engine may go before it loses on time.
    pub(crate) margin: Duration,
    /// The deadline of a move without a clock.
    pub(crate) move_timeout: Duration,
    /// The deadline of a reply to any other command (and of a relay connection).
    pub(crate) reply_timeout: Duration,
    /// How long after an OTEP engine's move the runner waits before telling it the next
    /// one (`--otep-settle-ms`).
    pub(crate) otep_settle: Duration,
    /// The relay's listening socket, when an engine plays over TCP.
    pub(crate) listener: Option<Arc<TcpListener>>,
    /// Log the traffic with the engines to stderr.
    pub(crate) debug: bool,
}

/// An engine fault: the adjudication and a detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Forfeit {
    /// Why the engine loses.
    pub(crate) reason: Adjudication,
    /// What happened.
    pub(crate) detail: String,
}

impl Forfeit {
    fn new(reason: Adjudication, detail: impl Into<String>) -> Forfeit {
        Forfeit {
            reason,
            detail: detail.into(),
        }
    }

    /// The forfeit for a fault while waiting for the reply to `what`.
    fn from_fault(fault: &Fault, what: &str) -> Forfeit {
        match fault {
            Fault::Timeout => Forfeit::new(Adjudication::NoReply, format!("no reply to {what}")),
            Fault::Exited => Forfeit::new(Adjudication::Crash, format!("exited during {what}")),
            Fault::Start(why) => {
                Forfeit::new(Adjudication::Crash, format!("could not start: {why}"))
            }
            Fault::Malformed(t) => {
                Forfeit::new(Adjudication::MalformedReply, format!("{what}: '{t}'"))
            }
        }
    }
}

/// One engine as a worker sees it: how to start it and its running process, if any.
pub(crate) struct Entrant {
    /// Its dialect.
    pub(crate) dialect: EngineDialect,
    /// Its command line.
    pub(crate) words: Vec<String>,
    /// Its name in logs (`E1`, ...).
    pub(crate) label: String,
    /// The running process (`None` before the first game and after a fault).
    pub(crate) process: Option<Process>,
    /// False once a UCI engine has refused `go wtime ...` (it gets `go movetime`).
    uci_clock: bool,
    /// The last `info` line of the engine's last search (UCI).
    last_info: Option<String>,
    /// Its time control (its own under time odds).
    pub(crate) time: TimeControl,
    /// When its last move came (OTEP; see [`Settings::otep_settle`]).
    moved_at: Option<Instant>,
}

/// The result of asking an engine for a move.
enum Asked {
    /// A move or resignation, and the time it took.
    Generated(Generated, Duration),
    /// The reply came too late, or not at all: a loss on time.
    Late(Duration),
}

impl Entrant {
    /// A player not started yet.
    pub(crate) fn new(
        label: String,
        dialect: EngineDialect,
        words: Vec<String>,
        time: TimeControl,
    ) -> Entrant {
        Entrant {
            dialect,
            words,
            label,
            process: None,
            uci_clock: true,
            last_info: None,
            time,
            moved_at: None,
        }
    }

    /// Stops the process: politely first where the dialect has a word for it (the
    /// reference engine does not exit at the end of its input), then it is killed.
    pub(crate) fn stop(&mut self) {
        if let Some(mut p) = self.process.take() {
            let word = match self.dialect {
                EngineDialect::Htp | EngineDialect::Uci | EngineDialect::Htp03 => Some("quit"),
                EngineDialect::Otep => Some("goodbye"),
                EngineDialect::Hnefi | EngineDialect::HtpTcp => None,
            };
            if let Some(w) = word
                && p.send(w).is_ok()
            {
                let _ = p.exit_status(otep::GOODBYE_WAIT);
            }
        }
    }

    /// Starts the engine and checks that it speaks its dialect (its first reply). On a
    /// failure the process is kept, so that [`Entrant::failure_stderr`] can show its
    /// stderr.
    pub(crate) fn start(&mut self, s: &Settings) -> Result<(), Forfeit> {
        let echo = s.debug.then(|| self.label.clone());
        let started = match (self.dialect, &s.listener) {
            (EngineDialect::HtpTcp, Some(l)) => {
                Process::spawn_tcp(&self.words, l, s.reply_timeout, echo)
            }
            (EngineDialect::HtpTcp, None) => {
                return Err(Forfeit::new(Adjudication::Crash, "no relay"));
            }
            _ => Process::spawn(&self.words, echo),
        };
        let mut process = started.map_err(|e| Forfeit::from_fault(&Fault::from(e), "the start"))?;
        if s.debug {
            process.set_log(self.label.clone());
        }
        let deadline = Instant::now() + s.reply_timeout;
        let checked = match self.dialect {
            EngineDialect::Uci => uci::handshake(&mut process, deadline).map_err(|f| (f, "uci")),
            EngineDialect::Otep => {
                otep::handshake(&mut process, deadline).map_err(|f| (f, "hello"))
            }
            EngineDialect::Hnefi | EngineDialect::Htp | EngineDialect::Htp03 => {
                // `name` (0.3.1: `protocol_version`) changes nothing; a `?` reply proves
                // the framing as well.
                let word = match self.dialect {
                    EngineDialect::Htp03 => "protocol_version",
                    _ => "name",
                };
                let sent = process.send(word).map_err(Fault::from);
                sent.and_then(|()| self.dialect.read_reply(&mut process, deadline).map(|_| ()))
                    .map_err(|f| (f, word))
            }
            EngineDialect::HtpTcp => Ok(()),
        };
        self.process = Some(process);
        checked.map_err(|(f, what)| Forfeit::from_fault(&f, &format!("its first command ({what})")))
    }

    /// The stderr of a process that failed to start (killed first if still running).
    pub(crate) fn failure_stderr(&mut self) -> String {
        let text = self
            .process
            .as_mut()
            .map(|p| p.stderr_text(true))
            .unwrap_or_default();
        self.process = None;
        text
    }

    fn process(&mut self) -> Result<&mut Process, Forfeit> {
        self.process
            .as_mut()
            .ok_or_else(|| Forfeit::new(Adjudication::Crash, "not running"))
    }

    /// Sends a command of the text-protocol dialects and expects a success reply.
    fn command(&mut self, line: &str, s: &Settings) -> Result<(), Forfeit> {
        let dialect = self.dialect;
        let p = self.process()?;
        let what = line
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        p.send(line)
            .map_err(|_| Forfeit::new(Adjudication::Crash, format!("exited before {what}")))?;
        match dialect.read_reply(p, Instant::now() + s.reply_timeout) {
            Ok(Reply::Ok(_)) => Ok(()),
            Ok(Reply::Err(m)) => Err(Forfeit::new(
                Adjudication::RejectedMove,
                format!("{line}: ? {}", shown(&m)),
            )),
            Err(f) => Err(Forfeit::from_fault(&f, &what)),
        }
    }

    /// Starts the engine for a new game if needed and sends the game's settings (the
    /// side it plays comes with each request for a move).
    fn prepare(&mut self, s: &Settings) -> Result<(), Forfeit> {
        if self.dialect.one_game_per_process() {
            self.stop();
        }
        let fresh = self.process.is_none();
        if fresh {
            self.start(s)?;
        }
        let deadline = Instant::now() + s.reply_timeout;
        match self.dialect {
            EngineDialect::Htp | EngineDialect::HtpTcp => self.board_commands(s),
            EngineDialect::Uci if fresh => Ok(()),
            EngineDialect::Uci => uci::new_game(self.process()?, deadline)
                .map_err(|f| Forfeit::from_fault(&f, "ucinewgame")),
            EngineDialect::Otep => {
                let rules = otep::rules_string(&s.source);
                otep::new_game(self.process()?, rules).map_err(|f| Forfeit::from_fault(&f, "rules"))
            }
            EngineDialect::Hnefi => self.prepare_hnefi(s),
            EngineDialect::Htp03 => self.prepare_htp03(s),
        }
    }

    /// A new game for a 0.3.1 engine: `reset_board` and its time control (a move time
    /// has no command in that release: the engine's own flags set it).
    fn prepare_htp03(&mut self, s: &Settings) -> Result<(), Forfeit> {
        self.command("reset_board", s)?;
        match s.time {
            TimeControl::None | TimeControl::MoveTime(_) => self.command("time_settings none", s),
            TimeControl::Fischer(Fischer { base, increment }) => self.command(
                &format!(
                    "time_settings fischer {} {}",
                    base.as_secs_f64() / 60.0,
                    increment.as_secs_f64()
                ),
                s,
            ),
        }
    }

    /// Tells the engine the match's game when it is not its default (Copenhagen on
    /// 11x11): hnefi's protocol `set_rule rules FAMILY` and `board_size N`, or `set_rule
    /// rules STRING` for an OpenTafl rules string (its own board), the reference engine's
    /// `board_size N`. Other dialects play 11x11 only (the match refuses them on other
    /// boards, and hears no rules string).
    pub(crate) fn board_commands(&mut self, s: &Settings) -> Result<(), Forfeit> {
        let size = s.game.size();
        if self.dialect == EngineDialect::Hnefi {
            // The referee has no rule of its own in the protocol: the family sets it
            // (and the other rules, each set again in `prepare_hnefi`).
            match &s.source {
                // The string names the board: no `board_size` after it.
                RulesSource::Custom(c) => {
                    return self.command(&format!("set_rule rules {}", c.text()), s);
                }
                RulesSource::Berserk(b) => {
                    return self.command(&format!("set_rule rules {}", b.text()), s);
                }
                RulesSource::Family(RulePreset::Copenhagen)
                    if s.rules.referee != Referee::default() =>
                {
                    self.command(&format!("set_rule rules {}", s.rules.referee), s)?;
                }
                RulesSource::Family(RulePreset::Copenhagen) => {}
                RulesSource::Family(family) => {
                    self.command(&format!("set_rule rules {family}"), s)?;
                }
            }
        }
        if size == BoardSize::S11 {
            return Ok(());
        }
        match self.dialect {
            EngineDialect::Hnefi | EngineDialect::Htp => {
                self.command(&format!("board_size {size}"), s)
            }
            // The TCP mode prints its replies to its own stdout: nothing comes back.
            EngineDialect::HtpTcp => {
                self.process()?
                    .send(&format!("board_size {size}"))
                    .map_err(|_| {
                        Forfeit::new(Adjudication::Crash, "exited before board_size".to_string())
                    })
            }
            _ => Ok(()),
        }
    }

    /// Whether the engine is started afresh for each of its moves, and told the game
    /// so far, instead of being told each move: the reference engine 6.4.1 in TCP mode
    /// on 7x7 panics right after sending each move (its heat map's display indexes past
    /// the 7x7 board), so it never sees a second one. Its AI builds its search from the
    /// game at each `generate_move`, so a fresh process plays as a running one would.
    fn fresh_each_move(&self, s: &Settings) -> bool {
        self.dialect == EngineDialect::HtpTcp && s.game.size() == BoardSize::S7
    }

    /// Starts the engine afresh and tells it the game so far ([`Entrant::fresh_each_move`]).
    fn restart_with(&mut self, game: &impl Refereed, s: &Settings) -> Result<(), Forfeit> {
        if let Some(mut p) = self.process.take() {
            // It has usually exited already; `stderr_text` kills it if not.
            let _ = p.stderr_text(true);
        }
        self.start(s)?;
        self.board_commands(s)?;
        let moves = game.moves();
        let now = game.side_to_move();
        let total = moves.len();
        for (i, mv) in moves.into_iter().enumerate() {
            // The movers alternate and the last move was the other side's (the reference
            // engine, the only one restarted so, plays no Berserk, whose turns do not).
            let mover = if (total - i) % 2 == 1 {
                now.opponent()
            } else {
                now
            };
            let line = self.dialect.play_command(mover, mv);
            self.process()?
                .send(&line)
                .map_err(|_| Forfeit::new(Adjudication::Crash, format!("exited before {line}")))?;
        }
        Ok(())
    }

    fn prepare_hnefi(&mut self, s: &Settings) -> Result<(), Forfeit> {
        self.command("clear_board", s)?;
        self.board_commands(s)?;
        // A Berserk game's rules are its string's: the engine refuses to change them
        // (the match refuses --repetition and --move-limit with it).
        if matches!(s.game, MatchGame::Berserk { .. }) {
            return self.time_commands(s);
        }
        if s.rules.encirclement != EncirclementMode::default() {
            self.command(
                &format!("set_rule encirclement {}", s.rules.encirclement),
                s,
            )?;
        }
        self.command(&format!("set_rule repetition {}", s.rules.repetition), s)?;
        self.command(
            &format!("set_rule move_limit {}", s.rules.move_limit.unwrap_or(0)),
            s,
        )?;
        self.time_commands(s)
    }

    /// Tells a hnefi engine the time control.
    fn time_commands(&mut self, s: &Settings) -> Result<(), Forfeit> {
        match s.time {
            TimeControl::None => self.command("time_settings none", s),
            TimeControl::MoveTime(t) => {
                self.command("time_settings none", s)?;
                self.command(&format!("set_option movetime_ms {}", t.as_millis()), s)
            }
            TimeControl::Fischer(Fischer { base, increment }) => self.command(
                &format!(
                    "time_settings fischer {} {}",
                    base.as_secs_f64() / 60.0,
                    increment.as_secs_f64()
                ),
                s,
            ),
        }
    }

    /// Tells the engine about a turn of `mover`: its moves, oldest first (one, or several
    /// in a Berserk game's berserk turn); `game` is the game after them. The text
    /// protocols hear each move as a `play`, an OTEP engine the turn as one
    /// `opponent-move` with its moves joined by `|`, as OpenTafl's host sends it.
    fn tell(
        &mut self,
        mover: Role,
        turn: &[AnyMove],
        game: &impl Refereed,
        s: &Settings,
    ) -> Result<(), Forfeit> {
        if self.fresh_each_move(s) {
            return Ok(());
        }
        match self.dialect {
            EngineDialect::Hnefi | EngineDialect::Htp | EngineDialect::Htp03 => {
                for &mv in turn {
                    self.command(&self.dialect.play_command(mover, mv), s)?;
                }
                Ok(())
            }
            EngineDialect::HtpTcp => {
                for &mv in turn {
                    let line = self.dialect.play_command(mover, mv);
                    self.process()?.send(&line).map_err(|_| {
                        Forfeit::new(Adjudication::Crash, format!("exited before {line}"))
                    })?;
                }
                Ok(())
            }
            // A UCI engine gets the whole game with each `position`.
            EngineDialect::Uci => Ok(()),
            EngineDialect::Otep => {
                self.settle(s);
                otep::tell(self.process()?, turn, &game.board_otn())
                    .map_err(|f| Forfeit::from_fault(&f, "opponent-move"))
            }
        }
    }

    /// Waits, before any clock runs, until [`Settings::otep_settle`] has passed since the
    /// engine's last move (OTEP), so that it has played that move on its own board.
    fn settle(&mut self, s: &Settings) {
        if let Some(at) = self.moved_at.take() {
            let wait = (at + s.otep_settle).saturating_duration_since(Instant::now());
            if !wait.is_zero() {
                std::thread::sleep(wait);
            }
        }
    }

    /// Tells the engine its own move was accepted (OTEP's `move POSITION`).
    fn accepted(&mut self, game: &impl Refereed) -> Result<(), Forfeit> {
        match self.dialect {
            EngineDialect::Otep => otep::accepted(self.process()?, &game.board_otn())
                .map_err(|f| Forfeit::from_fault(&f, "move")),
            _ => Ok(()),
        }
    }

    /// Tells the engine the game is over (OTEP's `finish`).
    fn finish(&mut self, winner: Option<Role>) {
        if let (EngineDialect::Otep, Some(p)) = (self.dialect, self.process.as_mut()) {
            otep::finish(p, winner);
        }
    }

    /// Asks the engine for a move of `side` in `game`, allowing it `allowance`.
    fn ask(
        &mut self,
        game: &impl Refereed,
        side: Role,
        clock: ByRole<Duration>,
        allowance: Duration,
        s: &Settings,
    ) -> Result<Asked, Forfeit> {
        if let (TimeControl::Fischer(_), EngineDialect::Hnefi) = (s.time, self.dialect) {
            for role in [Role::Attacker, Role::Defender] {
                let ms = clock.get(role).as_millis();
                self.command(&format!("time_left {role} {ms}"), s)?;
            }
        }
        if self.fresh_each_move(s) {
            self.restart_with(game, s)?;
        }
        if self.dialect == EngineDialect::Otep {
            // A berserk turn's next move: the engine's last move was its own.
            self.settle(s);
        }
        let dialect = self.dialect;
        let uci_clock = self.uci_clock;
        let p = self.process()?;
        let start = Instant::now();
        let deadline = start + allowance;
        let generated = match dialect {
            EngineDialect::Uci => {
                // UCI engines play 11x11 only (the match refuses them on other boards).
                let moves: Vec<_> = game
                    .moves()
                    .into_iter()
                    .filter_map(AnyMove::on::<S11>)
                    .collect();
                let (go, fallback) = uci_go(s.time, clock, side, uci_clock);
                match uci::search(p, &moves, go, fallback, deadline) {
                    Ok(found) => {
                        self.uci_clock &= found.clock_understood;
                        self.last_info = found.last_info;
                        Ok(found.generated)
                    }
                    Err(f) => Err(f),
                }
            }
            EngineDialect::Otep => {
                let line = otep::clock_command(s.time, clock);
                otep::search(
                    p,
                    side,
                    &line,
                    (
                        &game.board_otn(),
                        s.game.size(),
                        otep::rules_string(&s.source),
                    ),
                    deadline,
                )
            }
            EngineDialect::Hnefi
            | EngineDialect::Htp
            | EngineDialect::HtpTcp
            | EngineDialect::Htp03 => {
                if p.send(&dialect.generate_move(side)).is_err() {
                    return Err(Forfeit::new(
                        Adjudication::Crash,
                        "exited before generate_move",
                    ));
                }
                match dialect.read_reply(p, deadline) {
                    Ok(Reply::Ok(text)) => {
                        Ok(dialect.parse_generated_on(&text, side, s.game.size()))
                    }
                    Ok(Reply::Err(m)) => {
                        Ok(Err(NotAMove(format!("generate_move: ? {}", shown(&m)))))
                    }
                    Err(f) => Err(f),
                }
            }
        };
        let elapsed = start.elapsed();
        if dialect == EngineDialect::Otep {
            self.moved_at = Some(Instant::now());
        }
        match generated {
            Ok(_) if elapsed > allowance => Ok(Asked::Late(elapsed)),
            Err(Fault::Timeout) => Ok(Asked::Late(elapsed)),
            Ok(Ok(g)) => Ok(Asked::Generated(g, elapsed)),
            Ok(Err(why)) => Err(Forfeit::new(Adjudication::MalformedReply, why.0)),
            Err(f) => Err(Forfeit::from_fault(&f, "the move request")),
        }
    }
}

/// The `go` of a UCI engine and its `movetime` fallback.
fn uci_go(
    time: TimeControl,
    clock: ByRole<Duration>,
    side: Role,
    clock_ok: bool,
) -> (uci::Go, Duration) {
    match time {
        TimeControl::Fischer(Fischer { increment, .. }) => {
            let fallback = uci::budget(*clock.get(side), increment);
            let go = if clock_ok {
                uci::Go::Clock {
                    attackers: clock.attacker,
                    defenders: clock.defender,
                    increment,
                }
            } else {
                uci::Go::MoveTime(fallback)
            };
            (go, fallback)
        }
        TimeControl::MoveTime(t) => (uci::Go::MoveTime(t), t),
        // Refused when the match is configured (a UCI engine needs a time control).
        TimeControl::None => (
            uci::Go::MoveTime(Duration::from_secs(1)),
            Duration::from_secs(1),
        ),
    }
}

/// A game played: how it ended, and its record.
#[derive(Debug)]
pub(crate) struct Played {
    /// The game's records line (a loss on time included; see
    /// [`record_line`](super::records::record_line)).
    pub(crate) record: String,
    /// Who won, by a rule or by an adjudication.
    pub(crate) outcome: Outcome<MatchReason>,
    /// More about an adjudication.
    pub(crate) detail: String,
}

/// Plays one game: `players[0]` has the attackers, `players[1]` the defenders, from the
/// start position of the match's game (`s.game`) after `opening` (legal under
/// `s.rules`). Every move is checked by the rules core; a fault of an engine ends the
/// game against it, and its process is stopped so that the next game starts a new one.
pub(crate) fn play_game(players: [&mut Entrant; 2], opening: &[AnyMove], s: &Settings) -> Played {
    let [attacker, defender] = players;
    let mut players = ByRole { attacker, defender };
    let (record, outcome, detail) = match &s.game {
        MatchGame::Ordinary(variant) => crate::with_size!(variant.size(), G => {
            // A variant's start position exists on its own board (it is checked when
            // the variant is made).
            let start = variant
                .start_position::<G>()
                .unwrap_or_else(|_| PositionOf::start());
            let game = GameOf::<G>::from_position(start, s.rules);
            referee(&mut players, game, opening, s).finished()
        }),
        MatchGame::Berserk { start, .. } => {
            let game = BerserkPlay {
                game: start.as_ref().clone(),
                timed_out: None,
            };
            referee(&mut players, game, opening, s).finished()
        }
    };
    players.attacker.finish(outcome.winner);
    players.defender.finish(outcome.winner);
    Played {
        record,
        outcome,
        detail,
    }
}

/// How a game ended.
struct Ended<R: Refereed> {
    game: R,
    outcome: Outcome<MatchReason>,
    detail: String,
}

impl<R: Refereed> Ended<R> {
    /// The records line, the outcome and the detail.
    fn finished(self) -> (String, Outcome<MatchReason>, String) {
        (
            self.game.record_line(self.outcome.winner),
            self.outcome,
            self.detail,
        )
    }
}

fn forfeit<R: Refereed>(game: R, loser: Role, f: Forfeit) -> Ended<R> {
    Ended {
        game,
        outcome: Outcome::win(loser.opponent(), MatchReason::Adjudicated(f.reason)),
        detail: format!("{loser}: {}", f.detail),
    }
}

fn referee<R: Refereed>(
    players: &mut ByRole<&mut Entrant>,
    mut game: R,
    opening: &[AnyMove],
    s: &Settings,
) -> Ended<R> {
    // Each side plays on its engine's time control (time odds make them differ); what
    // is sent to an engine comes from its own settings.
    let own = ByRole::new_with(|role| Settings {
        time: players.get(role).time,
        ..s.clone()
    });
    if let Err((role, f)) = set_up(players, &mut game, opening, &own) {
        players.get_mut(role).stop();
        return forfeit(game, role, f);
    }
    let mut clocks = Clocks::new(ByRole::new_with(|role| players.get(role).time));
    // The moves of the turn in progress: a Berserk side moves again after a capture
    // (a berserk turn), and the other side hears the whole turn once it passes.
    let mut turn: Vec<AnyMove> = Vec::new();
    loop {
        if let Some(outcome) = game.game_status().outcome() {
            return Ended {
                game,
                outcome: outcome.map_reason(MatchReason::Rules),
                detail: String::new(),
            };
        }
        let side = game.side_to_move();
        let p = &mut **players.get_mut(side);
        let allowance = clocks.allowance(side, s.margin, s.move_timeout);
        let asked = p.ask(&game, side, clocks.shown(side), allowance, own.get(side));
        let (generated, elapsed) = match asked {
            Ok(Asked::Generated(g, elapsed)) => (g, elapsed),
            Ok(Asked::Late(elapsed)) => return late(game, p, side, allowance, elapsed),
            Err(f) => {
                p.stop();
                return forfeit(game, side, f);
            }
        };
        clocks.charge(side, elapsed);
        let mv = match generated {
            Generated::Move(mv) => mv,
            Generated::Resign => {
                game.resign_as(side);
                continue;
            }
            Generated::Illegal(why) => {
                p.stop();
                return forfeit(game, side, Forfeit::new(Adjudication::IllegalMove, why));
            }
        };
        if let Err(why) = game.play_any(mv) {
            p.stop();
            return forfeit(game, side, Forfeit::new(Adjudication::IllegalMove, why));
        }
        if let Err(f) = p.accepted(&game) {
            p.stop();
            return forfeit(game, side, f);
        }
        turn.push(mv);
        if !game.game_status().is_over() && game.side_to_move() != side {
            let other = side.opponent();
            let q = &mut **players.get_mut(other);
            if let Err(f) = q.tell(side, &turn, &game, own.get(other)) {
                q.stop();
                return forfeit(game, other, f);
            }
            turn.clear();
        }
    }
}

/// Readies both engines for their sides and plays the `opening` on `game` and to both
/// (as far as it is legal), each turn told at once; the side whose engine failed, if
/// one did.
fn set_up<R: Refereed>(
    players: &mut ByRole<&mut Entrant>,
    game: &mut R,
    opening: &[AnyMove],
    own: &ByRole<Settings>,
) -> Result<(), (Role, Forfeit)> {
    for role in [Role::Attacker, Role::Defender] {
        let p = &mut **players.get_mut(role);
        p.prepare(own.get(role)).map_err(|f| (role, f))?;
    }
    let mut turn: Vec<AnyMove> = Vec::new();
    let mut mover = game.side_to_move();
    for &mv in opening {
        let before = game.side_to_move();
        if game.play_any(mv).is_err() {
            break;
        }
        mover = before;
        turn.push(mv);
        if game.game_status().is_over() || game.side_to_move() != mover {
            tell_both(players, mover, &turn, game, own)?;
            turn.clear();
        }
    }
    // An opening that ends inside a berserk turn (the random openings end none so).
    if !turn.is_empty() {
        tell_both(players, mover, &turn, game, own)?;
    }
    Ok(())
}

/// Tells both engines a turn of the opening.
fn tell_both<R: Refereed>(
    players: &mut ByRole<&mut Entrant>,
    mover: Role,
    turn: &[AnyMove],
    game: &R,
    own: &ByRole<Settings>,
) -> Result<(), (Role, Forfeit)> {
    for role in [Role::Attacker, Role::Defender] {
        let p = &mut **players.get_mut(role);
        p.tell(mover, turn, game, own.get(role))
            .map_err(|f| (role, f))?;
    }
    Ok(())
}

/// The game `side` lost on time: no move within `allowance` (it took `elapsed`, if it
/// answered at all), told to stop.
fn late<R: Refereed>(
    mut game: R,
    p: &mut Entrant,
    side: Role,
    allowance: Duration,
    elapsed: Duration,
) -> Ended<R> {
    let mut detail = format!("{side}: no move within {} ms", allowance.as_millis());
    if elapsed > allowance && elapsed < allowance + Duration::from_secs(3600) {
        detail.push_str(&format!(" (took {} ms)", elapsed.as_millis()));
    }
    if let Some(info) = &p.last_info {
        detail.push_str(&format!("; its last info: {info}"));
    }
    if let Some(proc_) = p.process.as_mut() {
        let _ = proc_.send("stop");
    }
    p.stop();
    game.time_out(side);
    Ended {
        game,
        outcome: Outcome::win(side.opponent(), MatchReason::Rules(RulesReason::Time)),
        detail,
    }
}

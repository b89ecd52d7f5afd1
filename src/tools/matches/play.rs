//! One game between two engines, refereed by the rules core.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::core::encirclement::EncirclementMode;
use crate::core::game::{Game, RuleSet};
use crate::core::moves::Move;
use crate::core::position::Status;
use crate::core::role::Role;

use super::dialect::{Dialect, Fault, Generated, Reply, shown};
use super::engine::Process;

/// The time control of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No clock: each move may take up to the runner's untimed deadline.
    None,
    /// A fixed time per move.
    MoveTime(Duration),
    /// Fischer: a base time per side and an increment after each move.
    Fischer {
        /// The time each side starts with.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The rules the runner applies (and sends to hnefi engines).
    pub rules: RuleSet,
    /// The time control.
    pub time: TimeControl,
    /// How far over its time an engine may go before it loses on time.
    pub margin: Duration,
    /// The deadline of a move without a clock.
    pub move_timeout: Duration,
    /// The deadline of a reply to any other command (and of a relay connection).
    pub reply_timeout: Duration,
    /// The relay's listening socket, when an engine plays over TCP.
    pub listener: Option<Arc<TcpListener>>,
    /// Log the traffic with the engines to stderr.
    pub debug: bool,
}

/// One engine as a worker sees it: how to start it and its running process, if any.
pub struct Player {
    /// Its dialect.
    pub dialect: Dialect,
    /// Its command line.
    pub words: Vec<String>,
    /// Its name in logs (`E1`, ...).
    pub label: String,
    /// The running process (`None` before the first game and after a fault).
    pub process: Option<Process>,
}

impl Player {
    /// Stops the process (politely for the reference engine, which does not exit at the
    /// end of its input; then it is killed anyway).
    pub fn stop(&mut self) {
        if let Some(mut p) = self.process.take()
            && self.dialect == Dialect::Htp
        {
            let _ = p.send("quit");
        }
    }
}

/// How a game ended.
#[derive(Debug)]
pub struct Outcome {
    /// The game as played (a loss on time and a resignation included).
    pub game: Game,
    /// The winner; `None` for a draw.
    pub winner: Option<Role>,
    /// Why (see [`super::records::GameResult::reason`]).
    pub reason: String,
    /// More about an adjudication.
    pub detail: String,
}

/// An engine fault: the reason and a detail.
type Forfeit = (&'static str, String);

fn fault_reason(fault: &Fault, what: &str) -> Forfeit {
    match fault {
        Fault::Timeout => ("no_reply", format!("no reply to {what}")),
        Fault::Exited => ("crash", format!("exited during {what}")),
        Fault::Malformed(t) => ("malformed_reply", format!("{what}: '{t}'")),
    }
}

/// Sends a command and expects a success reply.
fn command(p: &mut Player, line: &str, s: &Settings) -> Result<(), Forfeit> {
    let dialect = p.dialect;
    let Some(proc_) = p.process.as_mut() else {
        return Err(("crash", "not running".into()));
    };
    let what = line
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    proc_
        .send(line)
        .map_err(|_| ("crash", format!("exited before {what}")))?;
    match dialect.read_reply(proc_, Instant::now() + s.reply_timeout) {
        Ok(Reply::Ok(_)) => Ok(()),
        Ok(Reply::Err(m)) => Err(("rejected_move", format!("{line}: ? {}", shown(&m)))),
        Err(f) => Err(fault_reason(&f, &what)),
    }
}

/// Starts the engine for a new game if needed and sends the game's settings.
fn prepare(p: &mut Player, s: &Settings) -> Result<(), Forfeit> {
    if p.dialect.one_game_per_process() {
        p.stop();
    }
    if p.process.is_none() {
        let started = match (p.dialect, &s.listener) {
            (Dialect::HtpTcp, Some(l)) => Process::spawn_tcp(&p.words, l, s.reply_timeout, s.debug),
            (Dialect::HtpTcp, None) => return Err(("crash", "no relay".into())),
            _ => Process::spawn(&p.words, s.debug),
        };
        let mut process = started.map_err(|e| ("crash", e.to_string()))?;
        if s.debug {
            process.set_log(p.label.clone());
        }
        p.process = Some(process);
    }
    if p.dialect != Dialect::Hnefi {
        return Ok(());
    }
    command(p, "clear_board", s)?;
    if s.rules.encirclement != EncirclementMode::default() {
        command(
            p,
            &format!("set_rule encirclement {}", s.rules.encirclement),
            s,
        )?;
    }
    command(p, &format!("set_rule repetition {}", s.rules.repetition), s)?;
    command(
        p,
        &format!("set_rule move_limit {}", s.rules.move_limit.unwrap_or(0)),
        s,
    )?;
    match s.time {
        TimeControl::None => command(p, "time_settings none", s),
        TimeControl::MoveTime(t) => {
            command(p, "time_settings none", s)?;
            command(p, &format!("set_option movetime_ms {}", t.as_millis()), s)
        }
        TimeControl::Fischer { base, increment } => command(
            p,
            &format!(
                "time_settings fischer {} {}",
                base.as_secs_f64() / 60.0,
                increment.as_secs_f64()
            ),
            s,
        ),
    }
}

/// Tells an engine about a move of `mover`.
fn tell(p: &mut Player, mover: Role, mv: Move, s: &Settings) -> Result<(), Forfeit> {
    let line = format!("play {mover} {} {}", mv.from, mv.to);
    if p.dialect.replies_to_play() {
        return command(p, &line, s);
    }
    match p.process.as_mut() {
        Some(proc_) => proc_
            .send(&line)
            .map_err(|_| ("crash", format!("exited before {line}"))),
        None => Err(("crash", "not running".into())),
    }
}

fn index(role: Role) -> usize {
    (role == Role::Defender) as usize
}

/// Plays one game: `players[0]` has the attackers, `players[1]` the defenders, from the
/// start position after `opening` (legal under `s.rules`). Every move is checked by the
/// rules core; a fault of an engine ends the game against it, and its process is stopped
/// so that the next game starts a new one.
pub fn play_game(players: [&mut Player; 2], opening: &[Move], s: &Settings) -> Outcome {
    let mut game = Game::new(s.rules);
    let forfeit = |game: Game, loser: Role, (reason, detail): Forfeit| Outcome {
        game,
        winner: Some(loser.opponent()),
        reason: reason.to_string(),
        detail: format!("{loser}: {detail}"),
    };
    for role in [Role::Attacker, Role::Defender] {
        let p = &mut *players[index(role)];
        if let Err(f) = prepare(p, s) {
            p.stop();
            return forfeit(game, role, f);
        }
    }
    for &mv in opening {
        let mover = game.to_move();
        if game.play(mv).is_err() {
            break;
        }
        for role in [Role::Attacker, Role::Defender] {
            let p = &mut *players[index(role)];
            if let Err(f) = tell(p, mover, mv, s) {
                p.stop();
                return forfeit(game, role, f);
            }
        }
    }
    let mut clock = match s.time {
        TimeControl::Fischer { base, .. } => [base; 2],
        _ => [Duration::ZERO; 2],
    };
    loop {
        match game.status() {
            Status::Ongoing => {}
            Status::Won { winner, reason } => {
                return Outcome {
                    game,
                    winner: Some(winner),
                    reason: reason.protocol_name().to_string(),
                    detail: String::new(),
                };
            }
            Status::Drawn { reason } => {
                return Outcome {
                    game,
                    winner: None,
                    reason: reason.protocol_name().to_string(),
                    detail: String::new(),
                };
            }
        }
        let side = game.to_move();
        let p = &mut *players[index(side)];
        if let (TimeControl::Fischer { .. }, Dialect::Hnefi) = (s.time, p.dialect) {
            for role in [Role::Attacker, Role::Defender] {
                let ms = clock[index(role)].as_millis();
                if let Err(f) = command(p, &format!("time_left {role} {ms}"), s) {
                    p.stop();
                    return forfeit(game, side, f);
                }
            }
        }
        let allowance = match s.time {
            TimeControl::None => s.move_timeout,
            TimeControl::MoveTime(t) => t + s.margin,
            TimeControl::Fischer { .. } => clock[index(side)] + s.margin,
        };
        let dialect = p.dialect;
        let Some(proc_) = p.process.as_mut() else {
            return forfeit(game, side, ("crash", "not running".into()));
        };
        if proc_.send(&dialect.generate_move(side)).is_err() {
            p.stop();
            return forfeit(game, side, ("crash", "exited before generate_move".into()));
        }
        let start = Instant::now();
        let reply = dialect.read_reply(proc_, start + allowance);
        let elapsed = start.elapsed();
        let text = match reply {
            Ok(Reply::Ok(text)) if elapsed <= allowance => text,
            Ok(Reply::Ok(_)) | Err(Fault::Timeout) => {
                p.stop();
                let _ = game.lose_on_time(side);
                return Outcome {
                    game,
                    winner: Some(side.opponent()),
                    reason: "time".into(),
                    detail: format!("{side}: no move within {} ms", allowance.as_millis()),
                }
                .with_time_detail(elapsed, allowance);
            }
            Ok(Reply::Err(m)) => {
                p.stop();
                return forfeit(
                    game,
                    side,
                    ("malformed_reply", format!("generate_move: ? {}", shown(&m))),
                );
            }
            Err(f) => {
                p.stop();
                return forfeit(game, side, fault_reason(&f, "generate_move"));
            }
        };
        if let TimeControl::Fischer { increment, .. } = s.time {
            let left = &mut clock[index(side)];
            *left = left.saturating_sub(elapsed) + increment;
        }
        let mv = match dialect.parse_generated(&text, side) {
            Ok(Generated::Move(mv)) => mv,
            Ok(Generated::Resign) => {
                let _ = game.resign(side);
                continue;
            }
            Ok(Generated::Illegal(why)) => {
                p.stop();
                return forfeit(game, side, ("illegal_move", why));
            }
            Err(why) => {
                p.stop();
                return forfeit(game, side, ("malformed_reply", why));
            }
        };
        if let Err(e) = game.play(mv) {
            p.stop();
            return forfeit(game, side, ("illegal_move", format!("{mv}: {e}")));
        }
        if !game.status().is_over() {
            let other = side.opponent();
            let q = &mut *players[index(other)];
            if let Err(f) = tell(q, side, mv, s) {
                q.stop();
                return forfeit(game, other, f);
            }
        }
    }
}

impl Outcome {
    /// Notes, for a reply that came but too late, how late it was.
    fn with_time_detail(mut self, elapsed: Duration, allowance: Duration) -> Outcome {
        if elapsed > allowance && elapsed < allowance + Duration::from_secs(3600) {
            self.detail = format!("{} (took {} ms)", self.detail, elapsed.as_millis());
        }
        self
    }
}

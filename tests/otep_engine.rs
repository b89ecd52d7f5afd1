//! `hnefi --otep` driven as OpenTafl drives an engine (the OpenTafl Engine Protocol): a
//! scripted host plays whole games against it with the rules core choosing the host's
//! moves, takes back a move with `error`, plays OpenTafl's variants on every board size,
//! and offers rules hnefi cannot model.

use crate::common;

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};

use hnefi::core::any_game::AnyGame;
use hnefi::core::any_square::AnyMove;
use hnefi::core::game::{Game, RepetitionMode, RuleSet};
use hnefi::core::notation::to_opentafl;
use hnefi::core::role::Role;
use hnefi::core::rules_string::parse_rules_string;
use hnefi::protocol::otep::{COPENHAGEN_RULES, parse_move, side_name};

const BIN: &str = env!("CARGO_BIN_EXE_hnefi");

struct Host {
    child: Child,
    stdin: ChildStdin,
    stdout: common::Lines,
}

impl Host {
    fn start() -> Host {
        let mut child = Command::new(BIN)
            .args(["--otep", "--depth", "2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hnefi --otep");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = common::Lines::spawn(
            child.stdout.take().expect("stdout"),
            "hnefi --otep's stdout",
        );
        Host {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn read(&mut self) -> String {
        self.stdout.next("a line of OTEP").trim_end().to_string()
    }

    /// The next line that is not a `status` line.
    fn command(&mut self) -> String {
        loop {
            let line = self.read();
            if !line.starts_with("status") {
                return line;
            }
        }
    }

    fn goodbye(mut self) {
        self.send("goodbye");
        let status = common::wait_exit(&mut self.child, "hnefi --otep after goodbye");
        assert!(status.success(), "{status}");
    }
}

fn position(game: &Game) -> String {
    to_opentafl(game.position().board())
}

/// hnefi plays `side` for `plies` plies against the first legal move of each position.
fn play_game(side: Role, plies: usize) {
    let rules = RuleSet {
        repetition: RepetitionMode::ThirdOccurrenceMoverLoses,
        ..RuleSet::default()
    };
    let mut host = Host::start();
    assert_eq!(host.command(), "hello");
    host.send("hello");
    host.send(&format!("rules {COPENHAGEN_RULES}"));
    host.send(&format!(
        "side {}",
        if side == Role::Attacker {
            "attackers"
        } else {
            "defenders"
        }
    ));
    host.send("start");
    let mut game = Game::new(rules);
    while game.moves_played() < plies && !game.status().is_over() {
        if game.to_move() == side {
            host.send("clock 120000 110000 0 0 0");
            host.send(&format!(
                "play {}",
                if side == Role::Attacker {
                    "attackers"
                } else {
                    "defenders"
                }
            ));
            let reply = host.command();
            let mv = reply
                .strip_prefix("move ")
                .and_then(|m| parse_move(m).ok())
                .unwrap_or_else(|| panic!("not a move: {reply}"));
            game.play(mv)
                .unwrap_or_else(|e| panic!("illegal {mv} at ply {}: {e}", game.moves_played()));
            host.send(&format!("move {}", position(&game)));
        } else {
            let mv = game.legal_moves().as_slice()[0];
            game.play(mv).expect("legal");
            host.send(&format!(
                "opponent-move {}-{} {}",
                mv.from,
                mv.to,
                position(&game)
            ));
        }
    }
    host.send("finish 1");
    host.goodbye();
}

#[test]
fn plays_the_attackers_for_opentafl() {
    play_game(Role::Attacker, 16);
}

#[test]
fn plays_the_defenders_for_opentafl() {
    play_game(Role::Defender, 16);
}

#[test]
fn a_refused_move_is_taken_back() {
    let mut host = Host::start();
    assert_eq!(host.command(), "hello");
    host.send(&format!("rules {COPENHAGEN_RULES}"));
    host.send("side defenders");
    host.send("start");
    let mut game = Game::new(RuleSet::default());
    let first: hnefi::core::moves::Move = "d1-d3".parse().expect("move");
    game.play(first).expect("legal");
    host.send(&format!("opponent-move d1-d3 {}", position(&game)));
    host.send("clock 5000* 5000* 5 1 1");
    host.send("play defenders");
    let reply = host.command();
    assert!(reply.starts_with("move "), "{reply}");
    // OpenTafl refuses it: error, the prior move again with the position, play.
    host.send("error 2");
    host.send(&format!("opponent-move d1-d3 {}", position(&game)));
    host.send("play defenders");
    let again = host.command();
    let mv = again
        .strip_prefix("move ")
        .and_then(|m| parse_move(m).ok())
        .unwrap_or_else(|| panic!("{again}"));
    assert_eq!(game.to_move(), Role::Defender);
    game.play(mv)
        .expect("a legal defender move after the take-back");
    host.goodbye();
}

#[test]
fn rules_it_cannot_model_are_a_critical_error() {
    let mut host = Host::start();
    assert_eq!(host.command(), "hello");
    // A board size hnefi has no geometry for.
    host.send("rules dim:10 name:Ten start:/10/10/10/10/5K4/10/10/10/10/10/");
    let reply = host.command();
    assert!(reply.starts_with("error -1 rules not supported"), "{reply}");
    // A feature hnefi does not model is named.
    host.send(&format!("rules {COPENHAGEN_RULES} ber:c"));
    let reply = host.command();
    assert!(
        reply.starts_with("error -1 rules not supported: hnefi does not model ber:c"),
        "{reply}"
    );
    host.goodbye();
}

/// hnefi plays `side` of the game of the OpenTafl `rules` string for `plies` plies
/// against the host's first legal move of each position, on that game's board: every
/// move it sends must be legal there under those rules.
fn play_variant(rules: &str, side: Role, plies: usize) {
    let variant = parse_rules_string(rules).unwrap_or_else(|e| panic!("{rules}: {e}"));
    let size = variant.size();
    let mut game = AnyGame::start(&variant, variant.first(), variant.rules())
        .unwrap_or_else(|e| panic!("{rules}: {e}"));
    let mut host = Host::start();
    assert_eq!(host.command(), "hello");
    host.send(&format!("rules {rules}"));
    host.send(&format!("side {}", side_name(side)));
    host.send("start");
    while game.moves_played() < plies && !game.status().is_over() {
        if game.to_move() == side {
            host.send(&format!("play {}", side_name(side)));
            let reply = host.command();
            let mv = reply
                .strip_prefix("move ")
                .and_then(|m| AnyMove::parse(m, size).ok())
                .unwrap_or_else(|| panic!("{size}: not a move: {reply}"));
            game.play(mv).unwrap_or_else(|e| {
                panic!("{size}: illegal {mv} at ply {}: {e}", game.moves_played())
            });
            host.send(&format!("move {}", game.to_opentafl()));
        } else {
            let Some(&mv) = game.legal_moves().first() else {
                break;
            };
            game.play(mv).expect("legal");
            host.send(&format!("opponent-move {mv} {}", game.to_opentafl()));
        }
    }
    host.send("finish 1");
    host.goodbye();
}

/// OpenTafl's variants of every size, as OpenTafl writes their rules strings (the headers
/// of `tests/data/opentafl_*_games.txt`).
const VARIANTS: [&str; 5] = [
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
    "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/",
    "dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/",
];

#[test]
fn plays_every_board_opentafl_hosts() {
    for rules in VARIANTS {
        play_variant(rules, Role::Attacker, 24);
        play_variant(rules, Role::Defender, 24);
    }
}

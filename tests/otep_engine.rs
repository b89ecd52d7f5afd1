//! `hnefi --otep` driven as OpenTafl drives an engine (the OpenTafl Engine Protocol): a
//! scripted host plays whole games against it with the rules core choosing the host's
//! moves, takes back a move with `error`, and offers rules hnefi cannot play.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use hnefi::core::game::{Game, RepetitionMode, RuleSet};
use hnefi::core::notation::to_opentafl;
use hnefi::core::role::Role;
use hnefi::protocol::otep::{COPENHAGEN_RULES, parse_move};

const BIN: &str = env!("CARGO_BIN_EXE_hnefi");

struct Host {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
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
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
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
        let mut buf = String::new();
        assert!(
            self.stdout.read_line(&mut buf).expect("read") > 0,
            "engine closed stdout"
        );
        buf.trim_end().to_string()
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
        let status = self.child.wait().expect("wait");
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
fn rules_it_cannot_play_are_a_critical_error() {
    let mut host = Host::start();
    assert_eq!(host.command(), "hello");
    host.send("rules dim:9 name:Tablut start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/");
    let reply = host.command();
    assert!(reply.starts_with("error -1 rules not supported"), "{reply}");
    // A feature hnefi does not model is named.
    host.send(&format!("rules {COPENHAGEN_RULES} ber:c"));
    let reply = host.command();
    assert!(
        reply.starts_with("error -1 rules not supported: hnefi does not model ber:c"),
        "{reply}"
    );
    // A game hnefi models but its search does not play yet says so.
    host.send("rules dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/");
    let reply = host.command();
    assert!(
        reply.contains("Tawlbwrdd 11x11: hnefi's search plays 11x11 games with Copenhagen's"),
        "{reply}"
    );
    host.goodbye();
}

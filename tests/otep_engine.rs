//! `hnefi --otep` driven as OpenTafl drives an engine (the OpenTafl Engine Protocol): a
//! scripted host plays whole games against it with the rules core choosing the host's
//! moves, takes back a move with `error`, plays OpenTafl's variants on every board size,
//! keeps its history when a soldier stands on a corner square of a game without them,
//! writes nothing to the stderr OpenTafl never reads, thinks for an overtime period
//! when its main time runs out before one, and offers rules hnefi cannot
//! model or that are wrong (refused at the first `play`, never at `rules`).

use crate::common;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};

use hnefi::core::any_game::AnyGame;
use hnefi::core::any_square::AnyMove;
use hnefi::core::game::Game;
use hnefi::core::notation::to_opentafl;
use hnefi::core::repetition::RepetitionMode;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;
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
        Host::start_with(Stdio::null())
    }

    /// hnefi with `stderr` as its stderr.
    fn start_with(stderr: Stdio) -> Host {
        Host::start_args(&["--otep", "--depth", "2"], stderr)
    }

    /// hnefi with these arguments and `stderr` as its stderr.
    fn start_args(args: &[&str], stderr: Stdio) -> Host {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
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
        self.command_after_status().1
    }

    /// The next line that is not a `status` line, and the `status` lines before it.
    fn command_after_status(&mut self) -> (Vec<String>, String) {
        let mut status = Vec::new();
        loop {
            let line = self.read();
            if !line.starts_with("status") {
                return (status, line);
            }
            status.push(line);
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

/// OpenTafl's byo-yomi near the end of the main time (session 49, issue 64): 64 ms of
/// main time left and three overtime periods of 2 s (`clock 64 1160* 2 3 3`). A move
/// may take the main time and a whole period without losing one, so hnefi (on no depth
/// limit) thinks for a good part of a second; it used to count the 64 ms alone and
/// answer in a few milliseconds at depth 1 or 2, move after move, to the end of the game.
#[test]
fn the_main_time_running_out_leaves_an_overtime_period_to_think() {
    use std::time::{Duration, Instant};
    let mut host = Host::start_args(&["--otep", "--threads", "1"], Stdio::null());
    assert_eq!(host.command(), "hello");
    host.send(&format!("rules {COPENHAGEN_RULES}"));
    host.send("clock 64 1160* 2 3 3");
    let asked = Instant::now();
    host.send("play attackers");
    let (status, reply) = host.command_after_status();
    let took = asked.elapsed();
    assert!(reply.starts_with("move "), "{reply}");
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_millis(2064),
        "{took:?}: {status:?}"
    );
    host.goodbye();
}

/// Sends `rules`, then `play`: hnefi says nothing at `rules` (an `error` there crashes
/// OpenTafl 0.4.8) and answers `play` with a `status` line and `error -1`, both with a
/// message containing `named`.
fn refused_at_play(host: &mut Host, rules: &str, named: &str) {
    host.send(&format!("rules {rules}"));
    host.send("clock 60000 60000 0 0 0");
    host.send("play attackers");
    let status = host.read();
    assert!(
        status.starts_with("status hnefi: rules not supported: "),
        "{status}"
    );
    assert!(status.contains(named), "{named}: {status}");
    let error = host.read();
    assert!(
        error.starts_with("error -1 rules not supported: "),
        "{error}"
    );
    assert!(error.contains(named), "{named}: {error}");
}

#[test]
fn rules_it_cannot_model_are_a_critical_error_at_play() {
    let mut host = Host::start();
    assert_eq!(host.command(), "hello");
    // A board size hnefi has no geometry for.
    refused_at_play(
        &mut host,
        "dim:10 name:Ten start:/10/10/10/10/5K4/10/10/10/10/10/",
        "dim:10",
    );
    // A feature hnefi does not model is named: with ber:m the string is read by the
    // special-piece game, which has no shield walls.
    refused_at_play(
        &mut host,
        &format!("{COPENHAGEN_RULES} ber:m"),
        "hnefi does not model sw:s",
    );
    // OpenTafl's weak shield walls, which hnefi plays in no game.
    refused_at_play(
        &mut host,
        &COPENHAGEN_RULES.replace("sw:s", "sw:w"),
        "sw:w (OpenTafl's shield walls)",
    );
    // Bad input: an unknown key, a value out of range, a start that does not fit.
    refused_at_play(&mut host, &format!("{COPENHAGEN_RULES} xyz:3"), "xyz:3");
    refused_at_play(&mut host, &format!("{} ks:q", VARIANTS[0]), "ks:q");
    refused_at_play(
        &mut host,
        "dim:9 name:Short start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/",
        "start",
    );
    host.goodbye();
}

#[test]
fn after_a_refusal_nothing_is_played_until_a_good_rules_line() {
    let mut host = Host::start();
    assert_eq!(host.command(), "hello");
    refused_at_play(&mut host, &format!("{COPENHAGEN_RULES} ber:m"), "sw:s");
    // The host's moves are not followed, and every play and analyze is refused the same
    // way: hnefi never answers from the game it had before (11x11 Copenhagen).
    host.send("opponent-move d1-d3 /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/");
    host.send("play defenders");
    let (status, error) = host.command_after_status();
    assert_eq!(status.len(), 1, "{status:?}");
    assert!(
        error.starts_with("error -1 ") && error.contains("sw:s"),
        "{error}"
    );
    host.send("analyze 1 1");
    let (_, error) = host.command_after_status();
    assert!(
        error.starts_with("error -1 ") && error.contains("sw:s"),
        "{error}"
    );
    // A rules line hnefi models: its game, on its own board.
    host.send(&format!("rules {}", VARIANTS[0]));
    host.send("play attackers");
    let reply = host.command();
    let variant = parse_rules_string(VARIANTS[0]).expect("Brandub");
    let mut game = AnyGame::start(&variant, variant.first(), variant.rules()).expect("start");
    let mv = reply
        .strip_prefix("move ")
        .and_then(|m| AnyMove::parse(m, variant.size()).ok())
        .unwrap_or_else(|| panic!("not a 7x7 move: {reply}"));
    game.play(mv).expect("a legal Brandub move");
    host.goodbye();
}

/// OpenTafl's variants without corner squares (`cor:`) whose start lets the host move
/// `d1-a1`, a soldier onto the corner square a1.
const CORNERLESS: [&str; 2] = [
    "dim:9 name:Sea_Battle esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    VARIANTS[1],
];

#[test]
fn a_soldier_on_a_corner_square_of_a_cornerless_game_keeps_the_history() {
    for rules in CORNERLESS {
        let variant = parse_rules_string(rules).unwrap_or_else(|e| panic!("{rules}: {e}"));
        let size = variant.size();
        let mut game = AnyGame::start(&variant, variant.first(), variant.rules())
            .unwrap_or_else(|e| panic!("{rules}: {e}"));
        let mut host = Host::start();
        assert_eq!(host.command(), "hello");
        host.send(&format!("rules {rules}"));
        host.send("start");
        let corner = AnyMove::parse("d1-a1", size).expect("move");
        game.play(corner)
            .expect("d1-a1 is legal without corner squares");
        host.send(&format!("opponent-move d1-a1 {}", game.to_opentafl()));
        let mut statuses = Vec::new();
        while game.moves_played() < 20 && !game.status().is_over() {
            if game.to_move() == Role::Defender {
                host.send("play defenders");
                let (status, reply) = host.command_after_status();
                statuses.extend(status);
                let mv = reply
                    .strip_prefix("move ")
                    .and_then(|m| AnyMove::parse(m, size).ok())
                    .unwrap_or_else(|| panic!("not a move: {reply}"));
                game.play(mv).expect("legal");
                host.send(&format!("move {}", game.to_opentafl()));
            } else {
                // The host keeps its soldier on a1: its last legal move of another piece.
                let Some(mv) = game
                    .legal_moves()
                    .into_iter()
                    .rev()
                    .find(|m| !m.to_string().starts_with("a1-"))
                else {
                    break;
                };
                game.play(mv).expect("legal");
                host.send(&format!("opponent-move {mv} {}", game.to_opentafl()));
            }
        }
        assert!(
            statuses
                .iter()
                .all(|s| !s.contains("took the host's position")),
            "{rules}: {statuses:?}"
        );
        host.goodbye();
    }
}

#[test]
fn nothing_goes_to_the_stderr_opentafl_never_reads() {
    // stderr is a pipe nobody reads during the game: a search writing to it would
    // block once the pipe is full. Read after the game, it must be empty.
    let mut host = Host::start_with(Stdio::piped());
    let mut stderr = host.child.stderr.take().expect("stderr");
    assert_eq!(host.command(), "hello");
    host.send(&format!("rules {COPENHAGEN_RULES}"));
    host.send("start");
    let mut game = Game::new(RuleSet {
        repetition: RepetitionMode::ThirdOccurrenceMoverLoses,
        ..RuleSet::default()
    });
    let mut answered = 0;
    while game.moves_played() < 80 && !game.status().is_over() {
        let side = side_name(game.to_move());
        host.send("clock 120000 110000 0 0 0");
        host.send(&format!("play {side}"));
        let (status, reply) = host.command_after_status();
        assert!(
            status.iter().any(|s| s.starts_with("status hnefi: depth ")),
            "{status:?}"
        );
        let mv = reply
            .strip_prefix("move ")
            .and_then(|m| parse_move(m).ok())
            .unwrap_or_else(|| panic!("not a move: {reply}"));
        game.play(mv).expect("legal");
        // hnefi plays both sides: the next play is for the other side.
        host.send(&format!("move {}", position(&game)));
        answered += 1;
    }
    assert!(answered >= 40, "{answered} moves");
    host.send("finish 1");
    host.goodbye();
    let mut written = String::new();
    stderr.read_to_string(&mut written).expect("read stderr");
    assert_eq!(written, "", "hnefi --otep wrote to stderr");
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
/// of `tests/data/opentafl_*_games.txt`): Brandub, Tablut, Tawlbwrdd, Sea Battle 13x13,
/// Tablut 15x15, and the three hnefi plays from their strings only (Magpie's one-square
/// king, Foteviken Tablut's forts, Copenhagen's relaxed shield walls).
const VARIANTS: [&str; 8] = [
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    "dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/",
    "dim:13 name:Sea_Battle_(Parlett) esc:e atkf:y ka:n nj:n cj:n cor: cen: start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/",
    "dim:15 name:Tablut esc:e atkf:y ks:c nj:n cor: cens: cenh: start:/5ttttt5/6ttt6/7t7/7t7/7T7/t5TTT5t/tt3T1T1T3tt/ttttTTTKTTTtttt/tt3T1T1T3tt/t5TTT5t/7T7/7t7/7t7/6ttt6/5ttttt5/",
    "dim:7 name:Magpie surf:n atkf:y ks:m spd:-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "dim:9 name:Foteviken_Tablut esc:e atkf:y nj:n cor: afor:a4,a5,a6,b5,d1,e1,f1,e2,i4,i5,i6,h5,d9,e9,f9,e8, cenp:tcnkTCNK aforp:tcnkTCNK cens: cenh: cenhe:K aforh:K cenre: aforre: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    "dim:11 name:Copenhagen_(relaxed_shieldwall) atkf:y tfr:w sw:s swf:n efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
];

#[test]
fn plays_every_board_opentafl_hosts() {
    for rules in VARIANTS {
        play_variant(rules, Role::Attacker, 24);
        play_variant(rules, Role::Defender, 24);
    }
}

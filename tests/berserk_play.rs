//! OpenTafl's Berserk 11x11 played end to end (docs/RULES.md section 17.10): through the
//! text protocol (a game against itself to its end, the legal moves of a berserk turn, a
//! refused move mid-turn, undo, the record written and read back), the search's choice of
//! a winning capture chain, OpenTafl's engine protocol with berserk turns on either side,
//! and OpenTafl's 120 random games replayed through the playable game and the protocol.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::Engine;
use hnefi::core::berserk_game::BerserkGameOf;
use hnefi::core::geometry::S11;
use hnefi::core::outcome::Status;
use hnefi::core::role::Role;
use hnefi::core::rules_string::parse_berserk_rules_string;

/// OpenTafl's Berserk 11x11, as OpenTafl writes it.
const BERSERK: &str = "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";

/// Berserk's rules from another start (rank 1 first): the defenders' knight on c3, two
/// attackers on c4 and c6, the king on the throne walled in by four defenders, and the
/// first rank `extra_rank_1`. The knight takes c4 by jumping to c5, which gives him
/// another move (he can jump again), and takes c6 by jumping to c7.
fn chain(extra_rank_1: &str) -> String {
    BERSERK.replace(
        "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/",
        &format!("start:/{extra_rank_1}/11/2N8/2t8/5T5/2t1TKT4/5T5/11/11/11/11/"),
    )
}

fn engine(depth: &str, rules: &str) -> Engine {
    Engine::start(&["--depth", depth, "--rules", rules])
}

#[test]
fn the_search_plays_the_winning_capture_chain_of_a_berserk_turn() {
    // Taking both attackers wins (the attackers have none left); the second jump is a
    // move of the same side, whose score the search must not negate.
    for depth in ["2", "3", "4"] {
        let mut e = engine(depth, &chain("11"));
        assert_eq!(
            e.ok("generate_move"),
            "play defender c3 c5",
            "depth {depth}"
        );
        let moves = e.ok("legal_moves");
        assert!(moves.split(' ').all(|m| m.starts_with("c5-")), "{moves}");
        assert_eq!(
            e.ok("generate_move"),
            "play defender c5 c7",
            "depth {depth}"
        );
        assert_eq!(e.ok("final_status"), "defender_wins");
        assert_eq!(e.ok("show_moves"), "Nc3^c5xc4 Nc5^=c7xc6");
        e.quit();
    }
}

#[test]
fn the_search_sees_the_kings_fork_of_two_corners_past_its_horizon() {
    // The king on e3 (rank 1 first) reaches the empty first rank in one move, from where
    // he sees a1 and k1 and no attacker blocks both: a win in three plies. At depth 2 the
    // third ply is past the horizon, where the king's reach of a corner is still read.
    let rules = BERSERK.replace(
        "start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/",
        "start:/11/11/4K6/11/11/11/1T9/11/11/11/5t5/",
    );
    let (ok, out, err) = common::run_text(
        &["--depth", "2", "--rules", &rules],
        "generate_move\nquit\n",
    );
    assert!(ok, "{out}{err}");
    let last = err
        .lines()
        .rfind(|l| l.starts_with("info depth"))
        .unwrap_or("");
    assert!(last.contains("score win 3"), "{err}");
    assert!(out.contains("play defender"), "{out}");
}

#[test]
fn a_berserk_turn_lists_only_the_berserker_and_refuses_another_piece() {
    let mut e = engine("1", &chain("9t1"));
    assert_eq!(e.ok("play defender c3 c5"), "c4");
    // The knight moves again: only his moves are legal.
    let moves = e.ok("legal_moves");
    assert!(moves.split(' ').all(|m| m.starts_with("c5-")), "{moves}");
    assert!(moves.contains("c5-c7"), "{moves}");
    assert_eq!(e.ok("play_from"), "defender c5");
    let before = e.ok("show_position");
    let refused = e.send("play defender f7 f8").join("\n");
    assert!(
        refused.contains("the berserk turn continues, the piece on c5 must move again"),
        "{refused}"
    );
    let refused = e.send("play attacker j1 j2").join("\n");
    assert!(refused.contains("not attacker's turn"), "{refused}");
    assert_eq!(e.ok("show_position"), before);
    let board = e.ok("show_board");
    assert!(
        board.contains("berserk turn: the piece on c5 moves again"),
        "{board}"
    );
    // The second jump takes c6, and the turn passes: no capture is left to him.
    assert_eq!(e.ok("play defender c5 c7"), "c6");
    assert_eq!(e.ok("play_from"), "attacker j1");
    assert_eq!(e.ok("show_moves"), "Nc3^c5xc4 Nc5^=c7xc6");
    // Undo goes back one move, into the berserk turn.
    e.ok("play_undo");
    assert_eq!(e.ok("play_from"), "defender c5");
    assert_eq!(e.ok("show_position"), before);
    // The record read back is the same game.
    e.ok("load_moves Nc3^c5xc4");
    assert_eq!(e.ok("show_position"), before);
    let bad = e.send("load_moves Nc3^c5xc6").join("\n");
    assert!(bad.contains("the move takes c4"), "{bad}");
    assert_eq!(e.ok("show_position"), before);
    e.quit();
}

/// Mercenaries, guards and `ber:m` (the rules strings of
/// `tests/data/opentafl_specials_*_games.txt`) are played: their starts, a search's move,
/// and a mercenary taken changing sides in the record the game writes.
#[test]
fn mercenaries_guards_and_any_move_are_played() {
    let merc = "dim:11 name:Mercenaries surf:n atkf:n tfr:l kj:r mj:c ber:c start:/3tmtmt3/5c5/11/m4M4m/t3NTT3t/tc1GTKTG1ct/t3TMT3t/g4M4g/11/5c5/3tgtgt3/";
    let any = "dim:11 name:Mercenaries_any_move surf:n atkf:y tfr:d ber:m mj:j start:/3ttmtt3/5t5/11/t4T4t/m3TMT3m/tt1GTKTG1tt/t3TGT3t/t4T4t/11/5g5/3ttmtt3/";
    let mut e = engine("1", merc);
    assert_eq!(e.ok("legal_moves").split(' ').count(), 60);
    assert!(e.ok("generate_move").starts_with("play defender "));
    let reply = e.send(&format!("set_rule rules {any}")).join("\n");
    assert!(reply.starts_with('='), "{reply}");
    assert_eq!(e.ok("play_from").split(' ').next(), Some("attacker"));
    assert_eq!(e.ok("legal_moves").split(' ').count(), 116);
    // Game u1 of the mercenaries data, to its 39th ply: a defending mercenary takes an
    // attacking one, which changes sides where it stands and moves as a defender.
    let reply = e.send(&format!("set_rule rules {merc}")).join("\n");
    assert!(reply.starts_with('='), "{reply}");
    let moves = "g7-h7 cf10-h10 h6-h4 f11-f10 Mf8-f9 cj6-j7 g5-g2 g11-g8 Mf4-d4 cf2-b2 g2-g4 ma4-a3 Mf9-h9 me1-e3 f5-f3 cb2-b3 Md4-a4 cj7-j9 f3-f5 a7-b7 h4-i4 cj9-j4 g4-d4 ma3-a2 g6-g4 b7-b9 Mh9-c9 cj4-j7 f5-j5 d11-c11 h7-h8 a8-b8 i4-i3 mk4-k2 Kf6-f5 mk2-h2 Mc9-f9 f10-e10 Ma4-a3xma2";
    let reply = e.send(&format!("load_moves {moves}")).join("\n");
    assert!(reply.starts_with('='), "{reply}");
    assert!(e.ok("show_moves").ends_with("Ma4-a3xma2"));
    assert!(e.ok("legal_moves").split(' ').count() > 1);
    e.ok("play_undo");
    e.quit();
}

#[test]
fn rules_strings_berserk_does_not_model_are_refused_by_name() {
    let mut e = engine("1", BERSERK);
    for (rules, why) in [
        (format!("{BERSERK} linc:y"), "linc:y"),
        (format!("{BERSERK} spd:2"), "speed limits"),
        (
            "dim:7 surf:n ber:c start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/".to_string(),
            "Berserk rules on 7x7 (it plays them on 11x11 only)",
        ),
    ] {
        let reply = e.send(&format!("set_rule rules {rules}")).join("\n");
        assert!(reply.starts_with('?') && reply.contains(why), "{reply}");
    }
    // Nothing changed: the Berserk game is still there.
    assert_eq!(e.ok("play_from").split(' ').next(), Some("defender"));
    assert_eq!(e.ok("legal_moves").split(' ').count(), 60);
    e.quit();
}

#[test]
fn the_engine_plays_berserk_against_itself_to_the_end() {
    let mut e = engine("2", BERSERK);
    let mut plies = 0;
    while e.ok("final_status") == "ongoing" {
        let reply = e.ok("generate_move");
        assert!(reply.starts_with("play "), "{reply}");
        plies += 1;
        assert!(plies < 1500, "no end after {plies} plies");
    }
    let record = e.ok("show_moves");
    let status = e.ok("final_status");
    let reason = e.ok("final_status_reason");
    assert_ne!(reason, "none");
    // The record, read back, is the same game with the same end.
    let v = parse_berserk_rules_string(BERSERK).unwrap();
    let game = BerserkGameOf::<S11>::from_record(&v, &record).unwrap();
    assert_eq!(game.moves_field(), record);
    let winner = match game.status() {
        Status::Over(o) => o.winner,
        Status::Ongoing => panic!("the record's game goes on"),
    };
    let expected = match winner {
        Some(Role::Attacker) => "attacker_wins",
        Some(Role::Defender) => "defender_wins",
        None => "draw",
    };
    assert_eq!(status, expected);
    let mut again = engine("1", BERSERK);
    again.ok(&format!("load_moves {record}"));
    assert_eq!(again.ok("final_status"), status);
    assert_eq!(again.ok("final_status_reason"), reason);
    assert_eq!(again.ok("show_moves"), record);
    println!("{plies} plies, {status} by {reason}");
    e.quit();
    again.quit();
}

/// Every game of `tests/data/opentafl_berserk_games.txt`, its moves in OpenTafl's
/// records (the data's `+`, "the turn continues", dropped).
fn opentafl_games() -> Vec<(String, String, String)> {
    include_str!("data/opentafl_berserk_games.txt")
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|line| {
            let parts: Vec<&str> = line.split(" | ").collect();
            let moves: Vec<&str> = parts[3]
                .split_whitespace()
                .map(|w| w.trim_end_matches('+'))
                .collect();
            (parts[0].to_string(), parts[2].to_string(), moves.join(" "))
        })
        .collect()
}

#[test]
fn opentafls_games_replay_through_the_playable_game_and_the_protocol() {
    let v = parse_berserk_rules_string(BERSERK).unwrap();
    let games = opentafl_games();
    assert_eq!(games.len(), 120);
    let mut e = engine("1", BERSERK);
    for (name, result, moves) in &games {
        let game = BerserkGameOf::<S11>::from_record(&v, moves)
            .unwrap_or_else(|err| panic!("{name}: {err}"));
        let winner = match game.status() {
            Status::Over(o) => o.winner,
            Status::Ongoing => None,
        };
        let expected = match result.as_str() {
            "attackers" => Some(Role::Attacker),
            "defenders" => Some(Role::Defender),
            _ => None,
        };
        assert_eq!(winner, expected, "{name}");
        // hnefi writes each move as OpenTafl wrote it (captures as a set: the order of
        // two captures may differ).
        let written = game.moves_field();
        let (ours, theirs): (Vec<&str>, Vec<&str>) =
            (written.split(' ').collect(), moves.split(' ').collect());
        assert_eq!(ours.len(), theirs.len(), "{name}");
        for (a, b) in ours.iter().zip(&theirs) {
            let split = |w: &str| {
                let (m, x) = w.split_once('x').unwrap_or((w, ""));
                let mut x: Vec<String> = x.split('/').map(String::from).collect();
                x.sort();
                (m.to_string(), x)
            };
            assert_eq!(split(a), split(b), "{name}");
        }
        // Through the protocol: the record loads, and the game stands as OpenTafl's.
        e.ok(&format!("load_moves {moves}"));
        let status = e.ok("final_status");
        let want = match expected {
            Some(Role::Attacker) => "attacker_wins",
            Some(Role::Defender) => "defender_wins",
            None => "ongoing",
        };
        assert_eq!(status, want, "{name}");
    }
    e.quit();
}

/// `hnefi --otep` hosted as OpenTafl hosts an engine, one line at a time.
struct Otep {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Otep {
    fn start() -> Otep {
        let mut child = Command::new(common::BIN)
            .args(["--otep", "--depth", "3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hnefi --otep");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut o = Otep {
            child,
            stdin,
            stdout,
        };
        assert_eq!(o.read(), "hello");
        o
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn read(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("read");
        line.trim_end().to_string()
    }

    /// The lines up to the next that is not a `status` line, that one last.
    fn reply(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.read();
            let done = !line.starts_with("status");
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    fn goodbye(mut self) {
        self.send("goodbye");
        let status = common::wait_exit(&mut self.child, "hnefi --otep after goodbye");
        assert!(status.success(), "{status}");
    }
}

#[test]
fn otep_plays_both_sides_of_a_berserk_turn_as_opentafl_sends_them() {
    // hnefi the defenders: its berserk turn is one `move` per part; OpenTafl answers
    // each with `move POSITION` and asks again with `play defenders` while the turn
    // continues (ExternalEnginePlayer.getNextMove sends no opponent-move then).
    let mut o = Otep::start();
    o.send(&format!("rules {}", chain("11")));
    o.send("play defenders");
    let reply = o.reply();
    assert_eq!(
        reply.last().map(String::as_str),
        Some("move c3-c5"),
        "{reply:?}"
    );
    o.send("move /11/11/11/11/2N2T5/2t1TKT4/5T5/11/11/11/11/");
    o.send("clock 1000 1000 0 0 0");
    o.send("play defenders");
    let reply = o.reply();
    assert!(
        reply.iter().all(|l| !l.contains("took the host")),
        "{reply:?}"
    );
    assert_eq!(
        reply.last().map(String::as_str),
        Some("move c5-c7"),
        "{reply:?}"
    );
    // That took the attackers' last piece: the defenders have won.
    o.send("move /11/11/11/11/5T5/4TKT4/2N2T5/11/11/11/11/");
    o.send("finish 3");
    o.goodbye();

    // hnefi the attackers: OpenTafl sends the defenders' whole turn as one
    // `opponent-move`, its parts joined by `|`, in its full notation or simple.
    for turn in ["Nc3^c5xc4|Nc5^=c7xc6", "c3-c5|c5-c7"] {
        let mut o = Otep::start();
        o.send(&format!("rules {}", chain("9t1")));
        o.send(&format!(
            "opponent-move {turn} /9t1/11/11/11/5T5/4TKT4/2N2T5/11/11/11/11/"
        ));
        o.send("play attackers");
        let reply = o.reply();
        assert!(
            reply.iter().all(|l| !l.contains("took the host")),
            "{turn}: {reply:?}"
        );
        let last = reply.last().cloned().unwrap_or_default();
        assert!(last.starts_with("move j1-"), "{turn}: {reply:?}");
        o.send("finish 0");
        o.goodbye();
    }
}

#[test]
fn otep_refuses_berserk_rules_it_does_not_model_at_play() {
    let mut o = Otep::start();
    o.send(&format!("rules {BERSERK} linc:y"));
    o.send("play defenders");
    let reply = o.reply();
    assert!(
        reply
            .last()
            .is_some_and(|l| l.starts_with("error -1 ") && l.contains("linc:y")),
        "{reply:?}"
    );
    // The good string plays its game: the defenders move first.
    o.send(&format!("rules {BERSERK}"));
    o.send("play defenders");
    let reply = o.reply();
    assert!(
        reply.last().is_some_and(|l| l.starts_with("move ")),
        "{reply:?}"
    );
    o.goodbye();
}

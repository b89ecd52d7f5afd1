//! Two `hnefi` processes play a whole game through their pipes, as a controller would:
//! each `generate_move` reply (`play ROLE FROM TO`) is passed to the other engine as a
//! `play` command. At the end both engines agree on the moves and the result.

use crate::common;

use common::Engine;

/// Both engines draw at this many plies, so the game ends whatever the searcher plays.
const MOVE_LIMIT: &str = "120";

#[test]
fn two_engines_play_a_game_through_pipes() {
    let args = ["--depth", "1", "--move-limit", MOVE_LIMIT];
    let mut engines = [Engine::start(&args), Engine::start(&args)];
    let mut plies = 0;
    let mut mover = 0;
    while engines[mover].ok("final_status") == "ongoing" {
        let reply = engines[mover].ok("generate_move");
        let words: Vec<&str> = reply.split(' ').collect();
        assert!(
            words.len() == 4 || (words.len() == 3 && words[2] == "resign"),
            "generate_move replied {reply:?}"
        );
        assert_eq!(words[0], "play", "{reply}");
        let expected_role = if plies % 2 == 0 {
            "attacker"
        } else {
            "defender"
        };
        assert_eq!(words[1], expected_role, "ply {}", plies + 1);
        // The other engine must accept the very line as a command.
        engines[1 - mover].ok(&reply);
        plies += 1;
        mover = 1 - mover;
        assert!(plies <= 200, "the move limit did not end the game");
    }
    let moves: Vec<String> = engines.iter_mut().map(|e| e.ok("show_moves")).collect();
    assert_eq!(moves[0], moves[1]);
    let status: Vec<String> = engines.iter_mut().map(|e| e.ok("final_status")).collect();
    assert_eq!(status[0], status[1]);
    let reason: Vec<String> = engines
        .iter_mut()
        .map(|e| e.ok("final_status_reason"))
        .collect();
    assert_eq!(reason[0], reason[1]);
    assert_ne!(reason[0], "none");
    // The game is over: neither engine will move again.
    for e in &mut engines {
        let reply = e.send("generate_move").join("\n");
        assert_eq!(reply, "? the game is over");
    }
    for e in engines {
        e.quit();
    }
}

/// The same through `--compat 0.3`, the protocol of hnefatafl-copenhagen 0.3.1: each
/// `generate_move` reply is `COLOR FROM TO` (files a to l without i), which a controller
/// passes on as `play COLOR FROM TO`; black (the attackers) moves first. The game runs to
/// its end under 0.3.1's rules (no move limit: its repetition rule forbids every earlier
/// board, so a game cannot go on for ever).
#[test]
fn two_compat_engines_play_a_game_through_pipes() {
    let args = ["--compat", "0.3", "--depth", "1"];
    let mut engines = [Engine::start(&args), Engine::start(&args)];
    assert_eq!(engines[0].ok("protocol_version"), "1-beta");
    let mut plies = 0;
    let mut mover = 0;
    let mut seen_files = std::collections::BTreeSet::new();
    while engines[mover].ok("final_status") == "ongoing" {
        let reply = engines[mover].ok("generate_move");
        let words: Vec<&str> = reply.split(' ').collect();
        let colour = if plies % 2 == 0 { "black" } else { "white" };
        assert_eq!(words.first(), Some(&colour), "ply {}: {reply}", plies + 1);
        if words.get(1) == Some(&"resigns") {
            assert_eq!(words.len(), 2, "{reply}");
        } else {
            assert_eq!(words.len(), 3, "generate_move replied {reply:?}");
            for square in &words[1..] {
                let file = square.chars().next().expect("a square");
                assert!("abcdefghjkl".contains(file), "ply {}: {reply}", plies + 1);
                seen_files.insert(file);
            }
        }
        // The other engine must accept the reply as the arguments of `play`.
        engines[1 - mover].ok(&format!("play {reply}"));
        plies += 1;
        mover = 1 - mover;
        assert!(plies <= 2000, "the game did not end");
    }
    let boards: Vec<String> = engines.iter_mut().map(|e| e.ok("show_board")).collect();
    assert_eq!(boards[0], boards[1]);
    let status: Vec<String> = engines.iter_mut().map(|e| e.ok("final_status")).collect();
    assert_eq!(status[0], status[1]);
    assert!(
        ["black_wins", "white_wins", "draw"].contains(&status[0].as_str()),
        "{}",
        status[0]
    );
    for e in &mut engines {
        let reply = e.send("generate_move").join("\n");
        assert_eq!(reply, "? the game is over");
    }
    for e in engines {
        e.quit();
    }
    eprintln!("{plies} plies, {}; files used: {seen_files:?}", status[0]);
}

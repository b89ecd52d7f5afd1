//! Two `hnefi` processes play a whole game through their pipes, as a controller would:
//! each `generate_move` reply (`play ROLE FROM TO`) is passed to the other engine as a
//! `play` command. At the end both engines agree on the moves and the result.

mod common;

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

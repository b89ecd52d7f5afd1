//! Pondering through the real binary (`set_option ponder true`): after its own move the
//! engine searches the expected reply until the next command line, which then runs as
//! usual; end of input ends the pondering. Nothing here is timed: a ponder search has
//! no limit, so one the next command did not end would hang the test.

use crate::common;

use std::time::Duration;

use common::Engine;

#[test]
fn the_next_command_ends_the_pondering() {
    let mut engine = Engine::start(&[]);
    engine.ok("set_option ponder true");
    engine.ok("set_option movetime_ms 50");
    let first = engine.ok("generate_move");
    assert!(first.starts_with("play attacker "), "{first}");
    // The engine ponders now; give it time to get deep into the reply.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(engine.ok("final_status"), "ongoing");
    // A reply, whichever it is (the expected one or not), then the engine's move.
    let legal = engine.ok("legal_moves");
    let reply = legal
        .split(' ')
        .next()
        .expect("a legal move")
        .replace('-', " ");
    engine.ok(&format!("play defender {reply}"));
    let second = engine.ok("generate_move");
    assert!(second.starts_with("play attacker "), "{second}");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(engine.ok("show_moves").split(' ').count(), 3);
    engine.quit();
}

#[test]
fn end_of_input_ends_the_pondering() {
    let out = common::run_binary(
        &["--ponder", "--depth", "2"],
        b"generate_move\nfinal_status\ngenerate_move\n",
    );
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<&str> = stdout.split("\n\n").collect();
    assert!(replies[0].starts_with("= play attacker "), "{stdout}");
    assert_eq!(replies[1], "= ongoing", "{stdout}");
    assert!(replies[2].starts_with("= play defender "), "{stdout}");
}

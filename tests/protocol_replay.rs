//! Replays every recorded game of `tests/data/copenhagen.csv` through one engine process:
//! `load_moves` must accept each game (repetition off, as RULES.md says for records),
//! `show_moves` must give its moves back, and a result the rules decide must be the
//! recorded one.

mod common;

use hnefi::core::notation::RecordToken;

/// A record token written the way `show_moves` writes it (captures as a sorted set).
fn normalize(token: &str) -> String {
    match RecordToken::parse(token).expect("record token") {
        RecordToken::Timeout => "timeout".into(),
        RecordToken::Move(m) => m.to_string(),
    }
}

#[test]
fn load_moves_replays_the_records() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/copenhagen.csv");
    let data = std::fs::read_to_string(path).expect("read the records");
    let mut engine = common::Engine::start(&[]);
    engine.ok("set_rule repetition off");
    let (mut games, mut decided, mut timeouts) = (0, 0, 0);
    for (n, line) in data.lines().enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 4, "line {}", n + 1);
        let (moves, result) = (fields[0], fields[3]);
        engine.ok(&format!("load_moves {moves}"));
        games += 1;

        let expected: Vec<String> = moves.split_whitespace().map(normalize).collect();
        assert_eq!(
            engine.ok("show_moves"),
            expected.join(" "),
            "game on line {}",
            n + 1
        );

        let status = engine.ok("final_status");
        let reason = engine.ok("final_status_reason");
        let recorded = match result {
            "Black" => "attacker_wins",
            "White" => "defender_wins",
            "Draw" => "draw",
            _ => "ongoing",
        };
        if reason == "time" {
            timeouts += 1;
            assert!(moves.ends_with("timeout"), "line {}", n + 1);
        }
        if status != "ongoing" {
            decided += 1;
            assert_eq!(status, recorded, "game on line {} ({reason})", n + 1);
        } else {
            assert_eq!(reason, "none", "line {}", n + 1);
        }
    }
    engine.quit();
    assert_eq!(games, data.lines().count());
    // Records end by a rule, on time or by resignation (not recorded): some of each.
    assert!(
        decided > timeouts && timeouts > 0,
        "{decided} decided, {timeouts} on time"
    );
    eprintln!("{games} games replayed, {decided} decided ({timeouts} on time)");
}

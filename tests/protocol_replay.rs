//! Replays every recorded game of `tests/data/copenhagen.csv` through one engine process:
//! `load_moves` must accept each game (repetition off, as docs/RULES.md says for records),
//! `show_moves` must give its moves back (as the record writes them), and a result the rules decide must be the
//! recorded one.

use crate::common;

use hnefi::core::record::GameRecord;
use hnefi::core::role::Role;

#[test]
fn load_moves_replays_the_records() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/copenhagen.csv");
    let data = std::fs::read_to_string(path).expect("read the records");
    let mut engine = common::Engine::start(&[]);
    engine.ok("set_rule repetition off");
    let (mut games, mut decided, mut timeouts) = (0, 0, 0);
    for (n, line) in data.lines().enumerate() {
        let record: GameRecord = line.parse().expect("a game record");
        let moves = record.moves_field();
        engine.ok(&format!("load_moves {moves}"));
        games += 1;
        assert_eq!(engine.ok("show_moves"), moves, "game on line {}", n + 1);

        let status = engine.ok("final_status");
        let reason = engine.ok("final_status_reason");
        let recorded = match record.result.map(|o| o.winner) {
            Some(Some(Role::Attacker)) => "attacker_wins",
            Some(Some(Role::Defender)) => "defender_wins",
            Some(None) => "draw",
            None => "ongoing",
        };
        assert_eq!(reason == "time", record.timeout, "line {}", n + 1);
        timeouts += usize::from(record.timeout);
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
    assert!(decided > timeouts, "{decided} decided, {timeouts} on time");
    eprintln!("{games} games replayed, {decided} decided ({timeouts} on time)");
}

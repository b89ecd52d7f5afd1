//! Levels for people (src/players/level.rs): `set_option level N` and `--level N` go
//! through the options table, every level plays only legal moves under Copenhagen and
//! Fetlar, and bad names and levels are answered with the known ones.

use crate::common;

use common::run_text as hnefi;

use hnefi::options;
use hnefi::players::level::{LevelPlay, MAX_LEVEL, ladder};
use hnefi::session::{SearchOption, Session};

use hnefi::core::preset::RulePreset;

/// Plays `plies` plies (or to the game's end) with `level` moving for both sides under
/// `family`, checking each move against the legal moves before it is played.
fn play_level(family: RulePreset, level: u64, plies: usize) -> usize {
    let mut s = Session::new();
    s.start_family(family).expect("an 11x11 family");
    // Full strength searches a short fixed time, so that the test stays quick.
    s.set_option(SearchOption::MovetimeMs(20))
        .expect("movetime");
    let option = options::get("level").expect("the level option");
    let value = option.parse(&level.to_string()).expect("a level in range");
    s.set_option_value(option, value).expect("level set");
    assert_eq!(s.level(), level);
    let mut played = 0;
    while played < plies && !s.game().status().is_over() {
        let legal = s.game().legal_moves();
        let (_, mv) = s.generate_move().expect("a move");
        match mv {
            hnefi::session::EngineMove::Play(mv) => {
                assert!(legal.contains(&mv), "level {level}: {mv} is not legal")
            }
            hnefi::session::EngineMove::Resign => assert!(legal.is_empty()),
        }
        played += 1;
    }
    played
}

#[test]
fn every_level_plays_legal_moves_under_copenhagen_and_fetlar() {
    for family in [RulePreset::Copenhagen, RulePreset::Fetlar] {
        for level in 0..=MAX_LEVEL {
            // The scripted levels play whole games; the search levels a few moves.
            let plies = match LevelPlay::of(level) {
                Some(LevelPlay::Strategies { .. }) => 400,
                _ => 6,
            };
            assert!(play_level(family, level, plies) > 0);
        }
    }
}

#[test]
fn the_level_round_trips_through_the_options_table_and_help_names_the_ladder() {
    let option = options::get("level").expect("level is in the table");
    assert!(options::names().contains(&"level"));
    for level in 0..=MAX_LEVEL {
        let mut s = Session::new();
        let value = option.parse(&level.to_string()).expect("in range");
        assert_eq!(value, options::Value::Whole(level));
        s.set_option_value(option, value).expect("set");
        assert_eq!(s.level(), level);
        assert_eq!(
            SearchOption::from_name("level", level),
            Ok(SearchOption::Level(level))
        );
    }
    assert_eq!(option.default_whole(), 0);
    let err = option
        .parse(&(MAX_LEVEL + 1).to_string())
        .unwrap_err()
        .to_string();
    assert!(err.contains("from 0 to 8 (0: full strength)"), "{err}");
    assert!(option.parse("hard").is_err());
    assert_eq!(ladder().len(), MAX_LEVEL as usize);
}

#[test]
fn the_command_line_and_the_protocol_take_a_level_and_refuse_bad_ones() {
    // --level 2 --seed 5 plays the study's Aggressive for the attackers: its Millar
    // Gambit, as `--player aggressive --seed 5` does.
    let (ok, out, _) = hnefi(
        &["--level", "2", "--seed", "5", "--rules", "fetlar"],
        "generate_move\nquit\n",
    );
    assert!(ok);
    assert!(out.starts_with("= play attacker h1 h3\n"), "{out}");
    let (ok, _, err) = hnefi(&["--level", "9"], "");
    assert!(!ok);
    assert!(err.contains("level is a whole number from 0 to 8"), "{err}");
    let (_, out, _) = hnefi(
        &[],
        "set_option level 12\nset_option level easy\nset_option level 3\nquit\n",
    );
    assert_eq!(
        out.matches("level is a whole number from 0 to 8 (0: full strength)")
            .count(),
        2,
        "{out}"
    );
    assert!(out.ends_with("=\n\n"), "{out}");
    // A seed needs a player or a level; an unknown player names the known ones.
    let (ok, _, _) = hnefi(&["--seed", "3"], "");
    assert!(!ok);
    let (ok, _, err) = hnefi(&["--player", "nobody"], "");
    assert!(!ok);
    assert!(
        err.contains("kings-guard") && err.contains("random"),
        "{err}"
    );
}

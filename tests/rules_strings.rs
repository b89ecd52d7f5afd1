//! OpenTafl rules strings wherever a rule set is named: `set_rule rules STRING` in the
//! protocol, `hnefi --rules STRING`, `hnefi perft --rules STRING` (`hnefi match --rules
//! STRING` is in tests/match_runner.rs). Every case of `tests/data/rules_strings.txt`: a
//! string plays the same game as the named family of that size (start, first mover, perft
//! from the start), the search plays it, new games restart it, a board of another size is
//! refused; a string with a feature hnefi does not model is refused naming it. Every
//! refusal leaves the session exactly as it was.

use crate::common;

use hnefi::core::geometry::BoardSize;
use hnefi::core::preset::RulePreset;
use hnefi::core::rules_source::RulesSource;
use hnefi::protocol::Engine;
use hnefi::session::Session;

use common::run_binary;

const DATA: &str = include_str!("data/rules_strings.txt");

/// A string hnefi plays and the family of that size that plays the same game.
struct Play {
    name: String,
    family: RulePreset,
    size: BoardSize,
    depth: u32,
    string: String,
}

/// A string refused, and a part of the message that names the feature.
struct Refuse {
    name: String,
    feature: String,
    string: String,
}

fn cases() -> (Vec<Play>, Vec<Refuse>) {
    let (mut plays, mut refusals) = (Vec::new(), Vec::new());
    for line in DATA.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, rest) = line.split_once(' ').expect("a kind");
        let fields: Vec<&str> = rest.splitn(4, " | ").map(str::trim).collect();
        match (kind, fields.as_slice()) {
            ("play", [name, family_size, depth, string]) => {
                let (family, size) = family_size.split_once(' ').expect("FAMILY SIZE");
                plays.push(Play {
                    name: name.to_string(),
                    family: family.parse().expect("a family"),
                    size: size.parse().expect("a size"),
                    depth: depth.parse().expect("a depth"),
                    string: string.to_string(),
                });
            }
            ("refuse", [name, feature, string]) => refusals.push(Refuse {
                name: name.to_string(),
                feature: feature.to_string(),
                string: string.to_string(),
            }),
            _ => panic!("bad line: {line}"),
        }
    }
    assert!(plays.len() >= 6 && refusals.len() >= 5);
    (plays, refusals)
}

/// Sends one line; `Ok(text)` for `= text`, `Err(text)` for `? text`.
fn send(e: &mut Engine, line: &str) -> Result<String, String> {
    let reply = e.handle_line(line.as_bytes()).expect("a reply");
    let body = reply
        .strip_suffix("\n\n")
        .expect("a reply ends with an empty line");
    match body.split_at(1) {
        ("=", text) => Ok(text.strip_prefix(' ').unwrap_or(text).to_string()),
        ("?", text) => Err(text.strip_prefix(' ').unwrap_or(text).to_string()),
        _ => panic!("not a reply: {reply:?}"),
    }
}

fn ok(e: &mut Engine, line: &str) -> String {
    send(e, line).unwrap_or_else(|err| panic!("{line}: {err}"))
}

/// Everything a refused command must leave as it was.
fn snapshot(e: &Engine) -> String {
    let s = e.session();
    format!("{:?} {:?} {:?}", s.game(), s.source(), s.rules())
}

/// `line` is refused with a message containing `part`, and nothing changes.
fn refused(e: &mut Engine, line: &str, part: &str) {
    let before = snapshot(e);
    let err = send(e, line).expect_err(line);
    assert!(err.contains(part), "{line}: {err}");
    assert_eq!(snapshot(e), before, "{line} changed the session");
}

#[test]
fn each_string_plays_the_game_of_its_family() {
    for c in cases().0 {
        let mut by_string = Engine::new(Session::new());
        ok(&mut by_string, &format!("set_rule rules {}", c.string));
        let mut by_name = Engine::new(Session::new());
        ok(&mut by_name, &format!("set_rule rules {}", c.family));
        ok(&mut by_name, &format!("board_size {}", c.size));
        assert_eq!(by_string.session().board_size(), c.size, "{}", c.name);
        assert!(
            matches!(by_string.session().source(), RulesSource::Custom(_)),
            "{}",
            c.name
        );
        for cmd in ["show_board", "show_position", "legal_moves", "play_from"] {
            assert_eq!(
                ok(&mut by_string, cmd),
                ok(&mut by_name, cmd),
                "{}: {cmd}",
                c.name
            );
        }
        for d in 1..=c.depth {
            let cmd = format!("perft {d}");
            assert_eq!(
                ok(&mut by_string, &cmd),
                ok(&mut by_name, &cmd),
                "{}: {cmd}",
                c.name
            );
        }
    }
}

#[test]
fn the_search_plays_a_string_and_new_games_restart_it() {
    for c in cases().0 {
        let mut e = Engine::new(Session::new());
        ok(&mut e, &format!("set_rule rules rules {}", c.string));
        let start = ok(&mut e, "show_position");
        ok(&mut e, "set_option depth 2");
        ok(&mut e, "set_option threads 1");
        for _ in 0..2 {
            let legal = ok(&mut e, "legal_moves");
            let played = ok(&mut e, "generate_move");
            let words: Vec<&str> = played.split(' ').collect();
            let [_, _, from, to] = words.as_slice() else {
                panic!("{}: {played}", c.name)
            };
            let mv = format!("{from}-{to}");
            assert!(
                legal.split(' ').any(|m| m == mv),
                "{}: {mv} not in {legal}",
                c.name
            );
        }
        assert_eq!(ok(&mut e, "show_moves").split(' ').count(), 2, "{}", c.name);
        ok(&mut e, "clear_board");
        assert_eq!(ok(&mut e, "show_position"), start, "{}", c.name);
        // The same board again is the string's game from its start; another is refused.
        ok(&mut e, "generate_move");
        let other = if c.size == BoardSize::S11 { 9 } else { 11 };
        refused(
            &mut e,
            &format!("board_size {other}"),
            &format!(
                "is played on {s}x{s} only, not on {other}x{other}",
                s = c.size
            ),
        );
        ok(&mut e, &format!("board_size {}", c.size));
        assert_eq!(ok(&mut e, "show_position"), start, "{}", c.name);
        assert_eq!(ok(&mut e, "show_moves"), "", "{}", c.name);
        // Record moves replay from the string's start.
        let first = ok(&mut e, "legal_moves");
        let first = first.split(' ').next().expect("a move");
        ok(&mut e, &format!("load_moves {first}"));
        assert_eq!(ok(&mut e, "show_moves"), first, "{}", c.name);
        // A named family leaves the string: its usual board, or the game goes on.
        ok(&mut e, "set_rule rules copenhagen");
        assert!(matches!(
            e.session().source(),
            RulesSource::Family(RulePreset::Copenhagen)
        ));
    }
}

#[test]
fn a_string_with_a_feature_hnefi_does_not_model_is_refused_by_name() {
    let (plays, refusals) = cases();
    let brandub = &plays[0].string;
    for r in &refusals {
        let err = r.string.parse::<RulesSource>().expect_err(&r.name);
        assert!(err.to_string().contains(&r.feature), "{}: {err}", r.name);
        // Refused by the protocol with the game left as it was: the default game, and a
        // string's game with a move played and a rule changed.
        let mut e = Engine::new(Session::new());
        refused(&mut e, &format!("set_rule rules {}", r.string), &r.feature);
        ok(&mut e, &format!("set_rule rules {brandub}"));
        ok(&mut e, "play attacker d2 c2");
        ok(&mut e, "set_rule move_limit 40");
        refused(&mut e, &format!("set_rule rules {}", r.string), &r.feature);
        refused(
            &mut e,
            &format!("set_rule rules rules {}", r.string),
            &r.feature,
        );
        // Refused on the command line, before any command.
        let out = run_binary(&["--rules", &r.string], b"name\n");
        assert_eq!(out.status.code(), Some(2), "{}", r.name);
        assert!(out.stdout.is_empty(), "{}", r.name);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&r.feature), "{}: {stderr}", r.name);
    }
    let mut e = Engine::new(Session::new());
    refused(
        &mut e,
        "set_rule rules alea-evangelii",
        "invalid rules 'alea-evangelii': expected copenhagen",
    );
    refused(&mut e, "set_rule rules", "wrong number of arguments (1)");
}

#[test]
fn the_command_line_takes_a_string_for_the_engine_and_perft() {
    let (plays, _) = cases();
    let brandub = &plays[0];
    let out = run_binary(
        &["--rules", &brandub.string],
        b"show_position\nboard_size 9\n",
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "= /3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ attacker\n\n\
         ? argument 1 (SIZE): the OpenTafl rules string's game (Brandub) is played on 7x7 only, not on 9x9\n\n"
    );
    let help = String::from_utf8_lossy(&run_binary(&["--help"], b"").stdout).to_string();
    assert!(help.contains("OpenTafl rules string"), "{help}");
    let count = |args: &[&str]| {
        let out = run_binary(args, b"");
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines().next().expect("a count").to_string()
    };
    for c in &plays {
        let d = c.depth.min(3).to_string();
        let size = c.size.to_string();
        assert_eq!(
            count(&["perft", &d, "--rules", &c.string]),
            count(&[
                "perft",
                &d,
                "--rules",
                c.family.name(),
                "--board-size",
                &size
            ]),
            "{}",
            c.name
        );
    }
    // Its own board may be named; another is refused.
    assert_eq!(
        count(&[
            "perft",
            "2",
            "--rules",
            &brandub.string,
            "--board-size",
            "7"
        ]),
        "perft 2: 960"
    );
    let out = run_binary(
        &[
            "perft",
            "2",
            "--rules",
            &brandub.string,
            "--board-size",
            "9",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("played on 7x7 only, not on 9x9"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

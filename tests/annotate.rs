//! `hnefi annotate`: a known blunder is flagged with a move that prevents it, a bad line is
//! named and the other games annotated, the output is deterministic, and the example of
//! docs/analysis.md is what the binary prints.

use std::path::Path;

use hnefi::core::game::Game;

use hnefi::core::outcome::{Reason, Status};
use hnefi::core::record::GameRecord;
use hnefi::core::role::Role;
use hnefi::core::rules::RuleSet;

use crate::common;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `hnefi annotate ARGS` in the crate's directory: (exit code, stdout, stderr).
fn annotate(args: &[&str]) -> (Option<i32>, String, String) {
    let out = common::output_of(
        std::process::Command::new(common::BIN)
            .arg("annotate")
            .args(args)
            .current_dir(ROOT),
        "hnefi annotate",
    );
    (
        out.status.code(),
        common::text(&out.stdout),
        common::text(&out.stderr),
    )
}

/// The fields of a ply's line: ply, side, move, score, the mover's chances (`W D L`),
/// best, best's score, drop and the judgement (empty when none); a score may be two words
/// (`loss 2`).
fn fields(line: &str) -> Vec<String> {
    let mut words = line.split_whitespace().peekable();
    let mut out = Vec::new();
    while let Some(w) = words.next() {
        if matches!(w, "win" | "loss") {
            let n = words.next().unwrap_or("");
            out.push(format!("{w} {n}"));
        } else {
            out.push(w.to_string());
        }
        if out.len() == 4 {
            let chances: Vec<&str> = words.by_ref().take(3).collect();
            out.push(chances.join(" "));
        }
    }
    if out.len() == 8 {
        out.push(String::new());
    }
    out
}

/// Whether the defenders, to move in `game`, can win by the king's escape at once.
fn king_escapes_in_one(game: &Game) -> bool {
    game.legal_moves().iter().any(|&mv| {
        let mut g = game.clone();
        g.play(mv).is_ok() && g.status() == Status::won(Role::Defender, Reason::KingEscaped)
    })
}

#[test]
fn a_move_that_lets_the_king_escape_is_a_blunder_and_the_best_move_prevents_it() {
    let (code, out, err) = annotate(&["--depth", "3", "tests/data/annotate-blunder.txt"]);
    assert_eq!(code, Some(0), "{err}");
    let moves =
        std::fs::read_to_string(Path::new(ROOT).join("tests/data/annotate-blunder.txt")).unwrap();
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("13 "))
        .unwrap_or_else(|| panic!("no line for ply 13:\n{out}"));
    let f = fields(line);
    assert_eq!(f[1..3], ["attacker", "j11-j9"], "{line}");
    assert_eq!(f[3], "loss 2", "{line}");
    assert_eq!(f[8], "blunder", "{line}");
    let chances: Vec<u32> = f[4].split(' ').map(|w| w.parse().unwrap()).collect();
    assert_eq!(chances.iter().sum::<u32>(), 1000, "{line}");
    // The played move does let the king out, and the best move named does not.
    let before = GameRecord::from_moves(&moves[..12].join(" "))
        .unwrap()
        .replay(RuleSet::default())
        .unwrap();
    let mut played = before.clone();
    played
        .play(GameRecord::from_moves(moves[12]).unwrap().moves[0].mv)
        .unwrap();
    assert!(king_escapes_in_one(&played));
    let best = GameRecord::from_moves(&f[5]).unwrap().moves[0].mv;
    let mut prevented = before;
    prevented.play(best).unwrap();
    assert!(!king_escapes_in_one(&prevented), "{line}");
    // Every other ply of the game: no blunder of the defenders, and a summary per side.
    assert!(out.contains("attacker: 7 moves, average loss "), "{out}");
    assert!(out.contains(", 1 blunder\n"), "{out}");
    assert!(out.contains("defenders-win king-escaped"), "{out}");
}

#[test]
fn a_bad_line_is_named_and_the_other_games_are_annotated() {
    let dir = common::scratch("annotate", "bad");
    let file = dir.join("games.txt");
    std::fs::write(
        &file,
        "h1-h3 f8-i8\nd1-d3 d3-d4\nh1-h3,0,0\n# a comment\n\nd1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2,1,0,Black\n",
    )
    .unwrap();
    let (code, out, err) = annotate(&["--depth", "2", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    assert!(
        err.contains("game 2 (line 2): ply 2 (d3-d4): no defender piece on d3; not annotated"),
        "{err}"
    );
    assert!(
        err.contains("game 3 (line 3): a game record has 4"),
        "{err}"
    );
    assert!(err.contains("2 of 4 games not annotated"), "{err}");
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(headers.len(), 2, "{out}");
    assert!(headers[0].starts_with("game 1 (line 1): 2 plies, the rules say ongoing"));
    assert!(headers[1].starts_with("game 4 (line 6): 5 plies, result Black"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_annotation_is_deterministic_and_each_game_stands_alone() {
    let dir = common::scratch("annotate", "determinism");
    let (two, one) = (dir.join("two.csv"), dir.join("one.csv"));
    let games = std::fs::read_to_string(Path::new(ROOT).join("tests/data/copenhagen.csv")).unwrap();
    let lines: Vec<&str> = games.lines().skip(4).take(2).collect();
    std::fs::write(&two, format!("{}\n{}\n", lines[0], lines[1])).unwrap();
    std::fs::write(&one, format!("{}\n", lines[1])).unwrap();
    let run = |f: &Path| {
        let (code, out, err) = annotate(&["--depth", "2", f.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
        out
    };
    let first = run(&two);
    assert_eq!(first, run(&two));
    // The second game's annotation does not depend on the game searched before it.
    let second = first.split("\n\n").nth(1).unwrap();
    let alone = run(&one);
    let strip = |s: &str| s.split_once('\n').map(|(_, rest)| rest.to_string());
    assert_eq!(strip(second), strip(alone.trim_end_matches('\n')));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The example of docs/analysis.md: its ```sh block's command and the ```text block after
/// it, which is what the command prints.
#[test]
fn the_docs_example_is_current() {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/analysis.md")).unwrap();
    let mut blocks: Vec<(String, String)> = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in doc.lines() {
        match open.take() {
            None => {
                open = line
                    .strip_prefix("```")
                    .map(|lang| (lang.to_string(), String::new()))
            }
            Some(block) if line == "```" => blocks.push(block),
            Some((lang, mut text)) => {
                text.push_str(line);
                text.push('\n');
                open = Some((lang, text));
            }
        }
    }
    let i = blocks
        .iter()
        .position(|(l, t)| l == "sh" && t.starts_with("hnefi annotate "))
        .expect("an hnefi annotate example in docs/analysis.md");
    let command = blocks[i].1.trim();
    let (lang, shown) = &blocks[i + 1];
    assert_eq!(lang, "text");
    let args: Vec<&str> = command.split_whitespace().skip(2).collect();
    let (code, out, err) = annotate(&args);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        &out.trim_end(),
        &shown.trim_end(),
        "docs/analysis.md: `{command}` prints"
    );
}

/// A SIGINT stops the annotation: the games finished so far are on stdout whole, the game
/// under way is not, and the exit status is 130.
#[cfg(unix)]
#[test]
fn sigint_keeps_the_games_done() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(common::BIN)
        .args(["annotate", "--depth", "5", "--repetition", "off"])
        .arg("tests/data/copenhagen.csv")
        .current_dir(ROOT)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = common::Lines::spawn(child.stdout.take().unwrap(), "hnefi annotate's stdout");
    let mut text = String::new();
    // The first game (4 plies) ends with an empty line.
    while let Some(line) = out.next_raw("the first annotated game") {
        text.push_str(&line);
        if line == "\n" {
            break;
        }
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    text.push_str(&out.rest("the games after SIGINT"));
    let output = common::finish_output(&mut child, "hnefi annotate after SIGINT");
    let err = common::text(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: "), "{err}");
    let games: Vec<&str> = text.split_terminator("\n\n").collect();
    assert!(!games.is_empty() && games.len() < 1168, "{text}");
    for game in games {
        assert!(game.starts_with("game "), "{game}");
        assert!(
            game.lines().last().unwrap().starts_with("defender: "),
            "{game}"
        );
    }
}

/// Progress on stderr at a terminal only.
#[cfg(target_os = "linux")]
#[test]
fn progress_at_a_terminal_only() {
    use std::process::Command;
    let (code, _, err) = annotate(&["--depth", "2", "tests/data/annotate-blunder.txt"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    // script (bsdutils) runs a command on a pseudo-terminal.
    let tty = common::output_of(
        Command::new("script")
            .args([
                "-qec",
                &format!(
                    "'{}' annotate --depth 2 tests/data/annotate-blunder.txt",
                    common::BIN
                ),
                "/dev/null",
            ])
            .current_dir(ROOT),
        "script running hnefi annotate",
    );
    let text = common::text(&tty.stdout);
    assert!(tty.status.success(), "{text}");
    assert!(
        text.contains("annotate: game 1 of 1 (line 1), ply 13 of 14"),
        "{text}"
    );
}

/// The ply lines of an annotation (its header and summary left out).
fn ply_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

#[test]
fn a_hnefatafl_org_export_is_read_under_the_sites_rules() {
    let pgn = "tests/data/hnefatafl-org-export.pgn";
    let (code, out, err) = annotate(&["--depth", "2", pgn]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("game 1 (line 1): 14 plies, the rules say defenders-win king-escaped"),
        "{out}"
    );
    // The same game as a move list, under hnefatafl.org's rules: the same annotation.
    let list = "tests/data/annotate-blunder.txt";
    let (_, org, _) = annotate(&["--depth", "2", "--rules", "hnefatafl-org", list]);
    assert_eq!(ply_lines(&out), ply_lines(&org));
    assert_eq!(ply_lines(&out).len(), 14, "{out}");
    // --rules still chooses: Copenhagen's annotation differs (its own win/draw/loss model).
    let (_, copenhagen, _) = annotate(&["--depth", "2", "--rules", "copenhagen", pgn]);
    let (_, list_copenhagen, _) = annotate(&["--depth", "2", list]);
    assert_eq!(ply_lines(&copenhagen), ply_lines(&list_copenhagen));
    assert_ne!(ply_lines(&copenhagen), ply_lines(&out));
}

#[test]
fn an_export_of_a_13x13_game_is_read_on_13x13_and_bad_moves_name_their_line() {
    let dir = common::scratch("annotate", "pgn");
    // The moves of a random game of the reference engine's 13x13 (the first `moves` line
    // of tests/data/hnefatafl_org_13x13_perft.txt), as the client writes them: capitals.
    let perft =
        std::fs::read_to_string(Path::new(ROOT).join("tests/data/hnefatafl_org_13x13_perft.txt"))
            .unwrap();
    let moves: Vec<String> = perft
        .lines()
        .find_map(|l| l.strip_prefix("moves "))
        .unwrap()
        .split_whitespace()
        .map(|m| m.replace('-', "").to_uppercase())
        .collect();
    let mut turns = String::new();
    for (i, pair) in moves.chunks(2).enumerate() {
        turns.push_str(&format!("{}. {} ", i + 1, pair.join(" ")));
    }
    let file = dir.join("games.pgn");
    std::fs::write(
        &file,
        format!(
            "[Event \"Game 1\"]\n[Site \"hnefatafl.org\"]\n{turns}\n\
             [Event \"Game 2\"]\n[Site \"hnefatafl.org\"]\n1. A4A2 G4B4\n2. D1D3 D3D4\n\
             [Event \"Game 3\"]\n[Site \"hnefatafl.org\"]\n1. A4A2 Z9Z9\n"
        ),
    )
    .unwrap();
    let (code, out, err) = annotate(&["--depth", "1", file.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}\n{err}");
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(headers.len(), 1, "{out}");
    assert!(
        headers[0].starts_with(&format!("game 1 (line 1): {} plies", moves.len())),
        "{out}"
    );
    assert!(
        err.contains("game 2 (line 4): line 7, ply 4 (d3-d4): no defender piece on d3"),
        "{err}"
    );
    assert!(
        err.contains(
            "game 3 (line 8): line 10, ply 2 (Z9Z9): not a move of hnefatafl.org's export"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Brandub rules string of tests/data/opentafl-brandub.otg.
const BRANDUB: &str =
    "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

#[test]
fn an_opentafl_record_is_played_under_its_own_rules_on_its_own_board() {
    let otg = "tests/data/opentafl-brandub.otg";
    let (code, out, err) = annotate(&["--depth", "2", otg]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with(
            "game 1 (line 1): 40 plies, result White, the rules say defenders-win king-escaped"
        ),
        "{out}"
    );
    // The same game as a move list under the same rules string: the same annotation (the
    // commentary and the variation are skipped, the piece letters and marks dropped).
    let games =
        std::fs::read_to_string(Path::new(ROOT).join("tests/data/opentafl_brandub_games.txt"))
            .unwrap();
    let list = games
        .lines()
        .find_map(|l| l.strip_prefix("game u3 "))
        .and_then(|l| l.rsplit('|').next())
        .unwrap();
    let dir = common::scratch("annotate", "otg");
    let file = dir.join("u3.txt");
    std::fs::write(&file, list).unwrap();
    let (_, same, err) = annotate(&["--depth", "2", "--rules", BRANDUB, file.to_str().unwrap()]);
    assert_eq!(ply_lines(&out), ply_lines(&same), "{err}");
    // --rules and --board-size do not apply to it.
    let (_, ignored, _) = annotate(&["--depth", "2", "--board-size", "13", otg]);
    assert_eq!(ignored, out);
    // A move the rules refuse is named with its line; rules hnefi does not model refused.
    let text = std::fs::read_to_string(Path::new(ROOT).join(otg)).unwrap();
    let bad = dir.join("bad.otg");
    std::fs::write(&bad, text.replace("5. d2-a2", "5. d2-d1")).unwrap();
    let (code, _, err) = annotate(&["--depth", "1", bad.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("game 1 (line 1): line 18, ply 9 (d2-d1): "),
        "{err}"
    );
    let berserk = dir.join("berserk.otg");
    std::fs::write(
        &berserk,
        text.replace("[rules:dim:7 ", "[rules:dim:7 ber:m "),
    )
    .unwrap();
    let (code, _, err) = annotate(&["--depth", "1", berserk.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the rules tag: hnefi does not model Berserk rules on 7x7"),
        "{err}"
    );
    let set = dir.join("set.otg");
    std::fs::write(
        &set,
        text.replace("[result:-1]", "[position:/7/7/7/3K3/7/7/7/]"),
    )
    .unwrap();
    let (code, _, err) = annotate(&["--depth", "1", set.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("line 5: the game starts from a set position"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

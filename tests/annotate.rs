//! `hnefi annotate`: a known blunder is flagged with a move that prevents it, a bad line is
//! named and the other games annotated, the output is deterministic, and the example of
//! docs/analysis.md is what the binary prints.

use std::path::Path;

use hnefi::core::game::{Game, RuleSet};
use hnefi::core::outcome::{Reason, Status};
use hnefi::core::record::GameRecord;
use hnefi::core::role::Role;

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
        g.play(mv).is_ok()
            && g.status()
                == Status::Won {
                    winner: Role::Defender,
                    reason: Reason::KingEscaped,
                }
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

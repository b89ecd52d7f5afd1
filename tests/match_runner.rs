//! `hnefi match` with real processes: hnefi against hnefi (the records replay through the
//! rules core), resuming, openings, the scripted misbehaving engines of
//! `tests/data/fake_engines/` (each loses its games with the right reason and the match
//! goes on), an SPRT stop, and bad flags.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hnefi::core::game::{Game, RepetitionMode, RuleSet};
use hnefi::core::notation::{RecordMove, RecordToken};
use hnefi::core::position::Status;
use hnefi::core::role::Role;

const BIN: &str = env!("CARGO_BIN_EXE_hnefi");

/// A fresh empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hnefi-match-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

fn fake(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fake_engines")
        .join(format!("{name}.sh"));
    format!("bash '{}'", path.display())
}

fn hnefi(depth: u32) -> String {
    format!("'{BIN}' --depth {depth}")
}

fn run_match(args: &[&str]) -> Output {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .expect("run hnefi match");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .expect("read output file")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Replays one records line under `rules`: every move legal, every capture list equal to
/// the core's; a final `timeout` is a loss on time. Returns the final status and the
/// result field.
fn replay(line: &str, rules: RuleSet) -> (Status, String, usize) {
    let fields: Vec<&str> = line.split(',').collect();
    let [moves, att, def, result] = fields.as_slice() else {
        panic!("not a record: {line}");
    };
    let mut game = Game::new(rules);
    let mut caps = [0u32; 2];
    let tokens: Vec<&str> = moves.split_whitespace().collect();
    for (i, tok) in tokens.iter().enumerate() {
        match RecordToken::parse(tok).expect("record token") {
            RecordToken::Timeout => {
                assert_eq!(i + 1, tokens.len(), "timeout before the end: {line}");
                game.lose_on_time(game.to_move()).expect("timeout");
            }
            RecordToken::Move(RecordMove { mv, captures }) => {
                let mover = game.to_move();
                let got = game
                    .play(mv)
                    .unwrap_or_else(|e| panic!("ply {} {tok}: {e} in {line}", i + 1));
                assert_eq!(got, captures, "ply {} {tok}", i + 1);
                caps[(mover == Role::Defender) as usize] += captures.count();
            }
        }
    }
    assert_eq!(att.parse::<u32>().ok(), Some(caps[0]), "{line}");
    assert_eq!(def.parse::<u32>().ok(), Some(caps[1]), "{line}");
    (game.status(), result.to_string(), game.moves_played())
}

fn result_of(status: Status) -> &'static str {
    match status {
        Status::Won {
            winner: Role::Attacker,
            ..
        } => "Black",
        Status::Won { .. } => "White",
        Status::Drawn { .. } => "Draw",
        Status::Ongoing => "Ongoing",
    }
}

#[test]
fn hnefi_against_hnefi_replays_through_the_core() {
    let dir = scratch("selfplay");
    let out_file = dir.join("games.csv");
    let out = run_match(&[
        "--engine",
        &hnefi(1),
        "--engine",
        &hnefi(2),
        "--games",
        "4",
        "--move-limit",
        "40",
        "--opening-plies",
        "4",
        "--seed",
        "7",
        "--concurrency",
        "2",
        "--out",
        out_file.to_str().expect("path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = stdout(&out);
    assert!(table.contains("Match: 4 games"), "{table}");
    assert!(table.contains("E1 vs E2:"), "{table}");
    let records = lines(&out_file);
    assert_eq!(records.len(), 4);
    let rules = RuleSet {
        move_limit: Some(40),
        ..RuleSet::default()
    };
    for line in &records {
        let (status, result, plies) = replay(line, rules);
        // Every game ends under the rules (at the latest at the move limit), with the
        // recorded result.
        assert!(status.is_over(), "{line}");
        assert!(plies <= 40);
        assert_eq!(result_of(status), result, "{line}");
    }
    // Each random opening is played once with each engine as the attackers.
    let opening = |l: &str| l.split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert_eq!(opening(&records[0]), opening(&records[1]));
    assert_eq!(opening(&records[2]), opening(&records[3]));
    let meta = lines(&dir.join("games.csv.meta"));
    assert_eq!(meta.len(), 4);
    assert!(meta[0].starts_with("1,1,2,"), "{meta:?}");
    assert!(meta[1].starts_with("2,2,1,"), "{meta:?}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn openings_from_records_and_resume() {
    let dir = scratch("resume");
    let out_file = dir.join("games.csv");
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/copenhagen.csv");
    let base = [
        "--engine".to_string(),
        hnefi(1),
        "--engine".to_string(),
        hnefi(1),
        "--move-limit".to_string(),
        "30".to_string(),
        "--openings".to_string(),
        openings.display().to_string(),
        "--opening-plies".to_string(),
        "6".to_string(),
        "--out".to_string(),
        out_file.display().to_string(),
    ];
    let args = |extra: &[&str]| -> Vec<String> {
        base.iter()
            .cloned()
            .chain(extra.iter().map(|s| s.to_string()))
            .collect()
    };
    let first = args(&["--games", "2"]);
    let out = run_match(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success());
    let before = lines(&out_file);
    assert_eq!(before.len(), 2);
    // Without --resume an existing file is refused.
    let again = run_match(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(lines(&out_file), before);
    // An interrupted run can leave half a line; resuming drops it.
    let mut text = fs::read_to_string(&out_file).expect("read");
    text.push_str("h1-h3 f8-");
    fs::write(&out_file, text).expect("write");
    let more = args(&["--games", "4", "--resume"]);
    let out = run_match(&more.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success());
    assert!(stdout(&out).contains("Match: 4 games"), "{}", stdout(&out));
    let after = lines(&out_file);
    assert_eq!(after.len(), 4);
    assert_eq!(after[..2], before[..]);
    // The openings are the first 6 plies of the first games of the file.
    let csv = fs::read_to_string(&openings).expect("read openings");
    let first_plies = |l: &str| {
        l.split(',')
            .next()
            .unwrap_or("")
            .split(' ')
            .take(6)
            .map(|t| {
                RecordMove::parse(t)
                    .map(|m| m.mv.to_string())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
    };
    let file_openings: Vec<Vec<String>> = csv.lines().map(first_plies).collect();
    for (i, rec) in after.iter().enumerate() {
        assert!(file_openings.contains(&first_plies(rec)), "game {i}: {rec}");
    }
    assert_eq!(first_plies(&after[0]), first_plies(&after[1]));
    assert_ne!(first_plies(&after[0]), first_plies(&after[2]));
    let rules = RuleSet {
        move_limit: Some(30),
        ..RuleSet::default()
    };
    for line in &after {
        let (status, result, _) = replay(line, rules);
        assert_eq!(result_of(status), result, "{line}");
    }
    let _ = fs::remove_dir_all(&dir);
}

/// A fake engine plays two games against hnefi, one on each side: it loses both with
/// `reason`, and the second game is played (by a restarted fake engine).
fn fake_loses(name: &str, reason: &str) {
    let dir = scratch(name);
    let out_file = dir.join("games.csv");
    let out = run_match(&[
        "--engine",
        &fake(name),
        "--engine",
        &hnefi(1),
        "--games",
        "2",
        "--movetime-ms",
        "500",
        "--time-margin-ms",
        "300",
        "--reply-timeout-ms",
        "2000",
        "--out",
        out_file.to_str().expect("path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let records = lines(&out_file);
    let meta = lines(&dir.join("games.csv.meta"));
    assert_eq!(records.len(), 2, "{records:?}");
    // Game 1: the fake engine has the attackers, game 2 the defenders; it loses both.
    assert!(records[0].ends_with(",White"), "{records:?}");
    assert!(records[1].ends_with(",Black"), "{records:?}");
    assert!(
        meta[0].starts_with(&format!("1,1,2,White,{reason},")),
        "{meta:?}"
    );
    assert!(
        meta[1].starts_with(&format!("2,2,1,Black,{reason},")),
        "{meta:?}"
    );
    let rules = RuleSet::default();
    for line in &records {
        let (status, _, _) = replay(line, rules);
        if reason == "time" {
            // The record ends with `timeout`: the fake engine lost on time.
            assert!(line.contains("timeout,"), "{line}");
            assert!(status.is_over());
        } else {
            assert_eq!(status, Status::Ongoing, "{line}");
        }
    }
    let table = stdout(&out);
    assert!(table.contains(reason), "{table}");
    assert!(table.contains("E2         2     2"), "{table}");
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_move_loses() {
    fake_loses("illegal", "illegal_move");
}

#[test]
fn a_crash_loses() {
    fake_loses("crash", "crash");
}

#[test]
fn a_hang_loses_on_time() {
    fake_loses("hang", "time");
}

#[test]
fn garbage_loses() {
    fake_loses("garbage", "malformed_reply");
}

#[test]
fn the_reference_dialect_is_understood() {
    // A fake engine in the htp dialect (noise lines, no empty line after a success, text
    // after the move) resigns each game when asked for a move; nothing else goes wrong.
    let dir = scratch("htp");
    let out_file = dir.join("games.csv");
    let out = run_match(&[
        "--engine",
        &format!("htp:{}", fake("htp_resign")),
        "--engine",
        &hnefi(1),
        "--games",
        "2",
        "--out",
        out_file.to_str().expect("path"),
    ]);
    assert!(out.status.success());
    let table = stdout(&out);
    // The reference engine's repetition rule is applied when it plays.
    assert!(
        table.contains("repetition: defender-any-repeat-illegal"),
        "{table}"
    );
    let meta = lines(&dir.join("games.csv.meta"));
    assert_eq!(
        meta,
        ["1,1,2,White,resignation,", "2,2,1,Black,resignation,"]
    );
    let records = lines(&out_file);
    assert_eq!(records[0], ",0,0,White");
    // hnefi, the attackers, moved once before the fake engine resigned.
    let rules = RuleSet {
        repetition: RepetitionMode::DefenderAnyRepeatIllegal,
        ..RuleSet::default()
    };
    let (status, result, plies) = replay(&records[1], rules);
    assert_eq!(
        (status, result.as_str(), plies),
        (Status::Ongoing, "Black", 1)
    );
    let _ = fs::remove_dir_all(&dir);
}

/// The table of a match of `games` games of hnefi against an engine that crashes at once,
/// with an SPRT of 0 against 50 Elo.
fn one_sided_match(games: &str) -> String {
    let out = run_match(&[
        "--engine",
        &hnefi(1),
        "--engine",
        &fake("crash"),
        "--games",
        games,
        "--sprt",
        "0,50,0.05,0.05",
    ]);
    assert!(out.status.success());
    stdout(&out)
}

#[test]
fn sprt_stops_a_one_sided_match() {
    let table = one_sided_match("200");
    assert!(table.contains("H1 accepted"), "{table}");
    let games: usize = table
        .strip_prefix("Match: ")
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("game count");
    assert!(games < 200, "{table}");
}

#[test]
fn game_pairs_are_counted_pentanomially() {
    // Five games: two complete pairs (one opening, sides swapped) and one game alone.
    let table = one_sided_match("5");
    assert!(table.contains("E1 vs E2: 5 / 5"), "{table}");
    assert!(
        table.contains(
            "in 2 game pairs (one opening, sides swapped; E1 scored 0/0.5/1/1.5/2 in 0/0/0/0/2)"
        ),
        "{table}"
    );
    assert!(table.contains("SPRT (pentanomial"), "{table}");
}

#[test]
fn bad_flags_and_files_are_errors_not_panics() {
    let dir = scratch("bad");
    let garbage = dir.join("openings.csv");
    fs::write(&garbage, "not a game\n\u{0}\u{fffd},,,\n").expect("write");
    let e1 = hnefi(1);
    let bad: Vec<Vec<&str>> = vec![
        vec!["--engine", &e1],
        vec!["--engine", &e1, "--engine", "'unterminated"],
        vec!["--engine", &e1, "--engine", &e1, "--tc", "fast"],
        vec!["--engine", &e1, "--engine", &e1, "--tc", "-1+0"],
        vec!["--engine", &e1, "--engine", &e1, "--sprt", "0,10"],
        vec!["--engine", &e1, "--engine", &e1, "--sprt", "10,0,0.05,0.05"],
        vec!["--engine", &e1, "--engine", &e1, "--games", "0"],
        vec![
            "--engine",
            &e1,
            "--engine",
            &e1,
            "--openings",
            "/nonexistent/x.csv",
        ],
        vec![
            "--engine",
            &e1,
            "--engine",
            &e1,
            "--openings",
            garbage.to_str().expect("path"),
        ],
    ];
    for args in bad {
        let out = run_match(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error"),
            "{args:?}"
        );
    }
    // An engine that cannot be started loses its games ("crash"); the match still ends.
    let out = run_match(&[
        "--engine",
        "/nonexistent/engine",
        "--engine",
        &e1,
        "--games",
        "2",
    ]);
    assert!(out.status.success());
    let table = stdout(&out);
    assert!(table.contains("crash"), "{table}");
    let _ = fs::remove_dir_all(&dir);
}

/// Plays hnefi against the reference engine over the TCP relay, if it is installed:
/// `cargo test --release -- --ignored`.
#[test]
#[ignore = "needs hnefatafl-text-protocol on PATH and port 49152 free"]
fn against_the_reference_engine_over_tcp() {
    let dir = scratch("reference");
    let out_file = dir.join("games.csv");
    let out = run_match(&[
        "--engine",
        &hnefi(1),
        "--engine",
        "htp-tcp:hnefatafl-text-protocol --host 127.0.0.1 --ai basic --depth 1",
        "--games",
        "2",
        "--move-limit",
        "40",
        "--out",
        out_file.to_str().expect("path"),
    ]);
    assert!(out.status.success());
    let rules = RuleSet {
        repetition: RepetitionMode::DefenderAnyRepeatIllegal,
        move_limit: Some(40),
        ..RuleSet::default()
    };
    for line in lines(&out_file) {
        let (status, result, _) = replay(&line, rules);
        if status.is_over() {
            assert_eq!(result_of(status), result, "{line}");
        }
    }
    let _ = fs::remove_dir_all(&dir);
}

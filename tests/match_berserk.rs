//! `hnefi match` on OpenTafl's Berserk 11x11 (docs/RULES.md section 17.10,
//! docs/matches.md): hnefi against hnefi with random openings, records in OpenTafl's move
//! notation that replay through the Berserk game, `--resume`; a berserk turn told to an
//! OTEP engine as one `opponent-move` and asked of it move by move; a loss on time
//! recorded and resumed; the flags a Berserk game does not take, refused by name.

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use hnefi::core::berserk_game::BerserkGameOf;
use hnefi::core::geometry::S11;
use hnefi::core::outcome::{Outcome, Status};
use hnefi::core::record::result_word;
use hnefi::core::rules_string::parse_berserk_rules_string;

const BIN: &str = env!("CARGO_BIN_EXE_hnefi");

/// OpenTafl's Berserk 11x11, as OpenTafl writes it.
const BERSERK: &str = "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c start:/3ttttt3/5c5/11/t4T4t/t3NTT3t/tc1TTKTT1ct/t3TTT3t/t4T4t/11/5c5/3ttttt3/";

/// Berserk's rules from a start (rank 1 first) where the defenders' knight on c3 takes
/// c4 by jumping to c5 and must move again, taking c6 by jumping to c7: the king is on
/// the throne among attackers (none a commander, so four of them take him there), with
/// no square to go to, and the knight is the defenders' only other piece.
const TURN: &str = "dim:11 name:Berserk surf:n atkf:n tfr:l kj:r ber:c start:/11/11/2N8/2t2t5/5t5/2tttKtt3/5t5/5t5/11/11/11/";

fn run_match(args: &[&str]) -> Output {
    let out = common::output_of(
        Command::new(BIN).arg("match").args(args),
        &format!("hnefi match {}", args.join(" ")),
    );
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    out
}

fn stderr(out: &Output) -> String {
    common::text(&out.stderr)
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .expect("read output file")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Replays a records line of a Berserk match from the start of `rules`' game: its moves
/// (OpenTafl's records, captures checked) and a final `timeout`; the line's result must
/// be the rules' when they ended the game. Returns the game and whether it ended on time.
fn replay(line: &str, rules: &str) -> (BerserkGameOf<S11>, bool) {
    let variant = parse_berserk_rules_string(rules).expect("a Berserk string");
    let fields: Vec<&str> = line.split(',').collect();
    let [moves, _, _, result] = fields.as_slice() else {
        panic!("not four fields: {line}");
    };
    let (moves, timeout) = match moves.strip_suffix("timeout") {
        Some(rest) => (rest.trim_end(), true),
        None => (*moves, false),
    };
    let game = BerserkGameOf::<S11>::from_record(&variant, moves)
        .unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(game.moves_field(), moves, "every capture listed: {line}");
    if !timeout {
        let Status::Over(Outcome { winner, .. }) = game.status() else {
            panic!("unfinished: {line}");
        };
        assert_eq!(
            *result,
            result_word(Some(Outcome { winner, reason: () })),
            "{line}"
        );
    }
    (game, timeout)
}

#[test]
fn hnefi_against_hnefi_plays_berserk_and_resumes() {
    let dir = common::scratch("match-berserk", "resume");
    let out_file = dir.join("games.csv");
    let out_path = out_file.display().to_string();
    let (e1, e2) = (format!("'{BIN}' --depth 1"), format!("'{BIN}' --depth 2"));
    let args = |games: &'static str| {
        vec![
            "--engine",
            &e1,
            "--engine",
            &e2,
            "--rules",
            BERSERK,
            "--games",
            games,
            "--opening-plies",
            "2",
            "--out",
            &out_path,
        ]
    };
    let out = run_match(&args("2"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records = lines(&out_file);
    assert_eq!(records.len(), 2);
    for r in &records {
        let (game, timeout) = replay(r, BERSERK);
        assert!(!timeout && game.plies().len() > 2, "{r}");
    }
    // The two games of the pair start from the same random opening (a turn's end).
    let opening = |r: &String| r.split(' ').take(2).collect::<Vec<_>>().join(" ");
    assert_eq!(opening(&records[0]), opening(&records[1]));
    let meta = lines(&dir.join("games.csv.meta"));
    assert!(
        meta.iter().any(|l| l
            == &format!(
                "# rules: {BERSERK}; repetition: third-occurrence-mover-wins; move limit: none"
            )),
        "{meta:?}"
    );
    // Two more games: the first two replay, and stay as they were.
    let mut more = args("4");
    more.push("--resume");
    let out = run_match(&more);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let after = lines(&out_file);
    assert_eq!(after.len(), 4);
    assert_eq!(after[..2], records[..]);
    for r in &after {
        replay(r, BERSERK);
    }
    // A record whose result the rules contradict does not resume.
    let flipped = after
        .iter()
        .map(|l| {
            if l.ends_with(",White") {
                l.replace(",White", ",Black")
            } else {
                l.replace(",Black", ",White")
            }
        })
        .map(|l| l + "\n")
        .collect::<String>();
    fs::write(&out_file, flipped).expect("write");
    let out = run_match(&more);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 1 of") && stderr(&out).contains("does not replay"),
        "{}",
        stderr(&out)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_berserk_turn_is_one_opponent_move_for_an_otep_engine() {
    let dir = common::scratch("match-berserk", "otep");
    let out_file = dir.join("games.csv");
    let otep = format!("otep:'{BIN}' --otep --depth 2");
    let out = run_match(&[
        "--engine",
        &format!("'{BIN}' --depth 2"),
        "--engine",
        &otep,
        "--rules",
        TURN,
        "--games",
        "2",
        "--opening-plies",
        "0",
        "--debug",
        "--out",
        out_file.to_str().expect("path"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let records = lines(&out_file);
    assert_eq!(records.len(), 2);
    for r in &records {
        assert!(r.starts_with("Nc3^c5xc4 Nc5^=c7xc6 "), "{r}");
        replay(r, TURN);
    }
    // Game 2: E1 (hnefi's protocol) defends and the OTEP engine hears the whole turn.
    assert!(
        err.contains("E2> opponent-move c3-c5|c5-c7 /11/11/11/5t5/5t5/3ttKtt3/2N2t5/5t5/11/11/11/"),
        "{err}"
    );
    // Game 1: the OTEP engine defends and is asked for each move of its turn, with no
    // opponent-move between; E1 hears each as a play.
    let traffic: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("E2") || l.starts_with("E1> play"))
        .collect();
    let at = traffic
        .iter()
        .position(|l| *l == "E2< move c3-c5")
        .expect("the knight's first jump");
    let next = traffic[at + 1..]
        .iter()
        .position(|l| *l == "E2< move c5-c7")
        .expect("the knight's second jump")
        + at
        + 1;
    let between = &traffic[at + 1..next];
    assert!(
        between.contains(&"E2> play defenders")
            && !between.iter().any(|l| l.contains("opponent-move")),
        "{between:?}"
    );
    assert!(err.contains("E1> play defender c3 c5\n") && err.contains("E1> play defender c5 c7\n"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_loss_on_time_in_berserk_is_recorded_and_resumes() {
    let dir = common::scratch("match-berserk", "time");
    let out_file = dir.join("games.csv");
    let out_path = out_file.display().to_string();
    let hang = format!(
        "bash '{}'",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/fake_engines/hang.sh")
            .display()
    );
    let e2 = format!("'{BIN}' --depth 1");
    let args = [
        "--engine",
        &hang,
        "--engine",
        &e2,
        "--rules",
        BERSERK,
        "--games",
        "2",
        "--movetime-ms",
        "50",
        "--time-margin-ms",
        "300",
        "--opening-plies",
        "2",
        "--out",
        &out_path,
    ];
    let out = run_match(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records = lines(&out_file);
    assert_eq!(records.len(), 2);
    // Game 1: E1 attacks and loses on time at its first move, after the opening and the
    // defenders' move; game 2: E1 defends and loses at once.
    for (r, plies, result) in [(&records[0], 3, "White"), (&records[1], 2, "Black")] {
        let (game, timeout) = replay(r, BERSERK);
        assert!(
            timeout && r.ends_with(&format!(" timeout,0,0,{result}")),
            "{r}"
        );
        assert_eq!(game.plies().len(), plies, "{r}");
    }
    let mut again = args.to_vec();
    again.push("--resume");
    let out = run_match(&again);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(lines(&out_file), records);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn flags_a_berserk_game_does_not_take_are_refused_by_name() {
    let dir = common::scratch("match-berserk", "refused");
    let openings = dir.join("openings.csv");
    fs::write(&openings, "Ne5-d5 a4-a3,0,0,Ongoing\n").expect("write");
    let e1 = format!("'{BIN}' --depth 1");
    let openings = openings.display().to_string();
    for (extra, needle) in [
        (
            vec!["--move-limit", "80"],
            "--move-limit is not played in a Berserk game (Berserk 11x11)",
        ),
        (
            vec!["--repetition", "third-occurrence-draws"],
            "--repetition is not played in a Berserk game",
        ),
        (
            vec!["--openings", &openings],
            "--openings is not played in a Berserk game",
        ),
        (
            vec!["--board-size", "13"],
            "is played on 11x11 only, not on 13x13",
        ),
        (
            vec!["--engine", "uci:true", "--movetime-ms", "50"],
            "E3 (uci:true) speaks the uci dialect, which cannot be told an OpenTafl rules string",
        ),
    ] {
        let out_file = dir.join("games.csv");
        let mut args = vec![
            "--engine",
            &e1,
            "--engine",
            &e1,
            "--rules",
            BERSERK,
            "--out",
            out_file.to_str().expect("path"),
        ];
        args.extend(extra);
        let out = run_match(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(needle),
            "{needle:?} not in {}",
            stderr(&out)
        );
        assert!(!out_file.exists(), "{args:?} wrote records");
    }
    let _ = fs::remove_dir_all(&dir);
}

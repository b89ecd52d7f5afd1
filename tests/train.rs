//! The learned evaluation's data path end to end: `hnefi selfplay` writes samples,
//! `hnefi train` fits a network to them, and the engine plays with it (`--net`).

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{run_binary, text};

fn scratch(name: &str) -> PathBuf {
    common::scratch("train", name)
}

/// Runs `hnefi train` on `samples` for two epochs (every third sample held out), writing
/// `net`; checks that it succeeds and returns its output.
fn train_briefly(samples: &Path, net: &Path) -> std::process::Output {
    let (samples, net) = (samples.to_str().expect("path"), net.to_str().expect("path"));
    let out = run_binary(
        &[
            "train",
            samples,
            "--epochs",
            "2",
            "--holdout-every",
            "3",
            "--out",
            net,
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

#[test]
fn selfplay_train_and_play_with_the_network() {
    let dir = scratch("path");
    let samples = dir.join("samples.txt");
    let net = dir.join("net.nnue");
    let path = |p: &PathBuf| p.to_str().expect("path").to_string();
    let out = run_binary(
        &[
            "selfplay",
            "--games",
            "6",
            "--nodes",
            "300",
            "--seed",
            "5",
            "--out",
            &path(&samples),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = train_briefly(&samples, &net);
    let report = text(&out.stdout);
    for line in [
        "K = ",
        "loss without the network",
        "epoch 2:",
        "integer network",
    ] {
        assert!(report.contains(line), "{report}");
    }
    let bytes = fs::read(&net).expect("network written");
    assert!(hnefi::search::network::Network::from_bytes(&bytes).is_ok());
    // The next data can come from play with the network.
    let again = dir.join("again.txt");
    let out = run_binary(
        &[
            "selfplay",
            "--games",
            "2",
            "--nodes",
            "300",
            "--net",
            &path(&net),
            "--out",
            &path(&again),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!fs::read_to_string(&again).expect("samples").is_empty());
    let out = run_binary(&["--net", &path(&net), "--depth", "2"], b"generate_move\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("= play attacker "),
        "{}",
        text(&out.stdout)
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn files_that_are_no_network_are_refused_with_a_reason() {
    let dir = scratch("bad");
    let not_a_net = dir.join("samples.txt");
    fs::write(&not_a_net, "not a network\n").expect("write");
    let missing = dir.join("missing.nnue");
    for (file, reason) in [
        (&not_a_net, "does not start with HNEFINN2"),
        (&missing, "cannot read the network"),
    ] {
        let out = run_binary(&["--net", file.to_str().expect("path")], b"generate_move\n");
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert!(text(&out.stderr).contains(reason), "{}", text(&out.stderr));
    }
    // A missing file, and a file whose first line is no sample.
    for (data, reason) in [(&missing, "cannot read"), (&not_a_net, "line 1")] {
        let out = run_binary(
            &[
                "train",
                data.to_str().expect("path"),
                "--out",
                dir.join("x").to_str().expect("path"),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(reason), "{}", text(&out.stderr));
    }
    let _ = fs::remove_dir_all(&dir);
}

/// Without `--net` the engine plays with its own network (the file in docs/nets it is
/// built with), and `--net none` with the hand-written terms alone.
#[test]
fn the_engine_plays_with_its_own_network_unless_told_none() {
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join(hnefi::search::network::EMBEDDED_FILE);
    let own = own.to_str().expect("the network's path is UTF-8");
    let analyze = |flags: &[&str]| {
        let mut args = vec!["--depth", "3"];
        args.extend_from_slice(flags);
        let out = run_binary(&args, b"analyze\n");
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let default = analyze(&[]);
    assert!(default.starts_with("= move "), "{default}");
    assert_eq!(analyze(&["--net", own]), default);
    assert_ne!(analyze(&["--net", "none"]), default);
}

/// Another game's data path: self-play on the hnefatafl.org 7x7 board writes samples that
/// name their game, and the trainer fits a 7x7 network to them; samples of two games in
/// one fit are refused.
#[test]
fn selfplay_and_train_on_seven_by_seven() {
    let dir = scratch("seven");
    let samples = dir.join("samples.txt");
    let net = dir.join("net7.nnue");
    let path = |p: &PathBuf| p.to_str().expect("path").to_string();
    let out = run_binary(
        &[
            "selfplay",
            "--rules",
            "hnefatafl-org",
            "--board-size",
            "7",
            "--games",
            "6",
            "--nodes",
            "300",
            "--move-limit",
            "80",
            "--seed",
            "5",
            "--out",
            &path(&samples),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = fs::read_to_string(&samples).expect("samples");
    assert!(
        lines.lines().all(|l| l.ends_with(" hnefatafl-org 7")),
        "{lines}"
    );
    train_briefly(&samples, &net);
    let bytes = fs::read(&net).expect("network written");
    type S7 = hnefi::core::geometry::S7;
    assert!(hnefi::search::network::NetworkOf::<S7>::from_bytes(&bytes).is_ok());
    assert!(hnefi::search::network::Network::from_bytes(&bytes).is_err());
    // Samples of two games in one fit.
    let eleven = dir.join("eleven.txt");
    fs::write(
        &eleven,
        "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/ attacker draw -3 9\n",
    )
    .expect("write");
    let out = run_binary(
        &[
            "train",
            &path(&samples),
            &path(&eleven),
            "--out",
            &path(&net),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("copenhagen 11x11") && err.contains("hnefatafl-org 7x7"),
        "{err}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// On 7x7 the engine plays with its own 7x7 network (docs/nets/s23-h7.nnue, built in)
/// unless told `--net none` or `set_option net none`; `set_option net` refuses a file for
/// a board hnefi does not play and changes nothing.
#[test]
fn seven_by_seven_plays_with_its_own_network_unless_told_none() {
    let own = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/nets/s23-h7.nnue");
    let game = "set_rule rules hnefatafl-org\nboard_size 7\n";
    let analyze = |flags: &[&str], commands: &str| {
        let mut args = vec!["--depth", "4"];
        args.extend_from_slice(flags);
        let out = run_binary(&args, format!("{game}{commands}analyze\n").as_bytes());
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let default = analyze(&[], "");
    assert!(default.contains("= move "), "{default}");
    assert_eq!(analyze(&["--net", own], ""), default);
    assert_ne!(analyze(&["--net", "none"], ""), default);
    assert_eq!(
        analyze(&[], "set_option net none\n"),
        analyze(&["--net", "none"], "set_option net none\n")
    );
    let dir = scratch("eight");
    let eight = dir.join("eight.nnue");
    let mut bytes = fs::read(own).expect("own network");
    bytes[8..12].copy_from_slice(&8u32.to_le_bytes());
    fs::write(&eight, bytes).expect("write");
    let refused = analyze(&[], &format!("set_option net {}\n", eight.display()));
    assert!(
        refused.contains("? argument 2 (VALUE): the network ")
            && refused.contains("is for a 8x8 board; hnefi plays 7x7"),
        "{refused}"
    );
    // The analysis after the refusal is the built-in network's.
    let last = |t: &str| t.trim_end().rsplit("\n\n").next().unwrap_or("").to_string();
    assert_eq!(last(&refused), last(&default), "{refused}");
    let _ = fs::remove_dir_all(&dir);
}

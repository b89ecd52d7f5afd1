//! The sample files at scale: `hnefi selfplay --format bin` writes the same samples as
//! its text, `hnefi train` fits the same network to either, `hnefi merge` renumbers,
//! deduplicates and refuses shards of two games, and a damaged binary file is an error
//! with a reason, never a panic.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{run_binary, text};
use hnefi::core::geometry::{Geometry, S7, S11};
use hnefi::core::rng::SplitMix64;
use hnefi::tune::merge::{GAMES, MergeError, merge};
use hnefi::tune::sample::SampleOf;
use hnefi::tune::sample_file::{SampleFile, SampleFileError};

fn scratch(name: &str) -> PathBuf {
    common::scratch("samples", name)
}

fn path(p: &Path) -> String {
    p.to_str().expect("path").to_string()
}

/// `hnefi selfplay` with `extra` flags, 4 games of seed 5, into `out`.
fn selfplay(extra: &[&str], out: &Path) {
    let out = path(out);
    let mut args = vec![
        "selfplay", "--games", "4", "--nodes", "300", "--seed", "5", "--out", &out,
    ];
    args.extend_from_slice(extra);
    let done = run_binary(&args, b"");
    assert!(done.status.success(), "{}", text(&done.stderr));
}

fn samples<G: Geometry>(file: &Path) -> Result<Vec<SampleOf<G>>, SampleFileError> {
    SampleFile::open(file)?.samples::<G>().collect()
}

/// Text and binary self-play of one seed: the same samples, a third of the bytes or
/// less, and the same network trained on either.
fn text_and_binary_agree<G: Geometry>(dir: &Path, game: &[&str], train_too: bool) {
    let (txt, bin) = (dir.join("s.txt"), dir.join("s.bin"));
    selfplay(game, &txt);
    let mut flags = game.to_vec();
    flags.extend_from_slice(&["--format", "bin"]);
    selfplay(&flags, &bin);
    let (a, b) = (samples::<G>(&txt).unwrap(), samples::<G>(&bin).unwrap());
    assert!(!a.is_empty());
    assert_eq!(a, b);
    let (lt, lb) = (
        fs::metadata(&txt).unwrap().len(),
        fs::metadata(&bin).unwrap().len(),
    );
    assert!(lb * 2 < lt, "{lb} bytes of binary against {lt} of text");
    if !train_too {
        return;
    }
    let (nt, nb) = (dir.join("t.nnue"), dir.join("b.nnue"));
    for (data, net) in [(&txt, &nt), (&bin, &nb)] {
        let done = run_binary(
            &[
                "train",
                &path(data),
                "--epochs",
                "2",
                "--holdout-every",
                "3",
                "--out",
                &path(net),
            ],
            b"",
        );
        assert!(done.status.success(), "{}", text(&done.stderr));
    }
    assert_eq!(fs::read(&nt).unwrap(), fs::read(&nb).unwrap());
}

#[test]
fn binary_samples_round_trip_and_train_the_same_network() {
    let dir = scratch("eleven");
    text_and_binary_agree::<S11>(&dir, &[], true);
    let _ = fs::remove_dir_all(&dir);
    let dir = scratch("seven");
    text_and_binary_agree::<S7>(
        &dir,
        &[
            "--rules",
            "hnefatafl-org",
            "--board-size",
            "7",
            "--move-limit",
            "80",
        ],
        true,
    );
    let _ = fs::remove_dir_all(&dir);
    let dir = scratch("thirteen");
    text_and_binary_agree::<hnefi::core::geometry::S13>(
        &dir,
        &[
            "--rules",
            "sea-battle",
            "--board-size",
            "13",
            "--move-limit",
            "40",
        ],
        false,
    );
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn merge_renumbers_deduplicates_and_refuses_two_games() {
    let dir = scratch("merge");
    let (a, b, seven) = (dir.join("a.txt"), dir.join("b.bin"), dir.join("7.txt"));
    selfplay(&[], &a);
    // Another seed, in binary; then the first shard again, every sample a duplicate.
    let out = path(&b);
    let done = run_binary(
        &[
            "selfplay", "--games", "4", "--nodes", "300", "--seed", "6", "--format", "bin",
            "--out", &out,
        ],
        b"",
    );
    assert!(done.status.success(), "{}", text(&done.stderr));
    let merged = dir.join("m.bin");
    let shards = [a.clone(), b.clone(), a.clone()];
    let m = merge(&shards, &merged).unwrap();
    let (sa, sb) = (samples::<S11>(&a).unwrap(), samples::<S11>(&b).unwrap());
    let kept = samples::<S11>(&merged).unwrap();
    assert_eq!(m.read, (2 * sa.len() + sb.len()) as u64);
    assert_eq!(m.kept, kept.len() as u64);
    assert_eq!(m.read, m.kept + m.duplicates);
    assert!(m.duplicates >= sa.len() as u64);
    // Each position once, the first kept with its own result and score, the games of
    // shard k numbered from k * 2^20.
    let mut hashes: Vec<u64> = kept.iter().map(|s| s.position.hash()).collect();
    hashes.sort_unstable();
    hashes.dedup();
    assert_eq!(hashes.len(), kept.len());
    let first_of_a = sa.first().unwrap();
    assert_eq!(kept.first().unwrap().position, first_of_a.position);
    assert_eq!(kept.first().unwrap().game, first_of_a.game);
    assert!(kept.iter().any(|s| s.game >= GAMES && s.game < 2 * GAMES));
    assert!(kept.iter().all(|s| s.game < 2 * GAMES));
    for s in &kept {
        let shard = if s.game >= GAMES { &sb } else { &sa };
        let original = shard
            .iter()
            .find(|o| o.position == s.position && o.game == s.game % GAMES)
            .expect("a kept sample is one of its shard's");
        assert_eq!((original.result, original.score), (s.result, s.score));
    }
    // The command says what it did.
    let done = run_binary(&["merge", &path(&merged), &path(&a), &path(&b)], b"");
    assert!(done.status.success(), "{}", text(&done.stderr));
    let report = text(&done.stdout);
    assert!(
        report.contains("samples read") && report.contains("duplicates"),
        "{report}"
    );
    // A shard of another game: refused by name, nothing left written.
    selfplay(&["--rules", "brandubh", "--move-limit", "60"], &seven);
    let refused = dir.join("refused.bin");
    match merge(&[a.clone(), seven.clone()], &refused) {
        Err(MergeError::Read(SampleFileError::Mixed {
            place,
            first,
            other,
        })) => {
            assert!(place.contains("7.txt"), "{place}");
            assert!(first.contains("copenhagen 11x11") && other.contains("brandubh 7x7"));
        }
        other => panic!("{other:?}"),
    }
    assert!(!refused.exists());
    let done = run_binary(&["merge", &path(&refused), &path(&a), &path(&seven)], b"");
    assert_eq!(done.status.code(), Some(2));
    assert!(text(&done.stderr).contains("brandubh 7x7"));
    // A merged file is no shard: its game numbers are beyond a shard's.
    let again = dir.join("again.bin");
    assert!(matches!(
        merge(&[merged.clone(), merged.clone()], &again),
        Err(MergeError::Game { .. })
    ));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn damaged_binary_files_are_errors_never_panics() {
    let dir = scratch("damaged");
    let bin = dir.join("s.bin");
    selfplay(&["--format", "bin"], &bin);
    let good = fs::read(&bin).unwrap();
    let count = samples::<S11>(&bin).unwrap().len();
    // Cut short: the header's count no longer matches, and the error says so.
    let cut = dir.join("cut.bin");
    fs::write(&cut, good.get(..good.len() - 5).unwrap()).unwrap();
    let e = samples::<S11>(&cut).unwrap_err().to_string();
    assert!(e.contains("cut.bin") && e.contains("truncated"), "{e}");
    let done = run_binary(&["train", &path(&cut), "--out", &path(&dir.join("n"))], b"");
    assert_eq!(done.status.code(), Some(2));
    assert!(text(&done.stderr).contains("truncated"));
    assert!(count > 0);
    // Random damage anywhere: an error or samples, never a panic.
    let mut rng = SplitMix64::new(11);
    let damaged = dir.join("damaged.bin");
    for round in 0..300 {
        let mut bytes = good.clone();
        for _ in 0..1 + rng.below(6) {
            let i = if round % 2 == 0 {
                rng.below(24)
            } else {
                rng.below(bytes.len())
            };
            if let Some(b) = bytes.get_mut(i) {
                *b = (rng.next_u64() & 0xFF) as u8;
            }
        }
        if round % 5 == 0 {
            bytes.truncate(rng.below(bytes.len()));
        }
        fs::write(&damaged, &bytes).unwrap();
        let _ = samples::<S11>(&damaged);
        let _ = samples::<S7>(&damaged);
    }
    // Bytes that are neither format.
    fs::write(&damaged, [0xFFu8, 0xFE, 0x00, 0x80]).unwrap();
    let e = samples::<S11>(&damaged).unwrap_err().to_string();
    assert!(e.contains("neither a binary sample file nor text"), "{e}");
    let _ = fs::remove_dir_all(&dir);
}
